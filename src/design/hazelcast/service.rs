//! The CP group (one linearizable Raft group): CP sessions closed when their heartbeats stop
//! for the TTL, the lock's owner and FIFO queue, and the commit index every operation advances.

use super::HzMsg;
use crate::engine::actor::{Actor, Cx, Timer};
use crate::engine::event::{EventKind, LockEnd};
use crate::engine::ids::NodeId;
use crate::engine::msg::Msg;
use crate::engine::time::{LocalMillis, Millis};

/// A live CP session.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Session {
    id: u64,
    holder: NodeId,
    expires_at: LocalMillis,
}

/// A lock call: its session and client, the request to answer, and its commit index (the fence
/// it gets when it wins).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Acquire {
    session: u64,
    client: NodeId,
    request: u32,
    index: u64,
}

/// The CP group's state for one FencedLock.
#[derive(Clone, Hash)]
pub(super) struct CpGroup {
    ttl: Millis,
    /// The Raft log's commit index: every operation appends an entry.
    commit_index: u64,
    sessions: Vec<Session>,
    owner: Option<Acquire>,
    waiters: Vec<Acquire>,
}

impl CpGroup {
    pub(super) fn new(ttl: Millis) -> Self {
        CpGroup { ttl, commit_index: 0, sessions: Vec::new(), owner: None, waiters: Vec::new() }
    }

    /// Appends an operation to the Raft log; returns its index.
    fn commit(&mut self) -> u64 {
        self.commit_index += 1;
        self.commit_index
    }

    fn live(&self, session: u64) -> bool {
        self.sessions.iter().any(|s| s.id == session)
    }

    /// Closes every session whose heartbeats stopped for the TTL; a lock it held passes to the
    /// next waiter, and its own waits are dropped.
    fn expire(&mut self, cx: &mut Cx) {
        let now = cx.now;
        let gone: Vec<u64> = self.sessions.iter().filter(|s| now >= s.expires_at).map(|s| s.id).collect();
        if gone.is_empty() {
            return;
        }
        self.commit();
        self.sessions.retain(|s| now < s.expires_at);
        self.waiters.retain(|w| !gone.contains(&w.session));
        if let Some(o) = self.owner.filter(|o| gone.contains(&o.session)) {
            cx.note(EventKind::LockEnded { holder: o.client, token: o.index, how: LockEnd::Expired });
            self.hand_on(cx);
        }
    }

    /// Gives the free lock to the first waiter, with the fence of its own lock call.
    fn hand_on(&mut self, cx: &mut Cx) {
        self.owner = None;
        if self.waiters.is_empty() {
            return;
        }
        let next = self.waiters.remove(0);
        self.owner = Some(next);
        cx.note(EventKind::LockGranted { holder: next.client, token: next.index, expires_local: None });
        cx.send(next.client, Msg::lock(HzMsg::Locked { request: next.request, fence: next.index }));
    }

    fn answer(&mut self, cx: &mut Cx, from: NodeId, msg: HzMsg) -> Option<HzMsg> {
        Some(match msg {
            HzMsg::CreateSession { request } => {
                let id = self.commit();
                let s = Session { id, holder: from, expires_at: cx.now + self.ttl };
                cx.at(Timer::Expiry(id), s.expires_at);
                self.sessions.push(s);
                HzMsg::SessionCreated { request, session: id }
            }
            HzMsg::Heartbeat { request, session } => {
                self.commit();
                let expires_at = cx.now + self.ttl;
                match self.sessions.iter_mut().find(|s| s.id == session) {
                    Some(s) => {
                        s.expires_at = expires_at;
                        cx.at(Timer::Expiry(session), expires_at);
                        HzMsg::HeartbeatOk { request }
                    }
                    None => HzMsg::SessionExpired { request },
                }
            }
            HzMsg::Lock { request, session } => {
                if !self.live(session) {
                    return Some(HzMsg::SessionExpired { request });
                }
                let index = self.commit();
                match self.owner {
                    // Reentrant: the same session keeps its fence.
                    Some(o) if o.session == session => HzMsg::Locked { request, fence: o.index },
                    Some(_) => {
                        self.waiters.push(Acquire { session, client: from, request, index });
                        HzMsg::Waiting { request }
                    }
                    None => {
                        self.owner = Some(Acquire { session, client: from, request, index });
                        cx.note(EventKind::LockGranted { holder: from, token: index, expires_local: None });
                        HzMsg::Locked { request, fence: index }
                    }
                }
            }
            HzMsg::Unlock { request, session } => {
                self.commit();
                match self.owner {
                    Some(o) if o.session == session => {
                        cx.note(EventKind::LockEnded { holder: from, token: o.index, how: LockEnd::Released });
                        self.hand_on(cx);
                        HzMsg::Unlocked { request }
                    }
                    _ => HzMsg::OwnershipLost { request },
                }
            }
            HzMsg::SessionCreated { .. }
            | HzMsg::Locked { .. }
            | HzMsg::Waiting { .. }
            | HzMsg::HeartbeatOk { .. }
            | HzMsg::SessionExpired { .. }
            | HzMsg::Unlocked { .. }
            | HzMsg::OwnershipLost { .. } => return None,
        })
    }
}

impl Actor for CpGroup {
    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &Msg) {
        self.expire(cx);
        let Msg::Lock { msg } = msg else { return };
        let Some(&msg) = msg.get::<HzMsg>() else { return };
        if let Some(reply) = self.answer(cx, from, msg) {
            cx.send(from, Msg::lock(reply));
        }
    }

    fn on_timer(&mut self, cx: &mut Cx, timer: Timer) {
        if let Timer::Expiry(_) = timer {
            self.expire(cx);
        }
    }

    fn on_restart(&mut self, cx: &mut Cx, _keep_state: bool) {
        // The CP group replicates by Raft: its state survives a member's restart.
        for s in &self.sessions {
            cx.at(Timer::Expiry(s.id), s.expires_at);
        }
    }
}
