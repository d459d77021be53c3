//! The lock item and what the lock client and DynamoDB say about it.

use crate::engine::ids::NodeId;
use crate::engine::msg::{DesignMsg, MsgKind};
use serde::Serialize;

/// The lock item as the client reads it: its owner, its recordVersionNumber (a random GUID,
/// rewritten by every heartbeat), the leaseDuration its owner wrote, and whether it was released
/// (kept with `isReleased` rather than deleted). No absolute time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Hash)]
pub struct LockItem {
    pub owner: NodeId,
    pub rvn: u64,
    pub lease_ms: u64,
    pub released: bool,
}

/// What a conditional put of the lock item requires.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Hash)]
#[serde(tag = "if", rename_all = "snake_case")]
pub enum Condition {
    /// `attribute_not_exists(key)`: nobody holds the lock.
    NotExists,
    /// `recordVersionNumber = :rvn`: the item has not changed since the contender first saw it.
    RvnIs { rvn: u64 },
    /// `isReleased = :1`: its holder released it.
    Released,
}

/// DynamoDB requests and replies, as the lock client uses them. `request` ties a reply to its request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Hash)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum DynamoMsg {
    /// A strongly consistent `GetItem` of the lock item.
    GetItem {
        request: u32,
    },
    Item {
        request: u32,
        item: Option<LockItem>,
    },
    /// `PutItem` of a new lock item with a new RVN, if `condition` holds.
    PutItem {
        request: u32,
        rvn: u64,
        lease_ms: u64,
        condition: Condition,
    },
    /// The write took; with a fence attribute, its new value.
    Written {
        request: u32,
        fence: u64,
    },
    /// `ConditionalCheckFailedException`.
    ConditionFailed {
        request: u32,
    },
    /// A heartbeat: `UpdateItem` setting a new RVN, if the RVN and owner are still this client's.
    Heartbeat {
        request: u32,
        rvn: u64,
        new_rvn: u64,
        lease_ms: u64,
    },
    /// Release, if the RVN and owner are still this client's: `DeleteItem`, or with `delete`
    /// false an `UpdateItem` setting `isReleased`.
    Release {
        request: u32,
        rvn: u64,
        delete: bool,
    },
}

impl DynamoMsg {
    /// The request this message is, or answers.
    pub fn request(&self) -> u32 {
        match *self {
            DynamoMsg::GetItem { request }
            | DynamoMsg::Item { request, .. }
            | DynamoMsg::PutItem { request, .. }
            | DynamoMsg::Written { request, .. }
            | DynamoMsg::ConditionFailed { request }
            | DynamoMsg::Heartbeat { request, .. }
            | DynamoMsg::Release { request, .. } => request,
        }
    }
}

impl DesignMsg for DynamoMsg {
    fn kind(&self) -> MsgKind {
        match self {
            DynamoMsg::PutItem { .. } => MsgKind::Acquire,
            DynamoMsg::GetItem { .. } | DynamoMsg::Heartbeat { .. } | DynamoMsg::Release { .. } => MsgKind::Request,
            DynamoMsg::Item { .. } | DynamoMsg::Written { .. } => MsgKind::Reply,
            DynamoMsg::ConditionFailed { .. } => MsgKind::Refusal,
        }
    }
}
