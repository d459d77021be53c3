//! The PostgreSQL advisory-lock lessons, asserted exactly: when sessions end, who gets the lock,
//! which writes commit, and how long a waiter stalls without a timeout.

mod support;

use lockstep::design::postgres::PgMsg;
use lockstep::engine::msg::Msg;
use lockstep::engine::{Event, EventKind};
use lockstep::scenario::lessons;

/// Says whether the event is the delivery or sending of `pg`.
fn carries(e: &Event, pg: PgMsg) -> bool {
    matches!(&e.kind, EventKind::Send { msg: Msg::Lock { msg }, .. } | EventKind::Deliver { msg: Msg::Lock { msg }, .. } if msg.get() == Some(&pg))
}
use lockstep::engine::FindingKind::*;
use support::*;

#[test]
fn a_terminated_session_cannot_commit_in_the_same_database() {
    let t = run_lesson("pg-same-database");
    assert_eq!(grants_named(&t), vec![(5, "Client A", 0), (1_005, "Client B", 0)]);
    assert_eq!(lease_ends(&t)[0], (1_005, 0, "Expired".into()), "the session ended after 1,000 ms of silence");
    assert_eq!(
        writes(&t),
        vec![ok(1_065, "Client B", 0, "B", 1), rejected(1_555, "Client A", 0, "A", "session terminated: cannot commit")]
    );
    let judged_by: Vec<&str> = t
        .events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::WriteAccepted { .. } | EventKind::WriteRejected { .. }))
        .map(|e| t.name(e.node))
        .collect();
    assert_eq!(judged_by, vec!["PostgreSQL", "PostgreSQL"], "the rows live in the database");
    assert!(t.verdict.safe);
}

#[test]
fn an_external_resource_takes_the_stale_write() {
    let t = run_lesson("pg-external");
    assert_eq!(writes(&t), vec![ok(1_065, "Client B", 0, "B", 1), ok(1_555, "Client A", 0, "A", 2)]);
    assert!(!t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_010), (StaleWriteAccepted, 1_555), (OutOfOrder, 1_555)]);
}

#[test]
fn without_a_timeout_the_waiter_stalls_until_the_holder_wakes() {
    let t = run_lesson("pg-no-timeout");
    let blocked =
        t.events.iter().find(|e| matches!(e.kind, EventKind::Deliver { .. }) && carries(e, PgMsg::Waiting)).map(|e| e.at_ms.as_ms());
    assert_eq!(blocked, Some(30));
    assert_eq!(grants_named(&t), vec![(5, "Client A", 0), (5_065, "Client B", 0)], "B waited five seconds");
    assert_eq!(writes(&t), vec![ok(5_055, "Client A", 0, "A", 1), ok(5_125, "Client B", 0, "B", 2)]);
    assert!(t.verdict.safe && t.verdict.findings.is_empty());
    assert_eq!(t.metrics.expiries, 0);
}

#[test]
fn one_commit_releases_a_stacked_transaction_level_lock() {
    let t = run_lesson("pg-xact-lock");
    assert_eq!(grants_named(&t), vec![(5, "Client A", 0), (135, "Client B", 0)]);
    // A locked twice and never unlocked: its single COMMIT at 135 ended the lock.
    assert_eq!(lease_ends(&t), vec![(135, 0, "Released".into()), (205, 0, "Released".into())]);
    let commits = t.events.iter().filter(|e| matches!(e.kind, EventKind::Send { .. }) && carries(e, PgMsg::Commit)).count();
    assert_eq!(commits, 2);
    assert_eq!(writes(&t), vec![ok(125, "Client A", 0, "A", 1), ok(195, "Client B", 0, "B", 2)]);
    assert!(t.verdict.safe);
    assert!(findings(&t).is_empty());
}

#[test]
fn inside_a_transaction_only_idle_in_transaction_session_timeout_frees_a_paused_holder() {
    // The lesson: A freezes inside its transaction; the in-transaction timeout ends its session
    // at 1,015 ms, B gets the lock, and A's late update cannot commit.
    let t = run_lesson("pg-xact-paused");
    assert_eq!(grants_named(&t), vec![(5, "Client A", 0), (1_015, "Client B", 0)]);
    assert_eq!(lease_ends(&t)[0], (1_015, 0, "Expired".into()));
    assert_eq!(
        writes(&t),
        vec![ok(1_075, "Client B", 0, "B", 1), rejected(1_555, "Client A", 0, "A", "session terminated: cannot commit")]
    );
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_020), (StaleWriteRejected, 1_555)]);
    // idle_session_timeout does not apply inside a transaction: with only it set, nothing ends
    // A's session, and B waits until A wakes and commits.
    let source = lockstep::scenario::lessons::embedded("pg-xact-paused").unwrap();
    let only_session = source.replace("idle_in_transaction_session_timeout_ms", "idle_session_timeout_ms");
    let t = run_json(&only_session);
    assert!(lease_ends(&t).iter().all(|e| e.2 == "Released"), "no session is ended: {:?}", lease_ends(&t));
    let b = grants_named(&t).into_iter().find(|g| g.1 == "Client B").expect("B gets the lock in the end");
    assert!(b.0 > 1_550, "B waits for A to wake: {b:?}");
}

#[test]
fn the_idle_session_timeout_is_named_as_postgresql_names_it_and_old_files_still_load() {
    let new = lockstep::scenario::lessons::embedded("pg-external").unwrap();
    assert!(new.contains("\"idle_session_timeout_ms\": 1000"));
    let old = new.replace("idle_session_timeout_ms", "session_timeout_ms");
    let (a, b) = (run_json(new), run_json(&old));
    assert_eq!(a.events, b.events, "the old name means the same");
    let both = new.replace("\"idle_session_timeout_ms\": 1000", "\"idle_session_timeout_ms\": 1000, \"session_timeout_ms\": 1000");
    let e = lockstep::scenario::load(&both).unwrap_err().to_string();
    assert_eq!(e, "lock.session_timeout_ms: the old name of `idle_session_timeout_ms`: give only `idle_session_timeout_ms`");
}

#[test]
fn a_waiting_session_runs_nothing_else_and_a_terminated_one_runs_nothing_at_all() {
    // Replayed on a real server: a session blocked in pg_advisory_lock cannot run SELECT 1, and
    // after idle_session_timeout ended A's session, its unlock fails with the session.
    let t = run_lesson("pg-same-database");
    let b = t.participants.iter().position(|p| p.name == "Client B").expect("Client B");
    let keep_alives_while_waiting =
        t.events.iter().filter(|e| e.node.0 == b && e.at_ms.as_ms() < 1_010 && carries(e, PgMsg::KeepAlive)).count();
    assert_eq!(keep_alives_while_waiting, 0, "B waits in its lock call");
    let ended: Vec<u64> =
        t.events.iter().filter(|e| t.name(e.node) == "PostgreSQL" && carries(e, PgMsg::SessionEnded)).map(|e| e.at_ms.as_ms()).collect();
    assert_eq!(ended, vec![1_555, 1_565], "A's SELECT 1 and its unlock both fail");
    assert!(!t.events.iter().any(|e| carries(e, PgMsg::Unlocked { done: false, commit: false })));
}

#[test]
fn a_paused_server_handles_a_sessions_statements_in_the_order_they_were_sent() {
    // Found by the failure search: with the server paused from 1,065 to 1,565 ms, B's unlock
    // (sent at 1,560) arrived as the server resumed and was handled before B's UPDATE (sent at
    // 1,060), so the update committed after the lock was gone. A connection delivers in order.
    let lesson = lockstep::scenario::lessons::find("pg-same-database").expect("lesson");
    let mut doc = lockstep::scenario::encode::scenario(&lesson.scenario);
    let fault = r#"{"fault": "pause", "at_ms": 1065, "node": "P", "for_ms": 500}"#;
    let text = lockstep::scenario::json::write(&doc, None).replace(r#""faults":["#, &format!(r#""faults":[{fault},"#));
    assert!(text.contains(fault), "the pause is in the scenario");
    doc = lockstep::scenario::json::parse(&text).expect("valid JSON");
    let ran = run_json(&lockstep::scenario::json::write(&doc, None));
    let handled: Vec<(u64, String)> = ran
        .trace
        .events
        .iter()
        .filter(|e| ran.trace.name(e.node) == "PostgreSQL")
        .filter_map(|e| match &e.kind {
            EventKind::Deliver { from, msg, .. } if ran.trace.name(*from) == "Client B" => Some((e.at_ms.as_ms(), format!("{msg:?}"))),
            _ => None,
        })
        .collect();
    let update = handled.iter().position(|h| h.1.contains("Write")).expect("B's update");
    let unlock = handled.iter().position(|h| h.1.contains("unlock")).expect("B's unlock");
    assert!(update < unlock, "{handled:?}");
    assert!(ran.trace.verdict.safe, "the rows are guarded by the session");
}

#[test]
fn behind_a_transaction_pooler_a_second_client_stacks_onto_the_first_clients_lock() {
    let t = run_lesson("pg-pgbouncer");
    // B's lock call lands on the server connection that holds A's lock and returns at once.
    assert_eq!(grants_named(&t), vec![(5, "Client A", 0), (55, "Client B", 0)]);
    assert_eq!(writes(&t), vec![ok(125, "Client B", 0, "B", 1), ok(225, "Client A", 0, "A", 2)]);
    assert!(!t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 60), (LostUpdate, 225)]);
    // Without the pooler the same scripts take turns.
    let alone = run_json(&lessons::find("pg-pgbouncer").unwrap().source.replace(r#", "pgbouncer_pool_size": 2"#, ""));
    assert!(alone.verdict.safe && findings(&alone).is_empty());
}
