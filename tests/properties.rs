//! Property tests over thousands of random fault schedules.
//!
//! - A fenced resource never accepts a token lower than one it has accepted.
//! - The checker's verdict agrees with a simple oracle computed independently from the trace.
//! - Every generated run finishes within its limits.
//! - Without a lock, the checker finds exactly the updates lost to a stale read, and a
//!   conditional store loses none.

#![cfg(not(target_arch = "wasm32"))]

use lockstep::engine::msg::Msg;
use lockstep::engine::{self, EventKind, FindingKind, Trace};
use lockstep::scenario::load;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use serde_json::json;

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

/// Says independently whether the trace is unsafe: an accepted write whose lease was never granted
/// or had already ended, or that overwrote a write made under a higher token.
fn oracle_unsafe(t: &Trace) -> bool {
    let ev = &t.events;
    ev.iter().enumerate().any(|(i, e)| {
        let EventKind::WriteAccepted { token, .. } = e.kind else { return false };
        let before = &ev[..i];
        let granted = before.iter().any(|b| matches!(b.kind, EventKind::LockGranted { token: g, .. } if g == token));
        let ended = before.iter().any(|b| matches!(b.kind, EventKind::LockEnded { token: g, .. } if g == token));
        let previous = before.iter().rev().find_map(|b| match b.kind {
            EventKind::WriteAccepted { token: p, .. } => Some(p),
            _ => None,
        });
        !granted || ended || previous.is_some_and(|p| p > token)
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
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

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
    // From a 950 ms pause on, the write lands once the key is gone.
    assert_eq!(unsafe_pauses.first(), Some(&950), "{unsafe_pauses:?}");
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
    // majority at 1,025 ms. Its write lands 5 ms after it wakes: a 900 ms pause is just in time.
    assert_eq!(first_unsafe, Some(1_000), "{verdicts:?}");
    assert!(verdicts.iter().all(|&(pause, safe)| safe == (pause < 1_000)), "{verdicts:?}");
}
