//! Tests of the PostgreSQL server.

use super::*;
use crate::design::pg_wire::PgMsg;
use crate::engine::actor::testing::{self, sent};
use crate::engine::ids::NodeId;
use crate::engine::msg::{Msg, Rejection};
use crate::engine::time::Millis;

fn call(node: &mut PgServer, now: i64, from: usize, msg: PgMsg) -> Vec<(usize, Msg)> {
    sent(&testing::call(node, now, from, Msg::lock(msg)))
}

fn to(client: usize, msg: PgMsg) -> (usize, Msg) {
    (client, Msg::lock(msg))
}

#[test]
fn requests_stack_and_need_as_many_unlocks() {
    let mut pg = PgServer::new(None, false);
    call(&mut pg, 0, 1, PgMsg::Lock);
    call(&mut pg, 1, 1, PgMsg::Lock);
    assert_eq!(call(&mut pg, 2, 2, PgMsg::Lock), vec![to(2, PgMsg::Waiting)]);
    assert_eq!(call(&mut pg, 3, 1, PgMsg::Unlock), vec![to(1, PgMsg::Unlocked { done: true, commit: false })]);
    assert_eq!(pg.holder, Some((NodeId(1), 1)), "still held once");
    let out = call(&mut pg, 4, 1, PgMsg::Unlock);
    assert_eq!(out[0], to(2, PgMsg::Locked), "the waiter gets it after the second unlock");
    assert_eq!(call(&mut pg, 5, 1, PgMsg::Unlock), vec![to(1, PgMsg::Unlocked { done: false, commit: false })]);
}

#[test]
fn a_silent_session_ends_and_its_locks_go_with_it() {
    let mut pg = PgServer::new(Some(Millis::from_ms(1000)), false);
    call(&mut pg, 0, 1, PgMsg::Lock);
    call(&mut pg, 10, 2, PgMsg::Lock);
    call(&mut pg, 900, 2, PgMsg::KeepAlive);
    assert!(call(&mut pg, 1000, 2, PgMsg::KeepAlive).contains(&to(2, PgMsg::Locked)));
    // The dead session's transaction cannot commit.
    let w = sent(&testing::call(&mut pg, 1500, 1, Msg::Write { token: 0, value: "A".into(), expected_version: None }));
    assert_eq!(w, vec![(1, Msg::WriteRejected { reason: Rejection::Guard { token: 0 } })]);
}

#[test]
fn a_waiting_session_is_busy_not_idle_and_its_idle_time_starts_at_the_grant() {
    let mut pg = PgServer::new(Some(Millis::from_ms(1000)), false);
    call(&mut pg, 0, 1, PgMsg::Lock);
    call(&mut pg, 10, 2, PgMsg::Lock);
    // A's session ends at 1,000; B, silent in its lock call since 10, gets the lock.
    call(&mut pg, 1000, 3, PgMsg::KeepAlive);
    assert_eq!(pg.holder, Some((NodeId(2), 1)));
    assert_eq!(call(&mut pg, 1900, 2, PgMsg::KeepAlive), vec![to(2, PgMsg::Alive)], "idle since the grant, not since 10");
}

#[test]
fn nothing_runs_on_a_terminated_session() {
    let mut pg = PgServer::new(Some(Millis::from_ms(1000)), false);
    call(&mut pg, 0, 1, PgMsg::Lock);
    call(&mut pg, 1000, 2, PgMsg::KeepAlive);
    assert_eq!(call(&mut pg, 1001, 1, PgMsg::Unlock), vec![to(1, PgMsg::SessionEnded)]);
    // A new lock call is a new connection and a new session.
    assert_eq!(call(&mut pg, 1002, 1, PgMsg::Lock), vec![to(1, PgMsg::Locked)]);
}

#[test]
fn a_restart_fails_every_waiting_lock_call() {
    let mut pg = PgServer::new(None, false);
    call(&mut pg, 0, 1, PgMsg::Lock);
    call(&mut pg, 1, 2, PgMsg::Lock);
    let out = sent(&testing::restart(&mut pg, 10));
    assert_eq!(out, vec![to(2, PgMsg::SessionEnded)], "the waiter's connection was reset");
    assert_eq!(call(&mut pg, 11, 1, PgMsg::Unlock), vec![to(1, PgMsg::SessionEnded)], "the holder's session is gone");
    assert_eq!(call(&mut pg, 12, 2, PgMsg::Lock), vec![to(2, PgMsg::Locked)], "a new session takes the free lock");
}

#[test]
fn one_commit_releases_every_transaction_level_lock() {
    let mut pg = PgServer::new(None, true);
    call(&mut pg, 0, 1, PgMsg::Lock);
    call(&mut pg, 1, 1, PgMsg::Lock);
    assert_eq!(call(&mut pg, 2, 2, PgMsg::Lock), vec![to(2, PgMsg::Waiting)]);
    // pg_advisory_unlock cannot release a transaction-level lock.
    assert_eq!(call(&mut pg, 3, 1, PgMsg::Unlock), vec![to(1, PgMsg::Unlocked { done: false, commit: false })]);
    assert_eq!(call(&mut pg, 4, 1, PgMsg::Commit)[0], to(2, PgMsg::Locked), "one commit frees both requests");
}

#[test]
fn commit_does_not_release_a_session_level_lock() {
    let mut pg = PgServer::new(None, false);
    call(&mut pg, 0, 1, PgMsg::Lock);
    assert_eq!(call(&mut pg, 1, 1, PgMsg::Commit), vec![to(1, PgMsg::Unlocked { done: false, commit: true })]);
    assert_eq!(pg.holder, Some((NodeId(1), 1)));
}

#[test]
fn without_a_timeout_a_silent_holder_keeps_the_lock() {
    let mut pg = PgServer::new(None, false);
    call(&mut pg, 0, 1, PgMsg::Lock);
    assert_eq!(call(&mut pg, 60_000, 2, PgMsg::Lock), vec![to(2, PgMsg::Waiting)]);
}
