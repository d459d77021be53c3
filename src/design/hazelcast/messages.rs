//! What a client and the CP group say about CP sessions and the FencedLock.

use crate::engine::msg::{DesignMsg, MsgKind};
use serde::Serialize;

/// CP Subsystem requests and replies, as `FencedLock` uses them. `request` ties a reply to its
/// request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Hash)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum HzMsg {
    /// Create a CP session (the first lock call does it).
    CreateSession {
        request: u32,
    },
    SessionCreated {
        request: u32,
        session: u64,
    },
    /// `lock()`: granted now, or queued (FIFO) until the lock is free.
    Lock {
        request: u32,
        session: u64,
    },
    /// Held, with this fence: the Raft commit index of the winning acquire.
    Locked {
        request: u32,
        fence: u64,
    },
    /// Queued behind the holder.
    Waiting {
        request: u32,
    },
    /// The session's heartbeat.
    Heartbeat {
        request: u32,
        session: u64,
    },
    HeartbeatOk {
        request: u32,
    },
    /// The session had expired and was closed.
    SessionExpired {
        request: u32,
    },
    /// `unlock()`.
    Unlock {
        request: u32,
        session: u64,
    },
    Unlocked {
        request: u32,
    },
    /// `LockOwnershipLostException`: this session no longer holds the lock.
    OwnershipLost {
        request: u32,
    },
}

impl HzMsg {
    /// The request this message is, or answers.
    pub fn request(&self) -> u32 {
        match *self {
            HzMsg::CreateSession { request }
            | HzMsg::SessionCreated { request, .. }
            | HzMsg::Lock { request, .. }
            | HzMsg::Locked { request, .. }
            | HzMsg::Waiting { request }
            | HzMsg::Heartbeat { request, .. }
            | HzMsg::HeartbeatOk { request }
            | HzMsg::SessionExpired { request }
            | HzMsg::Unlock { request, .. }
            | HzMsg::Unlocked { request }
            | HzMsg::OwnershipLost { request } => request,
        }
    }
}

impl DesignMsg for HzMsg {
    fn kind(&self) -> MsgKind {
        match self {
            HzMsg::Lock { .. } => MsgKind::Acquire,
            HzMsg::CreateSession { .. } | HzMsg::Heartbeat { .. } | HzMsg::Unlock { .. } => MsgKind::Request,
            HzMsg::SessionCreated { .. } | HzMsg::Locked { .. } | HzMsg::HeartbeatOk { .. } | HzMsg::Unlocked { .. } => MsgKind::Reply,
            HzMsg::Waiting { .. } => MsgKind::Busy,
            HzMsg::SessionExpired { .. } | HzMsg::OwnershipLost { .. } => MsgKind::Refusal,
        }
    }
}
