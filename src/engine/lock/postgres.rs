//! PostgreSQL advisory locks. Session-level (`pg_advisory_lock`, `pg_advisory_unlock`): held until
//! unlocked or until the session ends; requests from the same session stack, each needing its own
//! unlock. Transaction-level (`pg_advisory_xact_lock`): released all at once when the transaction
//! commits or rolls back, and `pg_advisory_unlock` cannot release them. A waiter blocks until the
//! lock is free. A session ends when the server stops hearing from the client for
//! `session_timeout_ms` (TCP keepalives or `idle_session_timeout`), and then
//! `pg_advisory_unlock_all` runs implicitly. There is no fencing token.
//!
//! When the protected rows live in the same database, writes go to this node and commit only
//! inside a live session: a client whose session was terminated cannot commit.
//!
//! Simplifications, said in the lessons: keepalives are client heartbeats; a client holds one
//! kind of lock, and its writes apply at once rather than at commit.

use crate::engine::actor::{Actor, Cx, Timer};
use crate::engine::ids::NodeId;
use crate::engine::msg::{Msg, ReleaseMode};
use crate::engine::trace::{EventKind, LeaseEnd};
use std::collections::VecDeque;

/// A PostgreSQL server holding one advisory lock key.
pub struct PgLock {
    session_timeout_ms: Option<u64>,
    /// Whether locks are transaction-level (`pg_advisory_xact_lock`).
    transaction_level: bool,
    /// Live sessions and when the server last heard from each, on its clock.
    sessions: Vec<(NodeId, i64)>,
    /// The holder and how many times its session has locked the key.
    holder: Option<(NodeId, u32)>,
    waiters: VecDeque<NodeId>,
    /// The version of the rows kept in this database.
    version: u64,
}

impl PgLock {
    /// Builds a server; without a timeout, sessions of silent clients never end.
    pub fn new(session_timeout_ms: Option<u64>, transaction_level: bool) -> Self {
        PgLock { session_timeout_ms, transaction_level, sessions: Vec::new(), holder: None, waiters: VecDeque::new(), version: 0 }
    }

    fn heard(&mut self, cx: &mut Cx, client: NodeId) {
        match self.sessions.iter_mut().find(|s| s.0 == client) {
            Some(s) => s.1 = cx.now,
            None => self.sessions.push((client, cx.now)),
        }
        if let Some(t) = self.session_timeout_ms {
            cx.at(Timer::LeaseExpiry(client.0 as u64), cx.now + t as i64);
        }
    }

    fn alive(&self, client: NodeId) -> bool {
        self.sessions.iter().any(|s| s.0 == client)
    }

    fn grant(&mut self, cx: &mut Cx, client: NodeId) {
        self.holder = Some((client, 1));
        let expires_local = self.session_timeout_ms.map_or(i64::MAX, |t| cx.now + t as i64);
        cx.note(EventKind::LeaseGranted { token: 0, holder: client, expires_local });
        cx.send(client, Msg::Granted { token: 0, ttl_ms: self.session_timeout_ms.unwrap_or(0) });
    }

    /// Frees the lock and hands it to the first waiter whose session still lives.
    fn free(&mut self, cx: &mut Cx, how: LeaseEnd) {
        if let Some((holder, _)) = self.holder.take() {
            cx.note(EventKind::LeaseEnded { token: 0, holder, how });
        }
        while let Some(next) = self.waiters.pop_front() {
            if self.alive(next) {
                return self.grant(cx, next);
            }
        }
    }

    /// Ends the sessions the server has not heard from in time, unlocking all they held.
    fn end_silent_sessions(&mut self, cx: &mut Cx) {
        let Some(t) = self.session_timeout_ms else { return };
        let silent: Vec<NodeId> = self.sessions.iter().filter(|s| cx.now - s.1 >= t as i64).map(|s| s.0).collect();
        for client in silent {
            self.sessions.retain(|s| s.0 != client);
            self.waiters.retain(|w| *w != client);
            if self.holder.is_some_and(|h| h.0 == client) {
                self.free(cx, LeaseEnd::Expired);
            }
        }
    }
}

impl Actor for PgLock {
    fn on_start(&mut self, _cx: &mut Cx) {}

    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &Msg) {
        self.end_silent_sessions(cx);
        let alive = self.alive(from);
        match msg {
            Msg::Write { token, value, .. } if !alive => {
                let reason = "session terminated: cannot commit".to_string();
                cx.note(EventKind::WriteRejected { writer: from, token: *token, value: value.clone(), reason: reason.clone() });
                cx.send(from, Msg::WriteRejected { reason });
            }
            Msg::Write { token, value, .. } => {
                self.heard(cx, from);
                self.version += 1;
                cx.note(EventKind::WriteAccepted { writer: from, token: *token, value: value.clone(), version: self.version });
                cx.send(from, Msg::WriteAccepted { version: self.version });
            }
            Msg::KeepAlive if alive => {
                self.heard(cx, from);
                cx.send(from, Msg::Renewed { token: 0, ttl_ms: self.session_timeout_ms.unwrap_or(0) });
            }
            Msg::KeepAlive => cx.send(from, Msg::SessionExpired),
            Msg::Acquire { .. } => {
                self.heard(cx, from);
                match self.holder {
                    None => self.grant(cx, from),
                    // Requests stack: the same session must unlock as many times.
                    Some((h, n)) if h == from => {
                        self.holder = Some((h, n + 1));
                        cx.send(from, Msg::Granted { token: 0, ttl_ms: self.session_timeout_ms.unwrap_or(0) });
                    }
                    Some(_) => {
                        self.waiters.push_back(from);
                        cx.send(from, Msg::Blocked);
                    }
                }
            }
            Msg::Release { token, mode, .. } => {
                // COMMIT releases transaction-level locks (however often they were taken) and
                // never session-level ones; pg_advisory_unlock the other way round.
                let commit = *mode == ReleaseMode::Commit;
                let released = match self.holder {
                    Some((h, _)) if h == from && alive && commit && self.transaction_level => {
                        self.free(cx, LeaseEnd::Released);
                        true
                    }
                    Some((h, n)) if h == from && alive && !commit && !self.transaction_level => {
                        if n > 1 {
                            self.holder = Some((h, n - 1));
                        } else {
                            self.free(cx, LeaseEnd::Released);
                        }
                        true
                    }
                    // pg_advisory_unlock returns false, with a warning, for a lock not held.
                    _ => false,
                };
                cx.send(from, Msg::ReleaseResult { token: *token, released });
            }
            _ => {}
        }
    }

    fn on_timer(&mut self, cx: &mut Cx, timer: Timer) {
        if let Timer::LeaseExpiry(_) = timer {
            self.end_silent_sessions(cx);
        }
    }

    fn on_crash(&mut self, _cx: &mut Cx) {}

    fn on_restart(&mut self, cx: &mut Cx, _keep_state: bool) {
        // A restarted server has no sessions: every advisory lock is gone.
        self.sessions.clear();
        self.waiters.clear();
        self.free(cx, LeaseEnd::LostOnRestart);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::lock::testing::{self, sent};

    fn call(node: &mut PgLock, now: i64, from: usize, msg: Msg) -> Vec<(usize, Msg)> {
        sent(&testing::call(node, now, from, msg))
    }

    fn lock() -> Msg {
        Msg::Acquire { value: 0, px_ms: None }
    }

    fn unlock() -> Msg {
        Msg::Release { token: 0, value: 0, mode: ReleaseMode::Safe }
    }

    #[test]
    fn requests_stack_and_need_as_many_unlocks() {
        let mut pg = PgLock::new(None, false);
        call(&mut pg, 0, 1, lock());
        call(&mut pg, 1, 1, lock());
        assert_eq!(call(&mut pg, 2, 2, lock()), vec![(2, Msg::Blocked)]);
        assert_eq!(call(&mut pg, 3, 1, unlock()), vec![(1, Msg::ReleaseResult { token: 0, released: true })]);
        assert_eq!(pg.holder, Some((NodeId(1), 1)), "still held once");
        let out = call(&mut pg, 4, 1, unlock());
        assert_eq!(out[0], (2, Msg::Granted { token: 0, ttl_ms: 0 }), "the waiter gets it after the second unlock");
        assert_eq!(call(&mut pg, 5, 1, unlock()), vec![(1, Msg::ReleaseResult { token: 0, released: false })]);
    }

    #[test]
    fn a_silent_session_ends_and_its_locks_go_with_it() {
        let mut pg = PgLock::new(Some(1000), false);
        call(&mut pg, 0, 1, lock());
        call(&mut pg, 10, 2, lock());
        call(&mut pg, 900, 2, Msg::KeepAlive);
        let out = call(&mut pg, 1000, 2, Msg::KeepAlive);
        assert!(out.contains(&(2, Msg::Granted { token: 0, ttl_ms: 1000 })));
        // The dead session's transaction cannot commit.
        let w = call(&mut pg, 1500, 1, Msg::Write { token: 0, value: "A".into(), expected_version: None });
        assert!(matches!(&w[0].1, Msg::WriteRejected { .. }));
    }

    #[test]
    fn one_commit_releases_every_transaction_level_lock() {
        let mut pg = PgLock::new(None, true);
        call(&mut pg, 0, 1, lock());
        call(&mut pg, 1, 1, lock());
        assert_eq!(call(&mut pg, 2, 2, lock()), vec![(2, Msg::Blocked)]);
        // pg_advisory_unlock cannot release a transaction-level lock.
        assert_eq!(call(&mut pg, 3, 1, unlock()), vec![(1, Msg::ReleaseResult { token: 0, released: false })]);
        let commit = Msg::Release { token: 0, value: 0, mode: ReleaseMode::Commit };
        let out = call(&mut pg, 4, 1, commit);
        assert_eq!(out[0], (2, Msg::Granted { token: 0, ttl_ms: 0 }), "one commit frees both requests");
    }

    #[test]
    fn a_rollback_at_session_end_releases_a_transaction_level_lock() {
        let mut pg = PgLock::new(Some(1000), true);
        call(&mut pg, 0, 1, lock());
        call(&mut pg, 10, 2, lock());
        call(&mut pg, 900, 2, Msg::KeepAlive);
        let out = call(&mut pg, 1000, 2, Msg::KeepAlive);
        assert!(out.contains(&(2, Msg::Granted { token: 0, ttl_ms: 1000 })));
    }

    #[test]
    fn commit_does_not_release_a_session_level_lock() {
        let mut pg = PgLock::new(None, false);
        call(&mut pg, 0, 1, lock());
        let commit = Msg::Release { token: 0, value: 0, mode: ReleaseMode::Commit };
        assert_eq!(call(&mut pg, 1, 1, commit), vec![(1, Msg::ReleaseResult { token: 0, released: false })]);
        assert_eq!(pg.holder, Some((NodeId(1), 1)));
    }

    #[test]
    fn without_a_timeout_a_silent_holder_keeps_the_lock() {
        let mut pg = PgLock::new(None, false);
        call(&mut pg, 0, 1, lock());
        assert_eq!(call(&mut pg, 60_000, 2, lock()), vec![(2, Msg::Blocked)]);
    }
}
