//! A client: runs its script (acquire, work, read, write, compensate, release), keeps up
//! renewals, and tracks what it believes. Every lock decision belongs to the design's
//! [`LockClient`]. A script with compensations is a saga: once a write is refused (or goes
//! unanswered), its later writes are skipped and each compensation undoes its own earlier write
//! if that was accepted (or may have been); while none fails, compensations are skipped.
//!
//! Belief is the client's own view, "I hold token N until my local time T". A paused client
//! keeps believing: nothing inside a stopped process notices the time that passed.

use super::actor::{Actor, Cx, Timer};
use super::copy::field_clone;
use super::event::{BeliefEnd, EventKind};
use super::ids::NodeId;
use super::msg::{Msg, WriteValue};
use super::protocol::{ClientView, LockClient, Progress, Release};
use super::spec::{ClientSpec, RenewFailure, RenewPolicy, Step};
use super::time::{LocalMillis, Millis};
use std::rc::Rc;

/// What the client is waiting for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

#[derive(Clone, Copy, Debug, Hash)]
struct Holding {
    token: u64,
    until_local: Option<LocalMillis>,
}

/// Builds a fresh client side of the lock protocol (a restarted client starts over).
pub type ProtocolFactory = Rc<dyn Fn() -> Option<Box<dyn LockClient>>>;

/// A client node.
pub struct Client {
    spec: ClientSpec,
    new_protocol: ProtocolFactory,
    /// The design's side of the lock protocol; `None` without a lock.
    protocol: Option<Box<dyn LockClient>>,
    renew: Option<RenewPolicy>,
    /// Where reads and writes go: the resource, or the lock service that keeps the data.
    data: NodeId,
    /// The resources by id, for writes that name theirs.
    resources: Rc<[(String, NodeId)]>,
    /// Whether a write of this run of the script has been refused.
    refused: bool,
    /// The writes of this run of the script that were accepted: where, and what.
    done: Vec<(NodeId, WriteValue)>,
    pc: usize,
    wait: Wait,
    attempts: u32,
    holding: Option<Holding>,
    /// The last token this client held, carried on writes after it stops believing.
    last_token: u64,
    /// Whether it waits in a queue, keeping its session alive meanwhile.
    queued: bool,
    /// Whether, its work stopped on a failed renewal, its session still tries to reconnect.
    reconnecting: bool,
    read_version: Option<u64>,
}

field_clone!(Client {
    spec,
    new_protocol,
    protocol,
    renew,
    data,
    resources,
    refused,
    done,
    pc,
    wait,
    attempts,
    holding,
    last_token,
    queued,
    reconnecting,
    read_version,
});

/// Its state, not its settings, which every state of a run shares.
impl std::hash::Hash for Client {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        let Client { protocol, refused, done, pc, wait, attempts, holding, last_token, queued, reconnecting, read_version, .. } = self;
        (protocol, refused, done, pc, wait, attempts, holding, last_token, queued, reconnecting, read_version).hash(h);
    }
}

impl Client {
    /// Builds a client whose reads and writes go to `data`, or to the one of `resources` they name.
    pub fn new(spec: ClientSpec, new_protocol: ProtocolFactory, data: NodeId, resources: Rc<[(String, NodeId)]>) -> Self {
        let protocol = new_protocol();
        let renew = protocol.as_ref().and_then(|p| p.renewal(spec.renew));
        Client {
            spec,
            new_protocol,
            protocol,
            renew,
            data,
            resources,
            refused: false,
            done: Vec::new(),
            pc: 0,
            wait: Wait::Nothing,
            attempts: 0,
            holding: None,
            last_token: 0,
            queued: false,
            reconnecting: false,
            read_version: None,
        }
    }

    fn reset(&mut self) {
        self.protocol = (self.new_protocol)();
        self.pc = 0;
        self.wait = Wait::Nothing;
        self.attempts = 0;
        self.holding = None;
        self.last_token = 0;
        self.queued = false;
        self.reconnecting = false;
        self.read_version = None;
        self.refused = false;
        self.done.clear();
    }

    /// Whether the script is a saga: it has compensations.
    fn saga(&self) -> bool {
        self.spec.script.iter().any(|s| matches!(s, Step::Compensate { .. }))
    }

    /// Where a write naming `to` goes (validation has checked the name).
    fn target(&self, to: Option<&String>) -> NodeId {
        to.and_then(|to| self.resources.iter().find(|(id, _)| id == to)).map_or(self.data, |(_, n)| *n)
    }

    fn view(&self) -> ClientView {
        ClientView { acquiring: self.wait == Wait::Acquire, held: self.holding.map(|h| h.token), queued: self.queued }
    }

    /// Runs steps until one has to wait.
    fn run(&mut self, cx: &mut Cx) {
        let script = self.spec.script.clone();
        while let Some(step) = script.get(self.pc) {
            match step {
                Step::Acquire => {
                    self.attempts = 1;
                    return self.send_acquire(cx);
                }
                Step::Work { ms } => {
                    self.wait = Wait::Work;
                    return cx.after(Timer::Step, Millis::from_ms(*ms));
                }
                Step::Read => {
                    cx.send(self.data, Msg::Read);
                    return self.await_reply(cx, Wait::Read);
                }
                Step::Write { .. } if self.refused && self.saga() => self.pc += 1,
                Step::Write { value, to } => {
                    let token = self.holding.map_or(self.last_token, |h| h.token);
                    cx.send(self.target(to.as_ref()), Msg::Write { token, value: value.clone(), expected_version: self.read_version });
                    return self.await_reply(cx, Wait::Write);
                }
                Step::Compensate { value, to } => {
                    let done = (self.target(to.as_ref()), value.clone());
                    if !self.refused || !self.done.contains(&done) {
                        self.pc += 1;
                        continue;
                    }
                    cx.send(done.0, Msg::Undo { value: done.1 });
                    return self.await_reply(cx, Wait::Write);
                }
                Step::Check { margin_ms } => {
                    // A lock with no end the client can foresee passes; no lock at all does not.
                    let margin_ms = Millis::from_ms(*margin_ms);
                    let until_local = self.holding.and_then(|h| h.until_local);
                    let left_ms = until_local.map(|t| t - cx.now);
                    let enough = self.holding.is_some() && until_local.is_none_or(|t| t >= cx.now + margin_ms);
                    cx.note(EventKind::LockChecked { token: self.holding.map(|h| h.token), left_ms, margin_ms, ok: enough });
                    if !enough {
                        if let Some(h) = self.holding.take() {
                            cx.note(EventKind::BeliefEnd { token: h.token, why: BeliefEnd::CheckFailed });
                            cx.cancel(Timer::Renew);
                            cx.cancel(Timer::RenewTimeout);
                        }
                        return self.finish(cx);
                    }
                    self.pc += 1;
                }
                Step::Release { mode } => {
                    let held = self.holding.take();
                    let how = match self.protocol.as_mut() {
                        Some(p) => p.release(cx, held.map(|h| h.token), self.last_token, *mode),
                        None => Release::Nothing,
                    };
                    if let Some(h) = held {
                        cx.note(EventKind::BeliefEnd { token: h.token, why: BeliefEnd::Released });
                        cx.cancel(Timer::Renew);
                        cx.cancel(Timer::RenewTimeout);
                    }
                    match how {
                        Release::AwaitReply => return self.await_reply(cx, Wait::Release),
                        Release::Sent | Release::Nothing => self.pc += 1,
                    }
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
        cx.after(Timer::Timeout, self.spec.acquire.timeout());
    }

    fn advance(&mut self, cx: &mut Cx) {
        cx.cancel(Timer::Timeout);
        self.pc += 1;
        self.wait = Wait::Nothing;
        self.run(cx);
    }

    fn send_acquire(&mut self, cx: &mut Cx) {
        self.wait = Wait::Acquire;
        match self.protocol.as_mut() {
            Some(p) => p.acquire(cx, self.spec.acquire.timeout()),
            // Validation keeps lock steps out of lock-free scripts; skip one all the same.
            None => self.advance(cx),
        }
    }

    fn retry_or_give_up(&mut self, cx: &mut Cx) {
        cx.cancel(Timer::Timeout);
        let delay = self.protocol.as_mut().and_then(|p| p.retry(cx, self.attempts, &self.spec.acquire));
        let Some(delay) = delay else {
            cx.note(EventKind::GaveUp { attempts: self.attempts });
            return self.finish(cx);
        };
        self.attempts += 1;
        self.wait = Wait::RetryDelay;
        cx.after(Timer::Step, delay);
    }

    /// Acts on what the protocol made of a message or a timer.
    fn apply(&mut self, cx: &mut Cx, outcome: Progress) {
        let acquiring = self.wait == Wait::Acquire;
        match outcome {
            Progress::Granted { token, until_local } if acquiring => self.on_granted(cx, token, until_local),
            Progress::Refused if acquiring => self.retry_or_give_up(cx),
            // Queued behind another contender: keep the session alive and wait, however long.
            Progress::Queued if acquiring => {
                cx.cancel(Timer::Timeout);
                self.queued = true;
                let renews = self.protocol.as_ref().is_some_and(|p| p.renews_while_queued());
                if let (Some(renew), true) = (self.renew, renews) {
                    cx.after(Timer::Renew, renew.every());
                }
            }
            Progress::Released if self.wait == Wait::Release => self.advance(cx),
            // A reconnecting session hears it is gone: nothing is left to keep alive.
            Progress::Released if self.reconnecting => self.renewal_failed(cx, false),
            Progress::Renewed { until_local } => self.on_renewed(cx, until_local),
            Progress::RenewRetry => {
                cx.cancel(Timer::RenewTimeout);
                if let Some(renew) = self.renew {
                    cx.after(Timer::Renew, renew.every());
                }
            }
            Progress::RenewFailed => self.renewal_failed(cx, true),
            Progress::Lost => self.renewal_failed(cx, false),
            // A late answer to something already given up on.
            Progress::Pending | Progress::Granted { .. } | Progress::Refused | Progress::Queued | Progress::Released => {}
        }
    }

    fn on_granted(&mut self, cx: &mut Cx, token: u64, until_local: Option<LocalMillis>) {
        self.queued = false;
        // A stacked request (PostgreSQL) only extends what the client already believes.
        let stacked = self.holding.is_some_and(|h| h.token == token);
        self.holding = Some(Holding { token, until_local });
        self.last_token = token;
        self.read_version = None;
        if stacked {
            cx.note(EventKind::BeliefExtended { token, until_local });
        } else {
            cx.note(EventKind::BeliefStart { token, until_local });
            if let Some(renew) = self.renew {
                cx.after(Timer::Renew, renew.every());
            }
        }
        self.advance(cx);
    }

    fn renew(&mut self, cx: &mut Cx) {
        let held = self.holding.map(|h| h.token);
        if held.is_none() && !self.queued && !self.reconnecting {
            return;
        }
        if let Some(p) = self.protocol.as_mut() {
            p.renew(cx, held);
        }
        cx.after(Timer::RenewTimeout, self.spec.acquire.timeout());
    }

    fn on_renewed(&mut self, cx: &mut Cx, until_local: Option<LocalMillis>) {
        if (self.queued || self.reconnecting) && self.holding.is_none() {
            cx.cancel(Timer::RenewTimeout);
            if let Some(renew) = self.renew {
                cx.after(Timer::Renew, renew.every());
            }
            return;
        }
        let Some(h) = self.holding.as_mut() else { return };
        h.until_local = until_local;
        let token = h.token;
        cx.cancel(Timer::RenewTimeout);
        cx.note(EventKind::BeliefExtended { token, until_local });
        if let Some(renew) = self.renew {
            cx.after(Timer::Renew, renew.every());
        }
    }

    /// Acts on a failed renewal by the client's policy; `retry` keeps renewing a client that
    /// carries on (a renewal that went unanswered may yet succeed; a lost session never will).
    fn renewal_failed(&mut self, cx: &mut Cx, retry: bool) {
        let Some(renew) = self.renew else { return };
        let Some(h) = self.holding else {
            // Only a reconnecting session is left: it keeps trying until it learns the session is lost.
            if self.reconnecting {
                cx.cancel(Timer::RenewTimeout);
                self.reconnecting = retry;
                if retry {
                    cx.after(Timer::Renew, renew.every());
                }
            }
            return;
        };
        cx.cancel(Timer::RenewTimeout);
        let abort = renew.on_failure == RenewFailure::Abort;
        cx.note(EventKind::RenewalFailed { token: h.token, abort });
        if abort {
            self.holding = None;
            cx.note(EventKind::BeliefEnd { token: h.token, why: BeliefEnd::RenewalFailed });
            for t in [Timer::Step, Timer::Timeout, Timer::Renew] {
                cx.cancel(t);
            }
            self.reconnecting = self.protocol.as_ref().is_some_and(|p| p.session_outlives_work());
            if self.reconnecting {
                cx.after(Timer::Renew, renew.every());
            }
            self.finish(cx);
        } else if retry {
            cx.after(Timer::Renew, renew.every());
        }
    }
}

impl Actor for Client {
    fn on_start(&mut self, cx: &mut Cx) {
        self.wait = Wait::StartTime;
        cx.at(Timer::Start, self.spec.start_ms);
    }

    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &Msg) {
        match (self.wait, msg) {
            (_, Msg::Lock { msg }) => {
                let view = self.view();
                let outcome = match self.protocol.as_mut() {
                    Some(p) => p.on_message(cx, from, msg, view),
                    None => Progress::Pending,
                };
                self.apply(cx, outcome);
            }
            (Wait::Read, Msg::ReadResult { version }) => {
                self.read_version = Some(*version);
                self.advance(cx);
            }
            (Wait::Write, Msg::WriteRejected { .. }) => {
                self.refused |= matches!(self.spec.script.get(self.pc), Some(Step::Write { .. }));
                self.advance(cx)
            }
            (Wait::Write, Msg::WriteAccepted { .. }) => {
                if let Some(Step::Write { value, to }) = self.spec.script.get(self.pc) {
                    self.done.push((self.target(to.as_ref()), value.clone()));
                }
                self.advance(cx)
            }
            // A late reply to a request already given up on, or a request a client never serves.
            (
                _,
                Msg::Read
                | Msg::ReadResult { .. }
                | Msg::Write { .. }
                | Msg::Undo { .. }
                | Msg::WriteAccepted { .. }
                | Msg::WriteRejected { .. },
            ) => {}
        }
    }

    fn on_timer(&mut self, cx: &mut Cx, timer: Timer) {
        match (timer, self.wait) {
            (Timer::Start, Wait::StartTime) => self.run(cx),
            (Timer::Step, Wait::Work) => self.advance(cx),
            (Timer::Step, Wait::RetryDelay) => self.send_acquire(cx),
            (Timer::Timeout, Wait::Acquire) => {
                cx.hang_up(None);
                let timeout_ms = self.spec.acquire.timeout();
                let outcome = self.protocol.as_mut().map_or(Progress::Refused, |p| p.on_timeout(cx, timeout_ms));
                self.apply(cx, outcome);
            }
            // A write that went unanswered may or may not have happened: a saga counts it as
            // failed, and compensates it too (an undo of a write that never landed changes nothing).
            (Timer::Timeout, Wait::Write) => {
                if let Some(Step::Write { value, to }) = self.spec.script.get(self.pc) {
                    let target = self.target(to.as_ref());
                    cx.hang_up(Some(target));
                    self.refused = true;
                    self.done.push((target, value.clone()));
                }
                self.advance(cx)
            }
            (Timer::Timeout, Wait::Read) => {
                cx.hang_up(Some(self.data));
                self.advance(cx)
            }
            (Timer::Timeout, Wait::Release) => {
                cx.hang_up(None);
                self.advance(cx)
            }
            (Timer::Renew, _) => self.renew(cx),
            (Timer::RenewTimeout, _) => {
                cx.hang_up(None);
                let outcome = self.protocol.as_mut().map_or(Progress::RenewFailed, |p| p.on_renew_timeout(cx));
                self.apply(cx, outcome);
            }
            (Timer::Client(id), _) => {
                let outcome = self.protocol.as_mut().map_or(Progress::Pending, |p| p.on_timer(cx, id));
                self.apply(cx, outcome);
            }
            // Timers that fire in a state where they mean nothing any more.
            (Timer::Start | Timer::Step | Timer::Timeout | Timer::Expiry(_) | Timer::Service(_), _) => {}
        }
    }

    fn on_closed(&mut self, cx: &mut Cx, peer: NodeId) {
        let view = self.view();
        let outcome = self.protocol.as_mut().map_or(Progress::Pending, |p| p.on_connection_lost(cx, peer, view));
        self.apply(cx, outcome);
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
