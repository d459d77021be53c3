//! Determinism: the same scenario and seed give the same trace; a seeded random element follows the seed.

mod support;

use lockstep::engine;
use lockstep::scenario::lessons;

#[test]
fn every_lesson_replays_identically() {
    for lesson in lessons::all() {
        let a = engine::run(&lesson.spec).unwrap();
        let b = engine::run(&lesson.spec).unwrap();
        assert_eq!(a, b, "{}", lesson.id());
        assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
    }
}

const JITTERY: &str = r#"{
  "version": 1, "seed": SEED,
  "lock": { "design": "lease", "ttl_ms": 300, "first_token": 1 },
  "network": { "latency_ms": { "min_ms": 1, "max_ms": 40 } },
  "participants": [
    { "role": "client", "id": "A", "name": "A", "acquire": { "retry_ms": 20, "jitter_ms": 80, "max_attempts": 50, "timeout_ms": 200 },
      "script": [ { "step": "acquire" }, { "step": "work", "ms": 30 }, { "step": "write", "value": "a" }, { "step": "release", "mode": "safe" } ] },
    { "role": "lock_service", "id": "L", "name": "L" },
    { "role": "resource", "id": "R", "name": "R", "mode": "fenced" },
    { "role": "client", "id": "B", "name": "B", "acquire": { "retry_ms": 20, "jitter_ms": 80, "max_attempts": 50, "timeout_ms": 200 },
      "script": [ { "step": "acquire" }, { "step": "work", "ms": 30 }, { "step": "write", "value": "b" }, { "step": "release", "mode": "safe" } ] }
  ]
}"#;

fn run_seed(seed: u64) -> engine::Trace {
    support::run_json(&JITTERY.replace("SEED", &seed.to_string())).trace
}

#[test]
fn seeded_latency_and_jitter_replay_and_vary() {
    assert_eq!(run_seed(7), run_seed(7));
    let times = |t: &engine::Trace| t.events.iter().map(|e| e.at_ms.as_ms()).collect::<Vec<_>>();
    let distinct = (1..6).map(|s| times(&run_seed(s))).collect::<std::collections::BTreeSet<_>>();
    assert!(distinct.len() >= 4, "seeds should change the schedule, got {} distinct of 5", distinct.len());
}

#[test]
fn stress_scenarios_come_close_to_their_size() {
    for n in [100u64, 1_000, 10_000] {
        let (_, spec) = lockstep::scenario::stress::stress(n).unwrap();
        let got = engine::run(&spec).unwrap().events.len() as u64;
        assert!(got >= n * 8 / 10 && got <= n * 12 / 10, "asked for {n}, got {got}");
    }
    assert!(lockstep::scenario::stress::stress(5).is_err());
}

#[test]
fn the_stress_run_has_its_recorded_digest() {
    // The browser test checks the same digest in wasm.
    assert_eq!(support::stress_1000_digest(), support::STRESS_1000_DIGEST);
}
