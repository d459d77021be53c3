//! A partitioned queue's consumer group, modelled on Kafka's classic group protocol: the group
//! coordinator gathers members in a rebalance, assigns the one partition to one of them in a new
//! generation, keeps members while their heartbeats arrive within the session timeout, and takes
//! the offset commits itself, refusing any that is not from a current member in the current
//! generation. There is no lock and no refused join: a join, a leave or a session timeout starts a
//! rebalance, and each rebalance is a new generation.
//!
//! Simplifications, said in the lessons: one partition, kept by its owner across a rebalance
//! (as the sticky assignors do) or else given to the longest-standing member; eager rebalancing
//! (a member told of a rebalance gives the partition up and rejoins); the rebalance timeout
//! stands for `max.poll.interval.ms`; side effects outside Kafka are not fenced (transactions,
//! which fence a zombie producer inside Kafka, are not modelled).

use super::param::settings;
use super::{Design, Factory, Guarantees, Kind, LockKind, Row, Services, Settings, Summary, Values};
use crate::engine::actor::{Actor, Cx, Timer};
use crate::engine::event::{EventKind, LockEnd};
use crate::engine::ids::NodeId;
use crate::engine::msg::{DesignMsg, LockMsg, Msg, MsgKind, Rejection, ReleaseMode};
use crate::engine::protocol::{ClientView, LockClient, Progress, Protocol, Release};
use crate::engine::spec::{RenewFailure, RenewPolicy};
use crate::error::ScenarioError;
use crate::present::number::{group, ms};
use crate::present::quoted::Quoted;
use crate::present::{Names, Vocabulary};
use serde::Serialize;
use std::rc::Rc;

/// The registry entry.
pub struct ConsumerGroup;

settings! {
    /// How the consumer group's coordinator and members are set up.
    pub struct ConsumerGroupSettings {
        /// How long the coordinator waits for a member's heartbeat before removing it from the group (session.timeout.ms).
        session_timeout_ms: u64 = number_or("ms", 1..=3_600_000, 45_000),
        /// How often a member sends a heartbeat when its script sets no renewal (heartbeat.interval.ms).
        heartbeat_interval_ms: u64 = number_or("ms", 1..=3_600_000, 3_000),
        /// How long the coordinator waits for more members before the first rebalance of an empty group completes
        /// (group.initial.rebalance.delay.ms).
        initial_rebalance_delay_ms: u64 = number_or("ms", 0..=3_600_000, 3_000),
        /// How long a rebalance waits for every member to rejoin before it goes on without the missing ones (max.poll.interval.ms).
        rebalance_timeout_ms: u64 = number_or("ms", 1..=3_600_000, 300_000),
        /// The generation of the first completed rebalance.
        first_generation: u64 = number_or("", 1..=u32::MAX as u64, 1),
    }
}

/// The design as the registry lists it.
static SUMMARY: Summary = Summary::of::<ConsumerGroupSettings>(
    "consumer_group",
    "Partitioned queue (consumer group)",
    "No lock: a group coordinator gives a partition to one consumer per generation, and takes an offset commit only from a current member in the current generation.",
);

impl Factory for ConsumerGroupSettings {
    fn build(&self) -> Result<Rc<dyn Design>, ScenarioError> {
        Ok(Rc::new(Group {
            values: self.to_values(),
            times: Times {
                session_ms: self.session_timeout_ms,
                initial_delay_ms: self.initial_rebalance_delay_ms,
                rebalance_ms: self.rebalance_timeout_ms,
            },
            heartbeat_ms: self.heartbeat_interval_ms,
            first_generation: self.first_generation,
        }))
    }
}

impl Kind for ConsumerGroup {
    fn summary(&self) -> &'static Summary {
        &SUMMARY
    }

    fn rows(&self, _ttl_ms: u64) -> Vec<Row> {
        Vec::new()
    }
}

/// The coordinator's timeouts, in ms.
#[derive(Clone, Copy, Debug)]
struct Times {
    session_ms: u64,
    initial_delay_ms: u64,
    rebalance_ms: u64,
}

/// The consumer group, configured.
#[derive(Debug)]
pub struct Group {
    values: Values,
    times: Times,
    heartbeat_ms: u64,
    first_generation: u64,
}

impl Protocol for Group {
    fn service(&self, _index: usize, _nodes: &[NodeId]) -> Option<Box<dyn Actor>> {
        Some(Box::new(Coordinator::new(self.times, self.first_generation)))
    }

    fn client(&self, nodes: &[NodeId]) -> Option<Box<dyn LockClient>> {
        Some(Box::new(Member { coordinator: nodes[0], heartbeat_ms: self.heartbeat_ms, generation: 0 }))
    }

    fn data_in_service(&self) -> bool {
        true
    }
}

impl Design for Group {
    fn kind(&self) -> &'static dyn Kind {
        &ConsumerGroup
    }

    fn values(&self) -> &Values {
        &self.values
    }

    fn guarantees(&self) -> Guarantees {
        Guarantees {
            lock: LockKind::None,
            safety: "Each partition has one owner per generation, and the coordinator takes an offset commit only from a current member in the current generation (otherwise UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION or REBALANCE_IN_PROGRESS), so a consumer that lost its partition cannot commit, whether or not the new owner has. Its processing is not fenced: the old and the new owner may both handle the same event.".into(),
            liveness: format!(
                "A stalled consumer is removed after the session timeout ({}) and the partition goes to another member in the next generation, which carries on from the last committed offset.",
                ms(self.times.session_ms)
            ),
            assumes: "Events are processed at least once, so processing must tolerate a repeat; Kafka transactions fence a zombie's writes to Kafka itself, not its side effects elsewhere.".into(),
        }
    }

    fn services(&self) -> Services {
        Services { count: 1..=1, what: "one group coordinator" }
    }

    fn release_modes(&self) -> &'static [ReleaseMode] {
        &[ReleaseMode::Safe]
    }
}

/// Why the coordinator refuses a commit or a heartbeat, by Kafka's error names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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

    fn meaning(self) -> &'static str {
        match self {
            GroupError::UnknownMemberId => "it is no longer a member of the group",
            GroupError::IllegalGeneration => "the generation it named is not the group's current one",
            GroupError::RebalanceInProgress => "the group is rebalancing",
        }
    }
}

/// What a member and the coordinator say to each other.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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

/// One member of the group, as the coordinator sees it.
#[derive(Clone, Copy, Debug)]
struct Seat {
    node: NodeId,
    session_ends: i64,
    /// Whether it has joined the rebalance under way (waiting for its answer).
    rejoined: bool,
}

/// The group's state: gathering members for a new generation, or settled in one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Empty,
    Rebalancing { first: bool },
    Stable,
}

/// The rebalance's deadline timer.
const REBALANCE: Timer = Timer::Service(0);

/// The group coordinator: membership, generations, the assignment and the committed offsets.
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
    fn new(times: Times, first_generation: u64) -> Self {
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
        let ends = cx.now + self.times.session_ms as i64;
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
            cx.cancel(REBALANCE);
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
        cx.after(REBALANCE, self.times.rebalance_ms);
    }

    fn join(&mut self, cx: &mut Cx, from: NodeId) {
        if self.seat(from).is_none() {
            let ends = cx.now + self.times.session_ms as i64;
            self.seats.push(Seat { node: from, session_ends: ends, rejoined: false });
        }
        self.keep_alive(cx, from);
        match self.phase {
            Phase::Empty => {
                self.phase = Phase::Rebalancing { first: true };
                cx.after(REBALANCE, self.times.initial_delay_ms);
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
        cx.cancel(REBALANCE);
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
    fn commit(&mut self, cx: &mut Cx, from: NodeId, generation: u64, value: &str) {
        let error = if self.phase != Phase::Stable {
            Some(GroupError::RebalanceInProgress)
        } else if self.seat(from).is_none() {
            Some(GroupError::UnknownMemberId)
        } else if generation != self.generation {
            Some(GroupError::IllegalGeneration)
        } else {
            None
        };
        let value = value.to_string();
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
        match timer {
            Timer::Expiry(node) => self.expire(cx, NodeId(node as usize)),
            REBALANCE if matches!(self.phase, Phase::Rebalancing { .. }) => self.complete(cx),
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
                cx.after(REBALANCE, self.times.rebalance_ms);
            }
        }
    }
}

/// A consumer's side of the group protocol.
pub struct Member {
    coordinator: NodeId,
    heartbeat_ms: u64,
    /// The generation it last joined, carried on heartbeats.
    generation: u64,
}

impl LockClient for Member {
    fn acquire(&mut self, cx: &mut Cx, timeout_ms: u64) {
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

    fn on_timeout(&mut self, _cx: &mut Cx, _timeout_ms: u64) -> Progress {
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

impl Vocabulary for Group {
    fn token(&self, token: u64) -> Option<String> {
        Some(format!("generation {token}"))
    }

    fn lock(&self, token: u64) -> String {
        format!("partition 0 (generation {token})")
    }

    fn how_ended(&self, how: LockEnd) -> &'static str {
        match how {
            LockEnd::Expired => "session timed out",
            LockEnd::Released => "left the group",
            LockEnd::DeletedByOther | LockEnd::Replaced => "rebalanced",
            LockEnd::LostOnRestart | LockEnd::Resynced => "lost on restart",
        }
    }

    fn label(&self, msg: &LockMsg, _names: Names) -> String {
        let Some(msg) = msg.get::<GroupMsg>() else { return String::new() };
        match *msg {
            GroupMsg::Join => "JoinGroup".into(),
            GroupMsg::Joined { generation, assigned: true } => format!("generation {generation}: partition 0 is yours"),
            GroupMsg::Joined { generation, assigned: false } => format!("generation {generation}: no partition"),
            GroupMsg::Heartbeat { generation } => format!("heartbeat (generation {generation})"),
            GroupMsg::HeartbeatOk => "heartbeat ok".into(),
            GroupMsg::HeartbeatError { error } => error.name().into(),
            GroupMsg::Leave => "LeaveGroup".into(),
            GroupMsg::Left { member: true } => "left".into(),
            GroupMsg::Left { member: false } => GroupError::UnknownMemberId.name().into(),
        }
    }

    fn sending(&self, msg: &LockMsg, me: &str, to: &str, _names: Names) -> String {
        let Some(msg) = msg.get::<GroupMsg>() else { return String::new() };
        match *msg {
            GroupMsg::Join => {
                format!("{me} sends {to} a JoinGroup: it joins the group, and the answer comes when the rebalance completes.")
            }
            GroupMsg::Joined { generation, assigned: true } => {
                format!("{me} tells {to}: generation {generation} has begun, and partition 0 is assigned to {to}.")
            }
            GroupMsg::Joined { generation, assigned: false } => format!(
                "{me} tells {to}: generation {generation} has begun; {to} is a member with no partition, and keeps sending heartbeats."
            ),
            GroupMsg::Heartbeat { generation } => format!("{me} sends {to} a heartbeat for generation {generation}."),
            GroupMsg::HeartbeatOk => format!("{me} answers {to}'s heartbeat: nothing has changed."),
            GroupMsg::HeartbeatError { error } => {
                format!("{me} answers {to}'s heartbeat with {}: {}; rejoin.", error.name(), error.meaning())
            }
            GroupMsg::Leave => format!("{me} sends {to} a LeaveGroup: it leaves the group."),
            GroupMsg::Left { member: true } => format!("{me} tells {to}: it has left the group."),
            GroupMsg::Left { member: false } => format!("{me} answers {to} with UNKNOWN_MEMBER_ID: it was no longer a member."),
        }
    }

    fn lasts(&self, expires_local: Option<i64>) -> String {
        match expires_local {
            Some(t) => format!("while heartbeats arrive: its session ends at local {} without one", group(t)),
            None => "until told of a rebalance".into(),
        }
    }

    fn believes(&self, _until_local: Option<i64>) -> String {
        "until it is told of a rebalance: a consumer keeps no timer of its own".into()
    }

    fn granted(&self, me: &str, holder: &str, token: u64, expires_local: Option<i64>) -> String {
        format!(
            "{me} completes a rebalance: generation {token} begins, with partition 0 assigned to {holder} {}. Offset commits must carry generation {token}.",
            self.lasts(expires_local)
        )
    }

    fn extended(&self, me: &str, holder: &str, _token: u64, expires_local: Option<i64>) -> String {
        match expires_local {
            Some(t) => format!("{me} counts {holder}'s heartbeat: its session now ends at local {} unless another arrives.", group(t)),
            None => format!("{me} counts {holder}'s heartbeat."),
        }
    }

    fn ended(&self, me: &str, holder: &str, token: u64, how: LockEnd) -> String {
        match how {
            LockEnd::Expired => format!(
                "{holder}'s session times out on {me}'s clock: {me} removes it from the group and rebalances. Generation {token} is over; nobody tells {holder}, which may still think partition 0 is its own."
            ),
            LockEnd::Released => format!("{holder} has left the group; partition 0 will be assigned anew."),
            LockEnd::DeletedByOther | LockEnd::Replaced => {
                format!("{me} starts a rebalance: generation {token} is over, and {holder} must rejoin to keep partition 0.")
            }
            LockEnd::LostOnRestart | LockEnd::Resynced => format!("{me} restarts without the group's state: generation {token} is forgotten."),
        }
    }

    fn held(&self) -> &'static str {
        "partition 0"
    }

    fn acquires(&self) -> &'static str {
        "join requests"
    }

    fn renewal(&self) -> &'static str {
        "heartbeat"
    }

    fn expiries(&self) -> &'static str {
        "session timeouts"
    }

    fn write_to_service(&self, token: u64, value: &str) -> String {
        format!("OffsetCommit {value_q} (generation {token})", value_q = Quoted(value))
    }

    fn data_kept_by(&self) -> &'static str {
        "the group coordinator keeps the committed offsets"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::actor::testing::{call, fire, sent};

    fn coordinator() -> Coordinator {
        Coordinator::new(Times { session_ms: 1_000, initial_delay_ms: 100, rebalance_ms: 1_000 }, 1)
    }

    fn say(c: &mut Coordinator, now: i64, from: usize, msg: GroupMsg) -> Vec<(usize, Msg)> {
        sent(&call(c, now, from, Msg::lock(msg)))
    }

    fn joined(generation: u64, assigned: bool) -> Msg {
        Msg::lock(GroupMsg::Joined { generation, assigned })
    }

    fn commit(c: &mut Coordinator, now: i64, from: usize, generation: u64) -> Msg {
        sent(&call(c, now, from, Msg::Write { token: generation, value: "offset 8".into(), expected_version: None })).remove(0).1
    }

    fn refused(generation: u64, error: GroupError) -> Msg {
        Msg::WriteRejected { reason: Rejection::Refused { token: generation, code: error.name(), means: error.commit_refused() } }
    }

    /// Forms generation 1 with members 1 (the owner) and 2.
    fn formed() -> Coordinator {
        let mut c = coordinator();
        assert_eq!(say(&mut c, 0, 1, GroupMsg::Join), vec![], "a JoinGroup is answered when the rebalance completes");
        assert_eq!(say(&mut c, 10, 2, GroupMsg::Join), vec![]);
        assert_eq!(sent(&fire(&mut c, 100, REBALANCE)), vec![(1, joined(1, true)), (2, joined(1, false))]);
        c
    }

    #[test]
    fn a_join_is_never_refused_it_starts_a_rebalance_and_a_new_generation() {
        let mut c = formed();
        assert_eq!(say(&mut c, 200, 3, GroupMsg::Join), vec![]);
        let rebalancing = Msg::lock(GroupMsg::HeartbeatError { error: GroupError::RebalanceInProgress });
        assert_eq!(say(&mut c, 210, 1, GroupMsg::Heartbeat { generation: 1 }), vec![(1, rebalancing)]);
        assert_eq!(commit(&mut c, 215, 1, 1), refused(1, GroupError::RebalanceInProgress));
        assert_eq!(say(&mut c, 220, 1, GroupMsg::Join), vec![]);
        // The last member back completes it: the owner keeps partition 0 in generation 2.
        assert_eq!(say(&mut c, 230, 2, GroupMsg::Join), vec![(1, joined(2, true)), (2, joined(2, false)), (3, joined(2, false))]);
    }

    #[test]
    fn a_commit_from_an_old_generation_is_refused_before_the_new_one_commits_anything() {
        let mut c = formed();
        assert_eq!(commit(&mut c, 150, 1, 1), Msg::WriteAccepted { version: 1 });
        // Member 1 goes silent: at its session's end it is removed, and member 2 rejoins alone.
        assert_eq!(sent(&fire(&mut c, 1_100, Timer::Expiry(1))), vec![]);
        assert_eq!(commit(&mut c, 1_110, 2, 1), refused(1, GroupError::RebalanceInProgress));
        assert_eq!(say(&mut c, 1_120, 2, GroupMsg::Join), vec![(2, joined(2, true))]);
        // No commit in generation 2 yet, and still: a removed member, then an old generation.
        assert_eq!(commit(&mut c, 1_130, 1, 1), refused(1, GroupError::UnknownMemberId));
        assert_eq!(commit(&mut c, 1_140, 2, 1), refused(1, GroupError::IllegalGeneration));
        assert_eq!(commit(&mut c, 1_150, 2, 2), Msg::WriteAccepted { version: 2 });
    }
}
