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

use super::param::settings;
use super::redis_replication::{Replication, MOST_REPLICAS};
use super::redis_wire::{Key, RedisMsg};
use super::{Design, Factory, Guarantees, Kind, LockKind, Row, Rows, Services, Settings, Summary, Values};
use crate::engine::actor::{Actor, Cx, Timer};
use crate::engine::event::{EventKind, LockEnd};
use crate::engine::ids::NodeId;
use crate::engine::msg::{LockMsg, Msg, ReleaseMode};
use crate::engine::protocol::{ClientView, LockClient, Progress, Protocol, Release};
use crate::engine::spec::ResourceMode;
use crate::error::ScenarioError;
use crate::present::number::{group, ms};
use crate::present::{Names, Vocabulary};
use std::rc::Rc;

/// The registry entry.
pub struct Redis;

settings! {
    /// How a Redis lock is set up.
    pub struct RedisSettings {
        required {
            /// The PX a client sets: how long the key lives on the Redis node's clock.
            ttl_ms: u64 = number("ms", 1..=3_600_000),
        }
        /// Each acquisition also INCRs a counter and hands its value out as a fencing token.
        incr_token: bool = flag(false),
        /// With incr_token: the INCR is a second round trip after the SET succeeds, not one Lua script with it, so a holder that pauses
        /// between them takes its token late.
        incr_separate: bool = flag(false),
        /// With a second lock-service node as replica: how long after a change the primary streams it.
        replication_lag_ms: u64 = number_or("ms", 0..=60_000, 100),
        /// With a third lock-service node as a second replica: how long after a change the primary streams it there.
        second_replica_lag_ms: u64 = number_or("ms", 0..=60_000, 100),
        /// After its SET, a client runs WAIT for this many replicas and takes the lock only if that many acknowledged; 0: no WAIT.
        wait_replicas: u64 = number_or("replicas", 0..=MOST_REPLICAS as u64, 0),
        /// The WAIT's timeout: how long the primary blocks the client for acknowledgements.
        wait_timeout_ms: u64 = number_or("ms", 1..=60_000, 100),
        /// repl-diskless-sync-delay: how long a promoted replica waits before sending the other replicas its whole dataset.
        repl_diskless_sync_delay_ms: u64 = number_or("ms", 0..=60_000, 5_000),
    }
}

/// The design as the registry lists it.
static SUMMARY: Summary = Summary::of::<RedisSettings>(
    "redis",
    "Redis SET NX PX",
    "One Redis node: SET key value NX PX to acquire, a compare-value script to release; optionally an asynchronous replica.",
);

impl Factory for RedisSettings {
    fn build(&self) -> Result<Rc<dyn Design>, ScenarioError> {
        if self.incr_separate && !self.incr_token {
            return Err(ScenarioError::new(Self::incr_separate.path(), "needs incr_token: there is no INCR to separate"));
        }
        Ok(Rc::new(RedisDesign {
            values: self.to_values(),
            ttl_ms: self.ttl_ms,
            incr_token: self.incr_token,
            incr_separate: self.incr_separate,
            lags_ms: [self.replication_lag_ms, self.second_replica_lag_ms],
            resync_delay_ms: self.repl_diskless_sync_delay_ms,
            wait: match self.wait_replicas {
                0 => None,
                n => Some((n, self.wait_timeout_ms)),
            },
        }))
    }
}

impl Kind for Redis {
    fn summary(&self) -> &'static Summary {
        &SUMMARY
    }

    fn rows(&self, ttl_ms: u64) -> Vec<Row> {
        let rows = |incr| Rows {
            design: RedisSettings { incr_token: incr, replication_lag_ms: 0, ..RedisSettings::new(ttl_ms) }.configure(),
            services: 1,
            service_name: "Redis",
            elapsed_timers: false,
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
    ttl_ms: u64,
    incr_token: bool,
    incr_separate: bool,
    /// Each replica's lag, in the order the replicas are declared.
    lags_ms: [u64; MOST_REPLICAS],
    /// How long a promoted replica waits before resyncing the others.
    resync_delay_ms: u64,
    /// `WAIT` for this many replicas, with this timeout, after each `SET`.
    wait: Option<(u64, u64)>,
}

impl Protocol for RedisDesign {
    fn service(&self, index: usize, nodes: &[NodeId]) -> Option<Box<dyn Actor>> {
        // The replicas, less this node: a promoted replica streams to the others.
        let replicas: Vec<(NodeId, u64)> =
            nodes.iter().skip(1).copied().zip(self.lags_ms).filter(|&(n, _)| Some(&n) != nodes.get(index)).collect();
        let role = if index == 0 { Role::Primary } else { Role::Replica };
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
        Some(Box::new(RedisClient {
            nodes: nodes.to_vec(),
            node: 0,
            px_ms: self.ttl_ms,
            value: 0,
            acquire_sent_at: 0,
            renew_sent_at: 0,
            incr_separate: self.incr_separate,
            wait: self.wait,
            timeout_ms: 0,
            token: 0,
        }))
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

impl Vocabulary for RedisDesign {
    fn token(&self, token: u64) -> Option<String> {
        // The counter's first value is 1: a key set before its INCR has no token yet.
        (self.incr_token && token > 0).then(|| format!("token {token}"))
    }

    fn lock(&self, _token: u64) -> String {
        "the key".into()
    }

    fn label(&self, msg: &LockMsg, _names: Names) -> String {
        msg.get::<RedisMsg>().map_or_else(String::new, RedisMsg::label)
    }

    fn sending(&self, msg: &LockMsg, me: &str, to: &str, _names: Names) -> String {
        msg.get::<RedisMsg>().map_or_else(String::new, |m| m.sending(me, to))
    }

    fn granted(&self, me: &str, holder: &str, token: u64, expires_local: Option<i64>) -> String {
        if let (true, Some(t)) = (self.incr_separate, self.token(token)) {
            return format!(
                "The INCR hands {holder} {t}, a fencing token. The counter knows nothing of the key: {holder}'s key, set by its SET before, is deleted {}.",
                deleted_when(expires_local)
            );
        }
        let token = match self.token(token) {
            Some(t) => format!(" The INCR hands out {t}, a fencing token."),
            None => " There is no fencing token: the random value only says whose key it is.".into(),
        };
        format!("{me} sets the key for {holder} and will delete it {}.{token}", deleted_when(expires_local))
    }

    fn extended(&self, me: &str, holder: &str, _token: u64, expires_local: Option<i64>) -> String {
        format!("{me} pushes back the expiry of {holder}'s key: it now goes {}.", deleted_when(expires_local))
    }

    fn ended(&self, me: &str, holder: &str, token: u64, how: LockEnd) -> String {
        key_ended(me, holder, how, self.token(token))
    }

    fn replicated(&self, me: &str, holder: &str, _token: u64) -> String {
        format!("{me} stores its copy of {holder}'s key, with the same expiry.")
    }

    fn expiries(&self) -> &'static str {
        "key expiries"
    }
}

/// Says when a Redis node deletes a key: `when its own clock reads 1,005`.
pub fn deleted_when(expires_local: Option<i64>) -> String {
    match expires_local {
        Some(t) => format!("when its own clock reads {}", group(t)),
        None => "never on its own".into(),
    }
}

/// Says that a Redis node no longer holds a holder's key, and why.
pub fn key_ended(me: &str, holder: &str, how: LockEnd, token: Option<String>) -> String {
    let whose = token.map_or_else(|| format!("{holder}'s key"), |t| format!("{holder}'s key ({t})"));
    match how {
        LockEnd::Expired => {
            format!("{} expires on {me}'s clock. Nobody tells {holder}: it may still think the lock is its own.", capital_first(&whose))
        }
        LockEnd::Released => format!("{} is deleted; the lock is free.", capital_first(&whose)),
        LockEnd::DeletedByOther => {
            format!("An unchecked DEL deletes {whose}: the lock is free while {holder} still works.")
        }
        LockEnd::LostOnRestart => {
            format!("{me} comes back without {whose}: it was lost with the memory when {me} crashed.")
        }
        LockEnd::Replaced => format!("{} is overwritten.", capital_first(&whose)),
        LockEnd::Resynced => format!(
            "{me} drops its copy of {whose}: a full resync from its new primary replaces everything it had, and the new primary never had that key."
        ),
    }
}

fn capital_first(s: &str) -> String {
    crate::present::number::capital(s)
}

/// How a node hands out `INCR` tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Incr {
    /// No counter: the random value is all there is.
    None,
    /// The `INCR` runs in one Lua script with the `SET`, and its value comes with the `OK`.
    WithSet,
    /// The client sends the `INCR` as a round trip of its own after the `SET`.
    Separate,
}

/// Whether a node serves clients or follows a primary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Serves clients, streaming changes to its replicas.
    Primary,
    /// Follows the primary and refuses clients until promoted.
    Replica,
}

/// A Redis node holding the lock key.
pub struct RedisNode {
    ttl_ms: u64,
    incr: Incr,
    counter: u64,
    key: Option<Key>,
    role: Role,
    /// A primary's links to its replicas.
    replication: Replication,
    /// A replica's offset: the latest change it has from the primary.
    applied: u64,
    /// The replicas it streams to, or will once promoted, each with its lag.
    replicas: Vec<(NodeId, u64)>,
    /// Once promoted, how long it waits before resyncing the other replicas.
    resync_delay_ms: u64,
}

impl RedisNode {
    /// Builds an empty node that streams to `replicas` (each with its lag) as primary, now or
    /// once promoted.
    pub fn new(ttl_ms: u64, incr: Incr, role: Role, replicas: &[(NodeId, u64)]) -> Self {
        let replication = Replication::new(if role == Role::Primary { replicas } else { &[] }, 0);
        RedisNode { ttl_ms, incr, counter: 0, key: None, role, replication, applied: 0, replicas: replicas.to_vec(), resync_delay_ms: 0 }
    }

    /// Deletes the key, as `by` asks (or on its own); a primary streams the deletion.
    fn delete(&mut self, cx: &mut Cx, by: NodeId, how: LockEnd) {
        if let Some(k) = self.key.take() {
            cx.cancel(Timer::Expiry(k.value));
            cx.note(EventKind::LockEnded { holder: k.holder, token: k.token, how });
            self.replication.delete(cx, by, k.value);
        }
    }

    /// Sets the key, as `by` asks; a primary streams the new value.
    fn store(&mut self, cx: &mut Cx, by: NodeId, key: Key) {
        self.arm(cx, key);
        self.replication.set(cx, by, key);
    }

    /// Handles what a replica receives: copies from the primary, refusals to clients.
    fn follow(&mut self, cx: &mut Cx, from: NodeId, msg: &RedisMsg) {
        match *msg {
            RedisMsg::Replicate { holder, value, token, expires_at, offset } => {
                let key = Key { holder, value, token, expires_local: expires_at };
                self.applied = offset;
                // The counter comes across with the key: a promoted replica carries on from it.
                self.counter = self.counter.max(token);
                self.arm(cx, key);
                cx.note(EventKind::LockReplicated { holder, token, expires_local: Some(key.expires_local) });
            }
            RedisMsg::ReplicateDel { value, offset } => {
                self.applied = offset;
                if self.key.is_some_and(|k| k.value == value) {
                    self.delete(cx, from, LockEnd::Released);
                }
            }
            RedisMsg::FullSync { key, counter, offset } => {
                self.applied = offset;
                self.counter = counter;
                if self.key != key {
                    self.delete(cx, from, LockEnd::Resynced);
                    if let Some(k) = key {
                        self.arm(cx, k);
                        cx.note(EventKind::LockReplicated { holder: k.holder, token: k.token, expires_local: Some(k.expires_local) });
                    }
                }
            }
            RedisMsg::GetAck => cx.send(from, Msg::lock(RedisMsg::Ack { offset: self.applied })),
            RedisMsg::Set { .. } | RedisMsg::Extend { .. } | RedisMsg::Del { .. } | RedisMsg::Incr | RedisMsg::Wait { .. } => {
                cx.send(from, Msg::lock(RedisMsg::ReadOnly))
            }
            RedisMsg::SetOk { .. }
            | RedisMsg::Ack { .. }
            | RedisMsg::Acked { .. }
            | RedisMsg::Nil
            | RedisMsg::Extended { .. }
            | RedisMsg::Deleted { .. }
            | RedisMsg::ReadOnly
            | RedisMsg::Counter { .. } => {}
        }
    }

    /// Expires the key if its time has come on this node's clock (Redis checks lazily on access).
    fn expire_if_due(&mut self, cx: &mut Cx) {
        if self.key.is_some_and(|k| cx.now >= k.expires_local) {
            self.delete(cx, cx.me, LockEnd::Expired);
        }
    }

    fn arm(&mut self, cx: &mut Cx, k: Key) {
        cx.at(Timer::Expiry(k.value), k.expires_local);
        self.key = Some(k);
    }

    fn serve(&mut self, cx: &mut Cx, from: NodeId, msg: &RedisMsg) {
        let reply = match *msg {
            // NX: only if the key does not exist.
            RedisMsg::Set { .. } if self.key.is_some() => RedisMsg::Nil,
            RedisMsg::Set { value, px_ms } => {
                let token = if self.incr == Incr::WithSet {
                    self.counter += 1;
                    self.counter
                } else {
                    0
                };
                let key = Key { holder: from, value, token, expires_local: cx.now + px_ms as i64 };
                self.store(cx, from, key);
                cx.note(EventKind::LockGranted { holder: from, token, expires_local: Some(key.expires_local) });
                RedisMsg::SetOk { token: (self.incr == Incr::WithSet).then_some(token) }
            }
            RedisMsg::Extend { value, .. } => match self.key {
                Some(k) if k.value == value => {
                    let key = Key { expires_local: cx.now + self.ttl_ms as i64, ..k };
                    self.store(cx, from, key);
                    cx.note(EventKind::LockExtended { holder: k.holder, token: k.token, expires_local: Some(key.expires_local) });
                    RedisMsg::Extended { done: true }
                }
                _ => RedisMsg::Extended { done: false },
            },
            // INCR knows nothing of the key: it counts for anyone. Only the key's holder gets
            // its token granted with it.
            RedisMsg::Incr => {
                self.counter += 1;
                if let Some(k) = self.key.filter(|k| k.holder == from) {
                    let key = Key { token: self.counter, ..k };
                    self.store(cx, from, key);
                    cx.note(EventKind::LockGranted { holder: from, token: self.counter, expires_local: Some(key.expires_local) });
                }
                RedisMsg::Counter { value: self.counter }
            }
            RedisMsg::Del { value, checked } => {
                let done = match (checked, self.key) {
                    (true, Some(k)) if k.value == value => {
                        self.delete(cx, from, LockEnd::Released);
                        true
                    }
                    // A plain DEL removes whatever key is there, whoever set it.
                    (false, Some(k)) => {
                        let how = if k.value == value { LockEnd::Released } else { LockEnd::DeletedByOther };
                        self.delete(cx, from, how);
                        true
                    }
                    (true | false, _) => false,
                };
                RedisMsg::Deleted { done }
            }
            RedisMsg::Wait { replicas, timeout_ms } => return self.replication.wait(cx, from, replicas, timeout_ms),
            RedisMsg::Ack { offset } => return self.replication.ack(cx, from, offset),
            RedisMsg::SetOk { .. }
            | RedisMsg::Acked { .. }
            | RedisMsg::FullSync { .. }
            | RedisMsg::GetAck
            | RedisMsg::Nil
            | RedisMsg::Extended { .. }
            | RedisMsg::Deleted { .. }
            | RedisMsg::ReadOnly
            | RedisMsg::Replicate { .. }
            | RedisMsg::ReplicateDel { .. }
            | RedisMsg::Counter { .. } => return,
        };
        cx.send(from, Msg::lock(reply));
    }
}

impl Actor for RedisNode {
    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &Msg) {
        self.expire_if_due(cx);
        let Msg::Lock { msg } = msg else { return };
        let Some(msg) = msg.get::<RedisMsg>() else { return };
        match self.role {
            Role::Replica => self.follow(cx, from, msg),
            Role::Primary => self.serve(cx, from, msg),
        }
    }

    fn on_timer(&mut self, cx: &mut Cx, timer: Timer) {
        match timer {
            Timer::Expiry(value) if self.key.is_some_and(|k| k.value == value) => self.expire_if_due(cx),
            Timer::Service(_) => self.replication.on_timer(cx, timer),
            Timer::Expiry(_) | Timer::Start | Timer::Step | Timer::Timeout | Timer::Renew | Timer::RenewTimeout | Timer::Client(_) => {}
        }
    }

    fn on_crash(&mut self, _cx: &mut Cx) {
        // Whatever was not yet streamed to the replicas is lost with the process.
        self.replication.crash();
    }

    fn on_promote(&mut self, cx: &mut Cx) {
        if self.role == Role::Replica {
            self.role = Role::Primary;
            self.replication = Replication::new(&self.replicas, self.applied);
            self.replication.resync(cx, self.key, self.counter, self.resync_delay_ms);
        }
    }

    fn on_restart(&mut self, cx: &mut Cx, keep_state: bool) {
        match self.key {
            Some(k) if keep_state => self.arm(cx, k),
            _ => {
                // Without persistence the key and the counter are gone.
                self.delete(cx, cx.me, LockEnd::LostOnRestart);
                self.counter = 0;
            }
        }
    }
}

/// A client's side of the Redis lock, failing over to the next node when one refuses or is silent.
struct RedisClient {
    nodes: Vec<NodeId>,
    /// The node it talks to now.
    node: usize,
    px_ms: u64,
    /// The random value of the current acquisition.
    value: u64,
    acquire_sent_at: i64,
    renew_sent_at: i64,
    /// Whether its token comes from an `INCR` of its own after the `SET`.
    incr_separate: bool,
    /// `WAIT` for this many replicas, with this timeout, before taking the lock as its own.
    wait: Option<(u64, u64)>,
    /// The acquisition's timeout, kept to stretch it over a `WAIT`.
    timeout_ms: u64,
    /// The token of a key set but not yet confirmed by `WAIT`.
    token: u64,
}

impl RedisClient {
    fn fail_over(&mut self) {
        self.node = (self.node + 1) % self.nodes.len();
    }

    fn send(&self, cx: &mut Cx, msg: RedisMsg) {
        cx.send(self.nodes[self.node], Msg::lock(msg));
    }

    /// The key is set with this token: the lock is the client's, or is once `WAIT` confirms it.
    fn set(&mut self, cx: &mut Cx, token: u64) -> Progress {
        match self.wait {
            Some((replicas, timeout_ms)) => {
                self.token = token;
                self.send(cx, RedisMsg::Wait { replicas, timeout_ms });
                cx.after(Timer::Timeout, timeout_ms + self.timeout_ms);
                Progress::Pending
            }
            None => self.granted(token),
        }
    }

    /// The client counts the PX from when it sent the SET: the safe side.
    fn granted(&self, token: u64) -> Progress {
        Progress::Granted { token, until_local: Some(self.acquire_sent_at + self.px_ms as i64) }
    }
}

impl LockClient for RedisClient {
    fn acquire(&mut self, cx: &mut Cx, timeout_ms: u64) {
        self.value = cx.rng.next_u64();
        self.acquire_sent_at = cx.now;
        self.timeout_ms = timeout_ms;
        self.send(cx, RedisMsg::Set { value: self.value, px_ms: self.px_ms });
        cx.after(Timer::Timeout, timeout_ms);
    }

    fn on_message(&mut self, cx: &mut Cx, _from: NodeId, msg: &LockMsg, view: ClientView) -> Progress {
        let Some(msg) = msg.get::<RedisMsg>() else { return Progress::Pending };
        match *msg {
            // The key is set; the token is a second round trip away.
            RedisMsg::SetOk { token: None } if self.incr_separate && view.acquiring => {
                self.send(cx, RedisMsg::Incr);
                Progress::Pending
            }
            RedisMsg::SetOk { token } => self.set(cx, token.unwrap_or(0)),
            RedisMsg::Counter { value } if view.acquiring => self.set(cx, value),
            // Fewer replicas than asked: the client does not take the lock, though its key stays.
            RedisMsg::Acked { replicas } if view.acquiring => match self.wait {
                Some((wanted, _)) if replicas < wanted => Progress::Refused,
                _ => self.granted(self.token),
            },
            RedisMsg::Nil => Progress::Refused,
            RedisMsg::ReadOnly if view.acquiring => {
                self.fail_over();
                Progress::Refused
            }
            RedisMsg::Extended { done: true } if view.held.is_some() => {
                Progress::Renewed { until_local: Some(self.renew_sent_at + self.px_ms as i64) }
            }
            RedisMsg::Extended { done: false } if view.held.is_some() => Progress::Lost,
            RedisMsg::Deleted { .. } => Progress::Released,
            RedisMsg::ReadOnly
            | RedisMsg::Acked { .. }
            | RedisMsg::GetAck
            | RedisMsg::Ack { .. }
            | RedisMsg::Wait { .. }
            | RedisMsg::FullSync { .. }
            | RedisMsg::Extended { .. }
            | RedisMsg::Set { .. }
            | RedisMsg::Extend { .. }
            | RedisMsg::Del { .. }
            | RedisMsg::Replicate { .. }
            | RedisMsg::ReplicateDel { .. }
            | RedisMsg::Incr
            | RedisMsg::Counter { .. } => Progress::Pending,
        }
    }

    fn on_timeout(&mut self, _cx: &mut Cx, _timeout_ms: u64) -> Progress {
        self.fail_over();
        Progress::Refused
    }

    fn renew(&mut self, cx: &mut Cx, _held: Option<u64>) {
        self.renew_sent_at = cx.now;
        self.send(cx, RedisMsg::Extend { value: self.value, px_ms: self.px_ms });
    }

    fn release(&mut self, cx: &mut Cx, held: Option<u64>, last: u64, mode: ReleaseMode) -> Release {
        let checked = mode != ReleaseMode::Unsafe;
        // A plain DEL goes out even from a client that no longer believes it holds anything.
        if held.is_none() && (checked || last == 0) {
            return Release::Nothing;
        }
        self.send(cx, RedisMsg::Del { value: self.value, checked });
        Release::AwaitReply
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::actor::testing::{call, sent};
    use crate::engine::actor::Command;

    fn reply(node: &mut RedisNode, now: i64, from: usize, msg: RedisMsg) -> Msg {
        sent(&call(node, now, from, Msg::lock(msg))).remove(0).1
    }

    fn primary(ttl_ms: u64, incr: bool) -> RedisNode {
        RedisNode::new(ttl_ms, if incr { Incr::WithSet } else { Incr::None }, Role::Primary, &[])
    }

    #[test]
    fn set_nx_refuses_while_the_key_lives_and_grants_after_expiry() {
        let mut r = primary(1000, false);
        assert_eq!(reply(&mut r, 0, 1, RedisMsg::Set { value: 7, px_ms: 1000 }), Msg::lock(RedisMsg::SetOk { token: None }));
        assert_eq!(reply(&mut r, 999, 2, RedisMsg::Set { value: 8, px_ms: 1000 }), Msg::lock(RedisMsg::Nil));
        // Expiry is judged on the node's own clock reading.
        assert_eq!(reply(&mut r, 1000, 2, RedisMsg::Set { value: 8, px_ms: 1000 }), Msg::lock(RedisMsg::SetOk { token: None }));
    }

    #[test]
    fn a_replica_takes_the_expiry_as_an_absolute_time_and_carries_the_counter_on_when_promoted() {
        let mut replica = RedisNode::new(1000, Incr::WithSet, Role::Replica, &[]);
        // The copy arrives 200 ms late: the key still ends when the primary's did (PXAT).
        call(&mut replica, 210, 0, Msg::lock(RedisMsg::Replicate { holder: NodeId(1), value: 7, token: 5, expires_at: 1_010, offset: 1 }));
        assert_eq!(replica.key.map(|k| k.expires_local), Some(1_010));
        replica.role = Role::Primary;
        // Promoted, it hands out the counter's next value, not 1.
        assert_eq!(reply(&mut replica, 1_020, 2, RedisMsg::Set { value: 8, px_ms: 1000 }), Msg::lock(RedisMsg::SetOk { token: Some(6) }));
    }

    #[test]
    fn compare_value_release_refuses_a_stranger_but_del_does_not() {
        let mut r = primary(1000, false);
        reply(&mut r, 0, 1, RedisMsg::Set { value: 7, px_ms: 1000 });
        assert_eq!(reply(&mut r, 10, 2, RedisMsg::Del { value: 99, checked: true }), Msg::lock(RedisMsg::Deleted { done: false }));
        assert!(r.key.is_some());
        let out = call(&mut r, 20, 2, Msg::lock(RedisMsg::Del { value: 99, checked: false }));
        assert_eq!(sent(&out)[0].1, Msg::lock(RedisMsg::Deleted { done: true }));
        let ended = EventKind::LockEnded { holder: NodeId(1), token: 0, how: LockEnd::DeletedByOther };
        assert!(out.contains(&Command::Note(ended)));
        assert!(r.key.is_none());
    }

    #[test]
    fn renewal_extends_only_a_matching_value() {
        let mut r = primary(1000, false);
        reply(&mut r, 0, 1, RedisMsg::Set { value: 7, px_ms: 1000 });
        assert_eq!(reply(&mut r, 500, 1, RedisMsg::Extend { value: 7, px_ms: 1000 }), Msg::lock(RedisMsg::Extended { done: true }));
        assert_eq!(r.key.unwrap().expires_local, 1500);
        assert_eq!(reply(&mut r, 600, 2, RedisMsg::Extend { value: 8, px_ms: 1000 }), Msg::lock(RedisMsg::Extended { done: false }));
    }

    #[test]
    fn incr_counter_gives_ordered_tokens() {
        let mut r = primary(100, true);
        assert_eq!(reply(&mut r, 0, 1, RedisMsg::Set { value: 1, px_ms: 100 }), Msg::lock(RedisMsg::SetOk { token: Some(1) }));
        assert_eq!(reply(&mut r, 200, 2, RedisMsg::Set { value: 2, px_ms: 100 }), Msg::lock(RedisMsg::SetOk { token: Some(2) }));
    }

    #[test]
    fn a_replica_refuses_clients_until_promoted() {
        let mut r = RedisNode::new(100, Incr::None, Role::Replica, &[]);
        assert_eq!(reply(&mut r, 0, 1, RedisMsg::Set { value: 1, px_ms: 100 }), Msg::lock(RedisMsg::ReadOnly));
        r.on_promote(&mut Cx { me: NodeId(0), now: 1, rng: &mut crate::engine::rng::Rng::new(0), out: &mut Vec::new() });
        assert_eq!(reply(&mut r, 2, 1, RedisMsg::Set { value: 1, px_ms: 100 }), Msg::lock(RedisMsg::SetOk { token: None }));
    }
}
