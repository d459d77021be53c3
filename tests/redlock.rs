//! The Redlock lessons, asserted exactly: when each client came to believe it held the lock and
//! until when, which writes landed, the verdict, and the metrics that tell the story.

mod support;

use lockstep::engine::FindingKind::*;
use lockstep::engine::{EventKind, Trace};
use support::*;

/// Lists (true ms, client, believed until local ms) for every time a client took the lock.
fn beliefs(t: &Trace) -> Vec<(u64, &str, i64)> {
    t.events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::BeliefStart { until_local: Some(until), .. } => Some((e.at_ms.as_ms(), t.name(e.node), until.as_ms())),
            _ => None,
        })
        .collect()
}

#[test]
fn happy_path_one_holder_at_a_time_with_validity_ttl_minus_drift() {
    let t = run_lesson("redlock-happy");
    // Started at 0, five masters in 50 ms: valid until 0 + 1,000 − 12 (drift) on its clock.
    assert_eq!(beliefs(&t), vec![(50, "Client 1", 988), (297, "Client 2", 1_235)]);
    assert_eq!(writes(&t), vec![ok(155, "Client 1", 0, "1", 1), ok(352, "Client 2", 0, "2", 2)]);
    assert!(t.verdict.safe && t.verdict.findings.is_empty());
    assert_eq!((t.metrics.acquire_requests, t.metrics.contended), (20, 8), "Client 2's failed attempts");
}

#[test]
fn a_clock_jump_gives_two_clients_a_majority() {
    let t = run_lesson("redlock-clock-jump");
    assert_eq!(beliefs(&t), vec![(130, "Client 1", 988), (380, "Client 2", 1_238)]);
    assert_eq!(writes(&t), vec![ok(435, "Client 2", 0, "2", 1), ok(635, "Client 1", 0, "1", 2)]);
    assert!(!t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 380), (StaleWriteAccepted, 635), (OutOfOrder, 635)]);
    assert_eq!(t.metrics.expiries, 1, "only Redis 3 expired Client 1's key");
}

#[test]
fn a_pause_past_validity_lets_a_stale_write_through() {
    let t = run_lesson("redlock-pause");
    assert_eq!(beliefs(&t), vec![(50, "Client 1", 988), (1_150, "Client 2", 2_088)]);
    assert_eq!(writes(&t), vec![ok(1_205, "Client 2", 0, "2", 1), ok(1_605, "Client 1", 0, "1", 2)]);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_150), (StaleWriteAccepted, 1_605), (OutOfOrder, 1_605)]);
    assert_eq!(t.metrics.expiries, 5);
}

#[test]
fn a_check_at_the_resource_rejects_the_paused_write() {
    let t = run_lesson("redlock-pause-checked");
    assert_eq!(writes(&t), vec![ok(1_215, "Client 2", 0, "2", 1), rejected(1_605, "Client 1", 0, "1", "expected version 0, found 1")]);
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_150), (StaleWriteRejected, 1_605)]);
}

#[test]
fn a_master_restarting_without_its_keys_breaks_the_majority() {
    let t = run_lesson("redlock-restart");
    let lost = lease_ends(&t).into_iter().filter(|e| e.2 == "LostOnRestart").count();
    assert_eq!(lost, 1);
    assert_eq!(beliefs(&t), vec![(130, "Client 1", 988), (380, "Client 2", 1_238)]);
    assert_eq!(findings(&t), vec![(TwoHolders, 380), (StaleWriteAccepted, 635), (OutOfOrder, 635)]);
}

#[test]
fn a_delayed_restart_keeps_the_lock_exclusive() {
    let t = run_lesson("redlock-delayed-restart");
    assert_eq!(beliefs(&t), vec![(130, "Client 1", 988), (1_668, "Client 2", 2_526)]);
    assert_eq!(writes(&t), vec![ok(635, "Client 1", 0, "1", 1), ok(1_723, "Client 2", 0, "2", 2)]);
    assert!(t.verdict.safe && t.verdict.findings.is_empty());
}

#[test]
fn a_slow_acquisition_is_refused_and_the_client_gives_up() {
    let t = run_lesson("redlock-slow-acquisition");
    assert!(beliefs(&t).is_empty(), "validity was never positive");
    assert!(writes(&t).is_empty());
    let gave_up: Vec<(u64, u32)> = t
        .events
        .iter()
        .filter_map(|e| if let EventKind::GaveUp { attempts } = e.kind { Some((e.at_ms.as_ms(), attempts)) } else { None })
        .collect();
    assert_eq!(gave_up, vec![(2_515, 2)]);
    assert!(t.verdict.safe);
}
