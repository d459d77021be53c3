//! The single-instance Redis lessons, asserted exactly: who held the key when, which writes were
//! accepted or rejected with which token at which simulated time, and the verdict.

mod support;

use lockstep::design::redis_wire::RedisMsg;
use lockstep::engine::event::DropReason;
use lockstep::engine::msg::Msg;
use lockstep::engine::EventKind;
use lockstep::engine::FindingKind::*;
use support::*;

fn ends(t: &lockstep::engine::Trace) -> Vec<(u64, u64, String)> {
    lease_ends(t)
}

fn end(at: u64, token: u64, how: &str) -> (u64, u64, String) {
    (at, token, how.into())
}

#[test]
fn plain_del_frees_the_next_holders_key_and_two_clients_write() {
    let t = run_lesson("redis-del-release");
    assert_eq!(grants_named(&t), vec![(5, "Client A", 0), (1_105, "Client B", 0), (1_605, "Client C", 0)]);
    assert_eq!(ends(&t), vec![end(1_005, 0, "Expired"), end(1_555, 0, "DeletedByOther"), end(1_675, 0, "Released")]);
    assert_eq!(writes(&t), vec![ok(1_665, "Client C", 0, "C", 1), ok(1_915, "Client B", 0, "B", 2)]);
    assert!(!t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_110), (TwoHolders, 1_610), (StaleWriteAccepted, 1_915), (OutOfOrder, 1_915)]);
}

#[test]
fn compare_and_delete_refuses_the_late_release() {
    let t = run_lesson("redis-safe-release");
    let refused = t.events.iter().find(
        |e| matches!(&e.kind, EventKind::Deliver { msg: Msg::Lock { msg }, .. } if msg.get() == Some(&RedisMsg::Deleted { done: false })),
    );
    assert_eq!(refused.map(|e| (e.at_ms.as_ms(), t.name(e.node))), Some((1_560, "Client A")));
    assert_eq!(grants_named(&t), vec![(5, "Client A", 0), (1_105, "Client B", 0), (1_935, "Client C", 0)]);
    assert_eq!(writes(&t), vec![ok(1_915, "Client B", 0, "B", 1), ok(1_995, "Client C", 0, "C", 2)]);
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_110)]);
}

fn renewal_failures(t: &lockstep::engine::Trace) -> Vec<(u64, bool)> {
    t.events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::RenewalFailed { abort, .. } => Some((e.at_ms.as_ms(), abort)),
            _ => None,
        })
        .collect()
}

#[test]
fn failed_renewal_with_abort_stops_before_writing() {
    let t = run_lesson("redis-renewal-abort");
    assert_eq!(renewal_failures(&t), vec![(820, true)]);
    assert_eq!(ends(&t), vec![end(1_315, 0, "Expired"), end(1_475, 0, "Released")]);
    assert_eq!(writes(&t), vec![ok(1_465, "Client B", 0, "B", 1)], "A never writes");
    assert!(t.verdict.safe);
    assert!(findings(&t).is_empty());
}

#[test]
fn failed_renewal_with_carry_on_overwrites_the_next_holder() {
    let t = run_lesson("redis-renewal-carry-on");
    assert_eq!(renewal_failures(&t), vec![(820, false), (1_320, false), (1_820, false)]);
    assert_eq!(writes(&t), vec![ok(1_465, "Client B", 0, "B", 1), ok(2_015, "Client A", 0, "A", 2)]);
    assert!(!t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_410), (StaleWriteAccepted, 2_015), (OutOfOrder, 2_015)]);
}

#[test]
fn a_random_value_gives_the_fenced_resource_nothing_to_compare() {
    let t = run_lesson("redis-value-not-token");
    assert_eq!(grants_named(&t), vec![(5, "Client A", 0), (1_105, "Client B", 0)]);
    assert_eq!(writes(&t), vec![ok(1_165, "Client B", 0, "B", 1), ok(1_555, "Client A", 0, "A", 2)]);
    assert!(!t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_110), (StaleWriteAccepted, 1_555), (OutOfOrder, 1_555)]);
}

#[test]
fn an_incr_counter_is_a_fencing_token() {
    let t = run_lesson("redis-incr-token");
    assert_eq!(grants_named(&t), vec![(5, "Client A", 1), (1_105, "Client B", 2)]);
    assert_eq!(writes(&t), vec![ok(1_165, "Client B", 2, "B", 1), rejected(1_555, "Client A", 1, "A", "token 1 < 2")]);
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_110), (StaleWriteRejected, 1_555)]);
}

#[test]
fn an_idempotent_job_makes_duplicate_work_harmless() {
    let t = run_lesson("redis-idempotent-job");
    assert_eq!(writes(&t), vec![ok(1_165, "Worker B", 0, "job-7", 1), rejected(1_555, "Worker A", 0, "job-7", "job-7 already applied")]);
    assert!(t.verdict.safe);
}

#[test]
fn metrics_count_contention_expiries_renewal_failures_and_duplicates() {
    use lockstep::engine::Metrics;
    let m = |id| run_lesson(id).trace.metrics;
    assert_eq!(
        m("redis-idempotent-job"),
        Metrics { acquire_requests: 2, expiries: 1, duplicate_work: 1, stale_writes_rejected: 1, ..Metrics::default() }
    );
    assert_eq!(
        m("redis-renewal-carry-on"),
        Metrics { acquire_requests: 2, expiries: 1, renewal_failures: 3, stale_writes_accepted: 1, ..Metrics::default() }
    );
    let safe = m("redis-safe-release");
    assert_eq!((safe.acquire_requests, safe.contended, safe.expiries), (6, 3, 1), "C waited three times");
}

#[test]
fn failover_before_replication_gives_the_lock_to_a_second_client() {
    let t = run_lesson("redis-failover");
    assert!(!t.events.iter().any(|e| matches!(e.kind, EventKind::LockReplicated { .. })), "A's key never reached the replica");
    assert_eq!(grants_named(&t), vec![(5, "Client A", 0), (705, "Client B", 0)]);
    let granted_by: Vec<&str> =
        t.events.iter().filter(|e| matches!(e.kind, EventKind::LockGranted { .. })).map(|e| t.name(e.node)).collect();
    assert_eq!(granted_by, vec!["Redis primary", "Redis replica"]);
    assert_eq!(writes(&t), vec![ok(765, "Client B", 0, "B", 1), ok(915, "Client A", 0, "A", 2)]);
    assert!(!t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 710), (StaleWriteAccepted, 915), (OutOfOrder, 915)]);
}

#[test]
fn failover_after_replication_keeps_the_lock() {
    let t = run_lesson("redis-failover-replicated");
    let copied: Vec<u64> =
        t.events.iter().filter(|e| matches!(e.kind, EventKind::LockReplicated { .. })).map(|e| e.at_ms.as_ms()).collect();
    assert_eq!(copied, vec![20]);
    assert_eq!(grants_named(&t), vec![(5, "Client A", 0), (1_035, "Client B", 0)]);
    assert_eq!(writes(&t), vec![ok(915, "Client A", 0, "A", 1), ok(1_095, "Client B", 0, "B", 2)]);
    assert!(t.verdict.safe && t.verdict.findings.is_empty());
    assert_eq!(t.metrics.contended, 3, "B was told busy three times by the promoted replica");
}

#[test]
fn the_key_expires_on_the_redis_nodes_own_clock() {
    // Redis runs 10 % fast and then jumps 100 ms forward: the 1,000 ms key set at true 5 ms
    // (local 5) is due at local 1,005, which this clock reaches at true 823 ms.
    let json = lockstep::scenario::lessons::find("redis-safe-release").unwrap().source;
    let mut v: serde_json::Value = serde_json::from_str(json).unwrap();
    v["participants"][1]["clock"] = serde_json::json!({"drift_ppm": 100000});
    v["faults"] = serde_json::json!([{"fault": "clock_jump", "at_ms": 500, "node": "L", "by_ms": 100}]);
    v["participants"][0]["script"] = serde_json::json!([{"step": "acquire"}, {"step": "work", "ms": 2000}]);
    let t = run_json(&v.to_string());
    let expiry = lease_ends(&t).into_iter().find(|e| e.2 == "Expired").unwrap();
    assert_eq!(expiry.0, 823);
    let local = t.events.iter().find(|e| e.at_ms.as_ms() == 823 && matches!(e.kind, EventKind::LockEnded { .. })).unwrap().local_ms.as_ms();
    assert_eq!(local, 1_005);
}

#[test]
fn set_then_incr_in_two_round_trips_gives_the_stale_holder_the_higher_token() {
    let t = run_lesson("redis-incr-separate");
    // The key goes to A at 5 ms (no token yet), then to B at 1,105 ms and its INCR names token 1;
    // A's INCR after its pause counts 2 but grants nothing: the key is B's.
    assert_eq!(grants(&t), vec![(5, "Client A".into(), 0), (1_105, "Client B".into(), 0), (1_115, "Client B".into(), 1)]);
    assert_eq!(writes(&t), vec![ok(1_522, "Client A", 2, "A", 1), rejected(1_625, "Client B", 1, "B", "token 1 < 2")]);
    // The data is intact: A's stale write comes first in token order, and B, refused, knows its
    // write did not happen. The harm is to the live holder's work, not to the data.
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_517), (StaleWriteAccepted, 1_522), (HolderWriteRejected, 1_625)]);
    // With the INCR in the SET's script, B's token outranks A's: B's write is never refused (A's
    // stale write still lands first, before the resource has seen token 2).
    let atomic = lockstep::scenario::lessons::embedded("redis-incr-separate").unwrap().replace(r#", "incr_separate": true"#, "");
    let t = run_json(&atomic);
    assert_eq!(writes(&t), vec![ok(1_512, "Client A", 1, "A", 1), ok(1_615, "Client B", 2, "B", 2)]);
    assert!(t.verdict.of(HolderWriteRejected).next().is_none());
}

#[test]
fn a_counter_lost_in_failover_hands_the_same_token_out_twice() {
    let t = run_lesson("redis-incr-failover");
    assert_eq!(grants_named(&t), vec![(5, "Client A", 1), (705, "Client B", 1)]);
    // The fenced resource takes A's late token 1 after B's token 1: equal is not lower.
    assert_eq!(writes(&t), vec![ok(765, "Client B", 1, "B", 1), ok(915, "Client A", 1, "A", 2)]);
    assert!(!t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 710), (StaleWriteAccepted, 915), (OutOfOrder, 915)]);
}

/// When and to whom the primary answered WAIT with this many replicas.
fn acked(t: &lockstep::engine::Trace, replicas: u64) -> Vec<(u64, &str)> {
    t.events
        .iter()
        .filter(
            |e| matches!(&e.kind, EventKind::Deliver { msg: Msg::Lock { msg }, .. } if msg.get() == Some(&RedisMsg::Acked { replicas })),
        )
        .map(|e| (e.at_ms.as_ms(), t.name(e.node)))
        .collect()
}

#[test]
fn wait_counts_a_replica_that_is_not_the_one_promoted() {
    let t = run_lesson("redis-wait");
    // A's WAIT 1 is answered once Replica 1 acknowledges; Replica 2 never gets A's key.
    assert_eq!(acked(&t, 1), vec![(40, "Client A"), (5_850, "Client B")]);
    let copies: Vec<(u64, &str)> =
        t.events.iter().filter(|e| matches!(e.kind, EventKind::LockReplicated { .. })).map(|e| (e.at_ms.as_ms(), t.name(e.node))).collect();
    assert_eq!(copies, vec![(20, "Replica 1"), (5_830, "Replica 1")]);
    // Promoted at 250 ms, Replica 2 resyncs Replica 1 after repl-diskless-sync-delay (5 s),
    // and Replica 1 drops the copy WAIT counted.
    assert!(lease_ends(&t).contains(&end(5_265, 0, "Resynced")));
    assert_eq!(grants_named(&t), vec![(5, "Client A", 0), (5_815, "Client B", 0)]);
    assert_eq!(writes(&t), vec![ok(5_905, "Client B", 0, "B", 1), ok(6_045, "Client A", 0, "A", 2)]);
    assert!(!t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 5_850), (StaleWriteAccepted, 6_045), (OutOfOrder, 6_045)]);
    // Had A asked for both replicas, the primary would still be waiting for Replica 2 when it
    // crashed, and A would not have taken the lock. On the promoted Replica 2, before the resync,
    // WAIT 2 answers 0 (at 640 ms); A's key stays all the same (WAIT rolls nothing back), so its
    // own retries are refused and nobody takes the lock: safe, and not live.
    let both = lockstep::scenario::lessons::embedded("redis-wait").unwrap().replace(r#""wait_replicas": 1"#, r#""wait_replicas": 2"#);
    let t = run_json(&both);
    assert_eq!(acked(&t, 0).first(), Some(&(640, "Client A")));
    assert!(!t.events.iter().any(|e| matches!(e.kind, EventKind::BeliefStart { .. })));
    assert!(t.verdict.safe);
}

#[test]
fn a_step_of_the_redis_wall_clock_expires_the_key_at_once() {
    let t = run_lesson("redis-clock-jump");
    // Redis expires keys by its wall clock: the jump at 400 ms ends A's key there and then.
    assert_eq!(lease_ends(&t)[0], (400, 0, "Expired".into()));
    assert_eq!(grants_named(&t), vec![(5, "Client A", 0), (455, "Client B", 0)]);
    assert_eq!(writes(&t), vec![ok(515, "Client B", 0, "B", 1), ok(715, "Client A", 0, "A", 2)]);
    assert!(!t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 460), (StaleWriteAccepted, 715), (OutOfOrder, 715)]);
}

#[test]
fn a_short_partition_holds_the_set_and_delivers_it_after_the_heal() {
    let t = run_lesson("redis-partition-short");
    // A's SET, sent at 100 ms into the cut, arrives at 1,055 ms: B, asking at 300 ms, goes first.
    assert_eq!(grants_named(&t), vec![(305, "Client B", 0), (1_055, "Client A", 0)]);
    assert_eq!(writes(&t), vec![ok(415, "Client B", 0, "B", 1), ok(1_265, "Client A", 0, "A", 2)]);
    // Nothing was lost and nobody hung up: the answer came inside the 2,000 ms socket timeout.
    assert!(!t.events.iter().any(|e| matches!(e.kind, EventKind::Drop { .. } | EventKind::HungUp { .. } | EventKind::GaveUp { .. })));
    let arrived = t.events.iter().find(|e| matches!(&e.kind, EventKind::Deliver { sent_at_ms, .. } if sent_at_ms.as_ms() == 100));
    assert_eq!(arrived.map(|e| e.at_ms.as_ms()), Some(1_055));
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![]);
}

#[test]
fn after_a_long_partition_the_set_of_a_client_that_hung_up_takes_the_key_for_nobody() {
    let t = run_lesson("redis-partition-long");
    // A's socket timeout: it hangs up at 2,100 ms and gives up.
    let at = |pred: fn(&EventKind) -> bool| {
        t.events.iter().filter(|e| pred(&e.kind)).map(|e| (e.at_ms.as_ms(), t.name(e.node))).collect::<Vec<_>>()
    };
    assert_eq!(at(|k| matches!(k, EventKind::HungUp { .. })), vec![(2_100, "Client A")]);
    assert_eq!(at(|k| matches!(k, EventKind::GaveUp { .. })), vec![(2_100, "Client A")]);
    // Its SET still lands after the heal at 5,050 ms; the OK dies on the closed connection.
    assert_eq!(grants_named(&t), vec![(5_055, "Client A", 0), (15_605, "Client B", 0)]);
    let closed = t.events.iter().filter(|e| matches!(e.kind, EventKind::Drop { reason: DropReason::ConnectionClosed, .. }));
    assert_eq!(closed.map(|e| (e.at_ms.as_ms(), t.name(e.node))).collect::<Vec<_>>(), vec![(5_060, "Client A")]);
    assert!(!t.events.iter().any(|e| e.node.0 == 0 && matches!(e.kind, EventKind::BeliefStart { .. })), "A never believes it holds it");
    // B is refused ten times by a key nobody holds, until it expires at 15,055 ms.
    assert_eq!(lease_ends(&t)[0], (15_055, 0, "Expired".into()));
    assert_eq!(t.metrics.contended, 10);
    assert_eq!(writes(&t), vec![ok(15_715, "Client B", 0, "B", 1)]);
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![]);
}
