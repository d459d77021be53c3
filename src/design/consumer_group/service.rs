//! The group coordinator: members, generations and rebalances, and the offset commits it takes.

use super::{GroupError, GroupMsg, Times};
use crate::engine::actor::{Actor, Cx, DesignTimer, Timer};
use crate::engine::event::{EventKind, LockEnd};
use crate::engine::ids::NodeId;
use crate::engine::msg::{Msg, Rejection, WriteValue};
use crate::engine::time::LocalMillis;

/// One member of the group, as the coordinator sees it.
#[derive(Clone, Copy, Debug, Hash)]
struct Seat {
    node: NodeId,
    session_ends: LocalMillis,
    /// Whether it has joined the rebalance under way (waiting for its answer).
    rejoined: bool,
}

/// The group's state: gathering members for a new generation, or settled in one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Phase {
    Empty,
    Rebalancing { first: bool },
    Stable,
}

/// The rebalance's deadline timer.
/// The coordinator's own timer: the rebalance's deadline (or the first one's delay).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum GroupTimer {
    Rebalance,
}

impl DesignTimer for GroupTimer {
    fn slot(self) -> u8 {
        0
    }

    fn of_slot(slot: u8) -> Option<Self> {
        (slot == 0).then_some(GroupTimer::Rebalance)
    }
}

/// The group coordinator: membership, generations, the assignment and the committed offsets.
#[derive(Clone, Hash)]
pub struct Coordinator {
    times: Times,
    first_generation: u64,
    generation: u64,
    phase: Phase,
    /// Members in the order they joined: the longest-standing first.
    seats: Vec<Seat>,
    owner: Option<NodeId>,
    offsets_version: u64,
}

impl Coordinator {
    pub(super) fn new(times: Times, first_generation: u64) -> Self {
        Coordinator {
            times,
            first_generation,
            generation: first_generation - 1,
            phase: Phase::Empty,
            seats: Vec::new(),
            owner: None,
            offsets_version: 0,
        }
    }

    fn seat(&mut self, node: NodeId) -> Option<&mut Seat> {
        self.seats.iter_mut().find(|s| s.node == node)
    }

    fn keep_alive(&mut self, cx: &mut Cx, node: NodeId) {
        let ends = cx.now + self.times.session_ms;
        if let Some(s) = self.seat(node) {
            s.session_ends = ends;
            cx.at(Timer::Expiry(node.0 as u64), ends);
        }
    }

    /// Takes partition 0 from its owner: the generation it was assigned in is over.
    fn revoke(&mut self, cx: &mut Cx, how: LockEnd) {
        if let Some(owner) = self.owner.take() {
            cx.note(EventKind::LockEnded { holder: owner, token: self.generation, how });
        }
    }

    /// Starts a rebalance: every member must rejoin before the deadline.
    fn rebalance(&mut self, cx: &mut Cx, how: LockEnd) {
        if self.seats.is_empty() {
            self.revoke(cx, how);
            self.phase = Phase::Empty;
            cx.cancel(Timer::service(GroupTimer::Rebalance));
            return;
        }
        if self.phase != Phase::Stable {
            return self.complete_if_all_in(cx);
        }
        self.revoke(cx, how);
        for s in &mut self.seats {
            s.rejoined = false;
        }
        self.phase = Phase::Rebalancing { first: false };
        cx.after(Timer::service(GroupTimer::Rebalance), self.times.rebalance_ms);
    }

    fn join(&mut self, cx: &mut Cx, from: NodeId) {
        if self.seat(from).is_none() {
            let ends = cx.now + self.times.session_ms;
            self.seats.push(Seat { node: from, session_ends: ends, rejoined: false });
        }
        self.keep_alive(cx, from);
        match self.phase {
            Phase::Empty => {
                self.phase = Phase::Rebalancing { first: true };
                cx.after(Timer::service(GroupTimer::Rebalance), self.times.initial_delay_ms);
            }
            // A join into a settled group (new or returning) starts a new generation.
            Phase::Stable => self.rebalance(cx, LockEnd::Replaced),
            Phase::Rebalancing { .. } => {}
        }
        if let Some(s) = self.seat(from) {
            s.rejoined = true;
        }
        self.complete_if_all_in(cx);
    }

    /// Completes a later rebalance as soon as every member has rejoined; the first waits out
    /// its initial delay for more members.
    fn complete_if_all_in(&mut self, cx: &mut Cx) {
        if self.phase == (Phase::Rebalancing { first: false }) && self.seats.iter().all(|s| s.rejoined) {
            self.complete(cx);
        }
    }

    /// Drops the members that did not rejoin, opens the next generation and answers every joiner.
    fn complete(&mut self, cx: &mut Cx) {
        cx.cancel(Timer::service(GroupTimer::Rebalance));
        for s in self.seats.iter().filter(|s| !s.rejoined) {
            cx.cancel(Timer::Expiry(s.node.0 as u64));
        }
        self.seats.retain(|s| s.rejoined);
        let Some(first) = self.seats.first().map(|s| s.node) else {
            self.phase = Phase::Empty;
            return;
        };
        self.generation += 1;
        self.phase = Phase::Stable;
        // Sticky: the owner keeps the partition if it rejoined; else the longest-standing member.
        let owner = self.owner.filter(|o| self.seats.iter().any(|s| s.node == *o)).unwrap_or(first);
        self.owner = Some(owner);
        let expires_local = self.seats.iter().find(|s| s.node == owner).map(|s| s.session_ends);
        cx.note(EventKind::LockGranted { holder: owner, token: self.generation, expires_local });
        for s in self.seats.clone() {
            self.keep_alive(cx, s.node);
            cx.send(s.node, Msg::lock(GroupMsg::Joined { generation: self.generation, assigned: s.node == owner }));
        }
    }

    fn heartbeat(&mut self, cx: &mut Cx, from: NodeId, generation: u64) -> GroupMsg {
        if self.seat(from).is_none() {
            return GroupMsg::HeartbeatError { error: GroupError::UnknownMemberId };
        }
        self.keep_alive(cx, from);
        if self.phase != Phase::Stable {
            return GroupMsg::HeartbeatError { error: GroupError::RebalanceInProgress };
        }
        if generation != self.generation {
            return GroupMsg::HeartbeatError { error: GroupError::IllegalGeneration };
        }
        if self.owner == Some(from) {
            let expires_local = self.seat(from).map(|s| s.session_ends);
            cx.note(EventKind::LockExtended { holder: from, token: generation, expires_local });
        }
        GroupMsg::HeartbeatOk
    }

    fn leave(&mut self, cx: &mut Cx, from: NodeId) -> GroupMsg {
        let member = self.seat(from).is_some();
        if member {
            self.seats.retain(|s| s.node != from);
            cx.cancel(Timer::Expiry(from.0 as u64));
            if self.owner == Some(from) {
                self.revoke(cx, LockEnd::Released);
            }
            self.rebalance(cx, LockEnd::Replaced);
        }
        GroupMsg::Left { member }
    }

    /// Commits an offset as Kafka's coordinator does: only from a member, in the current
    /// generation, outside a rebalance.
    fn commit(&mut self, cx: &mut Cx, from: NodeId, generation: u64, value: &WriteValue) {
        let error = if self.phase != Phase::Stable {
            Some(GroupError::RebalanceInProgress)
        } else if self.seat(from).is_none() {
            Some(GroupError::UnknownMemberId)
        } else if generation != self.generation {
            Some(GroupError::IllegalGeneration)
        } else {
            None
        };
        let value = value.clone();
        match error {
            None => {
                self.offsets_version += 1;
                let version = self.offsets_version;
                cx.note(EventKind::WriteAccepted { writer: from, token: generation, value, version });
                cx.send(from, Msg::WriteAccepted { version });
            }
            Some(error) => {
                let reason = Rejection::Refused { token: generation, code: error.name(), means: error.commit_refused() };
                cx.note(EventKind::WriteRejected { writer: from, token: generation, value, reason: reason.clone() });
                cx.send(from, Msg::WriteRejected { reason });
            }
        }
    }

    /// Removes a member whose session timed out on this clock.
    fn expire(&mut self, cx: &mut Cx, node: NodeId) {
        if !self.seats.iter().any(|s| s.node == node && cx.now >= s.session_ends) {
            return;
        }
        self.seats.retain(|s| s.node != node);
        if self.owner == Some(node) {
            self.revoke(cx, LockEnd::Expired);
        }
        self.rebalance(cx, LockEnd::Replaced);
    }
}

impl Actor for Coordinator {
    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &Msg) {
        match msg {
            Msg::Lock { msg } => {
                let reply = match msg.get::<GroupMsg>() {
                    Some(GroupMsg::Join) => return self.join(cx, from),
                    Some(GroupMsg::Heartbeat { generation }) => self.heartbeat(cx, from, *generation),
                    Some(GroupMsg::Leave) => self.leave(cx, from),
                    _ => return,
                };
                cx.send(from, Msg::lock(reply));
            }
            Msg::Write { token, value, .. } => self.commit(cx, from, *token, value),
            Msg::Read | Msg::ReadResult { .. } | Msg::Undo { .. } | Msg::WriteAccepted { .. } | Msg::WriteRejected { .. } => {}
        }
    }

    fn on_timer(&mut self, cx: &mut Cx, timer: Timer) {
        match (timer, timer.as_service()) {
            (Timer::Expiry(node), _) => self.expire(cx, NodeId(node as usize)),
            (_, Some(GroupTimer::Rebalance)) if matches!(self.phase, Phase::Rebalancing { .. }) => self.complete(cx),
            _ => {}
        }
    }

    fn on_restart(&mut self, cx: &mut Cx, keep_state: bool) {
        if !keep_state {
            // The group's state is gone: members learn of it at their next heartbeat.
            self.revoke(cx, LockEnd::LostOnRestart);
            *self = Coordinator::new(self.times, self.first_generation);
        } else {
            for s in self.seats.clone() {
                cx.at(Timer::Expiry(s.node.0 as u64), s.session_ends);
            }
            if matches!(self.phase, Phase::Rebalancing { .. }) {
                cx.after(Timer::service(GroupTimer::Rebalance), self.times.rebalance_ms);
            }
        }
    }
}
