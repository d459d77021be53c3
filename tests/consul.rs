//! The Consul lessons, asserted exactly: when each session got the key and with which LockIndex,
//! when the servers reaped the paused holder's session, what lock-delay refused, which writes the
//! resource took, and the verdict.

mod support;

use lockstep::design::consul::ConsulMsg;
use lockstep::engine::msg::Msg;
use lockstep::engine::FindingKind::*;
use lockstep::engine::{EventKind, Trace};
use support::*;

fn end(at: u64, token: u64, how: &str) -> (u64, u64, String) {
    (at, token, how.into())
}

/// Lists (true ms, time left) for every acquire the lock-delay refused.
fn delayed(t: &Trace) -> Vec<(u64, u64)> {
    t.events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Send { msg: Msg::Lock { msg }, .. } => match msg.get::<ConsulMsg>() {
                Some(ConsulMsg::NotAcquired { delay_left, .. }) if delay_left.as_ms() > 0 => Some((e.at_ms.as_ms(), delay_left.as_ms())),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

#[test]
fn lock_delay_lets_the_paused_holders_write_land_before_its_successors() {
    let t = run_lesson("consul-lock-delay");
    // A's session, last renewed at 7.5 s, is reaped at twice its 15 s TTL later; the key stays
    // free for the 15 s lock-delay.
    assert_eq!(grants_named(&t), vec![(15, "Client A", 1), (55_095, "Client B", 2)]);
    assert_eq!(lease_ends(&t), vec![end(37_525, 1, "Expired"), end(55_215, 2, "Released")]);
    assert_eq!(delayed(&t), vec![(40_035, 12_490), (45_055, 7_470), (50_075, 2_450)]);
    assert_eq!(writes(&t), vec![ok(50_005, "Client A", 1, "A", 1), ok(55_205, "Client B", 2, "B", 2)]);
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![(StaleWriteAccepted, 50_005)]);
}

#[test]
fn a_pause_past_lock_delay_is_fenced_by_lock_index() {
    let t = run_lesson("consul-lockindex");
    assert_eq!(grants_named(&t), vec![(15, "Client A", 1), (55_095, "Client B", 2)]);
    assert_eq!(writes(&t), vec![ok(55_205, "Client B", 2, "B", 1), rejected(70_005, "Client A", 1, "A", "LockIndex 1 < 2")]);
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 55_100), (StaleWriteRejected, 70_005)]);
}
