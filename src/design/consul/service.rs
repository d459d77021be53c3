//! The Consul servers (one linearizable service): sessions reaped after twice their TTL, the lock
//! key with its `LockIndex`, and lock-delay after an invalidation.

use super::ConsulMsg;
use crate::engine::actor::{Actor, Cx, Timer};
use crate::engine::event::{EventKind, LockEnd};
use crate::engine::ids::NodeId;
use crate::engine::msg::Msg;
use crate::engine::time::{LocalMillis, Millis};

/// A live session: its holder and when the servers reap it, unless renewed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Session {
    id: u64,
    holder: NodeId,
    reaped_at: LocalMillis,
}

/// The servers' state.
#[derive(Clone, Hash)]
pub struct ConsulServer {
    ttl: Millis,
    lock_delay: Millis,
    /// `Behavior = delete`: an invalidated session's key is deleted, taking its LockIndex with it.
    delete: bool,
    sessions: Vec<Session>,
    next_session: u64,
    /// The session holding the key, if any.
    holder: Option<Session>,
    lock_index: u64,
    /// Nobody may acquire the key before this, after an invalidation freed it.
    delayed_until: Option<LocalMillis>,
}

impl ConsulServer {
    /// Builds servers that reap a session twice `ttl` after its last renewal, hold a key freed
    /// by an invalidation for `lock_delay`, and delete it instead if `delete`.
    pub fn new(ttl: Millis, lock_delay: Millis, delete: bool) -> Self {
        ConsulServer { ttl, lock_delay, delete, sessions: Vec::new(), next_session: 0, holder: None, lock_index: 0, delayed_until: None }
    }

    /// Invalidates every session whose time is up: its key is released (or deleted), and the
    /// lock-delay starts.
    fn reap(&mut self, cx: &mut Cx) {
        let now = cx.now;
        let gone: Vec<Session> = self.sessions.iter().copied().filter(|s| now >= s.reaped_at).collect();
        self.sessions.retain(|s| now < s.reaped_at);
        for s in gone {
            cx.cancel(Timer::Expiry(s.id));
            if self.holder.is_some_and(|h| h.id == s.id) {
                self.holder = None;
                cx.note(EventKind::LockEnded { holder: s.holder, token: self.lock_index, how: LockEnd::Expired });
                self.delayed_until = Some(s.reaped_at + self.lock_delay);
                if self.delete {
                    self.lock_index = 0;
                }
            }
        }
    }

    fn session(&self, id: u64) -> Option<&Session> {
        self.sessions.iter().find(|s| s.id == id)
    }

    fn answer(&mut self, cx: &mut Cx, from: NodeId, msg: ConsulMsg) -> Option<ConsulMsg> {
        Some(match msg {
            ConsulMsg::CreateSession { request } => {
                self.next_session += 1;
                let s = Session { id: self.next_session, holder: from, reaped_at: cx.now + self.ttl + self.ttl };
                cx.at(Timer::Expiry(s.id), s.reaped_at);
                self.sessions.push(s);
                ConsulMsg::SessionCreated { request, session: s.id }
            }
            ConsulMsg::Acquire { request, session } => {
                let Some(&s) = self.session(session) else { return Some(ConsulMsg::SessionNotFound { request }) };
                if let Some(until) = self.delayed_until.filter(|&u| cx.now < u) {
                    return Some(ConsulMsg::NotAcquired { request, delay_left: Millis::from_ms((until - cx.now) as u64) });
                }
                match self.holder {
                    Some(h) if h.id == session => ConsulMsg::Acquired { request, lock_index: self.lock_index },
                    Some(_) => ConsulMsg::NotAcquired { request, delay_left: Millis::ZERO },
                    None => {
                        self.lock_index += 1;
                        self.holder = Some(s);
                        cx.note(EventKind::LockGranted { holder: from, token: self.lock_index, expires_local: None });
                        ConsulMsg::Acquired { request, lock_index: self.lock_index }
                    }
                }
            }
            ConsulMsg::Renew { request, session } => {
                let reaped_at = cx.now + self.ttl + self.ttl;
                let Some(s) = self.sessions.iter_mut().find(|s| s.id == session) else {
                    return Some(ConsulMsg::SessionNotFound { request });
                };
                s.reaped_at = reaped_at;
                cx.at(Timer::Expiry(session), reaped_at);
                if self.holder.is_some_and(|h| h.id == session) {
                    cx.note(EventKind::LockExtended { holder: from, token: self.lock_index, expires_local: None });
                }
                ConsulMsg::Renewed { request, ttl: self.ttl }
            }
            ConsulMsg::Release { request, session } => {
                // A normal release: no lock-delay.
                let done = self.holder.is_some_and(|h| h.id == session);
                if done {
                    self.holder = None;
                    cx.note(EventKind::LockEnded { holder: from, token: self.lock_index, how: LockEnd::Released });
                }
                ConsulMsg::Released { request, done }
            }
            ConsulMsg::SessionCreated { .. }
            | ConsulMsg::Acquired { .. }
            | ConsulMsg::NotAcquired { .. }
            | ConsulMsg::Renewed { .. }
            | ConsulMsg::SessionNotFound { .. }
            | ConsulMsg::Released { .. } => return None,
        })
    }
}

impl Actor for ConsulServer {
    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &Msg) {
        self.reap(cx);
        let Msg::Lock { msg } = msg else { return };
        let Some(&msg) = msg.get::<ConsulMsg>() else { return };
        if let Some(reply) = self.answer(cx, from, msg) {
            cx.send(from, Msg::lock(reply));
        }
    }

    fn on_timer(&mut self, cx: &mut Cx, timer: Timer) {
        if let Timer::Expiry(_) = timer {
            self.reap(cx);
        }
    }

    fn on_restart(&mut self, cx: &mut Cx, _keep_state: bool) {
        // The servers replicate their state by Raft: it survives a server's restart.
        for s in &self.sessions {
            cx.at(Timer::Expiry(s.id), s.reaped_at);
        }
    }
}
