//! A client: runs its script (acquire, work, read, write, release) and tracks what it believes.
//!
//! Belief is the client's own view, "I hold token N until my local time T", where T is
//! measured from when it *sent* the request plus the TTL. A paused client keeps believing:
//! nothing inside a stopped process notices the time that passed.

use super::actor::{Actor, Cx, Timer};
use super::ids::NodeId;
use super::msg::{Msg, ReleaseMode};
use super::redlock;
use super::spec::{ClientSpec, LockDesign, RenewFailure, Step};
use super::trace::{BeliefEnd, EventKind};

/// How a client reaches the lock: which nodes, and with which algorithm.
#[derive(Clone, Debug)]
pub struct LockAccess {
    /// The lock-service nodes; single-node designs use the first.
    pub nodes: Vec<NodeId>,
    /// The expiry a client names in its requests, for designs where the client sets it.
    pub px_ms: Option<u64>,
    pub redlock: Option<RedlockPolicy>,
    /// Whether renewal keeps a session alive (etcd) rather than extending one lock.
    pub session: bool,
}

/// Redlock's parameters, as the client runs the algorithm.
#[derive(Clone, Copy, Debug)]
pub struct RedlockPolicy {
    pub ttl_ms: u64,
    pub retry_count: u32,
    pub retry_delay_ms: u64,
    pub instance_timeout_ms: u64,
}

impl LockAccess {
    /// Describes access to `nodes` under a design.
    pub fn new(design: &LockDesign, nodes: Vec<NodeId>) -> Self {
        let redlock = match *design {
            LockDesign::Redlock { ttl_ms, retry_count, retry_delay_ms, instance_timeout_ms } => {
                Some(RedlockPolicy { ttl_ms, retry_count, retry_delay_ms, instance_timeout_ms })
            }
            _ => None,
        };
        let session = matches!(design, LockDesign::Etcd { .. } | LockDesign::Zookeeper { .. } | LockDesign::Postgres { .. });
        LockAccess { nodes, px_ms: design.client_px_ms(), redlock, session }
    }
}

/// One Redlock attempt in progress: masters are tried in turn.
#[derive(Clone, Debug, Default)]
struct Attempt {
    next: usize,
    granted: usize,
    started_at: i64,
}

/// What the client is waiting for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wait {
    Nothing,
    StartTime,
    Acquire,
    RetryDelay,
    Work,
    Read,
    Write,
    Release,
    Finished,
}

#[derive(Clone, Copy, Debug)]
struct Holding {
    token: u64,
    value: u64,
    until_local: i64,
}

/// A client node.
pub struct Client {
    spec: ClientSpec,
    access: LockAccess,
    /// The node single-node designs talk to.
    lock: NodeId,
    attempt: Attempt,
    resource: NodeId,
    pc: usize,
    wait: Wait,
    attempts: u32,
    /// The random value of the current acquisition.
    value: u64,
    acquire_sent_at: i64,
    renew_sent_at: i64,
    holding: Option<Holding>,
    /// The last token this client held, carried on writes after it stops believing.
    last_token: u64,
    /// Whether it waits in a queue (etcd), keeping its session alive meanwhile.
    queued: bool,
    read_version: Option<u64>,
}

impl Client {
    /// Builds a client that talks to one lock service and one resource. A lock-free client has
    /// no lock steps (validation sees to it), so its lock node is never used.
    pub fn new(spec: ClientSpec, access: LockAccess, resource: NodeId) -> Self {
        Client {
            spec,
            lock: access.nodes.first().copied().unwrap_or(resource),
            access,
            attempt: Attempt::default(),
            resource,
            pc: 0,
            wait: Wait::Nothing,
            attempts: 0,
            value: 0,
            acquire_sent_at: 0,
            renew_sent_at: 0,
            holding: None,
            last_token: 0,
            queued: false,
            read_version: None,
        }
    }

    fn reset(&mut self) {
        *self = Client::new(self.spec.clone(), self.access.clone(), self.resource);
    }

    /// Runs steps until one has to wait.
    fn run(&mut self, cx: &mut Cx) {
        while let Some(step) = self.spec.script.get(self.pc).cloned() {
            match step {
                Step::Acquire => {
                    self.attempts = 1;
                    return self.send_acquire(cx);
                }
                Step::Work { ms } => {
                    self.wait = Wait::Work;
                    return cx.after(Timer::Step, ms);
                }
                Step::Read => {
                    cx.send(self.resource, Msg::Read);
                    return self.await_reply(cx, Wait::Read);
                }
                Step::Write { value } => {
                    let token = self.holding.map_or(self.last_token, |h| h.token);
                    cx.send(self.resource, Msg::Write { token, value, expected_version: self.read_version });
                    return self.await_reply(cx, Wait::Write);
                }
                Step::Release { mode } if self.access.redlock.is_some() => {
                    // Redlock releases every master and does not wait for the answers.
                    if let Some(h) = self.holding.take() {
                        cx.note(EventKind::BeliefEnd { token: h.token, why: BeliefEnd::Released });
                    }
                    self.release_all(cx, mode);
                    self.pc += 1;
                }
                Step::Release { mode } => {
                    if let Some(h) = self.holding.take() {
                        cx.send(self.lock, Msg::Release { token: h.token, value: h.value, mode });
                        cx.note(EventKind::BeliefEnd { token: h.token, why: BeliefEnd::Released });
                        cx.cancel(Timer::Renew);
                        cx.cancel(Timer::RenewTimeout);
                        return self.await_reply(cx, Wait::Release);
                    }
                    if mode == ReleaseMode::Unsafe && self.last_token > 0 {
                        // An unchecked DEL goes out even from a client that no longer holds anything.
                        cx.send(self.lock, Msg::Release { token: self.last_token, value: self.value, mode });
                        return self.await_reply(cx, Wait::Release);
                    }
                    self.pc += 1;
                }
            }
        }
        self.finish(cx);
    }

    fn finish(&mut self, cx: &mut Cx) {
        if self.wait != Wait::Finished {
            self.wait = Wait::Finished;
            self.pc = self.spec.script.len();
            cx.note(EventKind::Done);
        }
    }

    fn await_reply(&mut self, cx: &mut Cx, wait: Wait) {
        self.wait = wait;
        cx.after(Timer::Timeout, self.spec.acquire.timeout_ms);
    }

    fn advance(&mut self, cx: &mut Cx) {
        cx.cancel(Timer::Timeout);
        self.pc += 1;
        self.wait = Wait::Nothing;
        self.run(cx);
    }

    fn send_acquire(&mut self, cx: &mut Cx) {
        // Session-based designs identify the owner by its session, not by a random value.
        self.value = if self.access.session { 0 } else { cx.rng.next_u64() };
        self.acquire_sent_at = cx.now;
        self.attempt = Attempt { next: 0, granted: 0, started_at: cx.now };
        self.ask_next(cx);
    }

    /// Sends the acquire request to the next node: the only one, or the next Redlock master.
    fn ask_next(&mut self, cx: &mut Cx) {
        let node = if self.access.redlock.is_some() { self.access.nodes[self.attempt.next] } else { self.lock };
        cx.send(node, Msg::Acquire { value: self.value, px_ms: self.access.px_ms });
        self.wait = Wait::Acquire;
        let timeout = self.access.redlock.map_or(self.spec.acquire.timeout_ms, |r| r.instance_timeout_ms);
        cx.after(Timer::Timeout, timeout);
    }

    /// Records one master's answer (or its silence) and moves on; after the last, decides.
    fn redlock_step(&mut self, cx: &mut Cx, r: RedlockPolicy, granted: bool) {
        cx.cancel(Timer::Timeout);
        self.attempt.granted += usize::from(granted);
        self.attempt.next += 1;
        if self.attempt.next < self.access.nodes.len() {
            return self.ask_next(cx);
        }
        let elapsed = cx.now - self.attempt.started_at;
        let validity = redlock::validity_ms(r.ttl_ms, elapsed);
        if self.attempt.granted >= redlock::quorum(self.access.nodes.len()) && validity > 0 {
            // The lock is good for the validity left, counted from when the attempt began.
            return self.on_granted(cx, 0, (elapsed + validity) as u64);
        }
        // Failed: unlock every master, then retry after a random delay.
        self.release_all(cx, ReleaseMode::Safe);
        if self.attempts >= r.retry_count {
            cx.note(EventKind::GaveUp { attempts: self.attempts });
            return self.finish(cx);
        }
        self.attempts += 1;
        self.wait = Wait::RetryDelay;
        let delay = cx.rng.range_inclusive(0, r.retry_delay_ms);
        cx.after(Timer::Step, delay);
    }

    fn release_all(&mut self, cx: &mut Cx, mode: ReleaseMode) {
        for &node in &self.access.nodes {
            cx.send(node, Msg::Release { token: 0, value: self.value, mode });
        }
    }

    /// Moves on to the next lock-service node (a client library failing over to a replica).
    fn fail_over(&mut self) {
        if let Some(i) = self.access.nodes.iter().position(|&n| n == self.lock) {
            self.lock = self.access.nodes[(i + 1) % self.access.nodes.len()];
        }
    }

    fn retry_or_give_up(&mut self, cx: &mut Cx) {
        cx.cancel(Timer::Timeout);
        if self.attempts >= self.spec.acquire.max_attempts {
            cx.note(EventKind::GaveUp { attempts: self.attempts });
            return self.finish(cx);
        }
        self.attempts += 1;
        let jitter = cx.rng.range_inclusive(0, self.spec.acquire.jitter_ms);
        self.wait = Wait::RetryDelay;
        cx.after(Timer::Step, self.spec.acquire.retry_ms + jitter);
    }

    fn on_granted(&mut self, cx: &mut Cx, token: u64, ttl_ms: u64) {
        // A queued client's session was last extended by its latest keep-alive.
        let since = if self.queued { self.acquire_sent_at.max(self.renew_sent_at) } else { self.acquire_sent_at };
        self.queued = false;
        // A lock granted without a TTL does not expire on its own.
        let until_local = if ttl_ms == 0 { i64::MAX } else { since + ttl_ms as i64 };
        // A stacked request (PostgreSQL) only extends what the client already believes.
        let stacked = self.holding.is_some_and(|h| h.token == token);
        self.holding = Some(Holding { token, value: self.value, until_local });
        self.last_token = token;
        self.read_version = None;
        if stacked {
            cx.note(EventKind::BeliefExtended { token, until_local });
        } else {
            cx.note(EventKind::BeliefStart { token, until_local });
            if let Some(renew) = self.spec.renew {
                cx.after(Timer::Renew, renew.every_ms);
            }
        }
        self.advance(cx);
    }

    fn renew(&mut self, cx: &mut Cx) {
        let token = match (self.holding, self.queued) {
            (Some(h), _) => h.token,
            (None, true) => 0,
            (None, false) => return,
        };
        self.renew_sent_at = cx.now;
        let msg = if self.access.session { Msg::KeepAlive } else { Msg::Renew { token, value: self.value } };
        cx.send(self.lock, msg);
        cx.after(Timer::RenewTimeout, self.spec.acquire.timeout_ms);
    }

    fn on_renewed(&mut self, cx: &mut Cx, token: u64, ttl_ms: u64) {
        if self.queued && self.holding.is_none() {
            cx.cancel(Timer::RenewTimeout);
            if let Some(renew) = self.spec.renew {
                cx.after(Timer::Renew, renew.every_ms);
            }
            return;
        }
        let Some(h) = self.holding.as_mut().filter(|h| h.token == token) else { return };
        h.until_local = if ttl_ms == 0 { i64::MAX } else { self.renew_sent_at + ttl_ms as i64 };
        cx.cancel(Timer::RenewTimeout);
        cx.note(EventKind::BeliefExtended { token, until_local: h.until_local });
        if let Some(renew) = self.spec.renew {
            cx.after(Timer::Renew, renew.every_ms);
        }
    }

    fn renewal_failed(&mut self, cx: &mut Cx) {
        let (Some(h), Some(renew)) = (self.holding, self.spec.renew) else { return };
        cx.cancel(Timer::RenewTimeout);
        let abort = renew.on_failure == RenewFailure::Abort;
        cx.note(EventKind::RenewalFailed { token: h.token, abort });
        if abort {
            self.holding = None;
            cx.note(EventKind::BeliefEnd { token: h.token, why: BeliefEnd::RenewalFailed });
            for t in [Timer::Step, Timer::Timeout, Timer::Renew] {
                cx.cancel(t);
            }
            self.finish(cx);
        } else {
            cx.after(Timer::Renew, renew.every_ms);
        }
    }
}

impl Actor for Client {
    fn on_start(&mut self, cx: &mut Cx) {
        self.wait = Wait::StartTime;
        cx.at(Timer::Start, self.spec.start_ms as i64);
    }

    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &Msg) {
        if let (Some(r), Wait::Acquire) = (self.access.redlock, self.wait) {
            if from == self.access.nodes[self.attempt.next] {
                match msg {
                    Msg::Granted { .. } => self.redlock_step(cx, r, true),
                    Msg::Busy => self.redlock_step(cx, r, false),
                    _ => {}
                }
            }
            return;
        }
        match (self.wait, msg) {
            (Wait::Acquire, Msg::Granted { token, ttl_ms }) => self.on_granted(cx, *token, *ttl_ms),
            (Wait::Acquire, Msg::Busy) => self.retry_or_give_up(cx),
            // Queued behind another contender: keep the session alive and wait, however long, for
            // the lock to be handed on.
            // A watch fired: list the children again.
            (Wait::Acquire, Msg::WatchFired { .. }) => cx.send(self.lock, Msg::Relist),
            (Wait::Acquire, Msg::Queued { .. } | Msg::Waiting { .. } | Msg::Blocked) => {
                cx.cancel(Timer::Timeout);
                self.queued = true;
                if let Some(renew) = self.spec.renew {
                    cx.after(Timer::Renew, renew.every_ms);
                }
            }
            (Wait::Acquire, Msg::ReadOnly) => {
                self.fail_over();
                self.retry_or_give_up(cx)
            }
            (Wait::Read, Msg::ReadResult { version }) => {
                self.read_version = Some(*version);
                self.advance(cx);
            }
            (Wait::Write, Msg::WriteAccepted { .. } | Msg::WriteRejected { .. })
            | (Wait::Release, Msg::ReleaseResult { .. }) => self.advance(cx),
            (_, Msg::Renewed { ttl_ms, .. }) if self.access.session => {
                let token = self.holding.map_or(0, |h| h.token);
                self.on_renewed(cx, token, *ttl_ms)
            }
            (_, Msg::Renewed { token, ttl_ms }) => self.on_renewed(cx, *token, *ttl_ms),
            (_, Msg::SessionExpired) if self.holding.is_some() => self.renewal_failed(cx),
            (_, Msg::RenewRefused { token }) if self.holding.is_some_and(|h| h.token == *token) => {
                self.renewal_failed(cx)
            }
            // A late reply to a request already given up on.
            _ => {}
        }
    }

    fn on_timer(&mut self, cx: &mut Cx, timer: Timer) {
        match (timer, self.wait) {
            (Timer::Start, Wait::StartTime) => self.run(cx),
            (Timer::Step, Wait::Work) => self.advance(cx),
            (Timer::Step, Wait::RetryDelay) => self.send_acquire(cx),
            (Timer::Timeout, Wait::Acquire) => match self.access.redlock {
                Some(r) => self.redlock_step(cx, r, false),
                None => {
                    self.fail_over();
                    self.retry_or_give_up(cx)
                }
            },
            (Timer::Timeout, Wait::Read | Wait::Write | Wait::Release) => self.advance(cx),
            (Timer::Renew, _) => self.renew(cx),
            (Timer::RenewTimeout, _) => self.renewal_failed(cx),
            _ => {}
        }
    }

    fn on_crash(&mut self, cx: &mut Cx) {
        if let Some(h) = self.holding {
            cx.note(EventKind::BeliefEnd { token: h.token, why: BeliefEnd::Crashed });
        }
    }

    fn on_restart(&mut self, cx: &mut Cx, _keep_state: bool) {
        self.reset();
        self.on_start(cx);
    }
}
