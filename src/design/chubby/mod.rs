//! Chubby's locks (Burrows, OSDI 2006), as far as a lock holder and a resource see them. A client
//! opens a session with the master and keeps it alive by KeepAlives, each extending the session
//! lease (12 s by default); a session whose lease runs out is ended, and its locks are freed.
//! Each lock has a generation number that increases every time it goes from free to held; the
//! holder can ask for a **sequencer** (lock name, mode, generation) and pass it to the servers
//! it writes to, which check it (`CheckSequencer`) or remember the newest they have seen. For
//! servers that cannot check a sequencer, Chubby has **lock-delay**: when a holder fails or
//! becomes unreachable (not on a normal release), the master refuses the lock to others for a
//! client-chosen time, at most a minute.
//!
//! The master behaves as Consul's servers do for one lock (sessions ended after a lease, a counter
//! on every new holder, lock-delay after an invalidation), so this design runs on
//! [`super::consul::ConsulServer`] and its client, in Chubby's words and numbers.
//!
//! Simplifications, said in the lessons: one master; a KeepAlive is a request every third of the
//! lease, where Chubby's master holds each KeepAlive until the lease nearly ends; the client's
//! jeopardy and its 45 s grace period are not modelled (the session ends when the master says so);
//! the resource checks the sequencer's generation by remembering the newest.

mod settings;
#[cfg(test)]
mod tests;
mod words;

use super::consul::{ConsulClient, ConsulServer};
use super::{Design, Factory, Guarantees, Kind, LockKind, Row, Rows, Services, Summary, Values};
use crate::engine::actor::Actor;
use crate::engine::clock::TimerClock;
use crate::engine::ids::NodeId;
use crate::engine::msg::ReleaseMode;
use crate::engine::protocol::{LockClient, Protocol};
use crate::engine::spec::ResourceMode;
use crate::engine::time::Millis;
use crate::present::number::ms;
pub use settings::ChubbySettings;

/// The registry entry.
pub struct Chubby;

/// The design as the registry lists it.
static SUMMARY: Summary = Summary::of::<ChubbySettings>(
    "chubby",
    "Chubby lock + sequencer",
    "A lock held through a session kept alive by KeepAlives; its sequencer's generation is the fencing token, and lock-delay covers servers that cannot check one.",
);

impl Kind for Chubby {
    fn summary(&self) -> &'static Summary {
        &SUMMARY
    }

    fn rows(&self, ttl_ms: u64) -> Vec<Row> {
        let lease = ttl_ms.max(3);
        let settings = ChubbySettings { lease_ms: lease, lock_delay_ms: (lease / 2).min(60_000) };
        let rows = Rows { design: settings.configure(), services: 1, service_name: "Chubby master" };
        vec![
            rows.row("chubby", "Chubby lock (lock-delay)", "sequencer generation, unchecked", Some(ResourceMode::Unfenced)),
            rows.row("chubby-sequencer", "Chubby + sequencer check", "sequencer generation (CheckSequencer)", Some(ResourceMode::Fenced)),
        ]
    }
}

/// Chubby's lock, configured.
#[derive(Debug)]
pub struct ChubbyDesign {
    values: Values,
    lease: Millis,
    lock_delay: Millis,
}

impl Protocol for ChubbyDesign {
    /// The master ends a session a lease after its last KeepAlive: Consul's servers with half
    /// the lease as TTL, since they reap after twice it.
    fn service(&self, _index: usize, _nodes: &[NodeId]) -> Option<Box<dyn Actor>> {
        Some(Box::new(ConsulServer::new(Millis::from_ms(self.lease.as_ms() / 2), self.lock_delay, false)))
    }

    fn client(&self, nodes: &[NodeId]) -> Option<Box<dyn LockClient>> {
        Some(Box::new(ConsulClient::new(nodes[0], self.lease.as_ms() / 3)))
    }

    /// The master times session leases by elapsed time.
    fn service_clock(&self) -> TimerClock {
        TimerClock::Monotonic
    }

    fn connections(&self) -> &'static str {
        "each call is an RPC the client library abandons when its reply is overdue; a session is not a connection: the master ends it when its lease runs out without a KeepAlive"
    }
}

impl Design for ChubbyDesign {
    fn kind(&self) -> &'static dyn Kind {
        &Chubby
    }

    fn values(&self) -> &Values {
        &self.values
    }

    fn guarantees(&self) -> Guarantees {
        let (lease, delay) = (ms(self.lease), ms(self.lock_delay));
        Guarantees {
            lock: LockKind::Correctness,
            safety: format!(
                "One session holds the lock at a time, and every new holder's sequencer has a higher generation, which a server can check. When a holder's session ends, lock-delay keeps the lock from others for {delay}, for servers that cannot check a sequencer."
            ),
            liveness: format!("If a holder dies, its session ends a lease ({lease}) after its last KeepAlive, and the lock can be taken {delay} later."),
            assumes: "Servers that check the sequencer, or holders that stall for less than the lease plus the lock-delay.".into(),
        }
    }

    fn services(&self) -> Services {
        Services { count: 1..=1, what: "one Chubby cell (its master)" }
    }

    fn script_renewal(&self) -> Result<(), &'static str> {
        Err("the client library sends KeepAlives by itself; leave renew out")
    }

    fn release_modes(&self) -> &'static [ReleaseMode] {
        &[ReleaseMode::Safe]
    }
}
