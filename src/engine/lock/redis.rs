//! A single Redis instance used as a lock, as the Redis documentation describes it:
//! `SET key value NX PX ttl` to acquire, a compare-value script to release or extend, expiry on
//! the Redis node's own clock. The random value identifies the owner but has no order, so there is
//! no fencing token unless each acquisition also `INCR`s a counter (`incr_token`).
//!
//! With a replica, the primary streams every change to it asynchronously, `lag` after making it;
//! a crash in between loses the change. A replica answers clients `READONLY` until promoted.
//!
//! Simplifications: the `INCR` is modelled as part of the acquisition's reply (as a `MULTI` block
//! would return it), rather than as a second round trip; promotion is a scheduled fault rather
//! than a Sentinel election.

use crate::engine::actor::{Actor, Cx, Timer};
use crate::engine::ids::NodeId;
use crate::engine::msg::{Msg, ReleaseMode};
use crate::engine::trace::{EventKind, LeaseEnd};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Key {
    holder: NodeId,
    value: u64,
    token: u64,
    expires_local: i64,
}

/// Whether a node serves clients or follows a primary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedisRole {
    /// Serves clients, streaming changes to `replica` after a lag, if it has one.
    Primary { replica: Option<(NodeId, u64)> },
    /// Follows the primary and refuses clients until promoted.
    Replica,
}

/// A Redis lock node.
pub struct RedisLock {
    ttl_ms: u64,
    incr_token: bool,
    counter: u64,
    key: Option<Key>,
    role: RedisRole,
    /// Changes not yet streamed to the replica.
    unreplicated: Vec<Change>,
}

/// A change to stream to the replica.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Change {
    Set(Key),
    Delete(u64),
}

impl RedisLock {
    /// Builds an empty instance.
    pub fn new(ttl_ms: u64, incr_token: bool, role: RedisRole) -> Self {
        RedisLock { ttl_ms, incr_token, counter: 0, key: None, role, unreplicated: Vec::new() }
    }

    fn delete(&mut self, cx: &mut Cx, how: LeaseEnd) {
        if let Some(k) = self.key.take() {
            cx.cancel(Timer::LeaseExpiry(k.value));
            cx.note(EventKind::LeaseEnded { token: k.token, holder: k.holder, how });
            self.replicate(cx, Change::Delete(k.value));
        }
    }

    /// Queues a change for the replica; the batch leaves after the replication lag.
    fn replicate(&mut self, cx: &mut Cx, change: Change) {
        if let RedisRole::Primary { replica: Some((_, lag_ms)) } = self.role {
            if self.unreplicated.is_empty() {
                cx.after(Timer::Replicate, lag_ms);
            }
            self.unreplicated.push(change);
        }
    }

    /// Handles what a replica receives: copies from the primary, refusals to clients.
    fn follow(&mut self, cx: &mut Cx, from: NodeId, msg: &Msg) {
        match *msg {
            Msg::Replicate { holder, value, token, expires_in_ms } => {
                let key = Key { holder, value, token, expires_local: cx.now + expires_in_ms as i64 };
                self.arm(cx, key);
                cx.note(EventKind::KeyReplicated { token, holder });
            }
            Msg::ReplicateDelete { value } if self.key.is_some_and(|k| k.value == value) => {
                self.delete(cx, LeaseEnd::Released);
            }
            Msg::Acquire { .. } | Msg::Renew { .. } | Msg::Release { .. } => cx.send(from, Msg::ReadOnly),
            _ => {}
        }
    }

    /// Expires the key if its time has come on this node's clock (Redis checks lazily on access).
    fn expire_if_due(&mut self, cx: &mut Cx) {
        if self.key.is_some_and(|k| cx.now >= k.expires_local) {
            self.delete(cx, LeaseEnd::Expired);
        }
    }

    fn arm(&mut self, cx: &mut Cx, k: Key) {
        cx.at(Timer::LeaseExpiry(k.value), k.expires_local);
        self.key = Some(k);
    }
}

impl Actor for RedisLock {
    fn on_start(&mut self, _cx: &mut Cx) {}

    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &Msg) {
        self.expire_if_due(cx);
        if self.role == RedisRole::Replica {
            return self.follow(cx, from, msg);
        }
        match *msg {
            // NX: only if the key does not exist.
            Msg::Acquire { .. } if self.key.is_some() => cx.send(from, Msg::Busy),
            Msg::Acquire { value, px_ms } => {
                let ttl_ms = px_ms.unwrap_or(self.ttl_ms);
                let token = if self.incr_token {
                    self.counter += 1;
                    self.counter
                } else {
                    0
                };
                let key = Key { holder: from, value, token, expires_local: cx.now + ttl_ms as i64 };
                self.arm(cx, key);
                self.replicate(cx, Change::Set(key));
                cx.note(EventKind::LeaseGranted { token, holder: from, expires_local: key.expires_local });
                cx.send(from, Msg::Granted { token, ttl_ms });
            }
            Msg::Renew { token, value } => match self.key {
                Some(k) if k.value == value => {
                    let key = Key { expires_local: cx.now + self.ttl_ms as i64, ..k };
                    self.arm(cx, key);
                    self.replicate(cx, Change::Set(key));
                    cx.note(EventKind::LeaseRenewed { token: k.token, holder: k.holder, expires_local: key.expires_local });
                    cx.send(from, Msg::Renewed { token, ttl_ms: self.ttl_ms });
                }
                _ => cx.send(from, Msg::RenewRefused { token }),
            },
            Msg::Release { token, value, mode } => {
                let released = match (mode, self.key) {
                    (ReleaseMode::Safe, Some(k)) if k.value == value => {
                        self.delete(cx, LeaseEnd::Released);
                        true
                    }
                    // A plain DEL removes whatever key is there, whoever set it.
                    (ReleaseMode::Unsafe, Some(k)) => {
                        let how = if k.value == value { LeaseEnd::Released } else { LeaseEnd::DeletedByOther };
                        self.delete(cx, how);
                        true
                    }
                    _ => false,
                };
                cx.send(from, Msg::ReleaseResult { token, released });
            }
            _ => {}
        }
    }

    fn on_timer(&mut self, cx: &mut Cx, timer: Timer) {
        match timer {
            Timer::LeaseExpiry(value) if self.key.is_some_and(|k| k.value == value) => self.expire_if_due(cx),
            Timer::Replicate => {
                if let RedisRole::Primary { replica: Some((replica, _)) } = self.role {
                    for change in std::mem::take(&mut self.unreplicated) {
                        let msg = match change {
                            Change::Set(k) => Msg::Replicate {
                                holder: k.holder,
                                value: k.value,
                                token: k.token,
                                expires_in_ms: (k.expires_local - cx.now).max(0) as u64,
                            },
                            Change::Delete(value) => Msg::ReplicateDelete { value },
                        };
                        cx.send(replica, msg);
                    }
                }
            }
            _ => {}
        }
    }

    fn on_crash(&mut self, _cx: &mut Cx) {
        // Whatever was not yet streamed to the replica is lost with the process.
        self.unreplicated.clear();
    }

    fn on_promote(&mut self, _cx: &mut Cx) {
        if self.role == RedisRole::Replica {
            self.role = RedisRole::Primary { replica: None };
        }
    }

    fn on_restart(&mut self, cx: &mut Cx, keep_state: bool) {
        match self.key {
            Some(k) if keep_state => self.arm(cx, k),
            _ => {
                // Without persistence the key and the counter are gone.
                self.delete(cx, LeaseEnd::LostOnRestart);
                self.counter = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::actor::Command;
    use crate::engine::lock::testing::{call, sent};

    fn reply(out: &[Command]) -> Msg {
        sent(out).remove(0).1
    }

    #[test]
    fn set_nx_refuses_while_the_key_lives_and_grants_after_expiry() {
        let mut r = RedisLock::new(1000, false, RedisRole::Primary { replica: None });
        assert_eq!(reply(&call(&mut r, 0, 1, Msg::Acquire { value: 7, px_ms: Some(1000) })), Msg::Granted { token: 0, ttl_ms: 1000 });
        assert_eq!(reply(&call(&mut r, 999, 2, Msg::Acquire { value: 8, px_ms: Some(1000) })), Msg::Busy);
        // Expiry is judged on the node's own clock reading.
        assert_eq!(reply(&call(&mut r, 1000, 2, Msg::Acquire { value: 8, px_ms: Some(1000) })), Msg::Granted { token: 0, ttl_ms: 1000 });
    }

    #[test]
    fn compare_value_release_refuses_a_stranger_but_del_does_not() {
        let mut r = RedisLock::new(1000, false, RedisRole::Primary { replica: None });
        call(&mut r, 0, 1, Msg::Acquire { value: 7, px_ms: Some(1000) });
        let safe = Msg::Release { token: 0, value: 99, mode: ReleaseMode::Safe };
        assert_eq!(reply(&call(&mut r, 10, 2, safe)), Msg::ReleaseResult { token: 0, released: false });
        assert!(r.key.is_some());
        let del = Msg::Release { token: 0, value: 99, mode: ReleaseMode::Unsafe };
        let out = call(&mut r, 20, 2, del);
        assert_eq!(reply(&out), Msg::ReleaseResult { token: 0, released: true });
        assert!(out.contains(&Command::Note(EventKind::LeaseEnded { token: 0, holder: NodeId(1), how: LeaseEnd::DeletedByOther })));
        assert!(r.key.is_none());
    }

    #[test]
    fn renewal_extends_only_a_matching_value() {
        let mut r = RedisLock::new(1000, false, RedisRole::Primary { replica: None });
        call(&mut r, 0, 1, Msg::Acquire { value: 7, px_ms: Some(1000) });
        assert_eq!(reply(&call(&mut r, 500, 1, Msg::Renew { token: 0, value: 7 })), Msg::Renewed { token: 0, ttl_ms: 1000 });
        assert_eq!(r.key.unwrap().expires_local, 1500);
        assert_eq!(reply(&call(&mut r, 600, 2, Msg::Renew { token: 0, value: 8 })), Msg::RenewRefused { token: 0 });
    }

    #[test]
    fn incr_counter_gives_ordered_tokens() {
        let mut r = RedisLock::new(100, true, RedisRole::Primary { replica: None });
        let grant = |r: &mut RedisLock, now, from| reply(&call(r, now, from, Msg::Acquire { value: now as u64, px_ms: Some(100) }));
        assert_eq!(grant(&mut r, 0, 1), Msg::Granted { token: 1, ttl_ms: 100 });
        assert_eq!(grant(&mut r, 200, 2), Msg::Granted { token: 2, ttl_ms: 100 });
    }
}
