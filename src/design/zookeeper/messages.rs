//! What a contender and the ensemble say about the lock znodes.

use crate::engine::msg::{DesignMsg, MsgKind};
use serde::Serialize;

/// ZooKeeper requests and replies, as the recipe uses them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Hash)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum ZkMsg {
    /// `create("<locknode>/lock-", EPHEMERAL|SEQUENTIAL)`, then `getChildren()`.
    Create,
    /// Your znode is the lowest: you own the lock.
    Owner {
        seq: u64,
        czxid: u64,
    },
    /// Your znode is not first; you now watch `watching` (or, if none, the lock node).
    Waiting {
        seq: u64,
        watching: Option<u64>,
    },
    /// The znode you watched was deleted.
    WatchFired {
        deleted: u64,
    },
    /// A child was added to the lock node whose children you watch (the herd's watch fires on
    /// every change, a contender arriving as well as a holder leaving).
    ChildAdded {
        created: u64,
    },
    /// List the lock node's children again.
    GetChildren,
    /// A heartbeat keeping the session alive.
    Ping,
    Pong,
    /// That session no longer exists.
    SessionExpired,
    /// Delete my znode.
    Delete {
        seq: u64,
    },
    Deleted {
        done: bool,
    },
}

impl DesignMsg for ZkMsg {
    fn kind(&self) -> MsgKind {
        match self {
            ZkMsg::Create => MsgKind::Acquire,
            ZkMsg::GetChildren | ZkMsg::Ping | ZkMsg::Delete { .. } => MsgKind::Request,
            ZkMsg::Owner { .. } | ZkMsg::Waiting { .. } | ZkMsg::Pong | ZkMsg::Deleted { done: true } => MsgKind::Reply,
            ZkMsg::WatchFired { .. } | ZkMsg::ChildAdded { .. } => MsgKind::WakeUp,
            ZkMsg::SessionExpired | ZkMsg::Deleted { done: false } => MsgKind::Refusal,
        }
    }
}
