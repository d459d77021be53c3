//! What a run is made of, with participants resolved to [`NodeId`]s.
//!
//! The scenario module turns a user's JSON into a [`Spec`]; the leaf types here (steps, policies,
//! modes, designs) are deserialized directly from that JSON.

use super::clock::Clock;
use super::ids::NodeId;
use super::msg::ReleaseMode;
use serde::Serialize;

/// Everything the simulator needs for one run.
#[derive(Clone, Debug, Serialize)]
pub struct Spec {
    pub seed: u64,
    pub nodes: Vec<NodeSpec>,
    pub lock: LockDesign,
    pub network: NetworkSpec,
    pub faults: Vec<Fault>,
    pub limits: Limits,
}

/// One participant.
#[derive(Clone, Debug, Serialize)]
pub struct NodeSpec {
    pub key: String,
    pub name: String,
    pub clock: Clock,
    pub role: Role,
}

/// What a participant does.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Client(ClientSpec),
    LockService,
    Resource(ResourceMode),
}

/// A client's script and policies.
#[derive(Clone, Debug, Serialize)]
pub struct ClientSpec {
    pub start_ms: u64,
    pub script: Vec<Step>,
    pub acquire: AcquirePolicy,
    pub renew: Option<RenewPolicy>,
}

/// One step of a client's script, run in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Step {
    /// Acquire the lock, retrying per the acquire policy.
    Acquire,
    /// Work inside the critical section for `ms` of local time.
    Work { ms: u64 },
    /// Read the resource's version, for a later conditional write.
    Read,
    /// Write a value to the resource with the current token (and the version read, if any).
    Write { value: String },
    /// Give the lock back.
    Release { mode: ReleaseMode },
}

/// How a client retries a busy lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct AcquirePolicy {
    pub retry_ms: u64,
    /// Up to this much seeded random delay is added to each retry.
    pub jitter_ms: u64,
    pub max_attempts: u32,
    /// How long to wait for any reply before treating the request as failed.
    pub timeout_ms: u64,
}

impl Default for AcquirePolicy {
    fn default() -> Self {
        AcquirePolicy { retry_ms: 100, jitter_ms: 0, max_attempts: 100, timeout_ms: 500 }
    }
}

/// Lease renewal while the lock is held.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RenewPolicy {
    pub every_ms: u64,
    pub on_failure: RenewFailure,
}

/// What a client does when a renewal is refused or unanswered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RenewFailure {
    /// Stop working and skip every remaining write.
    Abort,
    /// Keep going as if nothing happened.
    CarryOn,
}

/// How the protected resource judges writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
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

/// Which lock service runs on the lock-service nodes, with its parameters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "design", rename_all = "snake_case")]
pub enum LockDesign {
    /// No lock at all: the resource alone keeps the data safe (the alternatives to a lock).
    None,
    /// A lease with a monotonically increasing generation as its fencing token.
    Lease { ttl_ms: u64, first_token: u64 },
    /// One Redis instance: `SET key value NX PX ttl`, expiry on the Redis clock, and no fencing
    /// token unless `incr_token` has each acquisition also `INCR` a counter.
    /// With a second lock-service node, that node is an asynchronous replica that receives each
    /// change `replication_lag_ms` after the primary made it.
    Redis {
        ttl_ms: u64,
        incr_token: bool,
        replication_lag_ms: u64,
    },
    /// PostgreSQL session-level advisory locks. With `same_database`, the protected rows live in
    /// the same database and writes commit only inside a live session.
    /// With `transaction_level`, locks are `pg_advisory_xact_lock`s, released all at once when
    /// the transaction commits or rolls back.
    Postgres {
        session_timeout_ms: Option<u64>,
        same_database: bool,
        transaction_level: bool,
    },
    /// etcd's concurrency mutex: session leases kept alive by the client, contenders ordered by
    /// create revision, and the owner's create revision as the fencing token.
    /// With `data_in_etcd`, the protected data is a key in etcd itself, written by a transaction
    /// that succeeds only while the writer's lock key still has its create revision.
    Etcd {
        ttl_ms: u64,
        first_revision: u64,
        data_in_etcd: bool,
    },
    /// The ZooKeeper lock recipe: ephemeral sequential znodes, sessions kept alive by heartbeats,
    /// the owner's `czxid` as fencing token.
    Zookeeper {
        tick_time_ms: u64,
        /// Must lie between 2 and 20 ticks, as the server enforces.
        session_timeout_ms: u64,
        watch: ZkWatch,
    },
    /// Redlock over every lock-service node, each an independent Redis master: a client needs
    /// a majority of keys, set within the validity time, and retries after a random delay.
    Redlock {
        ttl_ms: u64,
        retry_count: u32,
        retry_delay_ms: u64,
        /// How long to wait for one master before moving to the next (much less than the TTL).
        instance_timeout_ms: u64,
    },
}

/// What a waiting ZooKeeper contender watches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ZkWatch {
    /// Only its immediate predecessor (the recipe).
    #[default]
    Predecessor,
    /// The whole lock node (the herd effect).
    LockNode,
}


impl LockDesign {
    /// Returns the lease length every design has.
    pub fn ttl_ms(&self) -> u64 {
        match self {
            LockDesign::Lease { ttl_ms, .. }
            | LockDesign::Redis { ttl_ms, .. }
            | LockDesign::Etcd { ttl_ms, .. }
            | LockDesign::Redlock { ttl_ms, .. } => *ttl_ms,
            LockDesign::Zookeeper { session_timeout_ms, .. } => *session_timeout_ms,
            LockDesign::Postgres { session_timeout_ms, .. } => session_timeout_ms.unwrap_or(0),
            LockDesign::None => 0,
        }
    }

    /// Says whether the protected data lives in the lock service (PostgreSQL rows in the same
    /// database, or a key in etcd) rather than in a separate resource.
    pub fn data_in_lock_service(&self) -> bool {
        matches!(self, LockDesign::Postgres { same_database: true, .. } | LockDesign::Etcd { data_in_etcd: true, .. })
    }

    /// Returns how many lock-service nodes must agree that a client holds the lock; 0 when there
    /// is no lock.
    pub fn quorum(&self, lock_nodes: usize) -> usize {
        match self {
            LockDesign::None => 0,
            LockDesign::Redlock { .. } => super::redlock::quorum(lock_nodes),
            _ => 1,
        }
    }

    /// Returns the expiry a client names in its request, for designs where the client sets it.
    pub fn client_px_ms(&self) -> Option<u64> {
        match self {
            LockDesign::None
            | LockDesign::Lease { .. }
            | LockDesign::Etcd { .. }
            | LockDesign::Zookeeper { .. }
            | LockDesign::Postgres { .. } => None,
            LockDesign::Redis { ttl_ms, .. } | LockDesign::Redlock { ttl_ms, .. } => Some(*ttl_ms),
        }
    }
}

/// One-way latency: fixed when `min_ms == max_ms`, else drawn from the seeded range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Latency {
    pub min_ms: u64,
    pub max_ms: u64,
}

/// Latency and loss per directed link.
#[derive(Clone, Debug, Serialize)]
pub struct NetworkSpec {
    pub default: LinkSpec,
    pub links: Vec<(NodeId, NodeId, LinkSpec)>,
}

/// One directed link's behaviour.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LinkSpec {
    pub latency: Latency,
    /// Probability in 0..=1 that a message is lost.
    pub loss: f64,
}

/// A scheduled fault.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fault {
    pub at_ms: u64,
    pub kind: FaultKind,
}

/// What goes wrong.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// Stop the world: the node handles nothing until it resumes.
    Pause { node: NodeId, for_ms: u64 },
    Crash { node: NodeId },
    Restart { node: NodeId, keep_state: bool },
    /// A replica becomes the primary (a Sentinel failover).
    Promote { node: NodeId },
    /// Recorded here for the trace; the jump itself lives in the node's [`Clock`].
    ClockJump { node: NodeId, by_ms: i64 },
    /// Messages from `from` to `to` (and back, if two-way) are dropped for `for_ms`.
    Partition { from: Vec<NodeId>, to: Vec<NodeId>, two_way: bool, for_ms: u64 },
    /// Messages sent on one link during `for_ms` take `extra_ms` longer.
    Delay { from: NodeId, to: NodeId, extra_ms: u64, for_ms: u64 },
}

/// Bounds on a run; exceeding one stops it with an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Limits {
    pub max_events: usize,
    pub max_time_ms: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_events: 200_000, max_time_ms: 24 * 3_600_000 }
    }
}

impl Spec {
    /// Returns where clients send writes: the resource, or the lock service itself when the
    /// protected data lives there.
    pub fn write_target(&self) -> Option<NodeId> {
        if self.lock.data_in_lock_service() {
            self.lock_nodes().first().copied()
        } else {
            self.resource()
        }
    }

    /// Returns the ids of nodes with the lock-service role, in order.
    pub fn lock_nodes(&self) -> Vec<NodeId> {
        self.ids_where(|r| matches!(r, Role::LockService))
    }

    /// Returns the id of the protected resource, if there is one.
    pub fn resource(&self) -> Option<NodeId> {
        self.ids_where(|r| matches!(r, Role::Resource(_))).first().copied()
    }

    fn ids_where(&self, f: impl Fn(&Role) -> bool) -> Vec<NodeId> {
        self.nodes.iter().enumerate().filter(|(_, n)| f(&n.role)).map(|(i, _)| NodeId(i)).collect()
    }
}
