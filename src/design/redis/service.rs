//! A Redis node: the lock key, its expiry, the `INCR` counter, and replication as primary or replica.

use crate::design::redis_replication::Replication;
use crate::design::redis_wire::{Key, RedisMsg};
use crate::engine::actor::{Actor, Cx, Timer};
use crate::engine::event::{EventKind, LockEnd};
use crate::engine::ids::NodeId;
use crate::engine::msg::Msg;
use crate::engine::time::Millis;

/// How a node hands out `INCR` tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Incr {
    /// No counter: the random value is all there is.
    None,
    /// The `INCR` runs in one Lua script with the `SET`, and its value comes with the `OK`.
    WithSet,
    /// The client sends the `INCR` as a round trip of its own after the `SET`.
    Separate,
}

/// Whether a node serves clients or follows a primary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RedisRole {
    /// Serves clients, streaming changes to its replicas.
    Primary,
    /// Follows the primary and refuses clients until promoted.
    Replica,
}

/// A Redis node holding the lock key.
#[derive(Clone, Hash)]
pub struct RedisNode {
    ttl_ms: Millis,
    incr: Incr,
    counter: u64,
    pub(super) key: Option<Key>,
    pub(super) role: RedisRole,
    /// A primary's links to its replicas.
    replication: Replication,
    /// A replica's offset: the latest change it has from the primary.
    applied: u64,
    /// The replicas it streams to, or will once promoted, each with its lag.
    replicas: Vec<(NodeId, Millis)>,
    /// Once promoted, how long it waits before resyncing the other replicas.
    pub(super) resync_delay_ms: Millis,
}

impl RedisNode {
    /// Builds an empty node that streams to `replicas` (each with its lag) as primary, now or
    /// once promoted.
    pub fn new(ttl_ms: Millis, incr: Incr, role: RedisRole, replicas: &[(NodeId, Millis)]) -> Self {
        let replication = Replication::new(if role == RedisRole::Primary { replicas } else { &[] }, 0);
        RedisNode {
            ttl_ms,
            incr,
            counter: 0,
            key: None,
            role,
            replication,
            applied: 0,
            replicas: replicas.to_vec(),
            resync_delay_ms: Millis::ZERO,
        }
    }

    /// Deletes the key, as `by` asks (or on its own); a primary streams the deletion.
    fn delete(&mut self, cx: &mut Cx, by: NodeId, how: LockEnd) {
        if let Some(k) = self.key.take() {
            cx.cancel(Timer::Expiry(k.value));
            cx.note(EventKind::LockEnded { holder: k.holder, token: k.token, how });
            self.replication.delete(cx, by, k.value);
        }
    }

    /// Sets the key, as `by` asks; a primary streams the new value.
    fn store(&mut self, cx: &mut Cx, by: NodeId, key: Key) {
        self.arm(cx, key);
        self.replication.set(cx, by, key);
    }

    /// Handles what a replica receives: copies from the primary, refusals to clients.
    fn follow(&mut self, cx: &mut Cx, from: NodeId, msg: &RedisMsg) {
        match *msg {
            RedisMsg::Replicate { holder, value, token, expires_at, offset } => {
                let key = Key { holder, value, token, expires_local: expires_at };
                self.applied = offset;
                // The counter comes across with the key: a promoted replica carries on from it.
                self.counter = self.counter.max(token);
                self.arm(cx, key);
                cx.note(EventKind::LockReplicated { holder, token, expires_local: Some(key.expires_local) });
            }
            RedisMsg::ReplicateDel { value, offset } => {
                self.applied = offset;
                if self.key.is_some_and(|k| k.value == value) {
                    self.delete(cx, from, LockEnd::Released);
                }
            }
            RedisMsg::FullSync { key, counter, offset } => {
                self.applied = offset;
                self.counter = counter;
                if self.key != key {
                    self.delete(cx, from, LockEnd::Resynced);
                    if let Some(k) = key {
                        self.arm(cx, k);
                        cx.note(EventKind::LockReplicated { holder: k.holder, token: k.token, expires_local: Some(k.expires_local) });
                    }
                }
            }
            RedisMsg::GetAck => cx.send(from, Msg::lock(RedisMsg::Ack { offset: self.applied })),
            RedisMsg::Set { .. } | RedisMsg::Extend { .. } | RedisMsg::Del { .. } | RedisMsg::Incr | RedisMsg::Wait { .. } => {
                cx.send(from, Msg::lock(RedisMsg::ReadOnly))
            }
            RedisMsg::SetOk { .. }
            | RedisMsg::Ack { .. }
            | RedisMsg::Acked { .. }
            | RedisMsg::Nil
            | RedisMsg::Extended { .. }
            | RedisMsg::Deleted { .. }
            | RedisMsg::ReadOnly
            | RedisMsg::Counter { .. } => {}
        }
    }

    /// Expires the key if its time has come on this node's clock (Redis checks lazily on access).
    fn expire_if_due(&mut self, cx: &mut Cx) {
        if self.key.is_some_and(|k| cx.now >= k.expires_local) {
            self.delete(cx, cx.me, LockEnd::Expired);
        }
    }

    fn arm(&mut self, cx: &mut Cx, k: Key) {
        cx.at(Timer::Expiry(k.value), k.expires_local);
        self.key = Some(k);
    }

    fn serve(&mut self, cx: &mut Cx, from: NodeId, msg: &RedisMsg) {
        let reply = match *msg {
            // NX: only if the key does not exist.
            RedisMsg::Set { .. } if self.key.is_some() => RedisMsg::Nil,
            RedisMsg::Set { value, px_ms } => {
                let token = if self.incr == Incr::WithSet {
                    self.counter += 1;
                    self.counter
                } else {
                    0
                };
                let key = Key { holder: from, value, token, expires_local: cx.now + px_ms };
                self.store(cx, from, key);
                cx.note(EventKind::LockGranted { holder: from, token, expires_local: Some(key.expires_local) });
                RedisMsg::SetOk { token: (self.incr == Incr::WithSet).then_some(token) }
            }
            RedisMsg::Extend { value, .. } => match self.key {
                Some(k) if k.value == value => {
                    let key = Key { expires_local: cx.now + self.ttl_ms, ..k };
                    self.store(cx, from, key);
                    cx.note(EventKind::LockExtended { holder: k.holder, token: k.token, expires_local: Some(key.expires_local) });
                    RedisMsg::Extended { done: true }
                }
                _ => RedisMsg::Extended { done: false },
            },
            // INCR knows nothing of the key: it counts for anyone. Only the key's holder gets
            // its token granted with it.
            RedisMsg::Incr => {
                self.counter += 1;
                if let Some(k) = self.key.filter(|k| k.holder == from) {
                    let key = Key { token: self.counter, ..k };
                    self.store(cx, from, key);
                    cx.note(EventKind::LockGranted { holder: from, token: self.counter, expires_local: Some(key.expires_local) });
                }
                RedisMsg::Counter { value: self.counter }
            }
            RedisMsg::Del { value, checked } => {
                let done = match (checked, self.key) {
                    (true, Some(k)) if k.value == value => {
                        self.delete(cx, from, LockEnd::Released);
                        true
                    }
                    // A plain DEL removes whatever key is there, whoever set it.
                    (false, Some(k)) => {
                        let how = if k.value == value { LockEnd::Released } else { LockEnd::DeletedByOther };
                        self.delete(cx, from, how);
                        true
                    }
                    (true | false, _) => false,
                };
                RedisMsg::Deleted { done }
            }
            RedisMsg::Wait { replicas, timeout_ms } => return self.replication.wait(cx, from, replicas, timeout_ms),
            RedisMsg::Ack { offset } => return self.replication.ack(cx, from, offset),
            RedisMsg::SetOk { .. }
            | RedisMsg::Acked { .. }
            | RedisMsg::FullSync { .. }
            | RedisMsg::GetAck
            | RedisMsg::Nil
            | RedisMsg::Extended { .. }
            | RedisMsg::Deleted { .. }
            | RedisMsg::ReadOnly
            | RedisMsg::Replicate { .. }
            | RedisMsg::ReplicateDel { .. }
            | RedisMsg::Counter { .. } => return,
        };
        cx.send(from, Msg::lock(reply));
    }
}

impl Actor for RedisNode {
    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &Msg) {
        self.expire_if_due(cx);
        let Msg::Lock { msg } = msg else { return };
        let Some(msg) = msg.get::<RedisMsg>() else { return };
        match self.role {
            RedisRole::Replica => self.follow(cx, from, msg),
            RedisRole::Primary => self.serve(cx, from, msg),
        }
    }

    fn on_timer(&mut self, cx: &mut Cx, timer: Timer) {
        match timer {
            Timer::Expiry(value) if self.key.is_some_and(|k| k.value == value) => self.expire_if_due(cx),
            Timer::Service(_) => self.replication.on_timer(cx, timer),
            Timer::Expiry(_) | Timer::Start | Timer::Step | Timer::Timeout | Timer::Renew | Timer::RenewTimeout | Timer::Client(_) => {}
        }
    }

    fn on_crash(&mut self, _cx: &mut Cx) {
        // Whatever was not yet streamed to the replicas is lost with the process.
        self.replication.crash();
    }

    fn on_promote(&mut self, cx: &mut Cx) {
        if self.role == RedisRole::Replica {
            self.role = RedisRole::Primary;
            self.replication = Replication::new(&self.replicas, self.applied);
            self.replication.resync(cx, self.key, self.counter, self.resync_delay_ms);
        }
    }

    fn on_restart(&mut self, cx: &mut Cx, keep_state: bool) {
        match self.key {
            Some(k) if keep_state => self.arm(cx, k),
            _ => {
                // Without persistence the key and the counter are gone.
                self.delete(cx, cx.me, LockEnd::LostOnRestart);
                self.counter = 0;
            }
        }
    }
}
