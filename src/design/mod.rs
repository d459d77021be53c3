//! Lock designs, one module each, found through one registry.
//!
//! A design module owns everything about its design: its scenario tag and declared parameters,
//! its lock-service actors and client-side protocol (the engine's [`Protocol`] and
//! [`LockClient`](crate::engine::protocol::LockClient)), its messages, where its fencing token
//! comes from, its stated guarantees, its rows in the comparison table, and its words (a
//! [`Vocabulary`]). Adding a design is one new module and one line in [`REGISTRY`].
//!
//! Depends on the engine, `present` and `error`; never on scenarios, the diagram or the UI.

pub mod consumer_group;
pub mod etcd;
pub mod kubernetes;
pub mod lease;
pub mod none;
pub mod param;
pub mod postgres;
pub mod redis;
pub mod redlock;
pub mod zookeeper;

use crate::engine::msg::ReleaseMode;
use crate::engine::protocol::Protocol;
use crate::engine::spec::ResourceMode;
use crate::error::ScenarioError;
use crate::present::Vocabulary;
pub use param::{Param, ParamKind, Value, Values};
use std::ops::RangeInclusive;
use std::rc::Rc;

/// Every lock design, in the order the comparison table and `lockstep designs` list them.
pub const REGISTRY: &[&dyn Kind] = &[
    &lease::Lease,
    &redis::Redis,
    &redlock::Redlock,
    &zookeeper::Zookeeper,
    &etcd::Etcd,
    &postgres::Postgres,
    &kubernetes::Kubernetes,
    &consumer_group::ConsumerGroup,
    &none::NoLock,
];

/// Finds a design by its scenario tag; the error lists the known tags.
pub fn find(tag: &str) -> Result<&'static dyn Kind, ScenarioError> {
    REGISTRY.iter().copied().find(|k| k.tag() == tag).ok_or_else(|| {
        let known: Vec<String> = REGISTRY.iter().map(|k| format!("`{}`", k.tag())).collect();
        ScenarioError::new("lock.design", format!("unknown variant `{tag}`, expected one of {}", known.join(", ")))
    })
}

/// A lock design as the registry knows it: its tag, its parameters, and how to build it.
pub trait Kind: Sync {
    /// Returns the `design` tag scenario files use.
    fn tag(&self) -> &'static str;
    /// Returns a short title.
    fn title(&self) -> &'static str;
    /// Says in one line what the design is.
    fn about(&self) -> &'static str;
    /// Returns the declared parameters.
    fn params(&self) -> &'static [Param];
    /// Builds the design from values that fit the declarations, checking how they fit together.
    fn build(&self, values: &Values) -> Result<Rc<dyn Design>, ScenarioError>;
    /// Returns the design's rows in the comparison table, every lease lasting `ttl_ms`.
    fn rows(&self, ttl_ms: u64) -> Vec<Row>;
}

/// A configured lock design: the engine's protocol, its words, and what it needs and promises.
pub trait Design: Protocol + Vocabulary {
    /// Returns the registry entry it was built from.
    fn kind(&self) -> &'static dyn Kind;
    /// Returns the parameter values it was built from.
    fn values(&self) -> &Values;
    /// Returns what the design promises, under which assumptions.
    fn guarantees(&self) -> Guarantees;
    /// Says how many lock-service nodes it runs on, and what they are.
    fn services(&self) -> Services;
    /// Says whether a client's script may renew, and if not, why.
    fn script_renewal(&self) -> Result<(), &'static str>;
    /// Returns the ways a client may give the lock back; empty when there is no lock.
    fn release_modes(&self) -> &'static [ReleaseMode];
}

/// How many lock-service nodes a design runs on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Services {
    pub count: RangeInclusive<usize>,
    /// What they are, for an error message: `one primary and at most one replica`.
    pub what: &'static str,
}

/// A design's stated promises and the assumptions they rest on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guarantees {
    /// Whether the lock is fit for correctness or only saves work.
    pub lock: LockKind,
    pub safety: String,
    /// What happens when a holder dies or stalls.
    pub liveness: String,
    pub assumes: String,
}

/// The two reasons to take a lock, or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockKind {
    /// Duplicate work is undesirable but harmless.
    Efficiency,
    /// Two writers must never corrupt the resource.
    Correctness,
    /// No lock: the resource keeps the invariant by itself.
    None,
}

impl LockKind {
    /// Returns the short label shown beside the guarantees.
    pub fn label(self) -> &'static str {
        match self {
            LockKind::Efficiency => "efficiency lock",
            LockKind::Correctness => "correctness lock",
            LockKind::None => "no lock",
        }
    }
}

/// One row of the comparison table: a design configured one way, with a resource.
#[derive(Clone, Debug)]
pub struct Row {
    /// The row's id in links and cell ids: `redis-incr`.
    pub id: &'static str,
    /// The row heading.
    pub title: &'static str,
    /// Where the fencing token comes from, or why there is none.
    pub token: &'static str,
    /// The design, configured for this row.
    pub design: Rc<dyn Design>,
    /// How the resource judges writes; `None` when the data lives in the lock service.
    pub resource: Option<ResourceMode>,
    /// How many lock-service nodes the row runs on.
    pub services: usize,
    /// The lock-service nodes' display name.
    pub service_name: &'static str,
    /// Says whether a step of the lock service's wall clock leaves every expiry where it was
    /// (session timers that measure elapsed time).
    pub elapsed_timers: bool,
}

/// Builds a design row's configuration from parameter values, for `Kind::rows`.
pub fn configure(kind: &dyn Kind, given: &[(&str, Value)]) -> Rc<dyn Design> {
    let values = Values::new(kind.params(), given).unwrap_or_else(|e| panic!("{}: a comparison row is invalid: {e}", kind.tag()));
    kind.build(&values).unwrap_or_else(|e| panic!("{}: a comparison row is invalid: {e}", kind.tag()))
}
