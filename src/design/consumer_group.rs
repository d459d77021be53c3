//! A partitioned queue's consumer group (modelled on Kafka's): a group coordinator assigns the
//! partition to one member at a time, keeps the assignment while the member's heartbeats arrive
//! within the session timeout, and hands it on in a new generation after a rebalance. There is
//! no lock: the generation travels with each commit, and the broker fences older generations.
//!
//! The coordinator and the member behave exactly as a lease service and its client (a join is
//! a grant, a heartbeat a renewal, the generation the token), so this design reuses
//! [`lease`](super::lease)'s actors and speaks the group's own words.
//!
//! Simplifications, said in the lessons: one partition; a rebalance is one member's session
//! timing out and the next join taking the partition.

use super::lease::{LeaseClient, LeaseMsg, LeaseService};
use super::{Design, Guarantees, Kind, LockKind, Param, Row, Services, Summary, Values};
use crate::engine::actor::Actor;
use crate::engine::event::LockEnd;
use crate::engine::ids::NodeId;
use crate::engine::msg::{LockMsg, ReleaseMode};
use crate::engine::protocol::{LockClient, Protocol};
use crate::error::ScenarioError;
use crate::present::number::{group, ms};
use crate::present::{Names, Vocabulary};
use std::rc::Rc;

/// The registry entry.
pub struct ConsumerGroup;

const PARAMS: &[Param] = &[
    Param::number_or(
        "session_timeout_ms",
        "ms",
        1,
        3_600_000,
        45_000,
        "How long the coordinator waits for a member's heartbeat before taking its partition away.",
    ),
    Param::number_or("first_generation", "", 1, u32::MAX as u64, 1, "The generation of the first assignment."),
];

/// The design as the registry lists it.
static SUMMARY: Summary = Summary {
    tag: "consumer_group",
    title: "Partitioned queue (consumer group)",
    about: "No lock: a group coordinator assigns a partition to one consumer per generation, and commits carry the generation.",
    params: PARAMS,
};

impl Kind for ConsumerGroup {
    fn summary(&self) -> &'static Summary {
        &SUMMARY
    }

    fn build(&self, values: &Values) -> Result<Rc<dyn Design>, ScenarioError> {
        Ok(Rc::new(Group {
            values: values.clone(),
            session_timeout_ms: values.number("session_timeout_ms"),
            first_generation: values.number("first_generation"),
        }))
    }

    fn rows(&self, _ttl_ms: u64) -> Vec<Row> {
        Vec::new()
    }
}

/// The consumer group, configured.
#[derive(Debug)]
pub struct Group {
    values: Values,
    session_timeout_ms: u64,
    first_generation: u64,
}

impl Protocol for Group {
    fn service(&self, _index: usize, _nodes: &[NodeId]) -> Option<Box<dyn Actor>> {
        Some(Box::new(LeaseService::new(self.session_timeout_ms, self.first_generation)))
    }

    fn client(&self, nodes: &[NodeId]) -> Option<Box<dyn LockClient>> {
        Some(Box::new(LeaseClient::new(nodes[0])))
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
            safety: "Each partition has one owner per generation, and the broker rejects commits from an older generation, so a consumer that lost its partition cannot commit over the new owner.".into(),
            liveness: format!(
                "A stalled consumer loses its partition after the session timeout ({}), and another consumer carries on from the last committed offset.",
                ms(self.session_timeout_ms)
            ),
            assumes: "The broker checks the generation on every commit. Events are processed at least once, so processing must tolerate a repeat.".into(),
        }
    }

    fn services(&self) -> Services {
        Services { count: 1..=1, what: "one group coordinator" }
    }

    fn release_modes(&self) -> &'static [ReleaseMode] {
        &[ReleaseMode::Safe]
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
            LockEnd::Expired => "session timed out, rebalanced",
            LockEnd::Released => "left the group",
            LockEnd::DeletedByOther => "taken by another member",
            LockEnd::LostOnRestart => "lost on restart",
            LockEnd::Replaced => "reassigned",
        }
    }

    fn label(&self, msg: &LockMsg, _names: Names) -> String {
        let Some(msg) = msg.get::<LeaseMsg>() else { return String::new() };
        match *msg {
            LeaseMsg::Acquire => "JoinGroup".into(),
            LeaseMsg::Granted { token, .. } => format!("assigned partition 0, generation {token}"),
            LeaseMsg::Busy => "partition 0 is assigned to another member".into(),
            LeaseMsg::Renew { token } => format!("heartbeat (generation {token})"),
            LeaseMsg::Renewed { .. } => "heartbeat ok".into(),
            LeaseMsg::RenewRefused { token } => format!("rebalanced: generation {token} is over"),
            LeaseMsg::Release { .. } => "LeaveGroup".into(),
            LeaseMsg::Released { released: true } => "left".into(),
            LeaseMsg::Released { released: false } => "not a member".into(),
        }
    }

    fn sending(&self, msg: &LockMsg, me: &str, to: &str, _names: Names) -> String {
        let Some(msg) = msg.get::<LeaseMsg>() else { return String::new() };
        match *msg {
            LeaseMsg::Acquire => format!("{me} asks {to} to join the group and be assigned partition 0."),
            LeaseMsg::Granted { token, ttl_ms } => format!(
                "{me} tells {to}: partition 0 is yours in generation {token}; keep sending heartbeats at least every {}.",
                ms(ttl_ms)
            ),
            LeaseMsg::Busy => format!("{me} tells {to} that partition 0 belongs to another member."),
            LeaseMsg::Renew { token } => format!("{me} sends {to} a heartbeat for generation {token}."),
            LeaseMsg::Renewed { .. } => format!("{me} acknowledges {to}'s heartbeat."),
            LeaseMsg::RenewRefused { token } => {
                format!("{me} tells {to}: generation {token} is over, the group has rebalanced; rejoin.")
            }
            LeaseMsg::Release { .. } => format!("{me} sends {to} a LeaveGroup request: it leaves the group."),
            LeaseMsg::Released { released } => {
                format!("{me} tells {to}: {}", if released { "you have left; partition 0 is free." } else { "you are not a member." })
            }
        }
    }

    fn lasts(&self, expires_local: Option<i64>) -> String {
        match expires_local {
            Some(t) => format!("until local {} without a heartbeat", group(t)),
            None => "with no session timeout".into(),
        }
    }

    fn granted(&self, me: &str, holder: &str, token: u64, expires_local: Option<i64>) -> String {
        format!(
            "{me} assigns partition 0 to {holder} in generation {token}; the assignment lasts while heartbeats arrive ({}). Commits carry the generation.",
            self.lasts(expires_local)
        )
    }

    fn extended(&self, me: &str, holder: &str, _token: u64, expires_local: Option<i64>) -> String {
        format!("{me} counts {holder}'s heartbeat: its session now lasts {}.", self.lasts(expires_local))
    }

    fn ended(&self, me: &str, holder: &str, token: u64, how: LockEnd) -> String {
        match how {
            LockEnd::Expired => format!(
                "{holder}'s session times out on {me}'s clock, and generation {token} ends: {me} will assign partition 0 anew. Nobody tells {holder}, which may still think the partition is its own."
            ),
            LockEnd::Released => format!("{holder} leaves the group; partition 0 is free."),
            LockEnd::DeletedByOther | LockEnd::LostOnRestart | LockEnd::Replaced => {
                format!("{holder} loses partition 0 (generation {token}): {}.", self.how_ended(how))
            }
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
}
