//! A single Redis instance used as a lock, as the Redis documentation describes it:
//! `SET key value NX PX ttl` to acquire, a compare-value script to release or extend, expiry on
//! the Redis node's own clock. The random value identifies the owner but has no order, so there is
//! no fencing token unless each acquisition also `INCR`s a counter (`incr_token`).
//!
//! With replicas (at most two), the primary streams every change to each asynchronously, after
//! that replica's lag (`replication_lag_ms`, `second_replica_lag_ms`); a crash in between loses
//! the change. With `wait_replicas`, a client that has set the key runs `WAIT` and counts the
//! lock as its own only if that many replicas acknowledged it (see [`super::redis_replication`]). A key's expiry goes across as an
//! absolute time on the primary's clock (Redis propagates `PXAT`), so the lag does not stretch the
//! replica's copy, and the `INCR` counter goes across with it: a promoted replica carries on from
//! the counter unless the change was lost. A replica answers `READONLY` until promoted, and a
//! client that hears it (or hears nothing) fails over to the next node.
//!
//! Simplifications, said in the lessons: the `SET NX` and the `INCR` are one atomic step (a Lua
//! script) whose reply carries the token, rather than two round trips; promotion is a scheduled
//! fault rather than a Sentinel election; the first node declared is the first primary, and a
//! promoted replica takes the other replicas but not it.

mod client;
mod service;
mod settings;
#[cfg(test)]
mod tests;
mod words;

use super::redis_replication::MOST_REPLICAS;
use super::{Design, Factory, Guarantees, Kind, LockKind, Row, Rows, Services, Summary, Values};
use crate::engine::actor::Actor;
use crate::engine::clock::TimerClock;
use crate::engine::ids::NodeId;
use crate::engine::msg::ReleaseMode;
use crate::engine::protocol::{LockClient, Protocol};
use crate::engine::spec::ResourceMode;
use crate::engine::time::Millis;
use crate::present::number::ms;
use client::RedisClient;
pub use service::{Incr, RedisNode, RedisRole};
pub use settings::RedisSettings;
pub use words::{deleted_when, key_ended};

/// The registry entry.
pub struct Redis;

/// The design as the registry lists it.
static SUMMARY: Summary = Summary::of::<RedisSettings>(
    "redis",
    "Redis SET NX PX",
    "One Redis node: SET key value NX PX to acquire, a compare-value script to release; optionally an asynchronous replica.",
);

impl Kind for Redis {
    fn summary(&self) -> &'static Summary {
        &SUMMARY
    }

    fn rows(&self, ttl_ms: u64) -> Vec<Row> {
        let rows = |incr| Rows {
            design: RedisSettings { incr_token: incr, replication_lag_ms: 0, ..RedisSettings::new(ttl_ms) }.configure(),
            services: 1,
            service_name: "Redis",
        };
        vec![
            rows(false).row("redis", "Redis SET NX PX", "none (random value)", Some(ResourceMode::Unfenced)),
            rows(true).row(
                "redis-incr",
                "Redis + INCR token",
                "INCR counter, in one Lua script with the SET (not durable: a failover can repeat it)",
                Some(ResourceMode::Fenced),
            ),
        ]
    }
}

/// The Redis design, configured.
#[derive(Debug)]
pub struct RedisDesign {
    values: Values,
    ttl_ms: Millis,
    incr_token: bool,
    incr_separate: bool,
    /// Each replica's lag, in the order the replicas are declared.
    lags_ms: [Millis; MOST_REPLICAS],
    /// How long a promoted replica waits before resyncing the others.
    resync_delay_ms: Millis,
    /// `WAIT` for this many replicas, with this timeout, after each `SET`.
    wait: Option<(u64, Millis)>,
}

impl Protocol for RedisDesign {
    fn service(&self, index: usize, nodes: &[NodeId]) -> Option<Box<dyn Actor>> {
        // The replicas, less this node: a promoted replica streams to the others.
        let mut replicas: Vec<(NodeId, Millis)> = Vec::new();
        for (&n, lag) in nodes.iter().skip(1).zip(self.lags_ms) {
            if Some(&n) != nodes.get(index) {
                replicas.push((n, lag));
            }
        }
        let role = if index == 0 { RedisRole::Primary } else { RedisRole::Replica };
        let incr = match (self.incr_token, self.incr_separate) {
            (false, _) => Incr::None,
            (true, false) => Incr::WithSet,
            (true, true) => Incr::Separate,
        };
        let mut node = RedisNode::new(self.ttl_ms, incr, role, &replicas);
        node.resync_delay_ms = self.resync_delay_ms;
        Some(Box::new(node))
    }

    fn client(&self, nodes: &[NodeId]) -> Option<Box<dyn LockClient>> {
        Some(Box::new(RedisClient::new(nodes, self.ttl_ms, self.incr_separate, self.wait)))
    }

    /// Redis expires keys by its wall clock: the Redis docs say it uses no monotonic clock for TTLs.
    fn service_clock(&self) -> TimerClock {
        TimerClock::Wall
    }

    fn connections(&self) -> &'static str {
        "a client closes a connection whose reply is overdue past its socket timeout (Jedis's default: 2,000 ms; here the client's request timeout), and what it sent still reaches Redis when the network lets it; Redis keeps a silent client's connection (timeout 0) and finds a dead peer by TCP keepalive (tcp-keepalive 300 s); a key lives until it expires, whatever becomes of the connection that set it"
    }
}

impl Design for RedisDesign {
    fn kind(&self) -> &'static dyn Kind {
        &Redis
    }

    fn values(&self) -> &Values {
        &self.values
    }

    fn guarantees(&self) -> Guarantees {
        let ttl = ms(self.ttl_ms);
        let token = if self.incr_token {
            "Each acquisition also takes the next value of a counter, a fencing token a resource can check."
        } else {
            "The random value only identifies the owner: it has no order, so a resource cannot use it to fence."
        };
        Guarantees {
            lock: if self.incr_token { LockKind::Correctness } else { LockKind::Efficiency },
            safety: format!(
                "While the Redis node keeps its memory and its clock runs true, at most one client's key exists at a time; a holder that pauses past the {ttl} PX loses the key without knowing. {token}"
            ),
            liveness: format!("If a holder dies, its key expires after {ttl} on the Redis node's clock."),
            assumes: "One Redis node that does not fail over or lose its keys; holders finish within the TTL, or the work is idempotent.".into(),
        }
    }

    fn services(&self) -> Services {
        Services { count: 1..=1 + MOST_REPLICAS, what: "one primary and at most two replicas" }
    }

    fn release_modes(&self) -> &'static [ReleaseMode] {
        &[ReleaseMode::Safe, ReleaseMode::Unsafe]
    }
}
