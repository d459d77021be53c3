//! The ZooKeeper lessons, asserted exactly: the order the lock is handed on, wake-ups per release
//! with and without the herd (whose watch also fires when a contender arrives), and who learns of a session's expiry when.

mod support;

use lockstep::design::zookeeper::ZkMsg;
use lockstep::engine::msg::{Msg, MsgKind};
use lockstep::engine::FindingKind::*;
use lockstep::engine::{EventKind, Trace};
use support::*;

/// Lists (true ms, client) for every watch notification delivered.
fn wake_ups(t: &Trace) -> Vec<(u64, &str)> {
    t.events
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::Deliver { msg, .. } if msg.kind() == MsgKind::WakeUp))
        .map(|e| (e.at_ms.as_ms(), t.name(e.node)))
        .collect()
}

#[test]
fn the_queue_hands_the_lock_on_in_order_with_one_wake_up_per_release() {
    let t = run_lesson("zk-queue");
    assert_eq!(
        grants_named(&t),
        vec![(5, "Client A", 1), (135, "Client B", 2), (265, "Client C", 3), (395, "Client D", 4)],
        "czxids 1 to 4 are the tokens"
    );
    assert_eq!(wake_ups(&t), vec![(130, "Client B"), (260, "Client C"), (390, "Client D")]);
    assert_eq!(t.metrics.wake_ups, 3);
    let tokens: Vec<u64> = writes(&t).iter().map(|w| w.2).collect();
    assert_eq!(tokens, vec![1, 2, 3, 4]);
    assert!(t.verdict.safe && t.verdict.findings.is_empty());
}

#[test]
fn the_herd_wakes_every_waiter_on_every_change() {
    let herd = run_lesson("zk-herd");
    let queue = run_lesson("zk-queue");
    assert_eq!(grants_named(&herd), grants_named(&queue), "the same order either way");
    // A contender arriving wakes those already watching the children (B when C arrives, C when
    // D does; B had just been woken and was listing again), then each release wakes everyone left.
    let arrivals: Vec<(u64, &str)> = wake_ups(&herd).into_iter().filter(|w| w.0 < 100).collect();
    assert_eq!(arrivals, vec![(30, "Client B"), (40, "Client C")]);
    assert_eq!(herd.metrics.wake_ups, 8, "2 arrivals + 3 + 2 + 1 releases");
    let mut first_release: Vec<&str> = wake_ups(&herd).into_iter().filter(|w| w.0 == 130).map(|w| w.1).collect();
    first_release.sort_unstable();
    assert_eq!(first_release, vec!["Client B", "Client C", "Client D"]);
}

#[test]
fn the_ensemble_expires_the_partitioned_session_and_the_old_holder_learns_late() {
    let t = run_lesson("zk-session-expiry");
    assert_eq!(lease_ends(&t)[0], (1_100, 1, "Expired".into()), "due at 1,005, expired at the next tick");
    assert_eq!(grants_named(&t), vec![(5, "Client A", 1), (1_110, "Client B", 2)]);
    assert_eq!(writes(&t), vec![ok(1_170, "Client B", 2, "B", 1), rejected(1_515, "Client A", 1, "A", "czxid 1 < 2")]);
    // A hears "session expired" only after the partition heals at 2,100 ms.
    let learned = t
        .events
        .iter()
        .find(|e| matches!(&e.kind, EventKind::Deliver { msg: Msg::Lock { msg }, .. } if msg.get() == Some(&ZkMsg::SessionExpired)));
    assert_eq!(learned.map(|e| (e.at_ms.as_ms(), t.name(e.node))), Some((2_110, "Client A")));
    // An expired session is dead: A's library reports it once and stops heartbeating it (its
    // application carries on, by its policy, until it releases at 3,520 ms).
    let pings_after = t.events.iter().filter(|e| {
        e.at_ms.as_ms() > 2_110 && matches!(&e.kind, EventKind::Send { msg: Msg::Lock { msg }, .. } if msg.get() == Some(&ZkMsg::Ping))
    });
    assert_eq!(pings_after.count(), 0, "no heartbeats for an expired session");
    let failed: Vec<u64> =
        t.events.iter().filter(|e| matches!(e.kind, EventKind::RenewalFailed { abort: false, .. })).map(|e| e.at_ms.as_ms()).collect();
    assert_eq!(failed.last(), Some(&2_110), "the last failed heartbeat is the one answered 'session expired'");
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_115), (StaleWriteRejected, 1_515)]);
}

#[test]
fn without_the_czxid_check_the_disconnected_holder_overwrites() {
    let t = run_lesson("zk-session-expiry-unchecked");
    assert_eq!(writes(&t), vec![ok(1_170, "Client B", 2, "B", 1), ok(1_515, "Client A", 1, "A", 2)]);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_115), (StaleWriteAccepted, 1_515), (OutOfOrder, 1_515)]);
}

#[test]
fn a_client_in_safe_mode_stops_before_its_session_expires() {
    let t = run_lesson("zk-safe-mode");
    let stopped: Vec<u64> =
        t.events.iter().filter(|e| matches!(e.kind, EventKind::RenewalFailed { abort: true, .. })).map(|e| e.at_ms.as_ms()).collect();
    assert_eq!(stopped, vec![810], "A stops on Disconnected, before the ensemble expires its session at 1,100 ms");
    assert_eq!(lease_ends(&t).first(), Some(&(1_100, 1, "Expired".to_string())));
    assert_eq!(writes(&t), vec![ok(1_170, "Client B", 2, "B", 1)], "A never writes");
    // Its library keeps pinging through the partition and hears after the heal that the session is gone.
    let expired: Vec<u64> = t
        .events
        .iter()
        .filter(|e| {
            t.name(e.node) == "Client A"
                && matches!(&e.kind, EventKind::Deliver { msg: Msg::Lock { msg }, .. } if msg.get() == Some(&ZkMsg::SessionExpired))
        })
        .map(|e| e.at_ms.as_ms())
        .collect();
    assert_eq!(expired, vec![2_110]);
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![]);
    // The same client frozen by a 2 s pause instead runs no code to notice anything: it wakes
    // still believing, and its write erases B's.
    let mut v: serde_json::Value = serde_json::from_str(lockstep::scenario::lessons::embedded("zk-safe-mode").unwrap()).unwrap();
    v["faults"] = serde_json::json!([{"fault": "pause", "at_ms": 100, "node": "A", "for_ms": 2000}]);
    let t = run_json(&v.to_string());
    assert!(!t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_115), (StaleWriteAccepted, 2_105), (OutOfOrder, 2_105)]);
}
