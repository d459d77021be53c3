//! Every design in the registry, end to end: a scenario generated from its own declarations is
//! decoded, validated, run, checked, put in words, laid out and exported, so a new design cannot
//! be half-registered. Also: parameter declarations drive decoding and errors.

use lockstep::design::{self, Design, Kind, ParamKind, ParamValue, REGISTRY};
use lockstep::diagram::{layout, mermaid, svg};
use lockstep::engine::{self, EventKind, NodeKind};
use lockstep::present::Words;
use lockstep::scenario::load;
use lockstep::scenario::tags::Tagged;
use serde_json::{json, Map};

/// Returns a design's parameters as the JSON of a `lock` object: its first comparison row's
/// values if it has rows, else its defaults (a design without rows must be valid on defaults).
fn lock_json(kind: &dyn Kind) -> serde_json::Value {
    let mut lock = Map::new();
    lock.insert("design".into(), kind.tag().into());
    if let Some(row) = kind.rows(1_000).first() {
        for (name, value) in row.design.values().iter() {
            let v = match value {
                ParamValue::Number(n) => json!(n),
                ParamValue::Absent => continue,
                ParamValue::Flag(b) => json!(b),
                ParamValue::Choice(c) => json!(c),
            };
            lock.insert(name.into(), v);
        }
    }
    serde_json::Value::Object(lock)
}

/// Generates the smallest sensible scenario for a design: its fewest lock services, a resource
/// unless the data lives in the lock service, and two clients that take turns writing.
fn minimal_scenario(kind: &dyn Kind, design: &dyn Design) -> String {
    let modes = design.release_modes();
    let script = |value: &str| match modes.first() {
        Some(mode) => {
            json!([{"step": "acquire"}, {"step": "work", "ms": 50}, {"step": "write", "value": value}, {"step": "release", "mode": mode.tag()}])
        }
        None => json!([{"step": "write", "value": value}]),
    };
    let mut participants = vec![json!({"role": "client", "id": "A", "name": "Client A", "script": script("A")})];
    for i in 0..*design.services().count.start() {
        participants.push(json!({"role": "lock_service", "id": format!("L{i}"), "name": format!("Service {i}")}));
    }
    if !design.data_in_service() {
        participants.push(json!({"role": "resource", "id": "R", "name": "Resource", "mode": "fenced"}));
    }
    participants.push(json!({"role": "client", "id": "B", "name": "Client B", "start_ms": 20, "script": script("B")}));
    json!({"version": 1, "seed": 1, "lock": lock_json(kind), "participants": participants}).to_string()
}

#[test]
fn every_design_runs_end_to_end_from_its_declarations() {
    let tags: Vec<&str> = REGISTRY.iter().map(|k| k.tag()).collect();
    assert_eq!(
        tags,
        [
            "lease",
            "redis",
            "redlock",
            "redisson",
            "zookeeper",
            "etcd",
            "postgres",
            "kubernetes",
            "consul",
            "chubby",
            "dynamodb",
            "hazelcast",
            "s3",
            "consumer_group",
            "none"
        ]
    );
    for kind in REGISTRY {
        let values = design::Values::new(kind.params(), &[]).ok();
        let design = match kind.rows(1_000).first() {
            Some(row) => row.design.clone(),
            None => kind.build(values.as_ref().expect("a design without rows is valid on its defaults")).unwrap(),
        };
        assert_eq!(design.kind().tag(), kind.tag());
        let text = minimal_scenario(*kind, &*design);
        let (scenario, spec) = load(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", kind.tag()));
        assert_eq!(scenario.lock.kind.tag(), kind.tag());
        let trace = engine::run(&spec).unwrap_or_else(|e| panic!("{}: {e:?}", kind.tag()));
        let has_lock = !design.release_modes().is_empty();
        assert_eq!(trace.quorum > 0, has_lock, "{}", kind.tag());
        let granted = trace.events.iter().filter(|e| matches!(e.kind, EventKind::LockGranted { .. })).count();
        assert_eq!(granted > 0, has_lock, "{}: grants", kind.tag());
        let accepted = trace.events.iter().filter(|e| matches!(e.kind, EventKind::WriteAccepted { .. })).count();
        assert_eq!(accepted, 2, "{}: both clients wrote", kind.tag());
        assert!(trace.verdict.safe, "{}: taking turns is safe", kind.tag());

        let words = Words::new(&trace, &*scenario.lock.design);
        for (i, e) in trace.events.iter().enumerate() {
            let sentence = words.narrate(i);
            assert!(sentence.len() > 10 && sentence.ends_with('.'), "{} #{i} {:?}: {sentence:?}", kind.tag(), e.kind);
            assert!(!words.summary(i).is_empty(), "{} #{i}", kind.tag());
            if let EventKind::Send { msg, to, .. } = &e.kind {
                assert!(!words.label(msg, *to).is_empty(), "{} #{i}: an unlabelled message", kind.tag());
            }
        }
        let l = layout(&words);
        assert_eq!(l.lanes.iter().filter(|lane| lane.role == NodeKind::Client).count(), 2);
        let svg = svg::render(&l, kind.title(), true);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"), "{}", kind.tag());
        let mmd = mermaid::render(&words);
        assert!(mmd.starts_with("sequenceDiagram\n") && mmd.lines().count() > 6, "{}", kind.tag());
        assert!(words.to_text().contains("verdict: SAFE"), "{}", kind.tag());
    }
}

#[test]
fn declarations_drive_decoding_defaults_and_errors() {
    for kind in REGISTRY {
        for p in kind.params() {
            assert!(!p.help.is_empty() && p.help.ends_with('.'), "{}.{}: help", kind.tag(), p.name);
            match p.kind {
                ParamKind::Number { min, max, default, .. } => {
                    assert!(min <= max && default.is_none_or(|d| (min..=max).contains(&d)), "{}.{}", kind.tag(), p.name);
                    if max < u64::MAX {
                        let e = p.check_number(max + 1).unwrap_err().to_string();
                        assert_eq!(e, format!("lock.{}: must be between {min} and {max}, got {}", p.name, max + 1));
                    }
                }
                ParamKind::Optional { min, max, .. } => assert!(min <= max),
                ParamKind::Flag { .. } => {}
                ParamKind::Choice { options, default } => assert!(options.iter().any(|(o, _)| *o == default)),
            }
        }
    }
    // An unknown field is named with the design's own fields.
    let bad = json!({"version": 1, "lock": {"design": "kubernetes", "lease_seconds": 15},
        "participants": [{"role": "client", "id": "A", "name": "A", "script": [{"step": "acquire"}]}]});
    let e = load(&bad.to_string()).unwrap_err().to_string();
    assert_eq!(e, "lock.lease_seconds: unknown field `lease_seconds`, expected one of `design`, `lease_duration_ms`, `renew_deadline_ms`, `retry_period_ms`");
}

#[test]
fn a_design_states_what_it_needs_of_a_scenario() {
    let with = |lock: serde_json::Value, renew: bool| {
        let mut a = json!({"role": "client", "id": "A", "name": "A", "script": [{"step": "acquire"}, {"step": "write", "value": "a"}]});
        if renew {
            a["renew"] = json!({"every_ms": 300, "on_failure": "abort"});
        }
        let v = json!({"version": 1, "lock": lock, "participants": [a,
            {"role": "lock_service", "id": "K", "name": "K"}, {"role": "resource", "id": "R", "name": "R", "mode": "fenced"}]});
        load(&v.to_string()).map(|_| ()).map_err(|e| e.to_string())
    };
    assert_eq!(
        with(json!({"design": "kubernetes"}), true),
        Err("participants[0].renew: the leader renews every retry_period_ms by itself and stops after renew_deadline_ms; leave renew out"
            .into())
    );
    assert_eq!(with(json!({"design": "kubernetes"}), false), Ok(()));
    assert_eq!(
        with(json!({"design": "kubernetes", "renew_deadline_ms": 20000}), false),
        Err("lock.renew_deadline_ms: must be less than lease_duration_ms (15000), as client-go requires, got 20000".into())
    );
    let no_service = json!({"version": 1, "lock": {"design": "redis", "ttl_ms": 1000},
        "participants": [{"role": "client", "id": "A", "name": "A", "script": [{"step": "acquire"}]},
                         {"role": "resource", "id": "R", "name": "R", "mode": "fenced"}]});
    assert_eq!(
        load(&no_service.to_string()).unwrap_err().to_string(),
        "participants: redis runs on 1 to 3 lock_service participants (one primary and at most two replicas), found 0"
    );
}

#[test]
fn lockstep_designs_lists_every_design_and_parameter() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lockstep")).arg("designs").output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    for kind in REGISTRY {
        assert!(text.contains(&format!("{}  {}", kind.tag(), kind.title())), "{}", kind.tag());
        for p in kind.params() {
            assert!(text.contains(p.name) && text.contains(p.help) && text.contains(&p.describe()), "{}.{}", kind.tag(), p.name);
        }
    }
}

#[test]
fn every_design_builds_its_comparison_rows_for_any_ttl_a_scenario_may_have() {
    // Switching a lesson to another design takes that design's rows at the lesson's TTL, which
    // may be anything from 1 ms to an hour.
    // Each row's settings lie within their declared ranges.
    let mut failed = Vec::new();
    for kind in REGISTRY {
        for ttl in [1, 2, 3, 150, 999, 1_000, 1_001, 10_000, 59_999, 1_200_000, 1_200_001, 3_600_000] {
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| kind.rows(ttl))) {
                Ok(rows) => {
                    for row in rows {
                        for (p, (_, v)) in kind.params().iter().zip(row.design.values().iter()) {
                            if let ParamValue::Number(n) = v {
                                if let Err(e) = p.check_number(n) {
                                    failed.push(format!("{} at {ttl} ms: {e}", kind.tag()));
                                }
                            }
                        }
                    }
                }
                Err(_) => failed.push(format!("{} at {ttl} ms", kind.tag())),
            }
        }
    }
    assert!(failed.is_empty(), "no comparison rows, or rows out of range, for {failed:?}");
}
