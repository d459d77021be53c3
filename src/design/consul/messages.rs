//! What a client and the Consul servers say about sessions and the lock key.

use crate::engine::msg::{DesignMsg, MsgKind};
use crate::engine::time::Millis;
use serde::Serialize;

/// Consul HTTP API requests and replies, as the Go client's lock uses them. `request` ties a
/// reply to its request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Hash)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum ConsulMsg {
    /// `PUT /v1/session/create` with the design's TTL, LockDelay and Behavior.
    CreateSession {
        request: u32,
    },
    SessionCreated {
        request: u32,
        session: u64,
    },
    /// `PUT /v1/kv/<key>?acquire=<session>`.
    Acquire {
        request: u32,
        session: u64,
    },
    /// `true`: the session holds the key, whose `LockIndex` this is.
    Acquired {
        request: u32,
        lock_index: u64,
    },
    /// `false`: another session holds the key, or its lock-delay has `delay_left` to run.
    NotAcquired {
        request: u32,
        delay_left: Millis,
    },
    /// `PUT /v1/session/renew/<session>`.
    Renew {
        request: u32,
        session: u64,
    },
    /// The session lives on, for at least `ttl`.
    Renewed {
        request: u32,
        ttl: Millis,
    },
    /// 404: the session is gone (invalidated).
    SessionNotFound {
        request: u32,
    },
    /// `PUT /v1/kv/<key>?release=<session>`.
    Release {
        request: u32,
        session: u64,
    },
    Released {
        request: u32,
        done: bool,
    },
}

impl ConsulMsg {
    /// The request this message is, or answers.
    pub fn request(&self) -> u32 {
        match *self {
            ConsulMsg::CreateSession { request }
            | ConsulMsg::SessionCreated { request, .. }
            | ConsulMsg::Acquire { request, .. }
            | ConsulMsg::Acquired { request, .. }
            | ConsulMsg::NotAcquired { request, .. }
            | ConsulMsg::Renew { request, .. }
            | ConsulMsg::Renewed { request, .. }
            | ConsulMsg::SessionNotFound { request }
            | ConsulMsg::Release { request, .. }
            | ConsulMsg::Released { request, .. } => request,
        }
    }
}

impl DesignMsg for ConsulMsg {
    fn kind(&self) -> MsgKind {
        match self {
            ConsulMsg::Acquire { .. } => MsgKind::Acquire,
            ConsulMsg::CreateSession { .. } | ConsulMsg::Renew { .. } | ConsulMsg::Release { .. } => MsgKind::Request,
            ConsulMsg::SessionCreated { .. }
            | ConsulMsg::Acquired { .. }
            | ConsulMsg::Renewed { .. }
            | ConsulMsg::Released { done: true, .. } => MsgKind::Reply,
            ConsulMsg::NotAcquired { .. } => MsgKind::Busy,
            ConsulMsg::SessionNotFound { .. } | ConsulMsg::Released { done: false, .. } => MsgKind::Refusal,
        }
    }
}
