//! What the simulator needs from a lock design: its lock-service actors and, for each client,
//! the client side of its protocol. The engine never names a design; designs implement these
//! traits in `crate::design`.

use super::actor::{Actor, Cx};
use super::clock::TimerClock;
use super::copy::box_copy;
use super::ids::NodeId;
use super::msg::{LockMsg, ReleaseMode};
use super::policy::{AcquirePolicy, RenewPolicy};
use super::time::{LocalMillis, Millis};
use std::fmt::Debug;

/// A configured lock design, as the simulator sees it.
pub trait Protocol {
    /// Builds lock-service node `index` of `nodes` (all the lock-service nodes, in order);
    /// `None` for a design without a lock service.
    fn service(&self, index: usize, nodes: &[NodeId]) -> Option<Box<dyn Actor>>;
    /// Builds one client's side of the protocol, talking to `nodes`; `None` without a lock.
    fn client(&self, nodes: &[NodeId]) -> Option<Box<dyn LockClient>>;
    /// Returns how many lock-service nodes must hold a client's lock for it to hold the lock;
    /// 0 when the design has no lock at all. By default one node decides.
    fn quorum(&self, _lock_nodes: usize) -> usize {
        1
    }
    /// Says whether the protected data lives in the lock service itself; by default it does not.
    fn data_in_service(&self) -> bool {
        false
    }
    /// Says which clock the lock service's timers read, as the real system's do: its wall clock
    /// (a jump moves every expiry) or elapsed time (a jump moves none).
    fn service_clock(&self) -> TimerClock;
    /// Says what closes or breaks a connection in the real system, with its timers' names and
    /// defaults, and what each end does then (a phrase that starts in lower case).
    fn connections(&self) -> &'static str;
}

/// A spec prints its protocol by name only: protocols carry no printing code of their own.
impl std::fmt::Debug for dyn Protocol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Protocol")
    }
}

/// What the script runner knows when a lock message arrives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientView {
    /// Whether the client is waiting for the lock.
    pub acquiring: bool,
    /// The token of the lock it holds, if it holds one.
    pub held: Option<u64>,
    /// Whether it waits in a queue (etcd, ZooKeeper, PostgreSQL), keeping its session alive.
    pub queued: bool,
}

/// What a design's client side tells the script runner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Nothing the script needs to know yet.
    Pending,
    /// The lock is held under `token`; the client believes so until its clock reads
    /// `until_local` (`None`: no end it can foresee).
    Granted { token: u64, until_local: Option<LocalMillis> },
    /// This attempt failed; the runner retries as [`LockClient::retry`] says.
    Refused,
    /// The request waits in the lock service's queue; keep the session alive meanwhile.
    Queued,
    /// The renewal (or keep-alive) succeeded; the belief now runs until `until_local`.
    Renewed { until_local: Option<LocalMillis> },
    /// This renewal attempt failed, but the design tries again before giving up.
    RenewRetry,
    /// Renewal failed for good: the client's renewal policy decides what happens.
    RenewFailed,
    /// The lock service says the session or lease is gone (expired, ended, not this holder's):
    /// as with [`Progress::RenewFailed`] the policy decides whether the client acts on, but there
    /// is nothing left to renew, so a client library stops renewing it.
    Lost,
    /// The release was answered.
    Released,
}

/// How a release went out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Release {
    /// A request went out; wait for its answer.
    AwaitReply,
    /// Requests went out and nobody waits for the answers.
    Sent,
    /// Nothing to release.
    Nothing,
}

/// Copies a client's side of a protocol, state and all (as [`super::actor::CopyActor`] a node).
pub trait CopyLockClient {
    fn copy_box(&self) -> Box<dyn LockClient>;
    /// Copies it into `target`, reusing its box if it holds the same design's.
    fn copy_into(&self, target: &mut Box<dyn LockClient>);
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any;
    /// Its whole state's fingerprint.
    fn fingerprint(&self) -> u128;
}

box_copy!(CopyLockClient, LockClient);

/// One client's side of a lock design's protocol: how the script's acquire, renew and release
/// talk to the lock service, and what its replies mean. It may send messages and set the
/// [`Timer::Timeout`](super::actor::Timer::Timeout) and `Timer::Client` timers.
pub trait LockClient: CopyLockClient {
    /// Starts one acquisition attempt; replies are due within `timeout_ms`.
    fn acquire(&mut self, cx: &mut Cx, timeout_ms: Millis);
    /// Handles a lock-service message.
    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &LockMsg, view: ClientView) -> Progress;
    /// Handles the acquisition's reply timer.
    fn on_timeout(&mut self, cx: &mut Cx, timeout_ms: Millis) -> Progress;
    /// Hears that the connection to `from` was closed or reset, losing any request in flight on
    /// it; by default, nothing is done (the request's timeout, if any, covers it).
    fn on_connection_lost(&mut self, _cx: &mut Cx, _from: NodeId, _view: ClientView) -> Progress {
        Progress::Pending
    }
    /// Handles one of the design's own client timers, by its slot (see [`super::actor::DesignTimer`]).
    fn on_timer(&mut self, _cx: &mut Cx, _slot: u8) -> Progress {
        Progress::Pending
    }
    /// Returns the delay before attempt `attempts + 1`, or `None` to give up. By default, the
    /// client's acquire policy: a fixed delay plus seeded jitter, up to its attempt limit.
    fn retry(&mut self, cx: &mut Cx, attempts: u32, policy: &AcquirePolicy) -> Option<Millis> {
        (attempts < policy.max_attempts).then(|| policy.retry() + Millis::from_ms(cx.rng.range_inclusive(0, policy.jitter_ms)))
    }
    /// Returns how the client renews while it holds or waits, given its script's policy.
    fn renewal(&self, policy: Option<RenewPolicy>) -> Option<RenewPolicy> {
        policy
    }
    /// Whether the client keeps its session alive while it waits in a queue (etcd, ZooKeeper);
    /// a session blocked in a call (PostgreSQL's `pg_advisory_lock`) can send nothing else.
    fn renews_while_queued(&self) -> bool {
        true
    }
    /// Whether the client's library keeps its session trying after the application stops on a
    /// failed renewal, and so learns later what became of it (ZooKeeper reconnects and hears
    /// that the session expired); a lease nobody renews is simply left to lapse.
    fn session_outlives_work(&self) -> bool {
        false
    }
    /// Sends one renewal or keep-alive: for `held`, or for the session while it waits in a queue.
    fn renew(&mut self, cx: &mut Cx, held: Option<u64>);
    /// Handles a renewal that went unanswered.
    fn on_renew_timeout(&mut self, _cx: &mut Cx) -> Progress {
        Progress::RenewFailed
    }
    /// Gives the lock back: `held` is the token it holds, if any; `last` the last token it held.
    fn release(&mut self, cx: &mut Cx, held: Option<u64>, last: u64, mode: ReleaseMode) -> Release;
}
