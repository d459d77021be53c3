//! Every lesson's outcome, asserted exactly: who was granted which token when, which writes were
//! accepted or rejected with which token at which simulated time, and the verdict.

mod support;

use lockstep::engine::msg::MsgKind;
use lockstep::engine::FindingKind::*;
use lockstep::engine::{EventKind, Found, NodeId};
use lockstep::scenario::lessons;
use support::*;

#[test]
fn fenced_lease_race_rejects_token_41_after_42() {
    let t = run_lesson("lease-race-fenced");
    assert_eq!(grants(&t), vec![(5, "Client A".into(), 41), (1_105, "Client B".into(), 42)]);
    assert_eq!(lease_ends(&t)[0], (1_005, 41, "Expired".into()));
    assert_eq!(writes(&t), vec![ok(1_165, "Client B", 42, "B", 1), rejected(1_555, "Client A", 41, "A", "token 41 < 42")]);
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_110), (StaleWriteRejected, 1_555)]);
}

#[test]
fn a_fenced_resource_takes_a_stale_write_before_the_new_holders_first_and_loses_it() {
    // Found by the failure search in the fenced race: B is slow to write its first write.
    let t = run_lesson("lease-fenced-first-write");
    assert_eq!(grants(&t), vec![(5, "Client A".into(), 41), (1_105, "Client B".into(), 42)]);
    assert_eq!(writes(&t), vec![ok(1_555, "Client A", 41, "A", 1), ok(1_725, "Client B", 42, "B", 2)]);
    assert!(!t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_110), (StaleWriteAccepted, 1_555), (LostUpdate, 1_725)]);
    // The harm names the operations: B's write was based on version 0, and A's write (version 1)
    // is what it erased.
    let a_write = t.events.iter().position(|e| matches!(e.kind, EventKind::WriteAccepted { token: 41, .. })).unwrap();
    let lost = t.verdict.of(LostUpdate).next().unwrap();
    assert_eq!(lost.found, Found::LostUpdate { writer: NodeId(3), read: 0, found: 1, erased: vec![a_write] });
}

#[test]
fn a_stale_blind_write_before_the_new_holder_s_first_is_let_in_and_harms_nothing() {
    let t = run_lesson("lease-fenced-blind-first");
    assert_eq!(grants(&t), vec![(5, "Client A".into(), 41), (1_105, "Client B".into(), 42)]);
    assert_eq!(writes(&t), vec![ok(1_555, "Client A", 41, "A", 1), ok(1_715, "Client B", 42, "B", 2)]);
    assert!(t.verdict.safe, "in token order, nothing read is lost");
    assert_eq!(findings(&t), vec![(TwoHolders, 1_110), (StaleWriteAccepted, 1_555)]);
}

#[test]
fn unfenced_lease_race_loses_b_update() {
    let t = run_lesson("lease-race-unfenced");
    assert_eq!(grants(&t), vec![(5, "Client A".into(), 41), (1_105, "Client B".into(), 42)]);
    assert_eq!(writes(&t), vec![ok(1_165, "Client B", 42, "B", 1), ok(1_555, "Client A", 41, "A", 2)]);
    assert!(!t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_110), (StaleWriteAccepted, 1_555), (OutOfOrder, 1_555)]);
}

#[test]
fn checking_the_lease_first_does_not_stop_a_pause_after_the_check() {
    let t = run_lesson("lease-check-before-write");
    let checks: Vec<_> = t
        .events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::LockChecked { token, left_ms, margin_ms, ok } => Some((e.at_ms.as_ms(), token, left_ms, margin_ms.as_ms(), ok)),
            _ => None,
        })
        .collect();
    assert_eq!(checks, vec![(410, Some(41), Some(590), 300, true)], "590 ms left of the lease, more than the 300 ms margin");
    assert_eq!(grants(&t), vec![(5, "Client A".into(), 41), (1_105, "Client B".into(), 42)]);
    assert_eq!(writes(&t), vec![ok(1_165, "Client B", 42, "B", 1), ok(1_925, "Client A", 41, "A", 2)]);
    assert!(!t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_110), (StaleWriteAccepted, 1_925), (OutOfOrder, 1_925)]);
    // The same client paused before its check finds too little left and stops without writing.
    let before = lockstep::scenario::lessons::embedded("lease-check-before-write")
        .unwrap()
        .replace(r#""at_ms": 420"#, r#""at_ms": 100"#)
        .replace(r#""for_ms": 1500"#, r#""for_ms": 700"#);
    let t = run_json(&before);
    assert!(
        t.events.iter().any(|e| matches!(e.kind, EventKind::LockChecked { ok: false, left_ms: Some(200), .. })),
        "checked at 800 ms, as it resumes: 200 ms left"
    );
    assert!(t.events.iter().any(|e| matches!(e.kind, EventKind::BeliefEnd { why: lockstep::engine::event::BeliefEnd::CheckFailed, .. })));
    assert!(writes(&t).iter().all(|w| w.1 != "Client A"), "A never writes");
    assert!(t.verdict.safe);
}

#[test]
fn short_pause_is_safe_and_serial() {
    let t = run_lesson("short-pause");
    assert_eq!(grants(&t), vec![(5, "Client A".into(), 41), (815, "Client B".into(), 42)]);
    assert_eq!(writes(&t), vec![ok(555, "Client A", 41, "A", 1), ok(875, "Client B", 42, "B", 2)]);
    assert_eq!(lease_ends(&t)[0], (565, 41, "Released".into()));
    assert!(t.verdict.safe);
    assert!(findings(&t).is_empty(), "no hazard at all: {:?}", findings(&t));
}

#[test]
fn clock_jump_expires_the_lease_early() {
    let t = run_lesson("clock-jump");
    // The lease should have lasted until local 1,005; the jump at 400 ends it at once.
    assert_eq!(lease_ends(&t)[0], (400, 41, "Expired".into()));
    assert_eq!(grants(&t), vec![(5, "Client A".into(), 41), (455, "Client B".into(), 42)]);
    assert_eq!(writes(&t), vec![ok(515, "Client B", 42, "B", 1), rejected(715, "Client A", 41, "A", "token 41 < 42")]);
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 460), (StaleWriteRejected, 715)]);
}

#[test]
fn delayed_write_arrives_after_the_next_holder() {
    let t = run_lesson("network-delay");
    let sent = t.narration().iter().position(|text| text.starts_with("Client A sends a write")).expect("A sends a write");
    assert_eq!(t.events[sent].at_ms.as_ms(), 110, "A's write leaves inside its lease");
    assert_eq!(lease_ends(&t)[0], (1_005, 41, "Expired".into()));
    assert_eq!(writes(&t), vec![ok(1_115, "Client B", 42, "B", 1), rejected(1_315, "Client A", 41, "A", "token 41 < 42")]);
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_060), (StaleWriteRejected, 1_315)]);
}

#[test]
fn conditional_write_rejects_by_version() {
    let t = run_lesson("conditional-write");
    assert_eq!(writes(&t), vec![ok(1_175, "Client B", 42, "B", 1), rejected(1_555, "Client A", 41, "A", "expected version 0, found 1")]);
    assert!(t.verdict.safe);
}

#[test]
fn without_a_lock_a_read_modify_write_loses_an_update() {
    let t = run_lesson("no-lock-lost-update");
    assert!(grants(&t).is_empty(), "there is no lock service");
    assert_eq!(writes(&t), vec![ok(85, "Client B", 0, "balance 150 (B)", 1), ok(115, "Client A", 0, "balance 150 (A)", 2)]);
    assert!(!t.verdict.safe);
    assert_eq!(findings(&t), vec![(LostUpdate, 115)]);
    let text = t.words().finding(&t.verdict.findings[0]);
    assert!(text.contains("based on version 0"), "{text}");
}

#[test]
fn optimistic_version_refuses_the_write_based_on_old_data() {
    let t = run_lesson("optimistic-version");
    assert_eq!(
        writes(&t),
        vec![ok(85, "Client B", 0, "balance 150 (B)", 1), rejected(115, "Client A", 0, "balance 150 (A)", "expected version 0, found 1")]
    );
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![(StaleWriteRejected, 115)]);
}

#[test]
fn unique_constraint_lets_one_insert_in() {
    let t = run_lesson("unique-constraint");
    assert_eq!(
        writes(&t),
        vec![
            ok(75, "Worker B", 0, "order-7", 1),
            rejected(105, "Worker A", 0, "order-7", "duplicate key order-7 violates unique constraint")
        ]
    );
    assert!(t.verdict.safe);
}

#[test]
fn idempotency_table_applies_a_redelivered_job_once() {
    let t = run_lesson("idempotency-table");
    assert_eq!(writes(&t), vec![ok(545, "Worker B", 0, "job-7", 1), rejected(1_025, "Worker A", 0, "job-7", "job-7 already applied")]);
    assert!(t.verdict.safe);
    assert_eq!(t.metrics.duplicate_work, 1);
}

#[test]
fn partitioned_queue_fences_the_consumer_that_lost_its_partition() {
    let t = run_lesson("partitioned-queue");
    // Both join within the initial rebalance delay: one generation, partition 0 to Consumer 1.
    assert_eq!(grants(&t), vec![(105, "Consumer 1".into(), 1), (1_355, "Consumer 2".into(), 2)]);
    assert_eq!(lease_ends(&t)[0], (1_105, 1, "Expired".into()));
    assert!(!t.events.iter().any(|e| matches!(&e.kind, EventKind::Send { msg, .. } if msg.kind() == MsgKind::Busy)), "no join is refused");
    // The stale commit comes before the new owner's and is refused all the same.
    assert_eq!(
        writes(&t),
        vec![rejected(1_855, "Consumer 1", 1, "order-7 offset 8", "UNKNOWN_MEMBER_ID"), ok(2_065, "Consumer 2", 2, "order-7 offset 8", 1)]
    );
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_360), (StaleWriteRejected, 1_855)]);
}

#[test]
fn outbox_relay_publishes_twice_and_the_consumer_applies_once() {
    let t = run_lesson("transactional-outbox");
    assert_eq!(writes(&t), vec![ok(5, "Outbox relay", 0, "msg-7", 1), rejected(305, "Outbox relay", 0, "msg-7", "msg-7 already applied")]);
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![(StaleWriteRejected, 305)]);
}

/// When each compensation undid which value, and whose.
fn undone(t: &Ran) -> Vec<(u64, &str, &str)> {
    t.events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::WriteUndone { writer, value, .. } => Some((e.at_ms.as_ms(), t.name(*writer), &**value)),
            _ => None,
        })
        .collect()
}

#[test]
fn two_sagas_each_undo_their_first_step_and_neither_trip_is_booked() {
    let t = run_lesson("saga-compensation");
    let dup = |v: &str| format!("duplicate key {v} violates unique constraint");
    assert_eq!(
        writes(&t),
        vec![
            ok(5, "Ann's trip", 0, "room 101", 1),
            ok(11, "Bo's trip", 0, "seat 12A", 1),
            rejected(15, "Ann's trip", 0, "seat 12A", &dup("seat 12A")),
            rejected(21, "Bo's trip", 0, "room 101", &dup("room 101")),
        ]
    );
    assert_eq!(undone(&t), vec![(25, "Ann's trip", "room 101"), (31, "Bo's trip", "seat 12A")]);
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![(StaleWriteRejected, 15), (StaleWriteRejected, 21)]);
    // Bo starting once Ann's trip is booked: Bo's seat is refused, so Bo's saga skips its room
    // and has nothing of its own to undo.
    let later = lessons::embedded("saga-compensation").unwrap().replace(r#""start_ms": 6"#, r#""start_ms": 40"#);
    let t = run_json(&later);
    assert_eq!(
        writes(&t),
        vec![
            ok(5, "Ann's trip", 0, "room 101", 1),
            ok(15, "Ann's trip", 0, "seat 12A", 1),
            rejected(45, "Bo's trip", 0, "seat 12A", &dup("seat 12A"))
        ]
    );
    assert!(undone(&t).is_empty());
    // A compensation undoes only its saga's own row: a hotel that forgot the room in a restart
    // refuses Ann's undo, and nothing else is removed.
    let mut v: serde_json::Value = serde_json::from_str(lessons::embedded("saga-compensation").unwrap()).unwrap();
    v["faults"] = serde_json::json!([{"fault": "crash", "at_ms": 22, "node": "H"}, {"fault": "restart", "at_ms": 24, "node": "H", "keep_state": false}]);
    let t = run_json(&v.to_string());
    assert!(writes(&t).contains(&rejected(25, "Ann's trip", 0, "room 101", "no room 101 of yours to undo")));
    assert_eq!(undone(&t), vec![(31, "Bo's trip", "seat 12A")]);
    // A hotel that is down leaves Bo's room unanswered: Bo's saga counts the step as failed and
    // undoes its seat all the same.
    v["faults"] = serde_json::json!([{"fault": "crash", "at_ms": 20, "node": "H"}]);
    let t = run_json(&v.to_string());
    assert_eq!(undone(&t).iter().map(|u| (u.1, u.2)).collect::<Vec<_>>(), vec![("Bo's trip", "seat 12A")]);
}

#[test]
fn a_results_table_that_restarts_without_its_rows_applies_the_job_twice() {
    // The idempotency table forgets job-7 in a restart between the two deliveries: the late
    // delivery applies the job again, an effect done twice.
    let mut v: serde_json::Value = serde_json::from_str(lessons::embedded("idempotency-table").unwrap()).unwrap();
    let faults = v["faults"].as_array_mut().unwrap();
    faults.push(serde_json::json!({"fault": "crash", "at_ms": 700, "node": "R"}));
    faults.push(serde_json::json!({"fault": "restart", "at_ms": 710, "node": "R", "keep_state": false}));
    let t = run_json(&v.to_string());
    assert_eq!(writes(&t), vec![ok(545, "Worker B", 0, "job-7", 1), ok(1_025, "Worker A", 0, "job-7", 1)]);
    assert!(!t.verdict.safe);
    assert_eq!(findings(&t), vec![(DuplicateEffect, 1_025)]);
    let first = t.events.iter().position(|e| matches!(e.kind, EventKind::WriteAccepted { .. })).unwrap();
    assert_eq!(
        t.verdict.of(DuplicateEffect).next().unwrap().found,
        Found::DuplicateEffect { writer: NodeId(0), value: "job-7".into(), first }
    );
}

#[test]
fn every_lesson_has_metadata_and_an_outcome_test() {
    // Adding a lesson means adding its outcome test (here or in tests/redis.rs, zookeeper.rs, etcd.rs, postgres.rs,
    // kubernetes.rs, redlock.rs), then its id below.
    let ids: Vec<String> = lessons::all().iter().map(|l| l.id().to_string()).collect();
    assert_eq!(
        ids,
        [
            "lease-race-unfenced",
            "lease-race-fenced",
            "lease-fenced-blind-first",
            "lease-fenced-first-write",
            "lease-check-before-write",
            "short-pause",
            "clock-jump",
            "network-delay",
            "no-lock-lost-update",
            "optimistic-version",
            "conditional-write",
            "unique-constraint",
            "idempotency-table",
            "partitioned-queue",
            "transactional-outbox",
            "saga-compensation",
            "redis-del-release",
            "redis-safe-release",
            "redis-partition-short",
            "redis-partition-long",
            "redis-renewal-carry-on",
            "redis-renewal-abort",
            "redis-value-not-token",
            "redis-incr-token",
            "redis-incr-separate",
            "redis-idempotent-job",
            "redis-failover",
            "redis-failover-replicated",
            "redis-wait",
            "redis-incr-failover",
            "redis-clock-jump",
            "zk-herd",
            "zk-queue",
            "zk-session-expiry-unchecked",
            "zk-session-expiry",
            "zk-safe-mode",
            "etcd-unchecked",
            "etcd-lease-expires",
            "etcd-txn-guard",
            "etcd-clock-jump",
            "pg-external",
            "pg-same-database",
            "pg-no-timeout",
            "pg-xact-lock",
            "pg-xact-paused",
            "pg-pgbouncer",
            "k8s-paused-leader",
            "k8s-fenced",
            "k8s-no-release",
            "k8s-clock-rate",
            "k8s-clock-rate-tolerated",
            "consul-lock-delay",
            "consul-lockindex",
            "chubby-sequencer",
            "dynamodb-slow-clock",
            "dynamodb-fence-attribute",
            "hazelcast-session-expiry",
            "s3-create-once",
            "s3-stale-writer-412",
            "redlock-happy",
            "redlock-clock-jump",
            "redlock-pause",
            "redlock-pause-checked",
            "redlock-restart",
            "redlock-delayed-restart",
            "redlock-slow-acquisition",
            "redisson-watchdog-stops",
            "redisson-fenced-watchdog",
            "redisson-fenced-failover"
        ]
    );
    for l in lessons::all() {
        let s = &l.scenario;
        assert!(!s.title.is_empty() && !s.topic.is_empty() && s.intro.len() > 80 && !s.takeaway.is_empty(), "{}", s.id);
        // A lesson states its guarantees, or shows its design's.
        let g = s.guarantees();
        assert!(g.safety.len() > 40 && g.liveness.len() > 20 && g.assumes.len() > 20, "{}", s.id);
    }
}

/// A lesson's setup says what happens before the fault, not what it causes: no intro tells which write was accepted or
/// rejected, what became of the data, or who ended up with the lock. That is the takeaway's to tell, after the run.
#[test]
fn a_setup_says_what_happens_before_the_fault_not_what_it_causes() {
    // Words that tell an outcome. A resource's configuration is said without them: "checks nothing", "accepts every
    // write", "accepts no token lower than the highest it has accepted".
    const TELLING: [&str; 20] = [
        "reject",
        "refuse",
        "overwrit",
        "lost update",
        "loses an update",
        "is lost",
        "lands",
        "landed",
        "unsafe",
        "harm",
        "two holders",
        "stale write",
        "silently",
        "anyway",
        "wins",
        "erase",
        "still believ",
        "expires at once",
        "cannot commit",
        "correctly",
    ];
    let mut told = Vec::new();
    for l in lessons::all() {
        let intro = l.scenario.intro.to_lowercase();
        for word in TELLING.iter().filter(|w| intro.contains(*w)) {
            told.push(format!("{}: the setup says “{word}”, which tells the outcome", l.id()));
        }
    }
    assert!(told.is_empty(), "{}", told.join("\n"));
}

/// A takeaway is read at the run's end, in the caption band under the diagram: it fits there, in at most 400 characters.
#[test]
fn a_takeaway_fits_the_caption_under_the_run() {
    let long: Vec<String> = lessons::all()
        .iter()
        .map(|l| (l.id(), l.scenario.takeaway.chars().count()))
        .filter(|&(_, n)| n > 400)
        .map(|(id, n)| format!("{id}: the takeaway is {n} characters, more than the 400 the caption holds"))
        .collect();
    assert!(long.is_empty(), "{}", long.join("\n"));
}

/// A lesson's title is shown above the diagram from the start, so it names the situation (the design, the mechanism,
/// the fault), not what it causes: no title tells which write is accepted or rejected, what becomes of the data, or who
/// holds, loses or waits for the lock, which would give the predictions away.
#[test]
fn a_title_names_the_situation_not_its_outcome() {
    // Words that tell an outcome (or a lesson's verdict) in a title, matched where a word starts ("closes" is not "loses").
    const TELLING: [&str; 25] = [
        "harm",
        "reject",
        "refuse",
        "lands",
        "loses",
        "lost",
        "breaks",
        "does not",
        "not a ",
        "not close",
        "waits",
        "stops",
        "two holders",
        "unsafe",
        "safe:",
        "frees",
        "ends at",
        "early",
        "too slow",
        "repeats",
        "412",
        "wake-up",
        "undoes",
        "needs no",
        "room for",
    ];
    let mut told = Vec::new();
    for l in lessons::all() {
        let title = l.scenario.title.to_lowercase();
        let says = |w: &str| title.match_indices(w).any(|(i, _)| !title[..i].ends_with(char::is_alphanumeric));
        for word in TELLING.iter().filter(|w| says(w)) {
            told.push(format!("{}: the title says “{word}”, which tells the outcome", l.id()));
        }
    }
    assert!(told.is_empty(), "{}", told.join("\n"));
}
