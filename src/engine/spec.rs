//! What a run is made of, with participants resolved to [`NodeId`]s.
//!
//! The scenario module turns a user's JSON into a [`Spec`]; the leaf types here (steps, policies,
//! modes) are read directly from that JSON.

use super::clock::Clock;
use super::copy::field_clone;
use super::fault::Fault;
use super::ids::{NodeId, NodeKind};
use super::msg::{ReleaseMode, WriteValue};
pub use super::policy::{AcquirePolicy, RenewFailure, RenewPolicy};
use super::protocol::Protocol;
use super::time::{LocalMillis, Millis};
use crate::limits::{DEFAULT_MAX_EVENTS, DEFAULT_MAX_TIME_MS};
use std::rc::Rc;

/// Everything the simulator needs for one run.
#[derive(Debug)]
pub struct Spec {
    pub seed: u64,
    /// Shared: a search's schedules each copy the spec, and few change a node.
    pub nodes: Rc<Vec<NodeSpec>>,
    /// The lock design, configured.
    pub lock: Rc<dyn Protocol>,
    pub network: NetworkSpec,
    pub faults: Vec<Fault<NodeId>>,
    pub limits: RunLimits,
    /// The ids of the nodes with the lock-service role, in order (from the nodes' roles, which
    /// stay as they are).
    pub locks: Rc<[NodeId]>,
    /// The resources by id, for writes that name theirs.
    pub resources: Rc<[(String, NodeId)]>,
    /// By node: whether it is a resource that must apply each effect once (an idempotency
    /// key's, a unique row's).
    pub once: Rc<[bool]>,
}

field_clone!(Spec { seed, nodes, lock, network, faults, limits, locks, resources, once });

/// One participant. (Its names are shared: a search that changes a node's clock copies them.)
#[derive(Clone, Debug)]
pub struct NodeSpec {
    pub key: Rc<str>,
    pub name: Rc<str>,
    pub clock: Clock,
    pub role: Role,
}

/// What a participant does.
#[derive(Clone, Debug)]
pub enum Role {
    Client(ClientSpec),
    LockService,
    Resource(ResourceMode),
}

impl Role {
    /// Returns the kind of node this role makes.
    pub fn kind(&self) -> NodeKind {
        match self {
            Role::Client(_) => NodeKind::Client,
            Role::LockService => NodeKind::LockService,
            Role::Resource(_) => NodeKind::Resource,
        }
    }
}

/// A client's script and policies.
#[derive(Clone, Debug)]
pub struct ClientSpec {
    /// The client starts when its own clock reads this.
    pub start_ms: LocalMillis,
    pub script: Rc<[Step]>,
    pub acquire: AcquirePolicy,
    pub renew: Option<RenewPolicy>,
}

/// One step of a client's script, run in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Acquire the lock, retrying per the acquire policy.
    Acquire,
    /// Work inside the critical section for `ms` of local time.
    Work { ms: u64 },
    /// Read the resource's version, for a later conditional write.
    Read,
    /// Write a value to the resource with the current token (and the version read, if any); to
    /// the resource with id `to` where a scenario has several.
    Write { value: WriteValue, to: Option<String> },
    /// A saga's compensating action: if a write earlier in the script was refused, undo this
    /// client's own earlier write of `value` (at `to`, as for a write); otherwise do nothing.
    Compensate { value: WriteValue, to: Option<String> },
    /// Check the lock on the client's own clock, as careful clients do before touching the
    /// resource: if it holds none, or less than `margin_ms` of it is left, stop here.
    Check { margin_ms: u64 },
    /// Give the lock back.
    Release { mode: ReleaseMode },
}

/// How the protected resource judges writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResourceMode {
    /// Accepts every write.
    Unfenced,
    /// Rejects a token lower than the highest it has accepted.
    Fenced,
    /// Accepts a write only if it names the current version (compare-and-set).
    Conditional,
    /// Applies each distinct value (a job's idempotency key) once; repeats change nothing.
    Deduplicated,
    /// Inserts each value as a row whose column is unique; inserting it again fails.
    Unique,
}

/// What stands between a stale holder and the data: the seed's correctness lock needs the
/// resource to validate a fencing token or compare-and-set by itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guard {
    /// The resource checks the lock's fencing token.
    Token,
    /// The resource compares versions (compare-and-set).
    Version,
    /// The resource keeps the invariant itself: an idempotency key, a unique row.
    Itself,
    /// The data lives in the lock's own store, and the write is checked there with the lock.
    Store,
    /// The resource would check a token, but the design hands out none.
    NoToken,
    /// Nothing checks at the resource.
    Nothing,
}

impl Guard {
    /// Says whether this set-up meets the seed's definition of a correctness lock.
    pub fn meets(self) -> bool {
        !matches!(self, Guard::NoToken | Guard::Nothing)
    }
}

/// One-way latency: fixed when `min_ms == max_ms`, else drawn from the seeded range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Latency {
    pub min_ms: u64,
    pub max_ms: u64,
}

/// Latency and loss per directed link.
#[derive(Debug)]
pub struct NetworkSpec {
    pub default: LinkSpec,
    pub links: Vec<(NodeId, NodeId, LinkSpec)>,
}

field_clone!(NetworkSpec { default, links });

/// One directed link's behaviour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinkSpec {
    pub latency: Latency,
    /// Probability in 0..=1 that a message is lost.
    pub loss: f64,
}

/// Bounds on a run; exceeding one stops it with an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunLimits {
    pub max_events: usize,
    pub max_time_ms: Millis,
}

impl Default for RunLimits {
    fn default() -> Self {
        RunLimits { max_events: DEFAULT_MAX_EVENTS, max_time_ms: Millis::from_ms(DEFAULT_MAX_TIME_MS) }
    }
}

impl Spec {
    /// A spec of `nodes` with no faults yet; the lock-service nodes and resources are found by
    /// their roles.
    pub fn new(seed: u64, nodes: Vec<NodeSpec>, lock: Rc<dyn Protocol>, network: NetworkSpec, limits: RunLimits) -> Spec {
        let ids = |f: fn(&Role) -> bool| nodes.iter().enumerate().filter(move |(_, n)| f(&n.role)).map(|(i, _)| NodeId(i));
        let locks = ids(|r| matches!(r, Role::LockService)).collect();
        let resources = ids(|r| matches!(r, Role::Resource(_))).map(|n| (nodes[n.0].key.to_string(), n)).collect();
        let once = nodes.iter().map(|n| matches!(n.role, Role::Resource(ResourceMode::Deduplicated | ResourceMode::Unique))).collect();
        Spec { seed, nodes: Rc::new(nodes), lock, network, faults: Vec::new(), limits, locks, resources, once }
    }

    /// Returns where clients send writes: the resource, or the lock service itself when the
    /// protected data lives there.
    pub fn write_target(&self) -> Option<NodeId> {
        if self.lock.data_in_service() {
            self.locks.first().copied()
        } else {
            self.resource()
        }
    }

    /// Returns the id of the protected resource (the first, if there are several), if there is one.
    pub fn resource(&self) -> Option<NodeId> {
        self.resources.first().map(|r| r.1)
    }
}
