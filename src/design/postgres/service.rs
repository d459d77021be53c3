//! A PostgreSQL server holding one advisory lock key: sessions, their timeouts, and the rows kept in the same database.

use crate::design::pg_wire::PgMsg;
use crate::engine::actor::{Actor, Cx, Timer};
use crate::engine::event::{EventKind, LockEnd};
use crate::engine::ids::NodeId;
use crate::engine::msg::{Msg, Rejection, WriteValue};
use crate::engine::time::{LocalMillis, Millis};
use std::collections::VecDeque;

/// A PostgreSQL server holding one advisory lock key.
#[derive(Clone, Hash)]
pub struct PgServer {
    idle_timeout_ms: Option<Millis>,
    /// Whether locks are transaction-level (`pg_advisory_xact_lock`).
    transaction_level: bool,
    /// Live sessions and when the server last heard from each, on its clock.
    sessions: Vec<(NodeId, LocalMillis)>,
    /// Sessions the server ended: nothing more runs on them.
    ended: Vec<NodeId>,
    /// The holder and how many times its session has locked the key.
    pub(super) holder: Option<(NodeId, u32)>,
    waiters: VecDeque<NodeId>,
    /// The version of the rows kept in this database.
    version: u64,
}

impl PgServer {
    /// Builds a server; without a timeout, sessions of silent clients never end.
    pub fn new(idle_timeout_ms: Option<Millis>, transaction_level: bool) -> Self {
        PgServer {
            idle_timeout_ms,
            transaction_level,
            sessions: Vec::new(),
            ended: Vec::new(),
            holder: None,
            waiters: VecDeque::new(),
            version: 0,
        }
    }

    fn heard(&mut self, cx: &mut Cx, client: NodeId) {
        match self.sessions.iter_mut().find(|s| s.0 == client) {
            Some(s) => s.1 = cx.now,
            None => self.sessions.push((client, cx.now)),
        }
        if let Some(t) = self.idle_timeout_ms {
            cx.at(Timer::Expiry(client.0 as u64), cx.now + t);
        }
    }

    fn alive(&self, client: NodeId) -> bool {
        self.sessions.iter().any(|s| s.0 == client)
    }

    /// Grants the lock; the session's lock call returns, so its idle time starts now.
    fn grant(&mut self, cx: &mut Cx, client: NodeId) {
        self.heard(cx, client);
        self.holder = Some((client, 1));
        let expires_local = self.idle_timeout_ms.map(|t| cx.now + t);
        cx.note(EventKind::LockGranted { holder: client, token: 0, expires_local });
        cx.send(client, Msg::lock(PgMsg::Locked));
    }

    /// Frees the lock and hands it to the first waiter whose session still lives.
    fn free(&mut self, cx: &mut Cx, how: LockEnd) {
        if let Some((holder, _)) = self.holder.take() {
            cx.note(EventKind::LockEnded { holder, token: 0, how });
        }
        while let Some(next) = self.waiters.pop_front() {
            if self.alive(next) {
                return self.grant(cx, next);
            }
        }
    }

    /// Ends the sessions that have run no statement in time, unlocking all they held. A session
    /// waiting in its lock call is running a statement, so it is not idle.
    fn end_silent_sessions(&mut self, cx: &mut Cx) {
        let Some(t) = self.idle_timeout_ms else { return };
        let mut silent: Vec<NodeId> = Vec::new();
        for &(client, last) in &self.sessions {
            if cx.now >= last + t && !self.waiters.contains(&client) {
                silent.push(client);
            }
        }
        for client in silent {
            self.end_session(cx, client, LockEnd::Expired);
        }
    }

    /// Ends a client's session: `pg_advisory_unlock_all` runs implicitly, and a waiting lock
    /// call of that session is gone with it.
    fn end_session(&mut self, cx: &mut Cx, client: NodeId, how: LockEnd) {
        self.sessions.retain(|s| s.0 != client);
        self.waiters.retain(|w| *w != client);
        self.ended.push(client);
        if self.holder.is_some_and(|h| h.0 == client) {
            self.free(cx, how);
        }
    }

    fn handle(&mut self, cx: &mut Cx, from: NodeId, msg: &PgMsg, alive: bool) {
        if self.ended.contains(&from) {
            if *msg != PgMsg::Lock {
                // The connection is closed: every statement fails.
                return cx.send(from, Msg::lock(PgMsg::SessionEnded));
            }
            // A new lock call comes on a new connection, with a new session.
            self.ended.retain(|c| *c != from);
        }
        match *msg {
            PgMsg::KeepAlive if alive => {
                self.heard(cx, from);
                cx.send(from, Msg::lock(PgMsg::Alive));
            }
            PgMsg::KeepAlive => cx.send(from, Msg::lock(PgMsg::SessionEnded)),
            PgMsg::Lock => {
                self.heard(cx, from);
                match self.holder {
                    None => self.grant(cx, from),
                    // Requests stack: the same session must unlock as many times.
                    Some((h, n)) if h == from => {
                        self.holder = Some((h, n + 1));
                        cx.send(from, Msg::lock(PgMsg::Locked));
                    }
                    Some(_) => {
                        self.waiters.push_back(from);
                        cx.send(from, Msg::lock(PgMsg::Waiting));
                    }
                }
            }
            PgMsg::Unlock | PgMsg::Commit => {
                // COMMIT releases transaction-level locks (however often they were taken) and
                // never session-level ones; pg_advisory_unlock the other way round.
                let commit = *msg == PgMsg::Commit;
                let done = match self.holder {
                    Some((h, _)) if h == from && alive && commit && self.transaction_level => {
                        self.free(cx, LockEnd::Released);
                        true
                    }
                    Some((h, n)) if h == from && alive && !commit && !self.transaction_level => {
                        if n > 1 {
                            self.holder = Some((h, n - 1));
                        } else {
                            self.free(cx, LockEnd::Released);
                        }
                        true
                    }
                    // pg_advisory_unlock returns false, with a warning, for a lock not held.
                    Some(_) | None => false,
                };
                cx.send(from, Msg::lock(PgMsg::Unlocked { done, commit }));
            }
            PgMsg::Locked | PgMsg::Waiting | PgMsg::Alive | PgMsg::SessionEnded | PgMsg::Unlocked { .. } => {}
        }
    }

    /// Writes the rows kept here, inside the writer's session if it still lives.
    fn write(&mut self, cx: &mut Cx, from: NodeId, token: u64, value: &WriteValue, alive: bool) {
        let value = value.clone();
        if !alive {
            let reason = Rejection::Guard { token };
            cx.note(EventKind::WriteRejected { writer: from, token, value, reason: reason.clone() });
            return cx.send(from, Msg::WriteRejected { reason });
        }
        self.heard(cx, from);
        self.version += 1;
        cx.note(EventKind::WriteAccepted { writer: from, token, value, version: self.version });
        cx.send(from, Msg::WriteAccepted { version: self.version });
    }
}

impl Actor for PgServer {
    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &Msg) {
        self.end_silent_sessions(cx);
        let alive = self.alive(from);
        match msg {
            Msg::Lock { msg } => {
                if let Some(msg) = msg.get::<PgMsg>() {
                    self.handle(cx, from, msg, alive);
                }
            }
            Msg::Write { token, value, .. } => self.write(cx, from, *token, value, alive),
            Msg::Read | Msg::ReadResult { .. } | Msg::Undo { .. } | Msg::WriteAccepted { .. } | Msg::WriteRejected { .. } => {}
        }
    }

    fn on_timer(&mut self, cx: &mut Cx, timer: Timer) {
        if let Timer::Expiry(_) = timer {
            self.end_silent_sessions(cx);
        }
    }

    /// The client closed its connection (its statement timed out): its session ends, and
    /// with it every advisory lock it held, "even if the client disconnects ungracefully".
    fn on_closed(&mut self, cx: &mut Cx, peer: NodeId) {
        if self.alive(peer) {
            self.end_session(cx, peer, LockEnd::SessionClosed);
        }
    }

    fn on_restart(&mut self, cx: &mut Cx, _keep_state: bool) {
        // A restarted server has no sessions: every advisory lock is gone, and every client's
        // connection was reset, so a waiting lock call fails at once.
        let known: Vec<NodeId> = self.sessions.drain(..).map(|s| s.0).collect();
        for w in std::mem::take(&mut self.waiters) {
            cx.send(w, Msg::lock(PgMsg::SessionEnded));
        }
        self.ended.extend(known);
        self.free(cx, LockEnd::LostOnRestart);
    }
}
