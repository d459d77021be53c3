//! The Kubernetes leader-election lessons, asserted exactly: who the API server names as holder
//! when, with which leaseTransitions, which writes the resource took, when a leader gave up, and
//! the verdict.

mod support;

use lockstep::engine::FindingKind::*;
use lockstep::engine::{EventKind, LocalMillis, Trace};
use support::*;

fn end(at: u64, token: u64, how: &str) -> (u64, u64, String) {
    (at, token, how.into())
}

/// Lists (true ms, client) for every time a leader stopped leading because renewing failed.
fn gave_up(t: &Trace) -> Vec<(u64, &str)> {
    t.events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::RenewalFailed { abort: true, .. }))
        .map(|e| (e.at_ms.as_ms(), t.name(e.node)))
        .collect()
}

#[test]
fn a_paused_leader_writes_after_another_took_the_lease() {
    let t = run_lesson("k8s-paused-leader");
    // A creates the Lease (leaseTransitions 0); B, having seen no change for 15 s, writes itself in.
    assert_eq!(grants_named(&t), vec![(15, "Controller A", 0), (25_924, "Controller B", 1)]);
    assert_eq!(lease_ends(&t), vec![end(25_924, 0, "Replaced"), end(46_444, 1, "Released")]);
    // A wakes at 35 s and writes at once; only at 45 s, 10 s of failed renewing later, does it stop.
    assert_eq!(writes(&t), vec![ok(26_434, "Controller B", 1, "B", 1), ok(35_005, "Controller A", 0, "A", 2)]);
    assert_eq!(gave_up(&t), vec![(45_000, "Controller A")]);
    assert!(!t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 25_929), (StaleWriteAccepted, 35_005), (OutOfOrder, 35_005)]);
    assert_eq!((t.metrics.expiries, t.metrics.renewal_failures), (1, 1), "one takeover, one leader stopped");
}

#[test]
fn lease_transitions_checked_at_the_resource_fence_the_paused_leader() {
    let t = run_lesson("k8s-fenced");
    assert_eq!(grants_named(&t), vec![(15, "Controller A", 0), (25_924, "Controller B", 1)]);
    assert_eq!(writes(&t), vec![ok(26_434, "Controller B", 1, "B", 1), rejected(35_005, "Controller A", 0, "A", "leaseTransitions 0 < 1")]);
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 25_929), (StaleWriteRejected, 35_005)]);
}

#[test]
fn a_clock_twice_as_fast_takes_over_before_the_leader_gives_up() {
    let t = run_lesson("k8s-clock-rate");
    // B's 15 s are 7.5 s of true time: it takes over at 16.6 s; A's deadline is 20.06 s.
    assert_eq!(grants_named(&t), vec![(15, "Controller A", 0), (16_608, "Controller B", 1)]);
    let b_believes = t.events.iter().find_map(|e| match e.kind {
        EventKind::BeliefStart { token: 1, until_local, .. } => {
            Some((e.at_ms.as_ms(), e.local_ms.as_ms(), until_local.map(LocalMillis::as_ms)))
        }
        _ => None,
    });
    assert_eq!(b_believes, Some((16_613, 33_226, Some(45_226))), "B's clock reads twice true time");
    assert_eq!(gave_up(&t), vec![(20_060, "Controller A")]);
    assert_eq!(writes(&t), vec![ok(17_118, "Controller B", 1, "B", 1), ok(18_025, "Controller A", 0, "A", 2)]);
    assert!(!t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 16_613), (StaleWriteAccepted, 18_025), (OutOfOrder, 18_025)]);
}

#[test]
fn a_lease_duration_three_times_the_renew_deadline_tolerates_the_fast_clock() {
    let t = run_lesson("k8s-clock-rate-tolerated");
    assert_eq!(gave_up(&t), vec![(20_060, "Controller A")]);
    // B's 30 s are 15 s of true time: it takes over only after A stopped.
    assert_eq!(grants_named(&t), vec![(15, "Controller A", 0), (25_052, "Controller B", 1)]);
    assert_eq!(writes(&t), vec![ok(18_025, "Controller A", 0, "A", 1), ok(25_562, "Controller B", 1, "B", 2)]);
    assert!(t.verdict.safe && t.verdict.findings.is_empty(), "one leader at a time");
}

#[test]
fn candidates_poll_with_client_go_jitter_and_updates_are_optimistic() {
    let t = run_lesson("k8s-paused-leader");
    let gets: Vec<u64> = t
        .events
        .iter()
        .filter(|e| t.name(e.node) == "Controller B" && matches!(e.kind, EventKind::Send { .. }))
        .map(|e| e.at_ms.as_ms())
        .take_while(|&at| at < 25_000)
        .collect();
    // RetryPeriod 2 s plus up to 1.2 × 2 s of seeded jitter between polls.
    assert!(gets.windows(2).all(|w| (2_000..=4_400 + 5).contains(&(w[1] - w[0]))), "{gets:?}");
    let narration = t.narration().join("\n");
    assert!(narration.contains("if the Lease is still at resourceVersion"), "updates name the version they read");
    assert!(narration.contains("judges the Lease expired by its own clock"));
}

#[test]
fn a_leader_that_exits_without_releasing_leaves_no_leader_for_a_lease_duration() {
    let t = run_lesson("k8s-no-release");
    // B last saw the Lease change at 7,112 ms; it may take over from 22,112 ms and does at its next try.
    assert_eq!(grants_named(&t), vec![(15, "Controller A", 0), (25_924, "Controller B", 1)]);
    assert_eq!(lease_ends(&t), vec![end(25_924, 0, "Replaced"), end(26_444, 1, "Released")]);
    assert_eq!(writes(&t), vec![ok(5_025, "Controller A", 0, "A", 1), ok(26_434, "Controller B", 1, "B", 2)]);
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![]);
}
