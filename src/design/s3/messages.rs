//! The epoch objects and what a client and S3 say about them.

use crate::engine::ids::NodeId;
use crate::engine::msg::{DesignMsg, MsgKind};
use serde::Serialize;

/// The newest epoch object, as a LIST and a HEAD of it show it: its epoch, who wrote it, how old
/// its Last-Modified is by the Date S3 answers with, and whether its holder marked it released.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Hash)]
pub struct EpochObject {
    pub epoch: u64,
    pub holder: NodeId,
    pub age_ms: u64,
    pub released: bool,
}

/// S3 requests and replies, as the lock uses them. `request` ties a reply to its request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Hash)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum S3Msg {
    /// LIST the lock's prefix and HEAD the newest epoch object.
    List {
        request: u32,
    },
    Newest {
        request: u32,
        newest: Option<EpochObject>,
    },
    /// `PUT lock/epoch-<n>` with `If-None-Match: *`: create it only if it does not exist.
    Create {
        request: u32,
        epoch: u64,
    },
    /// `PUT lock/epoch-<n>` with `If-Match: <etag>`: rewrite it (a renewal, which moves its
    /// Last-Modified; or, with `release`, marking it released) only if it is still as written.
    Rewrite {
        request: u32,
        epoch: u64,
        etag: u64,
        release: bool,
    },
    /// 200 OK, with the object's new ETag.
    Stored {
        request: u32,
        etag: u64,
    },
    /// 412 Precondition Failed.
    PreconditionFailed {
        request: u32,
    },
    /// After taking an epoch, with the data in S3: `GET manifest`, then `PUT manifest` carrying
    /// this writer's epoch with `If-Match: <the ETag read>` (one round trip here).
    ClaimManifest {
        request: u32,
        epoch: u64,
    },
}

impl S3Msg {
    /// The request this message is, or answers.
    pub fn request(&self) -> u32 {
        match *self {
            S3Msg::List { request }
            | S3Msg::Newest { request, .. }
            | S3Msg::Create { request, .. }
            | S3Msg::Rewrite { request, .. }
            | S3Msg::Stored { request, .. }
            | S3Msg::PreconditionFailed { request }
            | S3Msg::ClaimManifest { request, .. } => request,
        }
    }
}

impl DesignMsg for S3Msg {
    fn kind(&self) -> MsgKind {
        match self {
            S3Msg::Create { .. } => MsgKind::Acquire,
            S3Msg::List { .. } | S3Msg::Rewrite { .. } | S3Msg::ClaimManifest { .. } => MsgKind::Request,
            S3Msg::Newest { .. } | S3Msg::Stored { .. } => MsgKind::Reply,
            S3Msg::PreconditionFailed { .. } => MsgKind::Refusal,
        }
    }
}
