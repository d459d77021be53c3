//! What a lock design is: a registry entry ([`Kind`]: tag, parameters, builder, comparison rows)
//! and a configured design ([`Design`]: the engine's protocol, its words, what it needs of a
//! scenario and what it promises).

use super::param::{Param, Settings, Values};
use crate::engine::clock::TimerClock;
use crate::engine::msg::ReleaseMode;
use crate::engine::protocol::Protocol;
use crate::engine::spec::ResourceMode;
use crate::error::ScenarioError;
use crate::present::Vocabulary;
use std::ops::RangeInclusive;
use std::rc::Rc;

/// What the registry lists of a design.
pub struct Summary {
    /// The `design` tag scenario files use.
    pub tag: &'static str,
    /// A short title.
    pub title: &'static str,
    /// What the design is, in one line.
    pub about: &'static str,
    /// The declared parameters.
    pub params: &'static [Param],
    /// Builds the design from values that fit the declarations, through its typed settings.
    pub build: fn(&Values) -> Result<Rc<dyn Design>, ScenarioError>,
}

impl Summary {
    /// Lists a design whose typed settings `S` declare its parameters and build it.
    pub const fn of<S: Factory>(tag: &'static str, title: &'static str, about: &'static str) -> Summary {
        Summary { tag, title, about, params: S::PARAMS, build: build::<S> }
    }
}

fn build<S: Factory>(values: &Values) -> Result<Rc<dyn Design>, ScenarioError> {
    S::from_values(values).build()
}

/// A design's typed settings as the factory of the design they configure.
pub trait Factory: Settings {
    /// Builds the design, checking how the settings fit together.
    fn build(&self) -> Result<Rc<dyn Design>, ScenarioError>;

    /// Builds the design from settings it chose itself, for a comparison row: settings that do
    /// not fit together are a bug in the design (`tests/registry.rs` checks every row's values
    /// against their declared ranges).
    fn configure(&self) -> Rc<dyn Design> {
        self.build().unwrap_or_else(|e| panic!("a comparison row is invalid: {e}"))
    }
}

/// A lock design as the registry knows it: its tag, its parameters, and how to build it.
pub trait Kind: Sync {
    /// Returns what the registry lists of the design.
    fn summary(&self) -> &'static Summary;
    /// Returns the `design` tag scenario files use.
    fn tag(&self) -> &'static str {
        self.summary().tag
    }
    /// Returns a short title.
    fn title(&self) -> &'static str {
        self.summary().title
    }
    /// Says in one line what the design is.
    fn about(&self) -> &'static str {
        self.summary().about
    }
    /// Returns the declared parameters.
    fn params(&self) -> &'static [Param] {
        self.summary().params
    }
    /// Builds the design from values that fit the declarations, checking how they fit together.
    fn build(&self, values: &Values) -> Result<Rc<dyn Design>, ScenarioError> {
        (self.summary().build)(values)
    }
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
    /// Says whether a client's script may renew, and if not, why; by default it may.
    fn script_renewal(&self) -> Result<(), &'static str> {
        Ok(())
    }
    /// Returns the ways a client may give the lock back; empty when there is no lock.
    fn release_modes(&self) -> &'static [ReleaseMode];
    /// Says whether anything in it ends by time (a lease, a session, a timeout); by default it does.
    fn expires(&self) -> bool {
        true
    }
}

/// A design prints as its tag: designs carry no printing code of their own.
impl std::fmt::Debug for dyn Design {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.kind().tag())
    }
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
            LockKind::Efficiency => "used for efficiency",
            LockKind::Correctness => "used for correctness",
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
}

impl Row {
    /// Says whether a step of the lock service's wall clock leaves every expiry where it was:
    /// the design times them by elapsed time.
    pub fn elapsed_timers(&self) -> bool {
        self.design.service_clock() == TimerClock::Monotonic
    }
}

/// What the rows of one design configuration share; [`Rows::row`] adds the rest.
pub struct Rows {
    pub design: Rc<dyn Design>,
    pub services: usize,
    pub service_name: &'static str,
}

impl Rows {
    /// Returns a row with this id, heading, token source and resource.
    pub fn row(&self, id: &'static str, title: &'static str, token: &'static str, resource: Option<ResourceMode>) -> Row {
        Row { id, title, token, design: self.design.clone(), resource, services: self.services, service_name: self.service_name }
    }
}
