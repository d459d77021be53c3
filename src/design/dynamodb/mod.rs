//! The Amazon DynamoDB lock client (`AmazonDynamoDBLockClient`): one item per lock in a
//! DynamoDB table, holding its owner, the leaseDuration and a recordVersionNumber (RVN), a
//! random GUID. No absolute time is stored. `acquireLock` reads the item: if there is none it
//! puts one with `attribute_not_exists`; if there is one, it remembers its RVN and, polling every
//! refreshPeriod, waits a lease on its **own** clock; if the RVN has not changed by then, it puts
//! its own item with the condition `recordVersionNumber = :old`. The holder's background thread
//! heartbeats every heartbeatPeriod, rewriting the RVN under the condition that it is still its
//! own. So clock offset does not matter but clock rate does: a holder whose clock runs slow
//! heartbeats late in true time. The RVN has no order and is no fencing token; a number
//! attribute incremented by every acquiring write (`fence_attribute`) is one, if the resource
//! checks it.
//!
//! Release deletes the item (`deleteLockOnRelease`, the default) or marks it released, which a
//! fence attribute needs: a deleted item takes its fence with it, and the next acquisition would
//! start again from 1.
//!
//! Simplifications, said in the lessons: DynamoDB is one linearizable table (strongly consistent
//! reads); a heartbeat that fails is not retried sooner than the next period, and the
//! application is not told (no `SessionMonitor`).

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
use crate::present::number::ms;
use client::DynamoLockClient;
pub use messages::{Condition, DynamoMsg, LockItem};
use service::LockTable;
pub use settings::DynamoDbSettings;

/// The registry entry.
pub struct DynamoDb;

/// The design as the registry lists it.
static SUMMARY: Summary = Summary::of::<DynamoDbSettings>(
    "dynamodb",
    "DynamoDB lock client",
    "An item with a random recordVersionNumber that the holder rewrites by heartbeat; a contender takes it over after a lease without a change, timed on its own clock.",
);

impl Kind for DynamoDb {
    fn summary(&self) -> &'static Summary {
        &SUMMARY
    }

    fn rows(&self, ttl_ms: u64) -> Vec<Row> {
        // The library's proportions: a heartbeat every quarter lease, a poll every twentieth.
        let lease = ttl_ms.max(4);
        let rows = |fence_attribute: bool| Rows {
            design: DynamoDbSettings {
                lease_duration_ms: lease,
                heartbeat_period_ms: lease / 4,
                refresh_period_ms: (lease / 20).max(1),
                additional_time_to_wait_for_lock_ms: lease / 20,
                delete_lock_on_release: !fence_attribute,
                fence_attribute,
            }
            .configure(),
            services: 1,
            service_name: "DynamoDB",
        };
        vec![
            rows(false).row("dynamodb", "DynamoDB lock client", "none (the RVN is a random GUID)", Some(ResourceMode::Unfenced)),
            rows(true).row(
                "dynamodb-fenced",
                "DynamoDB + fence attribute",
                "a number attribute ADDed by each acquiring write",
                Some(ResourceMode::Fenced),
            ),
        ]
    }
}

/// The DynamoDB lock client, configured.
#[derive(Debug)]
pub struct DynamoDesign {
    values: Values,
    lease_ms: u64,
    heartbeat_ms: u64,
    refresh_ms: u64,
    extra_wait_ms: u64,
    delete_on_release: bool,
    fence: bool,
}

impl Protocol for DynamoDesign {
    fn service(&self, _index: usize, _nodes: &[NodeId]) -> Option<Box<dyn Actor>> {
        Some(Box::new(LockTable::new(self.fence)))
    }

    fn client(&self, nodes: &[NodeId]) -> Option<Box<dyn LockClient>> {
        Some(Box::new(DynamoLockClient::new(nodes[0], self)))
    }

    /// DynamoDB keeps no lease time; the clients time it by elapsed time (`System.nanoTime`).
    fn service_clock(&self) -> TimerClock {
        TimerClock::Monotonic
    }

    fn connections(&self) -> &'static str {
        "each request is an HTTPS call the SDK abandons when its reply is overdue; the lock item is data, not a session, so no connection ends it: it is taken over only when a contender has seen its recordVersionNumber unchanged for a lease on its own clock"
    }
}

impl Design for DynamoDesign {
    fn kind(&self) -> &'static dyn Kind {
        &DynamoDb
    }

    fn values(&self) -> &Values {
        &self.values
    }

    fn guarantees(&self) -> Guarantees {
        let (lease, beat) = (ms(self.lease_ms), ms(self.heartbeat_ms));
        let token = if self.fence {
            "Each acquiring write also increments a fence attribute, a fencing token the resource can check."
        } else {
            "The recordVersionNumber is a random GUID with no order: it is no fencing token."
        };
        Guarantees {
            lock: if self.fence { LockKind::Correctness } else { LockKind::Efficiency },
            safety: format!(
                "A contender takes the lock over only after the holder's recordVersionNumber stayed unchanged for {lease} on the contender's clock, while the holder heartbeats every {beat} on its own: one holder at a time while the clocks run at rates within {lease} / {beat} of each other and no holder pauses. Offsets do not matter. {token}"
            ),
            liveness: format!("If a holder dies, a contender takes over {lease} after it first saw the item, as its own clock counts."),
            assumes: if self.fence {
                "A resource that refuses fence values lower than the highest it has seen.".into()
            } else {
                "Clock rates within the ratio, holders that do not pause, and work that is safe to do twice, or a fence attribute the resource checks.".into()
            },
        }
    }

    fn services(&self) -> Services {
        Services { count: 1..=1, what: "one DynamoDB table" }
    }

    fn script_renewal(&self) -> Result<(), &'static str> {
        Err("the lock client's background thread heartbeats every heartbeat_period_ms by itself; leave renew out")
    }

    fn release_modes(&self) -> &'static [ReleaseMode] {
        &[ReleaseMode::Safe]
    }
}
