//! Redisson's `RLock` and `RFencedLock` on one Redis primary, as `RedissonBaseLock`,
//! `RedissonLock` and `RedissonFencedLock` have them. A lock is a hash whose field is the
//! client's id (its UUID and thread id), set by a Lua script only when the hash is absent, with
//! `PEXPIRE`. Locked without a lease time, the lock lives `lockWatchdogTimeout` (30 s) and the
//! watchdog renews it every third of that (10 s) with a script that runs `PEXPIRE` only while
//! the field is there. When a renewal fails (no answer in time, or the field is gone) the
//! watchdog stops, logging an error: nobody tells the application, which goes on as if it held
//! the lock. Locked with a lease time, nothing renews it. `RFencedLock`'s acquire script also
//! `INCR`s `redisson_lock_token:{name}` and returns its value, a fencing token the resource must
//! compare with the highest it has seen. The counter lives on the primary and goes to replicas
//! asynchronously, so a failover can hand a token out again.
//!
//! The Redis side is the Redis design's node ([`super::redis::RedisNode`]): the hash with one
//! field behaves as its key with one value, and the acquire script's `INCR` as its counter.
//!
//! Simplifications, said in the lessons: reentry is not shown (a second `lock()` by the same
//! thread increments the field, and `RFencedLock` INCRs the token again); a waiting client
//! retries on its script's acquire policy, where Redisson waits for the unlock message on its
//! pub/sub channel or the remaining TTL; a renewal fails when unanswered within the client's
//! request timeout, where Redisson waits `timeout` (3 s) over `retryAttempts` (3) retries.

mod client;
mod settings;
#[cfg(test)]
mod tests;
mod words;

use super::redis::{Incr, RedisNode, RedisRole};
use super::{Design, Factory, Guarantees, Kind, LockKind, Row, Rows, Services, Summary, Values};
use crate::engine::actor::Actor;
use crate::engine::clock::TimerClock;
use crate::engine::ids::NodeId;
use crate::engine::msg::ReleaseMode;
use crate::engine::protocol::{LockClient, Protocol};
use crate::engine::spec::ResourceMode;
use crate::engine::time::Millis;
use crate::present::number::ms;
use client::RedissonClient;
pub use settings::RedissonSettings;

/// The registry entry.
pub struct Redisson;

/// The design as the registry lists it.
static SUMMARY: Summary = Summary::of::<RedissonSettings>(
    "redisson",
    "Redisson RLock / RFencedLock",
    "Redisson's lock on one Redis primary: a hash set by a Lua script, kept alive by a watchdog; RFencedLock also INCRs a token.",
);

impl Kind for Redisson {
    fn summary(&self) -> &'static Summary {
        &SUMMARY
    }

    fn rows(&self, ttl_ms: u64) -> Vec<Row> {
        // The watchdog renews every third of its timeout: at least 1 ms.
        let timeout = ttl_ms.max(3);
        let rows = |fenced| Rows {
            design: RedissonSettings { lock_watchdog_timeout_ms: timeout, fenced, ..RedissonSettings::new() }.configure(),
            services: 1,
            service_name: "Redis",
        };
        vec![
            rows(false).row("redisson", "Redisson RLock (watchdog)", "none (client id in a hash)", Some(ResourceMode::Unfenced)),
            rows(true).row(
                "redisson-fenced",
                "Redisson RFencedLock",
                "INCR of redisson_lock_token, in the acquire script (not durable: a failover can repeat it)",
                Some(ResourceMode::Fenced),
            ),
        ]
    }
}

/// Redisson's lock, configured.
#[derive(Debug)]
pub struct RedissonDesign {
    values: Values,
    /// How long each acquisition and renewal sets the hash to live.
    lease_ms: Millis,
    /// Whether the watchdog renews (no lease time given).
    watchdog: bool,
    fenced: bool,
    replication_lag_ms: Millis,
}

impl Protocol for RedissonDesign {
    fn service(&self, index: usize, nodes: &[NodeId]) -> Option<Box<dyn Actor>> {
        let replicas: Vec<(NodeId, Millis)> =
            nodes.iter().skip(1).filter(|&&n| Some(&n) != nodes.get(index)).map(|&n| (n, self.replication_lag_ms)).collect();
        let role = if index == 0 { RedisRole::Primary } else { RedisRole::Replica };
        let incr = if self.fenced { Incr::WithSet } else { Incr::None };
        Some(Box::new(RedisNode::new(self.lease_ms, incr, role, &replicas)))
    }

    fn client(&self, nodes: &[NodeId]) -> Option<Box<dyn LockClient>> {
        Some(Box::new(RedissonClient::new(nodes, self.lease_ms, self.watchdog)))
    }

    /// Redis expires keys by its wall clock.
    fn service_clock(&self) -> TimerClock {
        TimerClock::Wall
    }

    fn connections(&self) -> &'static str {
        "Redisson gives up on a command unanswered within its timeout (3,000 ms by default, here the client's request timeout) and the command may still reach Redis later; Redis keeps a silent client's connection (timeout 0); the lock hash lives until it expires or is unlocked, whatever becomes of the connection that set it"
    }
}

impl Design for RedissonDesign {
    fn kind(&self) -> &'static dyn Kind {
        &Redisson
    }

    fn values(&self) -> &Values {
        &self.values
    }

    fn guarantees(&self) -> Guarantees {
        let lease = ms(self.lease_ms);
        let renewal = if self.watchdog {
            format!(
                "The watchdog renews it every {} while its renewals succeed; after one fails it stops, and the application is not told.",
                ms(Millis::from_ms(self.lease_ms.as_ms() / 3))
            )
        } else {
            format!("Nothing renews it: it ends after the lease time, {lease}, whether or not the holder has finished.")
        };
        let token = if self.fenced {
            "Each acquisition INCRs redisson_lock_token, a fencing token the resource must check; the counter is not durable, so a failover can repeat it."
        } else {
            "There is no fencing token: the hash field only says whose lock it is."
        };
        Guarantees {
            lock: if self.fenced { LockKind::Correctness } else { LockKind::Efficiency },
            safety: format!("While the Redis primary keeps its memory, at most one client's hash exists at a time, for {lease} from its last renewal. {renewal} {token}"),
            liveness: format!("If a holder dies, its watchdog dies with it and the hash expires within {lease}."),
            assumes: if self.fenced {
                "A Redis primary that does not fail over or lose its counter, and a resource that refuses tokens lower than the highest it has seen.".into()
            } else {
                "Renewals that succeed for as long as the holder works, and holders that do not pause; or work that is safe to do twice.".into()
            },
        }
    }

    fn services(&self) -> Services {
        Services { count: 1..=2, what: "one primary and at most one replica" }
    }

    fn script_renewal(&self) -> Result<(), &'static str> {
        Err("Redisson's watchdog renews a lock taken without lease_time_ms by itself, every lock_watchdog_timeout_ms / 3; leave renew out")
    }

    fn release_modes(&self) -> &'static [ReleaseMode] {
        &[ReleaseMode::Safe]
    }
}
