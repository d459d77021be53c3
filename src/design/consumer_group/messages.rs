//! What a member and the group coordinator say: joins, heartbeats, assignments and offset commits.

use crate::engine::msg::{DesignMsg, MsgKind};
use serde::Serialize;

/// Why the coordinator refuses a commit or a heartbeat, by Kafka's error names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Hash)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum GroupError {
    UnknownMemberId,
    IllegalGeneration,
    RebalanceInProgress,
}

impl GroupError {
    /// Kafka's name for the error.
    pub fn name(self) -> &'static str {
        match self {
            GroupError::UnknownMemberId => "UNKNOWN_MEMBER_ID",
            GroupError::IllegalGeneration => "ILLEGAL_GENERATION",
            GroupError::RebalanceInProgress => "REBALANCE_IN_PROGRESS",
        }
    }

    /// Says why a commit with this error is refused, as one sentence.
    pub fn commit_refused(self) -> &'static str {
        match self {
            GroupError::UnknownMemberId => "The coordinator takes commits only from members of the group, and this one was removed.",
            GroupError::IllegalGeneration => {
                "The coordinator takes commits only in the group's current generation, whether or not the new owner has committed."
            }
            GroupError::RebalanceInProgress => "The coordinator takes no commits while the group rebalances.",
        }
    }

    pub(super) fn meaning(self) -> &'static str {
        match self {
            GroupError::UnknownMemberId => "it is no longer a member of the group",
            GroupError::IllegalGeneration => "the generation it named is not the group's current one",
            GroupError::RebalanceInProgress => "the group is rebalancing",
        }
    }
}

/// What a member and the coordinator say to each other.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Hash)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum GroupMsg {
    /// JoinGroup: answered when the rebalance completes.
    Join,
    /// The JoinGroup/SyncGroup answer: the generation, and whether partition 0 is this member's.
    Joined {
        generation: u64,
        assigned: bool,
    },
    Heartbeat {
        generation: u64,
    },
    HeartbeatOk,
    /// A heartbeat refused: rejoin, or give up the partition.
    HeartbeatError {
        error: GroupError,
    },
    /// LeaveGroup.
    Leave,
    Left {
        member: bool,
    },
}

impl DesignMsg for GroupMsg {
    fn kind(&self) -> MsgKind {
        match self {
            GroupMsg::Join => MsgKind::Acquire,
            GroupMsg::Heartbeat { .. } | GroupMsg::Leave => MsgKind::Request,
            GroupMsg::Joined { .. } | GroupMsg::HeartbeatOk | GroupMsg::Left { member: true } => MsgKind::Reply,
            GroupMsg::HeartbeatError { .. } | GroupMsg::Left { member: false } => MsgKind::Refusal,
        }
    }
}
