//! Property tests over thousands of random fault schedules.
//!
//! - A fenced resource never accepts a token lower than one it has accepted, in every design.
//! - The checker's verdict agrees with a simple oracle computed independently from the trace.
//! - Every run stays within its limits or stops at one, and the same input gives the same run.
//! - Without a lock, the checker finds exactly the updates lost to a stale read, and a
//!   conditional store loses none.
//!
//! Two generators: a lease or Redis lock over three clients with random faults, and random
//! variants of every lesson (so every design) with clock drift, loss, renewals, promotion,
//! crashes and tight limits. Failing cases are kept in `tests/properties.proptest-regressions`
//! and replayed first on every run.

#![cfg(not(target_arch = "wasm32"))]

use lockstep::engine::msg::Msg;
use lockstep::engine::{self, EventKind, FindingKind, Trace};
use lockstep::scenario::{lessons, load};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{FileFailurePersistence, RngSeed};
use serde_json::{json, Value};

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("proptest-regressions"))),
        // The same cases on every run, so the test command's verdict does not depend on luck;
        // set PROPTEST_RNG_SEED to explore others.
        rng_seed: RngSeed::Fixed(std::env::var("PROPTEST_RNG_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(2026)),
        ..ProptestConfig::default()
    }
}

#[derive(Debug, Clone)]
struct Schedule {
    /// Run on a single Redis with an INCR token instead of the lease lock.
    redis: bool,
    seed: u64,
    ttl_ms: u64,
    fenced: bool,
    latency: (u64, u64),
    starts: [u64; 3],
    works: [u64; 3],
    pauses: Vec<(usize, u64, u64)>,
    jump: Option<(u64, i64)>,
    delay: Option<(usize, u64, u64)>,
    partition: Option<(usize, u64, u64)>,
    crash: Option<(usize, u64, u64)>,
}

fn schedule() -> impl Strategy<Value = Schedule> {
    (
        (any::<u64>(), 100u64..1500, any::<bool>(), (0u64..20, 0u64..40)),
        (prop::array::uniform3(0u64..2000), prop::array::uniform3(0u64..800)),
        prop::collection::vec((0usize..3, 0u64..3000, 0u64..3000), 0..3),
        prop::option::of((0u64..2000, -1500i64..3000)),
        prop::option::of((0usize..3, 0u64..2000, 0u64..2500)),
        prop::option::of((0usize..3, 0u64..2000, 0u64..2500)),
        prop::option::of((0usize..3, 0u64..2000, 0u64..2000)),
    )
        .prop_map(|((seed, ttl_ms, fenced, (lo, extra)), (starts, works), pauses, jump, delay, partition, crash)| Schedule {
            redis: false,
            seed,
            ttl_ms,
            fenced,
            latency: (lo, lo + extra),
            starts,
            works,
            pauses,
            jump,
            delay,
            partition,
            crash,
        })
}

const CLIENTS: [&str; 3] = ["A", "B", "C"];

fn scenario(s: &Schedule) -> String {
    let mut participants = vec![json!({"role": "lock_service", "id": "L", "name": "Lock"})];
    participants.push(json!({"role": "resource", "id": "R", "name": "Resource", "mode": if s.fenced { "fenced" } else { "unfenced" }}));
    for (i, id) in CLIENTS.iter().enumerate() {
        participants.push(json!({
            "role": "client", "id": id, "name": id, "start_ms": s.starts[i],
            "acquire": {"retry_ms": 50, "jitter_ms": 50, "max_attempts": 40, "timeout_ms": 300},
            "script": [
                {"step": "acquire"}, {"step": "work", "ms": s.works[i]},
                {"step": "write", "value": id}, {"step": "work", "ms": 20},
                {"step": "write", "value": id}, {"step": "release", "mode": "safe"}
            ]
        }));
    }
    let mut faults: Vec<serde_json::Value> =
        s.pauses.iter().map(|(c, at, len)| json!({"fault": "pause", "at_ms": at, "node": CLIENTS[*c], "for_ms": len})).collect();
    if let Some((at, by)) = s.jump {
        faults.push(json!({"fault": "clock_jump", "at_ms": at, "node": "L", "by_ms": by}));
    }
    if let Some((c, at, len)) = s.delay {
        faults.push(json!({"fault": "delay", "at_ms": at, "from": CLIENTS[c], "to": "R", "extra_ms": len, "for_ms": 500}));
    }
    if let Some((c, at, len)) = s.partition {
        faults.push(json!({"fault": "partition", "at_ms": at, "from": [CLIENTS[c]], "to": ["L", "R"], "for_ms": len}));
    }
    if let Some((c, at, len)) = s.crash {
        faults.push(json!({"fault": "crash", "at_ms": at, "node": CLIENTS[c]}));
        faults.push(json!({"fault": "restart", "at_ms": at + len, "node": CLIENTS[c], "keep_state": false}));
    }
    json!({
        "version": 1, "seed": s.seed,
        "lock": if s.redis {
            json!({"design": "redis", "ttl_ms": s.ttl_ms, "incr_token": true})
        } else {
            json!({"design": "lease", "ttl_ms": s.ttl_ms, "first_token": 1})
        },
        "network": {"latency_ms": {"min_ms": s.latency.0, "max_ms": s.latency.1}},
        "participants": participants, "faults": faults
    })
    .to_string()
}

/// The same clients with no lock at all: each reads, works and writes back, on a store that
/// either checks the version read (`fenced` here means conditional) or takes every write.
fn lock_free_scenario(s: &Schedule) -> String {
    let mut participants =
        vec![json!({"role": "resource", "id": "R", "name": "Store", "mode": if s.fenced { "conditional" } else { "unfenced" }})];
    for (i, id) in CLIENTS.iter().enumerate() {
        participants.push(json!({
            "role": "client", "id": id, "name": id, "start_ms": s.starts[i],
            "script": [{"step": "read"}, {"step": "work", "ms": s.works[i]}, {"step": "write", "value": id}]
        }));
    }
    let mut faults: Vec<serde_json::Value> =
        s.pauses.iter().map(|(c, at, len)| json!({"fault": "pause", "at_ms": at, "node": CLIENTS[*c], "for_ms": len})).collect();
    if let Some((c, at, len)) = s.delay {
        faults.push(json!({"fault": "delay", "at_ms": at, "from": CLIENTS[c], "to": "R", "extra_ms": len, "for_ms": 500}));
    }
    json!({
        "version": 1, "seed": s.seed, "lock": {"design": "none"},
        "network": {"latency_ms": {"min_ms": s.latency.0, "max_ms": s.latency.1}},
        "participants": participants, "faults": faults
    })
    .to_string()
}

/// Counts, from the writers' side rather than the store's, the accepted writes based on an
/// older version than the one they replaced (a write whose read timed out is based on nothing).
fn oracle_lost_updates(t: &Trace) -> usize {
    let mut based_on = std::collections::BTreeMap::new();
    let mut lost = 0;
    for e in &t.events {
        match &e.kind {
            EventKind::Send { msg: Msg::Write { expected_version, .. }, .. } => {
                based_on.insert(e.node, *expected_version);
            }
            EventKind::WriteAccepted { writer, version, .. } => {
                lost += usize::from(based_on.get(writer).copied().flatten().is_some_and(|r| r + 1 < *version));
            }
            _ => {}
        }
    }
    lost
}

fn run(s: &Schedule) -> Trace {
    let (_, spec) = load(&scenario(s)).expect("generated scenarios are valid");
    engine::run(&spec).expect("generated runs stay within limits")
}

/// Puts a generated run in words, for a failure message.
fn text(s: &Schedule, t: &Trace) -> String {
    let (scenario, _) = load(&scenario(s)).expect("generated scenarios are valid");
    lockstep::present::Words::new(t, &*scenario.lock.design).to_text()
}

/// Says independently whether the data came to harm: an accepted write that came after a write
/// under a higher token without having read it (the generated clients write blind), or one based
/// on a version the data had since moved past. (A stale holder's write alone is no harm.)
fn oracle_unsafe(t: &Trace) -> bool {
    let ev = &t.events;
    let mut based_on: std::collections::BTreeMap<usize, Option<u64>> = std::collections::BTreeMap::new();
    let mut highest: Option<u64> = None;
    ev.iter().any(|e| match &e.kind {
        EventKind::Send { msg: Msg::Write { expected_version, .. }, .. } => {
            based_on.insert(e.node.0, *expected_version);
            false
        }
        EventKind::WriteAccepted { writer, token, version, .. } => {
            let read = based_on.get(&writer.0).copied().flatten();
            let harm = match read {
                Some(r) => r + 1 < *version,
                None => highest.is_some_and(|h| h > *token),
            };
            highest = highest.max(Some(*token));
            harm
        }
        _ => false,
    })
}

fn accepted_tokens(t: &Trace) -> Vec<u64> {
    t.events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::WriteAccepted { token, .. } => Some(token),
            _ => None,
        })
        .collect()
}

proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn without_a_lock_the_checker_finds_exactly_the_lost_updates(s in schedule()) {
        let (_, spec) = load(&lock_free_scenario(&s)).expect("generated scenarios are valid");
        let t = engine::run(&spec).expect("generated runs stay within limits");
        let found = t.verdict.findings.iter().filter(|f| f.kind() == FindingKind::LostUpdate).count();
        prop_assert_eq!(found, oracle_lost_updates(&t));
        prop_assert_eq!(t.verdict.safe, found == 0);
        if s.fenced {
            prop_assert_eq!(found, 0, "a conditional store never loses an update");
        }
    }

    #[test]
    fn fenced_resource_never_accepts_a_lower_token(mut s in schedule()) {
        s.fenced = true;
        let tokens = accepted_tokens(&run(&s));
        prop_assert!(tokens.windows(2).all(|w| w[0] <= w[1]), "accepted tokens went down: {:?}", tokens);
    }

    #[test]
    fn fenced_resource_never_accepts_a_lower_redis_incr_token(mut s in schedule()) {
        (s.fenced, s.redis) = (true, true);
        let tokens = accepted_tokens(&run(&s));
        prop_assert!(tokens.windows(2).all(|w| w[0] <= w[1]), "accepted tokens went down: {:?}", tokens);
    }

    #[test]
    fn checker_agrees_with_the_oracle(s in schedule()) {
        let t = run(&s);
        prop_assert_eq!(!t.verdict.safe, oracle_unsafe(&t), "{}", text(&s, &t));
    }
}

#[test]
fn the_oracle_is_not_vacuous() {
    // Random schedules include both verdicts, so agreement above means something.
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut safe, mut unsafe_) = (0, 0);
    for _ in 0..400 {
        let s = schedule().new_tree(&mut runner).unwrap().current();
        if oracle_unsafe(&run(&s)) {
            unsafe_ += 1
        } else {
            safe += 1
        }
    }
    assert!(safe > 20 && unsafe_ > 20, "safe {safe}, unsafe {unsafe_}");
}

#[test]
fn a_search_over_pause_lengths_finds_the_unfenced_redis_violation() {
    let base: serde_json::Value = serde_json::from_str(lockstep::scenario::lessons::find("redis-value-not-token").unwrap().source).unwrap();
    let unsafe_pauses: Vec<u64> = (0..=3_000u64)
        .step_by(50)
        .filter(|&pause| {
            let mut v = base.clone();
            v["faults"][0]["for_ms"] = pause.into();
            let (_, spec) = load(&v.to_string()).unwrap();
            !engine::run(&spec).unwrap().verdict.safe
        })
        .collect();
    // A pauses at 50 ms holding a key that expires at 1,005 ms; its write takes 5 ms to arrive.
    // From a 950 ms pause on, the write lands once the key is gone: stale, but harmless while B
    // has not written. From 1,150 ms on it lands after B's write and erases it.
    assert_eq!(unsafe_pauses.first(), Some(&1_150), "{unsafe_pauses:?}");
    let stale_only = |pause: u64| {
        let mut v = base.clone();
        v["faults"][0]["for_ms"] = pause.into();
        let t = engine::run(&load(&v.to_string()).unwrap().1).unwrap();
        t.verdict.safe && t.verdict.of(FindingKind::StaleWriteAccepted).count() == 1
    };
    assert!(stale_only(950) && stale_only(1_100), "stale writes let in before B's, no harm");
    assert!(unsafe_pauses.windows(2).all(|w| w[1] - w[0] == 50), "every longer pause is unsafe too");
}

#[test]
fn a_search_over_pause_lengths_finds_the_redlock_violation() {
    let base: serde_json::Value = serde_json::from_str(lockstep::scenario::lessons::find("redlock-pause").unwrap().source).unwrap();
    let verdicts: Vec<(u64, bool)> = (0..=2_000u64)
        .step_by(100)
        .map(|pause| {
            let mut v = base.clone();
            v["faults"][0]["for_ms"] = pause.into();
            let (_, spec) = load(&v.to_string()).unwrap();
            (pause, engine::run(&spec).unwrap().verdict.safe)
        })
        .collect();
    let first_unsafe = verdicts.iter().find(|v| !v.1).map(|v| v.0);
    // Client 1 pauses at 100 ms; its five keys expire at 1,005, 1,015, … 1,045 ms, so it loses the
    // majority at 1,025 ms, and from a 1,000 ms pause its write is stale. It harms the data only
    // once it lands after Client 2's write: from a 1,200 ms pause on.
    assert_eq!(first_unsafe, Some(1_200), "{verdicts:?}");
    assert!(verdicts.iter().all(|&(pause, safe)| safe == (pause < 1_200)), "{verdicts:?}");
}

/// A random change to a lesson. Node choices are indices, taken modulo the lesson's own lists.
#[derive(Debug, Clone)]
struct Variant {
    lesson: usize,
    seed: u64,
    /// Message loss in percent, and latency bounds.
    network: Option<(u8, u64, u64)>,
    /// A participant's clock: (participant, offset ms, drift ppm).
    clock: Option<(usize, i64, i64)>,
    /// Renewal for every client: (every ms, give up on a failure).
    renew: Option<(u64, bool)>,
    /// (kind, node, other node, at ms, span ms).
    faults: Vec<(u8, usize, usize, u64, u64)>,
    /// Tight limits: (max events, max simulated ms).
    limits: Option<(u64, u64)>,
}

/// What a variant needs of each lesson: its text, its design's tag, and whether the design lets
/// a client renew from its script.
struct Base {
    source: &'static str,
    design: &'static str,
    renews: bool,
}

thread_local! {
    static BASES: Vec<Base> = lessons::all()
        .iter()
        .map(|l| Base { source: l.source, design: l.scenario.lock.design.kind().tag(), renews: l.scenario.lock.design.script_renewal().is_ok() })
        .collect();
}

fn base<T>(lesson: usize, f: impl FnOnce(&Base) -> T) -> T {
    BASES.with(|b| f(&b[lesson]))
}

fn variant() -> impl Strategy<Value = Variant> {
    (
        0..BASES.with(Vec::len),
        any::<u64>(),
        prop::option::weighted(0.4, (0u8..40, 0u64..30, 0u64..200)),
        prop::option::weighted(0.4, (0usize..16, -2_000i64..2_000, -500_000i64..=1_000_000)),
        prop::option::weighted(0.3, (100u64..1_500, any::<bool>())),
        prop::collection::vec((0u8..7, 0usize..16, 0usize..16, 0u64..4_000, 1u64..4_000), 0..4),
        prop::option::weighted(0.15, (1u64..400, 1u64..20_000)),
    )
        .prop_map(|(lesson, seed, network, clock, renew, faults, limits)| Variant {
            lesson,
            seed,
            network,
            clock,
            renew,
            faults,
            limits,
        })
}

/// The variant's scenario text. Every fault names nodes of the kind it applies to, so the
/// scenario is valid; renewal goes only to designs that model it.
fn variant_scenario(v: &Variant) -> String {
    let (source, renews) = base(v.lesson, |b| (b.source, b.renews));
    let mut doc: Value = serde_json::from_str(source).expect("lessons are JSON");
    doc["seed"] = json!(v.seed);
    let ids = |role: &str| -> Vec<String> {
        doc["participants"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["role"] == role)
            .map(|p| p["id"].as_str().unwrap().to_string())
            .collect()
    };
    let (clients, services) = (ids("client"), ids("lock_service"));
    let everyone: Vec<String> = doc["participants"].as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap().to_string()).collect();
    if let Some((loss, min, extra)) = v.network {
        doc["network"] = json!({"loss": f64::from(loss) / 100.0, "latency_ms": {"min_ms": min, "max_ms": min + extra}});
    }
    if let Some((who, offset, drift)) = v.clock {
        let n = doc["participants"].as_array().unwrap().len();
        doc["participants"][who % n]["clock"] = json!({"offset_ms": offset, "drift_ppm": drift});
    }
    if let Some((every, abort)) = v.renew {
        if renews {
            for p in doc["participants"].as_array_mut().unwrap().iter_mut().filter(|p| p["role"] == "client") {
                p["renew"] = json!({"every_ms": every, "on_failure": if abort { "abort" } else { "carry_on" }});
            }
        }
    }
    let faults = doc["faults"].as_array_mut().map(std::mem::take).unwrap_or_default();
    let mut faults: Vec<Value> = faults;
    for &(kind, a, b, at, span) in &v.faults {
        let client = &clients[a % clients.len()];
        let fault = match (kind, services.is_empty()) {
            (0, _) => json!({"fault": "pause", "at_ms": at, "node": client, "for_ms": span}),
            (1, _) => json!({"fault": "partition", "at_ms": at, "from": [client], "to": [&everyone[b % everyone.len()]], "for_ms": span}),
            (2, _) => {
                json!({"fault": "delay", "at_ms": at, "from": client, "to": &everyone[b % everyone.len()], "extra_ms": span, "for_ms": span})
            }
            (3, false) => json!({"fault": "clock_jump", "at_ms": at, "node": &services[b % services.len()], "by_ms": span as i64 - 1_000}),
            (4, _) => {
                faults.push(json!({"fault": "crash", "at_ms": at, "node": client}));
                json!({"fault": "restart", "at_ms": at + span, "node": client, "keep_state": b % 2 == 0})
            }
            (5, false) => {
                let service = &services[b % services.len()];
                faults.push(json!({"fault": "crash", "at_ms": at, "node": service}));
                json!({"fault": "restart", "at_ms": at + span, "node": service, "keep_state": a % 2 == 0})
            }
            // A replica is promoted: the second Redis node of a failover lesson.
            (6, false) if services.len() == 2 => json!({"fault": "promote", "at_ms": at, "node": &services[1]}),
            _ => continue,
        };
        faults.push(fault);
    }
    // A fault may not come after the time limit: the limit counts from the last fault.
    let last_fault = faults.iter().filter_map(|f| f["at_ms"].as_u64()).max().unwrap_or(0);
    doc["faults"] = json!(faults);
    if let Some((events, time)) = v.limits {
        doc["limits"] = json!({"max_events": events, "max_time_ms": last_fault + time});
    }
    doc.to_string()
}

/// Loads and runs a variant: the trace, or the limit it stopped at.
fn run_variant(v: &Variant) -> (lockstep::engine::spec::Spec, Result<Trace, engine::RunError>) {
    let text = variant_scenario(v);
    let (_, spec) = load(&text).unwrap_or_else(|e| panic!("a generated variant is invalid: {e}\n{text}"));
    let result = engine::run(&spec);
    (spec, result)
}

fn design_of(v: &Variant) -> &'static str {
    base(v.lesson, |b| b.design)
}

proptest! {
    #![proptest_config(config(1500))]

    #[test]
    fn every_design_stays_within_its_limits_and_repeats_exactly(v in variant()) {
        let (spec, result) = run_variant(&v);
        match result {
            Ok(t) => {
                prop_assert!(t.events.len() <= spec.limits.max_events);
                prop_assert!(t.events.windows(2).all(|w| w[0].at_ms <= w[1].at_ms), "time went backwards");
                prop_assert!(t.events.last().is_none_or(|e| e.at_ms <= spec.limits.max_time_ms));
                let again = engine::run(&spec).expect("the same spec runs again");
                prop_assert_eq!(format!("{:?}", t.events), format!("{:?}", again.events), "same input, same run");
            }
            Err(engine::RunError::EventLimit { limit }) => prop_assert_eq!(limit, spec.limits.max_events),
            Err(engine::RunError::TimeLimit { limit_ms }) => prop_assert_eq!(limit_ms, spec.limits.max_time_ms),
            Err(e) => prop_assert!(false, "{:?} in {}", e, design_of(&v)),
        }
    }

    #[test]
    fn fenced_resources_never_accept_a_lower_token_in_any_design(v in variant()) {
        let (spec, result) = run_variant(&v);
        let fenced = spec.nodes.iter().any(|n| matches!(n.role, lockstep::engine::spec::Role::Resource(lockstep::engine::spec::ResourceMode::Fenced)));
        if let (true, Ok(t)) = (fenced, result) {
            let tokens = accepted_tokens(&t);
            prop_assert!(tokens.windows(2).all(|w| w[0] <= w[1]), "{}: accepted tokens went down: {:?}", design_of(&v), tokens);
        }
    }
}

#[test]
fn variants_cover_every_design_drift_loss_renewal_promotion_and_limits() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut designs, mut seen) = (std::collections::BTreeSet::new(), std::collections::BTreeMap::new());
    let mut count = |what: &'static str, yes: bool| *seen.entry(what).or_insert(0) += usize::from(yes);
    for _ in 0..600 {
        let v = variant().new_tree(&mut runner).unwrap().current();
        let text = variant_scenario(&v);
        designs.insert(design_of(&v));
        let (_, result) = run_variant(&v);
        count("drift", v.clock.is_some_and(|c| c.2 != 0));
        count("loss", v.network.is_some_and(|n| n.0 > 0));
        count("renewal", text.contains("\"renew\""));
        count("promotion", text.contains("\"promote\""));
        count("stopped at a limit", result.is_err());
        if let Ok(t) = result {
            count("unsafe", !t.verdict.safe);
            count("safe", t.verdict.safe);
        }
    }
    let every: std::collections::BTreeSet<&str> = BASES.with(|b| b.iter().map(|b| b.design).collect());
    assert_eq!(designs, every, "every design is generated");
    for (what, n) in &seen {
        assert!(*n >= 10, "only {n} variants with {what}: {seen:?}");
    }
    assert_eq!(seen.len(), 7, "{seen:?}");
}
