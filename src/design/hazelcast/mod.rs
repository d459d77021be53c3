//! Hazelcast's `FencedLock`, on the CP Subsystem: a linearizable lock replicated by Raft. Its
//! fence is the Raft commit index of the winning lock call: monotonic, but not consecutive,
//! since every CP operation (session heartbeats too) takes an index. A reentrant lock call keeps
//! the fence. A client holds locks through a CP session, kept alive by a heartbeat every
//! `session-heartbeat-interval-seconds` (5 s); a session whose heartbeats stop for
//! `session-time-to-live-seconds` (300 s) is closed, and its lock passes to the next waiter in
//! FIFO order. Nobody tells the old holder: its next call on the lock throws
//! `LockOwnershipLostException`. (Without CP members the lock runs in "unsafe mode", on the AP
//! side, where an acquire can be lost; not modelled.)
//!
//! Simplifications, said in the lessons: the CP group is one linearizable service, and its commit
//! index counts only this lock's sessions' operations.

mod client;
mod messages;
mod service;
mod settings;
#[cfg(test)]
mod tests;
mod words;

use super::{Design, Factory, Guarantees, Kind, LockKind, Row, Rows, Services, Summary, Values};
use crate::engine::actor::Actor;
use crate::engine::clock::TimerClock;
use crate::engine::ids::NodeId;
use crate::engine::msg::ReleaseMode;
use crate::engine::protocol::{LockClient, Protocol};
use crate::engine::spec::ResourceMode;
use crate::engine::time::Millis;
use crate::present::number::ms;
use client::HzClient;
pub use messages::HzMsg;
use service::CpGroup;
pub use settings::HazelcastSettings;

/// The registry entry.
pub struct Hazelcast;

/// The design as the registry lists it.
static SUMMARY: Summary = Summary::of::<HazelcastSettings>(
    "hazelcast",
    "Hazelcast FencedLock",
    "A lock on the CP Subsystem (Raft): its fence is the commit index of the winning lock call; a CP session that stops heartbeating loses it.",
);

impl Kind for Hazelcast {
    fn summary(&self) -> &'static Summary {
        &SUMMARY
    }

    fn rows(&self, ttl_ms: u64) -> Vec<Row> {
        // The session closes a TTL after its last heartbeat; the default ratio is 60 heartbeats.
        let ttl = ttl_ms.max(2);
        let settings = HazelcastSettings { session_time_to_live_ms: ttl, session_heartbeat_interval_ms: (ttl / 4).max(1) };
        let rows = Rows { design: settings.configure(), services: 1, service_name: "CP group" };
        vec![
            rows.row("hazelcast", "Hazelcast FencedLock", "fence, unchecked", Some(ResourceMode::Unfenced)),
            rows.row("hazelcast-fenced", "Hazelcast FencedLock + fence check", "fence (Raft commit index)", Some(ResourceMode::Fenced)),
        ]
    }
}

/// The FencedLock, configured.
#[derive(Debug)]
pub struct HazelcastDesign {
    values: Values,
    ttl_ms: u64,
    heartbeat_ms: u64,
}

impl Protocol for HazelcastDesign {
    fn service(&self, _index: usize, _nodes: &[NodeId]) -> Option<Box<dyn Actor>> {
        Some(Box::new(CpGroup::new(Millis::from_ms(self.ttl_ms))))
    }

    fn client(&self, nodes: &[NodeId]) -> Option<Box<dyn LockClient>> {
        Some(Box::new(HzClient::new(nodes[0], self.heartbeat_ms)))
    }

    /// Session expiry is timed on the CP group's leader by its wall clock: a heartbeat sets
    /// `toExpirationTime(Clock.currentTimeMillis(), ttlMs)` (`CPSessionInfo.heartbeat`), and
    /// `RaftSessionRegistry.getSessionsToExpire` compares against `Clock.currentTimeMillis()`,
    /// which is `System.currentTimeMillis()`; a step of that clock moves every expiry.
    fn service_clock(&self) -> TimerClock {
        TimerClock::Wall
    }

    fn connections(&self) -> &'static str {
        "each call is an invocation the client abandons when its reply is overdue; a CP session is not a connection: it closes when its heartbeats stop for session-time-to-live-seconds, whatever becomes of the connections"
    }
}

impl Design for HazelcastDesign {
    fn kind(&self) -> &'static dyn Kind {
        &Hazelcast
    }

    fn values(&self) -> &Values {
        &self.values
    }

    fn guarantees(&self) -> Guarantees {
        Guarantees {
            lock: LockKind::Correctness,
            safety: "One CP session holds the lock at a time, and each holder's fence, a Raft commit index, is higher than the last. A holder whose session closed is not told until its next call on the lock; the fence, checked at the resource, stops its late writes.".into(),
            liveness: format!(
                "If a holder dies, its session closes {} after its last heartbeat and the lock passes to the next waiter.",
                ms(self.ttl_ms)
            ),
            assumes: "A resource that refuses fences lower than the highest it has seen, and CP members (not unsafe mode).".into(),
        }
    }

    fn services(&self) -> Services {
        Services { count: 1..=1, what: "one CP group" }
    }

    fn script_renewal(&self) -> Result<(), &'static str> {
        Err("a CP session heartbeats every session_heartbeat_interval_ms by itself; leave renew out")
    }

    fn release_modes(&self) -> &'static [ReleaseMode] {
        &[ReleaseMode::Safe]
    }
}
