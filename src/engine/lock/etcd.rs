//! etcd's concurrency `Mutex` over a lease, modelled on `client/v3/concurrency`: each contender
//! holds a session lease kept alive by the client and puts the key `prefix/<lease id>`; contenders
//! are ordered by the key's create revision; the lowest owns the lock, and each waiter waits for
//! the deletion of the key just before its own. The owner's create revision is the fencing token.
//!
//! When the protected data is a key in etcd, a write is a transaction
//! `If(CreateRevision(lock key) == token).Then(Put(data))`: it commits only while the writer's
//! lock key still exists with the create revision it was granted under.
//!
//! Simplifications, said in the lessons: the cluster is one linearizable service; the session
//! grant and the lock transaction are one request; a waiter's watch and its re-check of ownership
//! arrive as one notification.

use crate::engine::actor::{Actor, Cx, Timer};
use crate::engine::ids::NodeId;
use crate::engine::msg::Msg;
use crate::engine::trace::{EventKind, LeaseEnd};

/// One contender's key, attached to its session lease.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Key {
    holder: NodeId,
    create_revision: u64,
    lease_expires_local: i64,
    /// Whether the holder has been told it owns the lock.
    owner: bool,
}

/// An etcd node (the whole cluster, as one linearizable service).
pub struct EtcdLock {
    ttl_ms: u64,
    revision: u64,
    /// Contenders in create-revision order.
    keys: Vec<Key>,
    /// How many times the data key has been put.
    data_version: u64,
}

impl EtcdLock {
    /// Builds a service whose next write gets `first_revision`.
    pub fn new(ttl_ms: u64, first_revision: u64) -> Self {
        EtcdLock { ttl_ms, revision: first_revision.saturating_sub(1), keys: Vec::new(), data_version: 0 }
    }

    /// Deletes a key (its lease ended) and hands the lock on if the owner went.
    fn delete(&mut self, cx: &mut Cx, holder: NodeId, how: LeaseEnd) {
        let Some(i) = self.keys.iter().position(|k| k.holder == holder) else { return };
        let k = self.keys.remove(i);
        self.revision += 1;
        cx.cancel(Timer::LeaseExpiry(k.create_revision));
        if k.owner {
            cx.note(EventKind::LeaseEnded { token: k.create_revision, holder, how });
        }
        self.promote_first(cx);
    }

    /// Tells the first contender it owns the lock, if it has not been told.
    fn promote_first(&mut self, cx: &mut Cx) {
        let ttl_ms = self.ttl_ms;
        if let Some(first) = self.keys.first_mut().filter(|k| !k.owner) {
            first.owner = true;
            let (holder, token) = (first.holder, first.create_revision);
            cx.note(EventKind::LeaseGranted { token, holder, expires_local: first.lease_expires_local });
            cx.send(holder, Msg::Granted { token, ttl_ms });
        }
    }

    fn expire_due(&mut self, cx: &mut Cx) {
        let due: Vec<NodeId> = self.keys.iter().filter(|k| cx.now >= k.lease_expires_local).map(|k| k.holder).collect();
        for holder in due {
            self.delete(cx, holder, LeaseEnd::Expired);
        }
    }
}

impl Actor for EtcdLock {
    fn on_start(&mut self, _cx: &mut Cx) {}

    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &Msg) {
        self.expire_due(cx);
        match *msg {
            Msg::Acquire { .. } if self.keys.iter().any(|k| k.holder == from) => {}
            Msg::Acquire { .. } => {
                self.revision += 1;
                let key = Key { holder: from, create_revision: self.revision, lease_expires_local: cx.now + self.ttl_ms as i64, owner: false };
                cx.at(Timer::LeaseExpiry(key.create_revision), key.lease_expires_local);
                self.keys.push(key);
                if self.keys.len() == 1 {
                    self.promote_first(cx);
                } else {
                    let behind = self.keys[self.keys.len() - 2].create_revision;
                    cx.send(from, Msg::Queued { revision: key.create_revision, behind });
                }
            }
            // A keep-alive extends the session lease, whether or not the lock is owned yet.
            Msg::KeepAlive => match self.keys.iter_mut().find(|k| k.holder == from) {
                Some(k) => {
                    k.lease_expires_local = cx.now + self.ttl_ms as i64;
                    let (expires_local, rev, owner) = (k.lease_expires_local, k.create_revision, k.owner);
                    cx.at(Timer::LeaseExpiry(rev), expires_local);
                    if owner {
                        cx.note(EventKind::LeaseRenewed { token: rev, holder: from, expires_local });
                    }
                    cx.send(from, Msg::Renewed { token: 0, ttl_ms: self.ttl_ms });
                }
                None => cx.send(from, Msg::SessionExpired),
            },
            Msg::Write { token, ref value, .. } => {
                let guard_holds = self.keys.iter().any(|k| k.holder == from && k.owner && k.create_revision == token);
                let value = value.clone();
                if guard_holds {
                    self.revision += 1;
                    self.data_version += 1;
                    let version = self.data_version;
                    cx.note(EventKind::WriteAccepted { writer: from, token, value, version });
                    cx.send(from, Msg::WriteAccepted { version });
                } else {
                    let reason = format!("txn failed: no lock key with create revision {token}");
                    cx.note(EventKind::WriteRejected { writer: from, token, value, reason: reason.clone() });
                    cx.send(from, Msg::WriteRejected { reason });
                }
            }
            Msg::Release { token, .. } => {
                let mine = self.keys.iter().any(|k| k.holder == from && k.create_revision == token);
                if mine {
                    self.delete(cx, from, LeaseEnd::Released);
                }
                cx.send(from, Msg::ReleaseResult { token, released: mine });
            }
            _ => {}
        }
    }

    fn on_timer(&mut self, cx: &mut Cx, timer: Timer) {
        if let Timer::LeaseExpiry(_) = timer {
            self.expire_due(cx);
        }
    }

    fn on_crash(&mut self, _cx: &mut Cx) {}

    fn on_restart(&mut self, cx: &mut Cx, _keep_state: bool) {
        // The model's etcd is a replicated cluster: its state survives a member's restart.
        for k in &self.keys {
            cx.at(Timer::LeaseExpiry(k.create_revision), k.lease_expires_local);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::actor::Command;
    use crate::engine::lock::testing::{call, sent};

    #[test]
    fn lowest_create_revision_owns_and_the_next_waits_on_its_predecessor() {
        let mut e = EtcdLock::new(1000, 10);
        assert_eq!(sent(&call(&mut e, 0, 1, Msg::Acquire { value: 1, px_ms: None })), vec![(1, Msg::Granted { token: 10, ttl_ms: 1000 })]);
        assert_eq!(sent(&call(&mut e, 5, 2, Msg::Acquire { value: 2, px_ms: None })), vec![(2, Msg::Queued { revision: 11, behind: 10 })]);
        assert_eq!(sent(&call(&mut e, 6, 3, Msg::Acquire { value: 3, px_ms: None })), vec![(3, Msg::Queued { revision: 12, behind: 11 })]);
        // Unlocking deletes the key (revision 13) and wakes only the next contender.
        let out = call(&mut e, 20, 1, Msg::Release { token: 10, value: 1, mode: crate::engine::msg::ReleaseMode::Safe });
        assert_eq!(sent(&out), vec![(2, Msg::Granted { token: 11, ttl_ms: 1000 }), (1, Msg::ReleaseResult { token: 10, released: true })]);
        assert_eq!(e.revision, 13);
    }

    #[test]
    fn a_guarded_put_commits_only_while_the_lock_key_keeps_its_create_revision() {
        let mut e = EtcdLock::new(1000, 1);
        call(&mut e, 0, 1, Msg::Acquire { value: 1, px_ms: None });
        call(&mut e, 0, 2, Msg::Acquire { value: 2, px_ms: None });
        let put = |token| Msg::Write { token, value: "v".into(), expected_version: None };
        assert_eq!(sent(&call(&mut e, 10, 2, put(2))), vec![(2, Msg::WriteRejected { reason: "txn failed: no lock key with create revision 2".into() })], "a waiter does not own the lock");
        assert_eq!(sent(&call(&mut e, 20, 1, put(1))), vec![(1, Msg::WriteAccepted { version: 1 })]);
        call(&mut e, 900, 2, Msg::KeepAlive);
        // Client 1's session expired at 1,000: its key is gone, client 2 owns the lock, and
        // client 1's guarded put fails.
        let out = sent(&call(&mut e, 1_200, 1, put(1)));
        let refused = Msg::WriteRejected { reason: "txn failed: no lock key with create revision 1".into() };
        assert_eq!(out, vec![(2, Msg::Granted { token: 2, ttl_ms: 1000 }), (1, refused)]);
    }

    #[test]
    fn an_expired_session_deletes_the_key_and_hands_the_lock_on() {
        let mut e = EtcdLock::new(1000, 1);
        call(&mut e, 0, 1, Msg::Acquire { value: 1, px_ms: None });
        call(&mut e, 0, 2, Msg::Acquire { value: 2, px_ms: None });
        // Client 2 keeps its session alive; client 1 does not.
        call(&mut e, 900, 2, Msg::KeepAlive);
        let out = call(&mut e, 1000, 3, Msg::Read);
        assert!(out.contains(&Command::Note(EventKind::LeaseEnded { token: 1, holder: NodeId(1), how: LeaseEnd::Expired })));
        assert_eq!(sent(&out), vec![(2, Msg::Granted { token: 2, ttl_ms: 1000 })]);
    }
}
