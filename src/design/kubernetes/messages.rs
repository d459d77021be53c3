//! The Lease and what a candidate and the API server say about it.

use crate::engine::ids::NodeId;
use crate::engine::msg::{DesignMsg, MsgKind};
use crate::engine::time::LocalMillis;
use serde::Serialize;

/// The Lease's spec, as the model keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Hash)]
pub struct LeaseSpec {
    pub holder: Option<NodeId>,
    pub duration_s: u64,
    /// When the holder acquired it, on the holder's clock.
    pub acquire_time: LocalMillis,
    /// When the holder last renewed it, on the holder's clock.
    pub renew_time: LocalMillis,
    pub transitions: u64,
}

/// API requests and responses about the Lease. `request` ties a response to its request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Hash)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum ApiMsg {
    Get {
        request: u32,
    },
    Found {
        request: u32,
        lease: LeaseSpec,
        version: u64,
    },
    NotFound {
        request: u32,
    },
    /// Create the Lease (claiming it).
    Create {
        request: u32,
        lease: LeaseSpec,
    },
    /// Replace the Lease if it is still at `version`; `take` when this writes a new holder in.
    Update {
        request: u32,
        lease: LeaseSpec,
        version: u64,
        take: bool,
    },
    Stored {
        request: u32,
        version: u64,
    },
    /// Someone else wrote first (or created it first).
    Conflict {
        request: u32,
    },
}

impl DesignMsg for ApiMsg {
    fn kind(&self) -> MsgKind {
        match self {
            ApiMsg::Create { .. } | ApiMsg::Update { take: true, .. } => MsgKind::Acquire,
            ApiMsg::Get { .. } | ApiMsg::Update { .. } => MsgKind::Request,
            ApiMsg::Found { .. } | ApiMsg::NotFound { .. } | ApiMsg::Stored { .. } => MsgKind::Reply,
            ApiMsg::Conflict { .. } => MsgKind::Busy,
        }
    }
}
