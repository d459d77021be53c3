//! A member's side: joining, heartbeating and committing.

use super::GroupMsg;
use crate::engine::actor::{Cx, Timer};
use crate::engine::ids::NodeId;
use crate::engine::msg::{LockMsg, Msg, ReleaseMode};
use crate::engine::protocol::{ClientView, LockClient, Progress, Release};
use crate::engine::spec::{RenewFailure, RenewPolicy};
use crate::engine::time::Millis;

/// A consumer's side of the group protocol.
#[derive(Clone, Hash)]
pub struct Member {
    coordinator: NodeId,
    heartbeat_ms: u64,
    /// The generation it last joined, carried on heartbeats.
    generation: u64,
}

impl Member {
    /// Builds a member of the group `coordinator` runs, heartbeating every `heartbeat_ms`.
    pub(super) fn new(coordinator: NodeId, heartbeat_ms: u64) -> Self {
        Member { coordinator, heartbeat_ms, generation: 0 }
    }
}

impl LockClient for Member {
    fn acquire(&mut self, cx: &mut Cx, timeout_ms: Millis) {
        cx.send(self.coordinator, Msg::lock(GroupMsg::Join));
        cx.after(Timer::Timeout, timeout_ms);
    }

    fn on_message(&mut self, cx: &mut Cx, _from: NodeId, msg: &LockMsg, view: ClientView) -> Progress {
        let Some(msg) = msg.get::<GroupMsg>() else { return Progress::Pending };
        match *msg {
            GroupMsg::Joined { generation, assigned } => {
                self.generation = generation;
                // A consumer owns its partition until told otherwise: it foresees no end.
                if assigned {
                    Progress::Granted { token: generation, until_local: None }
                } else {
                    Progress::Queued
                }
            }
            GroupMsg::HeartbeatOk if view.held.is_some() => Progress::Renewed { until_local: None },
            GroupMsg::HeartbeatOk => Progress::RenewRetry,
            // The owner gives its partition up (eager rebalancing); its policy decides what it does next.
            GroupMsg::HeartbeatError { .. } if view.held.is_some() => Progress::Lost,
            // A member without a partition rejoins and waits for the next generation.
            GroupMsg::HeartbeatError { .. } if view.queued => {
                cx.send(self.coordinator, Msg::lock(GroupMsg::Join));
                Progress::RenewRetry
            }
            GroupMsg::Left { .. } => Progress::Released,
            GroupMsg::HeartbeatError { .. } | GroupMsg::Join | GroupMsg::Heartbeat { .. } | GroupMsg::Leave => Progress::Pending,
        }
    }

    fn on_timeout(&mut self, _cx: &mut Cx, _timeout_ms: Millis) -> Progress {
        // A JoinGroup is answered when the rebalance completes: keep waiting.
        Progress::Pending
    }

    fn renewal(&self, policy: Option<RenewPolicy>) -> Option<RenewPolicy> {
        Some(policy.unwrap_or(RenewPolicy { every_ms: self.heartbeat_ms, on_failure: RenewFailure::CarryOn }))
    }

    fn renew(&mut self, cx: &mut Cx, _held: Option<u64>) {
        cx.send(self.coordinator, Msg::lock(GroupMsg::Heartbeat { generation: self.generation }));
    }

    fn release(&mut self, cx: &mut Cx, _held: Option<u64>, _last: u64, _mode: ReleaseMode) -> Release {
        cx.send(self.coordinator, Msg::lock(GroupMsg::Leave));
        Release::AwaitReply
    }
}
