//! A Consul lock, as the Go client's `api.Lock` takes it: a session (TTL, LockDelay, Behavior)
//! and a KV `PUT ?acquire=<session>`, a compare-and-set that succeeds only when no session holds
//! the key. Each new acquisition increments the key's `LockIndex`, which with the key and the
//! session makes the sequencer Consul documents: `LockIndex` is the fencing token. The client
//! renews its session every half TTL; the servers reap a session only after twice its TTL. An
//! invalidation frees the key (or deletes it, with `Behavior = delete`) and starts the
//! **lock-delay**: nobody may acquire the key for that long, which gives a holder that stalled
//! time to notice, or to finish a late write, before anyone else writes. A normal release has no
//! lock-delay.
//!
//! Simplifications, said in the lessons: the servers are one linearizable service; they reap a
//! session at exactly twice its TTL (a real server may reap it anywhere from one to two TTLs);
//! the session is created and the key acquired in two round trips, without the blocking query
//! the Go client waits on between attempts; health checks do not invalidate sessions.

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
pub use client::ConsulClient;
pub use messages::ConsulMsg;
pub use service::ConsulServer;
pub use settings::ConsulSettings;

/// The registry entry.
pub struct Consul;

/// The design as the registry lists it.
static SUMMARY: Summary = Summary::of::<ConsulSettings>(
    "consul",
    "Consul session lock",
    "A KV acquire with a session: LockIndex is the sequencer, a session is reaped after twice its TTL, and lock-delay holds the key after an invalidation.",
);

impl Kind for Consul {
    fn summary(&self) -> &'static Summary {
        &SUMMARY
    }

    fn rows(&self, ttl_ms: u64) -> Vec<Row> {
        // The key is freed twice the session TTL after the last renewal: a TTL of half the
        // lease; and the default lock-delay equals the default TTL.
        let half = (ttl_ms / 2).max(2);
        let settings = ConsulSettings { session_ttl_ms: half, lock_delay_ms: half.min(60_000), ..ConsulSettings::new() };
        let rows = Rows { design: settings.configure(), services: 1, service_name: "Consul" };
        vec![
            rows.row("consul", "Consul session lock (lock-delay)", "LockIndex, unchecked", Some(ResourceMode::Unfenced)),
            rows.row("consul-fenced", "Consul + LockIndex check", "LockIndex (the sequencer)", Some(ResourceMode::Fenced)),
        ]
    }
}

/// The Consul lock, configured.
#[derive(Debug)]
pub struct ConsulDesign {
    values: Values,
    ttl: Millis,
    lock_delay: Millis,
    delete: bool,
}

impl Protocol for ConsulDesign {
    fn service(&self, _index: usize, _nodes: &[NodeId]) -> Option<Box<dyn Actor>> {
        Some(Box::new(ConsulServer::new(self.ttl, self.lock_delay, self.delete)))
    }

    fn client(&self, nodes: &[NodeId]) -> Option<Box<dyn LockClient>> {
        Some(Box::new(ConsulClient::new(nodes[0], self.ttl.as_ms() / 2)))
    }

    /// Session TTLs and lock-delay are timed by the leader with Go's timers (elapsed time).
    fn service_clock(&self) -> TimerClock {
        TimerClock::Monotonic
    }

    fn connections(&self) -> &'static str {
        "each request is an HTTP call the client abandons when its reply is overdue; a session is not a connection: it ends when it goes unrenewed for twice its TTL (or is destroyed), whatever becomes of the connections"
    }
}

impl Design for ConsulDesign {
    fn kind(&self) -> &'static dyn Kind {
        &Consul
    }

    fn values(&self) -> &Values {
        &self.values
    }

    fn guarantees(&self) -> Guarantees {
        let (ttl, delay) = (ms(self.ttl), ms(self.lock_delay));
        let behavior = if self.delete {
            " With Behavior = delete, an invalidation deletes the key and its LockIndex starts again: the sequencer can repeat."
        } else {
            ""
        };
        Guarantees {
            lock: LockKind::Correctness,
            safety: format!(
                "One session holds the key at a time, and each new holder gets a higher LockIndex, the sequencer a resource can check. After an invalidation, lock-delay keeps the key free for {delay}, so a holder that stalled has that long to notice or finish before anyone else acquires; a holder stalled longer still writes late unless the resource checks LockIndex.{behavior}"
            ),
            liveness: format!(
                "If a holder dies, its session is reaped twice its TTL ({ttl}) after its last renewal, and the key can be acquired {delay} later."
            ),
            assumes: "Holders that stall for less than twice the TTL plus the lock-delay less half a TTL (the reaping runs from the last renewal, sent every half TTL), or a resource that checks LockIndex.".into(),
        }
    }

    fn services(&self) -> Services {
        Services { count: 1..=1, what: "one Consul cluster" }
    }

    fn script_renewal(&self) -> Result<(), &'static str> {
        Err("the Go client renews its session every session_ttl_ms / 2 by itself; leave renew out")
    }

    fn release_modes(&self) -> &'static [ReleaseMode] {
        &[ReleaseMode::Safe]
    }
}
