//! The DynamoDB lock client lessons, asserted exactly: when each worker got the lock item and
//! with which fence, when the takeover came, which heartbeat failed, which writes the resource
//! took, and the verdict.

mod support;

use lockstep::engine::FindingKind::*;
use lockstep::engine::{EventKind, Trace};
use support::*;

/// Lists (true ms, worker) for every heartbeat that failed.
fn heartbeats_failed(t: &Trace) -> Vec<(u64, &str)> {
    t.events.iter().filter(|e| matches!(e.kind, EventKind::RenewalFailed { .. })).map(|e| (e.at_ms.as_ms(), t.name(e.node))).collect()
}

fn end(at: u64, token: u64, how: &str) -> (u64, u64, String) {
    (at, token, how.into())
}

#[test]
fn a_contender_takes_over_from_a_holder_whose_clock_runs_slow() {
    let t = run_lesson("dynamodb-slow-clock");
    // B's 20 s by its double-speed clock are 10 s of true time; A's first heartbeat, 6 s on its
    // half-speed clock, comes only at 12 s.
    assert_eq!(grants_named(&t), vec![(15, "Worker A", 0), (10_555, "Worker B", 0)]);
    assert_eq!(lease_ends(&t), vec![end(10_555, 0, "Replaced"), end(10_625, 0, "Released")]);
    assert_eq!(heartbeats_failed(&t), vec![(12_030, "Worker A")]);
    assert_eq!(writes(&t), vec![ok(10_615, "Worker B", 0, "B", 1), ok(20_025, "Worker A", 0, "A", 2)]);
    assert!(!t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 10_560), (StaleWriteAccepted, 20_025), (OutOfOrder, 20_025)]);
    let narration = t.narration().join("\n");
    assert!(narration.contains("has seen recordVersionNumber a42c unchanged for a whole lease on its own clock"), "{narration}");
}

#[test]
fn a_fence_attribute_refuses_the_slow_holder() {
    let t = run_lesson("dynamodb-fence-attribute");
    assert_eq!(grants_named(&t), vec![(15, "Worker A", 1), (10_555, "Worker B", 2)]);
    assert_eq!(heartbeats_failed(&t), vec![(12_030, "Worker A")]);
    assert_eq!(writes(&t), vec![ok(10_615, "Worker B", 2, "B", 1), rejected(20_025, "Worker A", 1, "A", "fence 1 < 2")]);
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 10_560), (StaleWriteRejected, 20_025)]);
}

#[test]
fn clock_offsets_do_not_matter_only_rates() {
    // The same workers with equal rates but clocks an hour apart: B never takes over while A
    // heartbeats, and gets the lock only after A releases it.
    let lesson = lockstep::scenario::lessons::find("dynamodb-slow-clock").expect("lesson");
    let mut v: serde_json::Value = serde_json::from_str(lesson.source).expect("json");
    v["participants"][0]["clock"] = serde_json::json!({"offset_ms": 3_600_000});
    v["participants"][3]["clock"] = serde_json::json!({"offset_ms": -3_600_000});
    let t = run_json(&v.to_string());
    assert!(t.verdict.safe && t.verdict.findings.is_empty(), "{:?}", t.verdict.findings);
    let grants = grants_named(&t);
    assert_eq!(grants.len(), 2);
    assert!(grants[1].0 > 20_000 && grants[1].1 == "Worker B", "B waits for A's release: {grants:?}");
}
