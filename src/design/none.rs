//! No lock at all: the resource alone keeps the data safe (the alternatives to a lock). There is
//! no lock service, and scripts have no acquire, renew or release.

use super::param::settings;
use super::{Design, Factory, Guarantees, Kind, LockKind, Row, Services, Settings, Summary, Values};
use crate::engine::actor::Actor;
use crate::engine::clock::TimerClock;
use crate::engine::ids::NodeId;
use crate::engine::msg::{LockMsg, ReleaseMode};
use crate::engine::protocol::{LockClient, Protocol};
use crate::error::ScenarioError;
use crate::present::{Names, Vocabulary};
use std::rc::Rc;

/// The registry entry.
pub struct NoLock;

settings! {
    /// No lock has no settings.
    pub struct NoLockSettings {}
}

/// The design as the registry lists it.
static SUMMARY: Summary = Summary::of::<NoLockSettings>(
    "none",
    "No lock",
    "No lock service: the resource keeps the invariant itself (a version check, a unique key, an idempotency table).",
);

impl Factory for NoLockSettings {
    fn build(&self) -> Result<Rc<dyn Design>, ScenarioError> {
        Ok(Rc::new(Nothing { values: self.to_values() }))
    }
}

impl Kind for NoLock {
    fn summary(&self) -> &'static Summary {
        &SUMMARY
    }

    fn rows(&self, _ttl_ms: u64) -> Vec<Row> {
        Vec::new()
    }
}

/// The lock-free design.
#[derive(Debug)]
pub struct Nothing {
    values: Values,
}

impl Protocol for Nothing {
    fn service(&self, _index: usize, _nodes: &[NodeId]) -> Option<Box<dyn Actor>> {
        None
    }

    fn client(&self, _nodes: &[NodeId]) -> Option<Box<dyn LockClient>> {
        None
    }

    fn quorum(&self, _lock_nodes: usize) -> usize {
        0
    }

    /// There is no lock service to time anything.
    fn service_clock(&self) -> TimerClock {
        TimerClock::Monotonic
    }

    fn connections(&self) -> &'static str {
        "a client closes a connection whose reply is overdue past its request timeout, and what it sent still reaches the resource when the network lets it"
    }
}

impl Design for Nothing {
    fn kind(&self) -> &'static dyn Kind {
        &NoLock
    }

    fn values(&self) -> &Values {
        &self.values
    }

    fn guarantees(&self) -> Guarantees {
        Guarantees {
            lock: LockKind::None,
            safety: "Only what the resource itself enforces: its mode decides which writes it takes.".into(),
            liveness: "Nobody waits for anybody: there is nothing to hold.".into(),
            assumes: "Every writer goes through the resource's check.".into(),
        }
    }

    fn services(&self) -> Services {
        Services { count: 0..=0, what: "no lock service" }
    }

    fn script_renewal(&self) -> Result<(), &'static str> {
        Err("there is no lock to renew (lock design none)")
    }

    fn release_modes(&self) -> &'static [ReleaseMode] {
        &[]
    }
}

impl Vocabulary for Nothing {
    fn token(&self, _token: u64) -> Option<String> {
        None
    }

    fn lock(&self, _token: u64) -> String {
        "nothing".into()
    }

    fn label(&self, _msg: &LockMsg, _names: Names) -> String {
        String::new()
    }

    fn sending(&self, _msg: &LockMsg, _me: &str, _to: &str, _names: Names) -> String {
        String::new()
    }
}
