//! The Redisson lessons, asserted exactly: when the watchdog renewed and when it stopped, when
//! Redis handed out the lock hash and with which token, which writes the resource took, and the
//! verdict.

mod support;

use lockstep::engine::FindingKind::*;
use lockstep::engine::{EventKind, Trace};
use support::*;

/// Lists (true ms, client) for every watchdog renewal that failed, and whether the client stopped.
fn renewals_failed(t: &Trace) -> Vec<(u64, &str, bool)> {
    t.events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::RenewalFailed { abort, .. } => Some((e.at_ms.as_ms(), t.name(e.node), abort)),
            _ => None,
        })
        .collect()
}

fn end(at: u64, token: u64, how: &str) -> (u64, u64, String) {
    (at, token, how.into())
}

#[test]
fn the_watchdog_stops_silently_and_the_holder_overwrites_the_next() {
    let t = run_lesson("redisson-watchdog-stops");
    // The renewal sent at 10 s is held by the partition; at 13 s the watchdog gives up, and the
    // application, never told, carries on.
    assert_eq!(renewals_failed(&t), vec![(13_010, "Client A", false)]);
    // The renewal still lands when the partition heals, and pushes the expiry to 45 s.
    let extended: Vec<u64> =
        t.events.iter().filter(|e| matches!(e.kind, EventKind::LockExtended { .. })).map(|e| e.at_ms.as_ms()).collect();
    assert_eq!(extended, vec![15_005]);
    assert_eq!(grants_named(&t), vec![(5, "Client A", 0), (45_535, "Client B", 0)]);
    assert_eq!(lease_ends(&t), vec![end(45_005, 0, "Expired"), end(45_655, 0, "Released")]);
    assert_eq!(writes(&t), vec![ok(45_645, "Client B", 0, "B", 1), ok(50_015, "Client A", 0, "A", 2)]);
    assert!(!t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 45_540), (StaleWriteAccepted, 50_015), (OutOfOrder, 50_015)]);
    assert_eq!((t.metrics.expiries, t.metrics.renewal_failures), (1, 1));
    let narration = t.narration().join("\n");
    assert!(narration.contains("The watchdog logs an error and stops renewing for good; nobody tells the application"), "{narration}");
}

#[test]
fn rfencedlock_refuses_the_stale_holders_token() {
    let t = run_lesson("redisson-fenced-watchdog");
    assert_eq!(renewals_failed(&t), vec![(13_010, "Client A", false)]);
    assert_eq!(grants_named(&t), vec![(5, "Client A", 1), (45_535, "Client B", 2)]);
    assert_eq!(writes(&t), vec![ok(45_645, "Client B", 2, "B", 1), rejected(50_015, "Client A", 1, "A", "token 1 < 2")]);
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 45_540), (StaleWriteRejected, 50_015)]);
}

#[test]
fn a_failover_hands_the_same_token_out_twice() {
    let t = run_lesson("redisson-fenced-failover");
    // The primary crashed before streaming the counter: the promoted replica INCRs from nothing.
    assert_eq!(grants_named(&t), vec![(5, "Client A", 1), (705, "Client B", 1)]);
    assert_eq!(writes(&t), vec![ok(765, "Client B", 1, "B", 1), ok(915, "Client A", 1, "A", 2)]);
    assert!(!t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 710), (StaleWriteAccepted, 915), (OutOfOrder, 915)]);
}
