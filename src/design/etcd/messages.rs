//! What a client and etcd say about the lock keys and session leases.

use crate::engine::msg::{DesignMsg, MsgKind};
use crate::engine::time::Millis;
use serde::Serialize;

/// etcd requests and replies, as the mutex uses them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Hash)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum EtcdMsg {
    /// Grant a session lease and put this client's key under the lock prefix, attached to it.
    Lock,
    /// Your key has the lowest create revision: you own the lock.
    Owner {
        revision: u64,
    },
    /// Your key has this create revision; wait for the deletion of the one before it.
    Queued {
        revision: u64,
        behind: u64,
    },
    /// Keep my session lease alive.
    KeepAlive,
    KeptAlive {
        ttl_ms: Millis,
    },
    /// That lease no longer exists.
    LeaseNotFound,
    /// Delete my lock key.
    Unlock {
        revision: u64,
    },
    Unlocked {
        done: bool,
    },
}

impl DesignMsg for EtcdMsg {
    fn kind(&self) -> MsgKind {
        match self {
            EtcdMsg::Lock => MsgKind::Acquire,
            EtcdMsg::KeepAlive | EtcdMsg::Unlock { .. } => MsgKind::Request,
            EtcdMsg::Owner { .. } | EtcdMsg::Queued { .. } | EtcdMsg::KeptAlive { .. } | EtcdMsg::Unlocked { done: true } => MsgKind::Reply,
            EtcdMsg::LeaseNotFound | EtcdMsg::Unlocked { done: false } => MsgKind::Refusal,
        }
    }
}
