//! The lock table: one item, conditional writes, and no notion of time.

use super::{Condition, DynamoMsg, LockItem};
use crate::engine::actor::{Actor, Cx, Timer};
use crate::engine::event::{EventKind, LockEnd};
use crate::engine::ids::NodeId;
use crate::engine::msg::Msg;

/// The lock table in DynamoDB: the lock item, if any, and its fence attribute. It judges no
/// time: whether a lock has expired is for the clients to decide.
#[derive(Clone, Hash)]
pub(super) struct LockTable {
    item: Option<LockItem>,
    /// The item's fence attribute, which each acquiring write increments, if the design keeps
    /// one. It goes with the item when the item is deleted.
    fence: u64,
    keeps_fence: bool,
}

impl LockTable {
    pub(super) fn new(keeps_fence: bool) -> Self {
        LockTable { item: None, fence: 0, keeps_fence }
    }

    /// The token a grant carries: the fence attribute, or 0 without one.
    fn token(&self) -> u64 {
        if self.keeps_fence {
            self.fence
        } else {
            0
        }
    }

    fn holds(&self, from: NodeId, rvn: u64) -> bool {
        self.item.is_some_and(|i| i.owner == from && i.rvn == rvn && !i.released)
    }

    fn answer(&mut self, cx: &mut Cx, from: NodeId, msg: DynamoMsg) -> Option<DynamoMsg> {
        Some(match msg {
            DynamoMsg::GetItem { request } => DynamoMsg::Item { request, item: self.item },
            DynamoMsg::PutItem { request, rvn, lease_ms, condition } => {
                let holds = match condition {
                    Condition::NotExists => self.item.is_none(),
                    Condition::RvnIs { rvn } => self.item.is_some_and(|i| i.rvn == rvn),
                    Condition::Released => self.item.is_some_and(|i| i.released),
                };
                if !holds {
                    return Some(DynamoMsg::ConditionFailed { request });
                }
                if let Some(old) = self.item.filter(|i| !i.released) {
                    cx.note(EventKind::LockEnded { holder: old.owner, token: self.token(), how: LockEnd::Replaced });
                }
                self.fence += 1;
                self.item = Some(LockItem { owner: from, rvn, lease_ms, released: false });
                cx.note(EventKind::LockGranted { holder: from, token: self.token(), expires_local: None });
                DynamoMsg::Written { request, fence: self.token() }
            }
            DynamoMsg::Heartbeat { request, rvn, new_rvn, lease_ms } if self.holds(from, rvn) => {
                self.item = Some(LockItem { owner: from, rvn: new_rvn, lease_ms, released: false });
                cx.note(EventKind::LockExtended { holder: from, token: self.token(), expires_local: None });
                DynamoMsg::Written { request, fence: self.token() }
            }
            DynamoMsg::Release { request, rvn, delete } if self.holds(from, rvn) => {
                cx.note(EventKind::LockEnded { holder: from, token: self.token(), how: LockEnd::Released });
                match delete {
                    true => (self.item, self.fence) = (None, 0),
                    false => self.item = self.item.map(|i| LockItem { released: true, ..i }),
                }
                DynamoMsg::Written { request, fence: 0 }
            }
            DynamoMsg::Heartbeat { request, .. } | DynamoMsg::Release { request, .. } => DynamoMsg::ConditionFailed { request },
            DynamoMsg::Item { .. } | DynamoMsg::Written { .. } | DynamoMsg::ConditionFailed { .. } => return None,
        })
    }
}

impl Actor for LockTable {
    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &Msg) {
        let Msg::Lock { msg } = msg else { return };
        let Some(&msg) = msg.get::<DynamoMsg>() else { return };
        if let Some(reply) = self.answer(cx, from, msg) {
            cx.send(from, Msg::lock(reply));
        }
    }

    fn on_timer(&mut self, _cx: &mut Cx, _timer: Timer) {}

    fn on_restart(&mut self, _cx: &mut Cx, _keep_state: bool) {
        // DynamoDB keeps its items durably: a restart loses nothing.
    }
}
