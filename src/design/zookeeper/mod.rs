//! The ZooKeeper lock recipe (`zookeeper-docs` recipes): each contender creates an
//! EPHEMERAL|SEQUENTIAL znode `lock-%010d` under the lock node, lists the children, and owns the
//! lock if its sequence is the lowest; otherwise it watches only its immediate predecessor and
//! lists again when the watch fires. Sessions are kept alive by client heartbeats and expired by
//! the ensemble, which then deletes the session's ephemeral znodes. The owner's znode `czxid` is
//! the fencing token. The herd variant watches the whole lock node instead, so every waiter wakes
//! on every deletion.
//!
//! Simplification, said in the lessons: the ensemble is one linearizable service.

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
use client::ZkClient;
pub use messages::ZkMsg;
pub use service::Ensemble;
pub use settings::{Watch, ZookeeperSettings};
pub use words::znode_name;

/// The registry entry.
pub struct Zookeeper;

/// The design as the registry lists it.
static SUMMARY: Summary = Summary::of::<ZookeeperSettings>(
    "zookeeper",
    "ZooKeeper lock recipe",
    "Ephemeral sequential znodes: the lowest owns the lock, each waiter watches its predecessor, the owner's czxid fences.",
);

impl Kind for Zookeeper {
    fn summary(&self) -> &'static Summary {
        &SUMMARY
    }

    fn rows(&self, ttl_ms: u64) -> Vec<Row> {
        // A session timeout must be 2 to 20 ticks: 100 ms ticks where that fits, longer or
        // shorter ones where it does not, and at most 20 ticks of a minute.
        let session = ttl_ms.clamp(2, 1_200_000);
        let tick = (session / 2).min(100).max(session.div_ceil(20));
        let design = ZookeeperSettings::new(tick, session).configure();
        let rows = Rows { design, services: 1, service_name: "ZooKeeper" };
        vec![
            rows.row("zookeeper", "ZooKeeper recipe", "czxid, unchecked", Some(ResourceMode::Unfenced)),
            rows.row("zookeeper-fenced", "ZooKeeper + czxid check", "czxid of the lock znode", Some(ResourceMode::Fenced)),
        ]
    }
}

/// The ZooKeeper recipe, configured.
#[derive(Debug)]
pub struct ZkDesign {
    values: Values,
    tick_ms: Millis,
    session_timeout_ms: Millis,
    herd: bool,
}

impl Protocol for ZkDesign {
    fn service(&self, _index: usize, _nodes: &[NodeId]) -> Option<Box<dyn Actor>> {
        Some(Box::new(Ensemble::new(self.tick_ms, self.session_timeout_ms, self.herd)))
    }

    fn client(&self, nodes: &[NodeId]) -> Option<Box<dyn LockClient>> {
        Some(Box::new(ZkClient::new(nodes[0], self.session_timeout_ms)))
    }

    /// The session tracker expires sessions by elapsed time (`Time.currentElapsedTime`).
    fn service_clock(&self) -> TimerClock {
        TimerClock::Monotonic
    }

    fn connections(&self) -> &'static str {
        "the Java client pings when idle for a third of the session timeout and declares itself Disconnected after two thirds without a reply (here, when a heartbeat goes unanswered past the client's timeout), closes the connection and reconnects; the ensemble expires a session after the session timeout without a heartbeat, deletes its ephemeral znodes and wakes their watchers, and the client hears Expired only once it reconnects"
    }
}

impl Design for ZkDesign {
    fn kind(&self) -> &'static dyn Kind {
        &Zookeeper
    }

    fn values(&self) -> &Values {
        &self.values
    }

    fn guarantees(&self) -> Guarantees {
        Guarantees {
            lock: LockKind::Correctness,
            safety: "The ensemble orders contenders by sequence number and deletes a session's ephemeral znode when it expires the session, so at most one live session owns the lock. A client that has lost its session may not know yet; the znode's czxid, checked at the resource, fences it.".into(),
            liveness: format!(
                "If a holder dies, the ensemble expires its session after the session timeout ({}), deletes its znode, and the next contender's watch fires.",
                ms(self.session_timeout_ms)
            ),
            assumes: "The resource checks the czxid it is given. The model treats the ensemble as one linearizable service.".into(),
        }
    }

    fn services(&self) -> Services {
        Services { count: 1..=1, what: "one ensemble" }
    }

    fn release_modes(&self) -> &'static [ReleaseMode] {
        &[ReleaseMode::Safe]
    }
}
