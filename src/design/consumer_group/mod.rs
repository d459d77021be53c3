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

mod client;
mod messages;
mod service;
mod settings;
#[cfg(test)]
mod tests;
mod words;

use super::{Design, Guarantees, Kind, LockKind, Row, Services, Summary, Values};
use crate::engine::actor::Actor;
use crate::engine::clock::TimerClock;
use crate::engine::ids::NodeId;
use crate::engine::msg::ReleaseMode;
use crate::engine::protocol::{LockClient, Protocol};
use crate::engine::time::Millis;
use crate::present::number::ms;
pub use client::Member;
pub use messages::{GroupError, GroupMsg};
pub use service::Coordinator;
pub use settings::ConsumerGroupSettings;

/// The registry entry.
pub struct ConsumerGroup;

/// The design as the registry lists it.
static SUMMARY: Summary = Summary::of::<ConsumerGroupSettings>(
    "consumer_group",
    "Partitioned queue (consumer group)",
    "No lock: a group coordinator gives a partition to one consumer per generation, and takes an offset commit only from a current member in the current generation.",
);

impl Kind for ConsumerGroup {
    fn summary(&self) -> &'static Summary {
        &SUMMARY
    }

    fn rows(&self, _ttl_ms: u64) -> Vec<Row> {
        Vec::new()
    }
}

/// The coordinator's timeouts.
#[derive(Clone, Copy, Debug, Hash)]
struct Times {
    session_ms: Millis,
    initial_delay_ms: Millis,
    rebalance_ms: Millis,
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
        Some(Box::new(Member::new(nodes[0], self.heartbeat_ms)))
    }

    fn data_in_service(&self) -> bool {
        true
    }

    /// The coordinator's session timers run on Kafka's high-resolution (monotonic) clock.
    fn service_clock(&self) -> TimerClock {
        TimerClock::Monotonic
    }

    fn connections(&self) -> &'static str {
        "a consumer abandons a request whose reply is overdue (request.timeout.ms, 30 s by default); the coordinator removes a member whose heartbeats stop for session.timeout.ms (45 s by default), whatever its connection does"
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
