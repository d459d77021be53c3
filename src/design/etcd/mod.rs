//! etcd's concurrency `Mutex` over a lease, modelled on `client/v3/concurrency`: each contender
//! holds a session lease kept alive by the client and puts the key `prefix/<lease id>`; contenders
//! are ordered by the key's create revision; the lowest owns the lock, and each waiter waits for
//! the deletion of the key just before its own. The owner's create revision is the fencing token.
//!
//! When the protected data is a key in etcd (`data_in_etcd`), a write is a transaction
//! `If(CreateRevision(lock key) == token).Then(Put(data))`: it commits only while the writer's
//! lock key still exists with the create revision it was granted under.
//!
//! Simplifications, said in the lessons: the cluster is one linearizable service; the session
//! grant and the lock transaction are one request; a waiter's watch and its re-check of ownership
//! arrive as one notification.

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
use client::EtcdClient;
pub use messages::EtcdMsg;
pub use service::EtcdNode;
pub use settings::EtcdSettings;

/// The registry entry.
pub struct Etcd;

/// The design as the registry lists it.
static SUMMARY: Summary = Summary::of::<EtcdSettings>(
    "etcd",
    "etcd mutex",
    "Keys under a prefix attached to session leases: the lowest create revision owns the lock and is its fencing token.",
);

impl Kind for Etcd {
    fn summary(&self) -> &'static Summary {
        &SUMMARY
    }

    fn rows(&self, ttl_ms: u64) -> Vec<Row> {
        let rows = |data_in_etcd| Rows {
            design: EtcdSettings { first_revision: 33, data_in_etcd, ..EtcdSettings::new(ttl_ms) }.configure(),
            services: 1,
            service_name: "etcd",
        };
        let separate = rows(false);
        vec![
            separate.row("etcd", "etcd mutex", "create revision, unchecked", Some(ResourceMode::Unfenced)),
            separate.row("etcd-fenced", "etcd + revision check", "create revision", Some(ResourceMode::Fenced)),
            rows(true).row("etcd-txn", "etcd, data in etcd (txn guard)", "create revision, compared in the txn", None),
        ]
    }
}

/// The etcd mutex, configured.
#[derive(Debug)]
pub struct EtcdDesign {
    values: Values,
    ttl_ms: Millis,
    first_revision: u64,
    data_in_etcd: bool,
}

impl Protocol for EtcdDesign {
    fn service(&self, _index: usize, _nodes: &[NodeId]) -> Option<Box<dyn Actor>> {
        Some(Box::new(EtcdNode::new(self.ttl_ms, self.first_revision)))
    }

    fn client(&self, nodes: &[NodeId]) -> Option<Box<dyn LockClient>> {
        Some(Box::new(EtcdClient::new(nodes[0], self.ttl_ms)))
    }

    fn data_in_service(&self) -> bool {
        self.data_in_etcd
    }

    /// The lessor expires leases by elapsed time (Go's monotonic clock).
    fn service_clock(&self) -> TimerClock {
        TimerClock::Monotonic
    }

    fn connections(&self) -> &'static str {
        "the client keeps its lease alive on a keep-alive stream, every TTL/3 in the concurrency package's session, and closes a request whose reply is overdue; etcd revokes a lease that hears no keep-alive for its TTL, with the lock key attached to it, and a closed connection alone ends nothing"
    }
}

impl Design for EtcdDesign {
    fn kind(&self) -> &'static dyn Kind {
        &Etcd
    }

    fn values(&self) -> &Values {
        &self.values
    }

    fn guarantees(&self) -> Guarantees {
        let safety = if self.data_in_etcd {
            "The write and the lock check are one transaction: it commits only while the writer's lock key still exists with its create revision, so a writer whose session expired cannot commit."
        } else {
            "Contenders are ordered by create revision and a key dies with its session lease, so at most one live session owns the lock. A holder whose lease expired may not know yet; the create revision, checked at the resource, fences it."
        };
        Guarantees {
            lock: LockKind::Correctness,
            safety: safety.into(),
            liveness: format!(
                "If a holder dies, its session lease expires after {} without a keep-alive, its key is deleted and the next waiter owns the lock.",
                ms(self.ttl_ms)
            ),
            assumes: if self.data_in_etcd {
                "The data lives in etcd and every write goes through the guarded transaction.".into()
            } else {
                "The resource checks the revision it is given; etcd alone cannot stop a stale client from writing to another system.".into()
            },
        }
    }

    fn services(&self) -> Services {
        Services { count: 1..=1, what: "one etcd cluster" }
    }

    fn release_modes(&self) -> &'static [ReleaseMode] {
        &[ReleaseMode::Safe]
    }
}
