//! The lease lock: one holder at a time, a TTL measured on the service's clock, and a generation
//! number that increases with every grant and serves as the fencing token.

use super::param::settings;
use super::{Design, Factory, Guarantees, Kind, LockKind, Row, Rows, Services, Settings, Summary, Values};
use crate::engine::actor::{Actor, Cx, Timer};
use crate::engine::clock::TimerClock;
use crate::engine::event::{EventKind, LockEnd};
use crate::engine::ids::NodeId;
use crate::engine::msg::{DesignMsg, LockMsg, Msg, MsgKind, ReleaseMode};
use crate::engine::protocol::{ClientView, LockClient, Progress, Protocol, Release};
use crate::engine::spec::ResourceMode;
use crate::engine::time::{LocalMillis, Millis};
use crate::error::ScenarioError;
use crate::limits::MAX_SETTING_MS;
use crate::present::number::{ms, reading};
use crate::present::{Names, Vocabulary};
use serde::Serialize;
use std::rc::Rc;

/// The registry entry.
pub struct Lease;

settings! {
    /// How the lease lock is set up.
    pub struct LeaseSettings {
        required {
            /// How long a grant lasts on the lock service's clock unless renewed.
            ttl_ms: u64 = number("ms", 1..=MAX_SETTING_MS),
            /// The generation of the first grant; each later grant gets the next one.
            first_token: u64 = number("", 1..=u32::MAX as u64),
        }
    }
}

/// The design as the registry lists it.
static SUMMARY: Summary = Summary::of::<LeaseSettings>(
    "lease",
    "Lease with a generation token",
    "A lock service grants one lease at a time for a TTL on its own clock; every grant carries the next generation, a fencing token.",
);

impl Factory for LeaseSettings {
    fn build(&self) -> Result<Rc<dyn Design>, ScenarioError> {
        Ok(Rc::new(LeaseDesign { values: self.to_values(), ttl_ms: Millis::from_ms(self.ttl_ms), first_token: self.first_token }))
    }
}

impl Kind for Lease {
    fn summary(&self) -> &'static Summary {
        &SUMMARY
    }

    fn rows(&self, ttl_ms: u64) -> Vec<Row> {
        let design = LeaseSettings::new(ttl_ms, 33).configure();
        let rows = Rows { design, services: 1, service_name: "Lock service" };
        vec![
            rows.row("lease", "Lease, resource checks nothing", "lease generation, unchecked", Some(ResourceMode::Unfenced)),
            rows.row("lease-fenced", "Lease + fencing token", "lease generation", Some(ResourceMode::Fenced)),
        ]
    }
}

/// The lease design, configured.
#[derive(Debug)]
pub struct LeaseDesign {
    values: Values,
    ttl_ms: Millis,
    first_token: u64,
}

impl Protocol for LeaseDesign {
    fn service(&self, _index: usize, _nodes: &[NodeId]) -> Option<Box<dyn Actor>> {
        Some(Box::new(LeaseService::new(self.ttl_ms, self.first_token)))
    }

    fn client(&self, nodes: &[NodeId]) -> Option<Box<dyn LockClient>> {
        Some(Box::new(LeaseClient::new(nodes[0])))
    }

    /// The seed's lease service expires a lease by its wall clock, as Redis does (the clock-jump lesson).
    fn service_clock(&self) -> TimerClock {
        TimerClock::Wall
    }

    fn connections(&self) -> &'static str {
        "a client closes a connection whose reply is overdue past its request timeout, and what it sent still reaches the service when the network lets it; a lease lives until it expires, whatever becomes of the connection"
    }
}

impl Design for LeaseDesign {
    fn kind(&self) -> &'static dyn Kind {
        &Lease
    }

    fn values(&self) -> &Values {
        &self.values
    }

    fn guarantees(&self) -> Guarantees {
        let ttl = ms(self.ttl_ms);
        Guarantees {
            lock: LockKind::Correctness,
            safety: format!(
                "At most one client holds the lease at a time, as long as no pause, delay or clock error outlasts the {ttl} TTL. A resource that checks the generation token keeps the data safe even when that fails: it never accepts a token lower than one it has accepted."
            ),
            liveness: format!("If a holder dies, the lease runs out after {ttl} and the next client can take the lock."),
            assumes: "The lock service's generation only ever increases, and the resource checks the token on every write.".into(),
        }
    }

    fn services(&self) -> Services {
        Services { count: 1..=1, what: "one lock service" }
    }

    fn release_modes(&self) -> &'static [ReleaseMode] {
        &[ReleaseMode::Safe, ReleaseMode::Unsafe]
    }
}

impl Vocabulary for LeaseDesign {
    fn token(&self, token: u64) -> Option<String> {
        Some(format!("token {token}"))
    }

    fn lock(&self, token: u64) -> String {
        format!("lease {token}")
    }

    fn granted(&self, me: &str, holder: &str, token: u64, expires_local: Option<LocalMillis>) -> String {
        let end = expires_local
            .map_or_else(|| "it does not expire on its own".into(), |t| format!("the lease ends when {me}'s clock reads {}", reading(t)));
        format!("{me} grants the lock to {holder} with fencing token {token}; {end}.")
    }

    fn label(&self, msg: &LockMsg, _names: Names) -> String {
        msg.get::<LeaseMsg>().map_or_else(String::new, LeaseMsg::label)
    }

    fn sending(&self, msg: &LockMsg, me: &str, to: &str, _names: Names) -> String {
        let Some(msg) = msg.get::<LeaseMsg>() else { return String::new() };
        match *msg {
            LeaseMsg::Acquire => format!("{me} asks {to} for the lock."),
            LeaseMsg::Granted { token, ttl_ms } => format!("{me} tells {to}: the lock is yours, token {token}, for {}.", ms(ttl_ms)),
            LeaseMsg::Busy => format!("{me} tells {to} the lock is taken."),
            LeaseMsg::Renew { token } => format!("{me} asks {to} to extend lease {token}."),
            LeaseMsg::Renewed { token, ttl_ms } => format!("{me} tells {to}: lease {token} now runs another {}.", ms(ttl_ms)),
            LeaseMsg::RenewRefused { token } => format!("{me} refuses to extend lease {token} for {to}: it is no longer {to}'s."),
            LeaseMsg::Release { token, checked: true } => {
                format!("{me} asks {to} to release the lock, but only if token {token} is still the holder.")
            }
            LeaseMsg::Release { checked: false, .. } => format!("{me} deletes the lock on {to} without checking whose it is."),
            LeaseMsg::Released { released: true } => format!("{me} tells {to}: released, the lock is free."),
            LeaseMsg::Released { released: false } => format!("{me} tells {to}: nothing released, that lease is not yours."),
        }
    }
}

/// The lease protocol's messages.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Hash)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum LeaseMsg {
    Acquire,
    /// The lock is yours with this token for `ttl_ms` on the service's clock.
    Granted {
        token: u64,
        ttl_ms: Millis,
    },
    Busy,
    /// Extend my lease, if it is still mine.
    Renew {
        token: u64,
    },
    Renewed {
        token: u64,
        ttl_ms: Millis,
    },
    RenewRefused {
        token: u64,
    },
    /// Give the lease back; `checked` only if `token` still holds it.
    Release {
        token: u64,
        checked: bool,
    },
    Released {
        released: bool,
    },
}

impl DesignMsg for LeaseMsg {
    fn kind(&self) -> MsgKind {
        match self {
            LeaseMsg::Acquire => MsgKind::Acquire,
            LeaseMsg::Renew { .. } | LeaseMsg::Release { .. } => MsgKind::Request,
            LeaseMsg::Granted { .. } | LeaseMsg::Renewed { .. } | LeaseMsg::Released { released: true } => MsgKind::Reply,
            LeaseMsg::Busy => MsgKind::Busy,
            LeaseMsg::RenewRefused { .. } | LeaseMsg::Released { released: false } => MsgKind::Refusal,
        }
    }
}

impl LeaseMsg {
    /// Labels the message in the lease's words.
    pub fn label(&self) -> String {
        match *self {
            LeaseMsg::Acquire => "acquire".into(),
            LeaseMsg::Granted { token, ttl_ms } => format!("granted: token {token}, TTL {}", ms(ttl_ms)),
            LeaseMsg::Busy => "busy".into(),
            LeaseMsg::Renew { token } => format!("renew token {token}"),
            LeaseMsg::Renewed { token, .. } => format!("renewed token {token}"),
            LeaseMsg::RenewRefused { token } => format!("renewal refused (token {token})"),
            LeaseMsg::Release { token, checked: true } => format!("release token {token} if mine"),
            LeaseMsg::Release { checked: false, .. } => "release (no check)".into(),
            LeaseMsg::Released { released: true } => "released".into(),
            LeaseMsg::Released { released: false } => "not released: not yours".into(),
        }
    }
}

#[derive(Clone, Copy, Debug, Hash)]
struct Grant {
    holder: NodeId,
    token: u64,
    expires_local: LocalMillis,
}

/// A lease-lock service node.
#[derive(Clone, Hash)]
pub struct LeaseService {
    ttl_ms: Millis,
    first_token: u64,
    next_token: u64,
    lease: Option<Grant>,
}

impl LeaseService {
    /// Builds a service whose first grant carries `first_token`.
    pub fn new(ttl_ms: Millis, first_token: u64) -> Self {
        LeaseService { ttl_ms, first_token, next_token: first_token, lease: None }
    }

    fn end(&mut self, cx: &mut Cx, how: LockEnd) {
        if let Some(l) = self.lease.take() {
            cx.cancel(Timer::Expiry(l.token));
            cx.note(EventKind::LockEnded { holder: l.holder, token: l.token, how });
        }
    }

    /// Expires the lease if its time has come on this clock (a lazy check before any request).
    fn expire_if_due(&mut self, cx: &mut Cx) {
        if self.lease.is_some_and(|l| cx.now >= l.expires_local) {
            self.end(cx, LockEnd::Expired);
        }
    }

    fn handle(&mut self, cx: &mut Cx, from: NodeId, msg: &LeaseMsg) {
        let reply = match *msg {
            LeaseMsg::Acquire if self.lease.is_some() => LeaseMsg::Busy,
            LeaseMsg::Acquire => {
                let token = self.next_token;
                self.next_token += 1;
                let expires_local = cx.now + self.ttl_ms;
                self.lease = Some(Grant { holder: from, token, expires_local });
                cx.at(Timer::Expiry(token), expires_local);
                cx.note(EventKind::LockGranted { holder: from, token, expires_local: Some(expires_local) });
                LeaseMsg::Granted { token, ttl_ms: self.ttl_ms }
            }
            LeaseMsg::Renew { token } => match self.lease.as_mut() {
                Some(l) if l.token == token && l.holder == from => {
                    l.expires_local = cx.now + self.ttl_ms;
                    let expires_local = l.expires_local;
                    cx.at(Timer::Expiry(token), expires_local);
                    cx.note(EventKind::LockExtended { holder: from, token, expires_local: Some(expires_local) });
                    LeaseMsg::Renewed { token, ttl_ms: self.ttl_ms }
                }
                _ => LeaseMsg::RenewRefused { token },
            },
            LeaseMsg::Release { token, checked } => {
                let released = match (checked, self.lease) {
                    (true, Some(l)) if l.token == token => {
                        self.end(cx, LockEnd::Released);
                        true
                    }
                    (false, Some(l)) => {
                        let how = if l.token == token { LockEnd::Released } else { LockEnd::DeletedByOther };
                        self.end(cx, how);
                        true
                    }
                    (true | false, _) => false,
                };
                LeaseMsg::Released { released }
            }
            LeaseMsg::Granted { .. }
            | LeaseMsg::Busy
            | LeaseMsg::Renewed { .. }
            | LeaseMsg::RenewRefused { .. }
            | LeaseMsg::Released { .. } => {
                return;
            }
        };
        cx.send(from, Msg::lock(reply));
    }
}

impl Actor for LeaseService {
    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &Msg) {
        self.expire_if_due(cx);
        if let Some(msg) = lease_msg(msg) {
            self.handle(cx, from, msg);
        }
    }

    fn on_timer(&mut self, cx: &mut Cx, timer: Timer) {
        if let Timer::Expiry(token) = timer {
            if self.lease.is_some_and(|l| l.token == token) {
                self.expire_if_due(cx);
            }
        }
    }

    fn on_restart(&mut self, cx: &mut Cx, keep_state: bool) {
        if keep_state {
            if let Some(l) = self.lease {
                cx.at(Timer::Expiry(l.token), l.expires_local);
            }
        } else {
            // Without persistence the lease and the token counter are both gone.
            self.end(cx, LockEnd::LostOnRestart);
            self.next_token = self.first_token;
        }
    }
}

fn lease_msg(msg: &Msg) -> Option<&LeaseMsg> {
    match msg {
        Msg::Lock { msg } => msg.get::<LeaseMsg>(),
        Msg::Read
        | Msg::ReadResult { .. }
        | Msg::Undo { .. }
        | Msg::Write { .. }
        | Msg::WriteAccepted { .. }
        | Msg::WriteRejected { .. } => None,
    }
}

/// A client's side of the lease protocol.
#[derive(Clone, Hash)]
pub struct LeaseClient {
    service: NodeId,
    acquire_sent_at: LocalMillis,
    renew_sent_at: LocalMillis,
}

impl LeaseClient {
    /// Talks to the lease service at `service`.
    pub fn new(service: NodeId) -> Self {
        LeaseClient { service, acquire_sent_at: LocalMillis::ZERO, renew_sent_at: LocalMillis::ZERO }
    }
}

impl LockClient for LeaseClient {
    fn acquire(&mut self, cx: &mut Cx, timeout_ms: Millis) {
        self.acquire_sent_at = cx.now;
        cx.send(self.service, Msg::lock(LeaseMsg::Acquire));
        cx.after(Timer::Timeout, timeout_ms);
    }

    fn on_message(&mut self, _cx: &mut Cx, _from: NodeId, msg: &LockMsg, view: ClientView) -> Progress {
        let Some(msg) = msg.get::<LeaseMsg>() else { return Progress::Pending };
        match *msg {
            // The client counts the TTL from when it sent its request: the safe side.
            LeaseMsg::Granted { token, ttl_ms } => Progress::Granted { token, until_local: Some(self.acquire_sent_at + ttl_ms) },
            LeaseMsg::Busy => Progress::Refused,
            LeaseMsg::Renewed { token, ttl_ms } if view.held == Some(token) => {
                Progress::Renewed { until_local: Some(self.renew_sent_at + ttl_ms) }
            }
            LeaseMsg::RenewRefused { token } if view.held == Some(token) => Progress::Lost,
            LeaseMsg::Released { .. } => Progress::Released,
            LeaseMsg::Renewed { .. }
            | LeaseMsg::RenewRefused { .. }
            | LeaseMsg::Acquire
            | LeaseMsg::Renew { .. }
            | LeaseMsg::Release { .. } => Progress::Pending,
        }
    }

    fn on_timeout(&mut self, _cx: &mut Cx, _timeout_ms: Millis) -> Progress {
        Progress::Refused
    }

    fn renew(&mut self, cx: &mut Cx, held: Option<u64>) {
        self.renew_sent_at = cx.now;
        cx.send(self.service, Msg::lock(LeaseMsg::Renew { token: held.unwrap_or(0) }));
    }

    fn release(&mut self, cx: &mut Cx, held: Option<u64>, last: u64, mode: ReleaseMode) -> Release {
        let checked = mode != ReleaseMode::Unsafe;
        // An unchecked release goes out even from a client that no longer believes it holds anything.
        let token = match held {
            Some(t) => t,
            None if !checked && last > 0 => last,
            None => return Release::Nothing,
        };
        cx.send(self.service, Msg::lock(LeaseMsg::Release { token, checked }));
        Release::AwaitReply
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::actor::testing::{call, sent};

    fn reply(node: &mut LeaseService, now: i64, from: usize, msg: LeaseMsg) -> Msg {
        sent(&call(node, now, from, Msg::lock(msg))).remove(0).1
    }

    #[test]
    fn one_holder_at_a_time_and_each_grant_takes_the_next_token() {
        let mut l = LeaseService::new(Millis::from_ms(1000), 41);
        assert_eq!(reply(&mut l, 0, 1, LeaseMsg::Acquire), Msg::lock(LeaseMsg::Granted { token: 41, ttl_ms: Millis::from_ms(1000) }));
        assert_eq!(reply(&mut l, 999, 2, LeaseMsg::Acquire), Msg::lock(LeaseMsg::Busy));
        assert_eq!(reply(&mut l, 1000, 2, LeaseMsg::Acquire), Msg::lock(LeaseMsg::Granted { token: 42, ttl_ms: Millis::from_ms(1000) }));
        assert_eq!(reply(&mut l, 1001, 1, LeaseMsg::Renew { token: 41 }), Msg::lock(LeaseMsg::RenewRefused { token: 41 }));
    }

    #[test]
    fn an_unchecked_release_frees_someone_elses_lease() {
        let mut l = LeaseService::new(Millis::from_ms(1000), 1);
        reply(&mut l, 0, 1, LeaseMsg::Acquire);
        assert_eq!(reply(&mut l, 5, 2, LeaseMsg::Release { token: 9, checked: true }), Msg::lock(LeaseMsg::Released { released: false }));
        let out = call(&mut l, 6, 2, Msg::lock(LeaseMsg::Release { token: 9, checked: false }));
        let ended = EventKind::LockEnded { holder: NodeId(1), token: 1, how: LockEnd::DeletedByOther };
        assert!(out.contains(&crate::engine::actor::Command::Note(ended)));
    }
}
