//! The etcd lessons, asserted exactly: revisions as tokens, the hand-over when a session expires,
//! and which writes the resource accepted.

mod support;

use lockstep::design::etcd::EtcdMsg;
use lockstep::engine::msg::Msg;
use lockstep::engine::EventKind;
use lockstep::engine::FindingKind::*;
use support::*;

#[test]
fn the_waiter_is_queued_behind_its_predecessor_and_takes_over_when_the_session_expires() {
    let t = run_lesson("etcd-lease-expires");
    let queued = t.events.iter().find_map(|e| match &e.kind {
        EventKind::Deliver { msg: Msg::Lock { msg }, .. } => match msg.get() {
            Some(&EtcdMsg::Queued { revision, behind }) => Some((e.at_ms.as_ms(), t.name(e.node), revision, behind)),
            _ => None,
        },
        _ => None,
    });
    assert_eq!(queued, Some((30, "Client B", 8, 7)));
    assert_eq!(grants_named(&t), vec![(5, "Client A", 7), (1_005, "Client B", 8)]);
    assert_eq!(lease_ends(&t)[0], (1_005, 7, "Expired".into()));
    assert_eq!(writes(&t), vec![ok(1_065, "Client B", 8, "B", 1), rejected(1_555, "Client A", 7, "A", "revision 7 < 8")]);
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_010), (StaleWriteRejected, 1_555)]);
}

#[test]
fn a_resource_that_checks_nothing_takes_the_stale_write() {
    let t = run_lesson("etcd-unchecked");
    assert_eq!(writes(&t), vec![ok(1_065, "Client B", 8, "B", 1), ok(1_555, "Client A", 7, "A", 2)]);
    assert!(!t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_010), (StaleWriteAccepted, 1_555), (OutOfOrder, 1_555)]);
}

#[test]
fn keep_alives_hold_a_waiting_session_open() {
    // B waits about a second behind A; without its keep-alives its own session would expire first.
    let t = run_lesson("etcd-lease-expires");
    let b_keepalives = t
        .events
        .iter()
        .filter(|e| {
            t.name(e.node) == "Client B"
                && matches!(&e.kind, EventKind::Send { msg: Msg::Lock { msg }, .. } if msg.get() == Some(&EtcdMsg::KeepAlive))
        })
        .filter(|e| e.at_ms.as_ms() < 1_005)
        .count();
    assert_eq!(b_keepalives, 3);
    assert!(!lease_ends(&t).iter().any(|e| e.1 == 8 && e.2 == "Expired"));
}

#[test]
fn a_transaction_guarded_by_the_create_revision_refuses_the_expired_holder() {
    let t = run_lesson("etcd-txn-guard");
    assert_eq!(grants_named(&t), vec![(5, "Client A", 7), (1_005, "Client B", 8)]);
    assert_eq!(
        writes(&t),
        vec![ok(1_065, "Client B", 8, "B", 1), rejected(1_555, "Client A", 7, "A", "txn failed: no lock key with create revision 7")]
    );
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_010), (StaleWriteRejected, 1_555)]);
}

#[test]
fn a_step_of_the_etcd_wall_clock_moves_no_lease() {
    let t = run_lesson("etcd-clock-jump");
    let jump = t.events.iter().find_map(|e| match e.kind {
        EventKind::ClockJump { by_ms, elapsed } => Some((e.at_ms.as_ms(), t.name(e.node), by_ms, elapsed)),
        _ => None,
    });
    assert_eq!(jump, Some((400, "etcd", 2_000, true)));
    // etcd times leases by elapsed time: A keeps the lock until it releases it, and B waits.
    assert!(lease_ends(&t).iter().all(|e| e.2 == "Released"), "{:?}", lease_ends(&t));
    assert_eq!(grants_named(&t), vec![(5, "Client A", 7), (725, "Client B", 8)]);
    assert_eq!(writes(&t), vec![ok(715, "Client A", 7, "A", 1), ok(785, "Client B", 8, "B", 2)]);
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![]);
}
