//! An etcd node: session leases, the keys under the lock prefix, and their create revisions.

use super::EtcdMsg;
use crate::engine::actor::{Actor, Cx, Timer};
use crate::engine::event::{EventKind, LockEnd};
use crate::engine::ids::NodeId;
use crate::engine::msg::{Msg, Rejection, WriteValue};
use crate::engine::time::LocalMillis;
use crate::engine::time::Millis;

/// One contender's key, attached to its session lease.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key {
    holder: NodeId,
    create_revision: u64,
    lease_expires_local: LocalMillis,
    /// Whether the holder has been told it owns the lock.
    owner: bool,
}

/// An etcd node (the whole cluster, as one linearizable service).
#[derive(Clone, Hash)]
pub struct EtcdNode {
    ttl_ms: Millis,
    pub(super) revision: u64,
    /// Contenders in create-revision order.
    keys: Vec<Key>,
    /// How many times the data key has been put.
    data_version: u64,
}

impl EtcdNode {
    /// Builds a cluster whose next write gets `first_revision`.
    pub fn new(ttl_ms: Millis, first_revision: u64) -> Self {
        EtcdNode { ttl_ms, revision: first_revision.saturating_sub(1), keys: Vec::new(), data_version: 0 }
    }

    /// Deletes a key (its lease ended) and hands the lock on if the owner went.
    fn delete(&mut self, cx: &mut Cx, holder: NodeId, how: LockEnd) {
        let Some(i) = self.keys.iter().position(|k| k.holder == holder) else { return };
        let k = self.keys.remove(i);
        self.revision += 1;
        cx.cancel(Timer::Expiry(k.create_revision));
        if k.owner {
            cx.note(EventKind::LockEnded { holder, token: k.create_revision, how });
        }
        self.promote_first(cx);
    }

    /// Tells the first contender it owns the lock, if it has not been told.
    fn promote_first(&mut self, cx: &mut Cx) {
        if let Some(first) = self.keys.first_mut().filter(|k| !k.owner) {
            first.owner = true;
            let (holder, token) = (first.holder, first.create_revision);
            cx.note(EventKind::LockGranted { holder, token, expires_local: Some(first.lease_expires_local) });
            cx.send(holder, Msg::lock(EtcdMsg::Owner { revision: token }));
        }
    }

    fn expire_due(&mut self, cx: &mut Cx) {
        let due: Vec<NodeId> = self.keys.iter().filter(|k| cx.now >= k.lease_expires_local).map(|k| k.holder).collect();
        for holder in due {
            self.delete(cx, holder, LockEnd::Expired);
        }
    }

    fn handle(&mut self, cx: &mut Cx, from: NodeId, msg: &EtcdMsg) {
        match *msg {
            EtcdMsg::Lock if self.keys.iter().any(|k| k.holder == from) => {}
            EtcdMsg::Lock => {
                self.revision += 1;
                let key = Key { holder: from, create_revision: self.revision, lease_expires_local: cx.now + self.ttl_ms, owner: false };
                cx.at(Timer::Expiry(key.create_revision), key.lease_expires_local);
                self.keys.push(key);
                if self.keys.len() == 1 {
                    self.promote_first(cx);
                } else {
                    let behind = self.keys[self.keys.len() - 2].create_revision;
                    cx.send(from, Msg::lock(EtcdMsg::Queued { revision: key.create_revision, behind }));
                }
            }
            // A keep-alive extends the session lease, whether or not the lock is owned yet.
            EtcdMsg::KeepAlive => match self.keys.iter_mut().find(|k| k.holder == from) {
                Some(k) => {
                    k.lease_expires_local = cx.now + self.ttl_ms;
                    let (expires_local, rev, owner) = (k.lease_expires_local, k.create_revision, k.owner);
                    cx.at(Timer::Expiry(rev), expires_local);
                    if owner {
                        cx.note(EventKind::LockExtended { holder: from, token: rev, expires_local: Some(expires_local) });
                    }
                    cx.send(from, Msg::lock(EtcdMsg::KeptAlive { ttl_ms: self.ttl_ms }));
                }
                None => cx.send(from, Msg::lock(EtcdMsg::LeaseNotFound)),
            },
            EtcdMsg::Unlock { revision } => {
                let mine = self.keys.iter().any(|k| k.holder == from && k.create_revision == revision);
                if mine {
                    self.delete(cx, from, LockEnd::Released);
                }
                cx.send(from, Msg::lock(EtcdMsg::Unlocked { done: mine }));
            }
            EtcdMsg::Owner { .. }
            | EtcdMsg::Queued { .. }
            | EtcdMsg::KeptAlive { .. }
            | EtcdMsg::LeaseNotFound
            | EtcdMsg::Unlocked { .. } => {}
        }
    }

    /// Runs `If(CreateRevision(lock key) == token).Then(Put(data))` for `from`.
    fn guarded_put(&mut self, cx: &mut Cx, from: NodeId, token: u64, value: &WriteValue) {
        let guard_holds = self.keys.iter().any(|k| k.holder == from && k.owner && k.create_revision == token);
        let value = value.clone();
        if guard_holds {
            self.revision += 1;
            self.data_version += 1;
            let version = self.data_version;
            cx.note(EventKind::WriteAccepted { writer: from, token, value, version });
            cx.send(from, Msg::WriteAccepted { version });
        } else {
            let reason = Rejection::Guard { token };
            cx.note(EventKind::WriteRejected { writer: from, token, value, reason: reason.clone() });
            cx.send(from, Msg::WriteRejected { reason });
        }
    }
}

impl Actor for EtcdNode {
    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &Msg) {
        self.expire_due(cx);
        match msg {
            Msg::Lock { msg } => {
                if let Some(msg) = msg.get::<EtcdMsg>() {
                    self.handle(cx, from, msg);
                }
            }
            Msg::Write { token, value, .. } => self.guarded_put(cx, from, *token, value),
            Msg::Read | Msg::ReadResult { .. } | Msg::Undo { .. } | Msg::WriteAccepted { .. } | Msg::WriteRejected { .. } => {}
        }
    }

    fn on_timer(&mut self, cx: &mut Cx, timer: Timer) {
        if let Timer::Expiry(_) = timer {
            self.expire_due(cx);
        }
    }

    fn on_restart(&mut self, cx: &mut Cx, _keep_state: bool) {
        // The model's etcd is a replicated cluster: its state survives a member's restart.
        for k in &self.keys {
            cx.at(Timer::Expiry(k.create_revision), k.lease_expires_local);
        }
    }
}
