//! Kubernetes leader election: client-go's `tools/leaderelection` over a `coordination.k8s.io/v1`
//! Lease. The API server stores the Lease (holderIdentity, leaseDurationSeconds, acquireTime,
//! renewTime, leaseTransitions) and enforces only optimistic concurrency: an update names the
//! resourceVersion it read and fails with a conflict if someone wrote first. It judges no time.
//!
//! Each candidate runs `tryAcquireOrRenew`: GET the Lease; if the record changed since it last
//! looked, remember it and the time *it* observed the change, on its own clock; if another holder
//! is named and `observedTime + leaseDurationSeconds` has not passed, wait `RetryPeriod` (jittered
//! by up to 1.2×) and try again; otherwise PUT itself in as holder, with `leaseTransitions + 1`.
//! The leader renews every `RetryPeriod` (an optimistic PUT with the version it holds, falling
//! back to GET on a conflict), and each round of renewing has `RenewDeadline` to succeed: past
//! it, the leader stops leading. Nothing fences: the package says it "does not guarantee that
//! only one client is acting as a leader". `leaseTransitions` can serve as a fencing token when
//! the resource checks it.
//!
//! Simplifications, said in the lessons: one Lease; the renewal client-go makes right after
//! acquiring is left out; a script's release step releases the Lease (`ReleaseOnCancel`).

use super::param::settings;
use super::{Design, Factory, Guarantees, Kind, LockKind, Row, Rows, Services, Settings, Summary, Values};
use crate::engine::actor::{Actor, Cx, Timer};
use crate::engine::event::{EventKind, LockEnd};
use crate::engine::ids::NodeId;
use crate::engine::msg::{DesignMsg, LockMsg, Msg, MsgKind, ReleaseMode};
use crate::engine::protocol::{ClientView, LockClient, Progress, Protocol, Release};
use crate::engine::spec::{AcquirePolicy, RenewFailure, RenewPolicy, ResourceMode};
use crate::error::ScenarioError;
use crate::present::number::{group, local, ms};
use crate::present::{Names, Vocabulary};
use serde::Serialize;
use std::rc::Rc;

/// The registry entry.
pub struct Kubernetes;

settings! {
    /// How client-go's leader election is set up.
    pub struct KubernetesSettings {
        /// How long candidates wait, from when they last saw the Lease change, before taking it over. Whole seconds: the Lease stores
        /// leaseDurationSeconds.
        lease_duration_ms: u64 = number_or("ms", 1_000..=3_600_000, 15_000),
        /// How long a round of renewing may fail before the leader stops leading.
        renew_deadline_ms: u64 = number_or("ms", 1..=3_600_000, 10_000),
        /// How often a leader renews, and how often a candidate tries (jittered by up to 1.2×).
        retry_period_ms: u64 = number_or("ms", 1..=3_600_000, 2_000),
    }
}

/// client-go's `JitterFactor` for the acquire loop, in tenths.
const JITTER_TENTHS: u64 = 12;

/// The design as the registry lists it.
static SUMMARY: Summary = Summary::of::<KubernetesSettings>(
    "kubernetes",
    "Kubernetes leader election",
    "client-go leader election over a Lease: candidates judge expiry by their own clocks, updates are optimistic, nothing fences.",
);

impl Factory for KubernetesSettings {
    fn build(&self) -> Result<Rc<dyn Design>, ScenarioError> {
        let (ld, rd, rp) = (self.lease_duration_ms, self.renew_deadline_ms, self.retry_period_ms);
        if ld % 1000 != 0 {
            return Err(ScenarioError::new(
                Self::lease_duration_ms.path(),
                format!("must be whole seconds (the Lease stores leaseDurationSeconds), got {ld}"),
            ));
        }
        if rd >= ld {
            return Err(ScenarioError::new(
                Self::renew_deadline_ms.path(),
                format!("must be less than lease_duration_ms ({ld}), as client-go requires, got {rd}"),
            ));
        }
        if rd * 10 <= rp * JITTER_TENTHS {
            return Err(ScenarioError::new(
                Self::renew_deadline_ms.path(),
                format!("must be more than 1.2 × retry_period_ms ({}), as client-go requires, got {rd}", rp * JITTER_TENTHS / 10),
            ));
        }
        Ok(Rc::new(K8sDesign { values: self.to_values(), lease_duration_ms: ld, renew_deadline_ms: rd, retry_period_ms: rp }))
    }
}

impl Kind for Kubernetes {
    fn summary(&self) -> &'static Summary {
        &SUMMARY
    }

    fn rows(&self, ttl_ms: u64) -> Vec<Row> {
        // The Lease stores whole seconds.
        let lease = ttl_ms.div_ceil(1000).max(1) * 1000;
        let settings = KubernetesSettings { lease_duration_ms: lease, renew_deadline_ms: lease * 3 / 5, retry_period_ms: lease / 5 };
        let design = settings.configure();
        let rows = Rows { design, services: 1, service_name: "API server", elapsed_timers: true };
        vec![
            rows.row("k8s", "Kubernetes Lease (client-go)", "leaseTransitions, unchecked", Some(ResourceMode::Unfenced)),
            rows.row("k8s-fenced", "Kubernetes + leaseTransitions check", "leaseTransitions", Some(ResourceMode::Fenced)),
        ]
    }
}

/// Kubernetes leader election, configured.
#[derive(Debug)]
pub struct K8sDesign {
    values: Values,
    lease_duration_ms: u64,
    renew_deadline_ms: u64,
    retry_period_ms: u64,
}

impl Protocol for K8sDesign {
    fn service(&self, _index: usize, _nodes: &[NodeId]) -> Option<Box<dyn Actor>> {
        Some(Box::new(ApiServer { lease: None, resource_version: 0 }))
    }

    fn client(&self, nodes: &[NodeId]) -> Option<Box<dyn LockClient>> {
        Some(Box::new(Elector {
            api: nodes[0],
            lease_duration_ms: self.lease_duration_ms,
            renew_deadline_ms: self.renew_deadline_ms,
            retry_period_ms: self.retry_period_ms,
            request: 0,
            in_flight: InFlight::Nothing,
            observed: None,
            observed_version: 0,
            observed_time: 0,
            renewing: false,
        }))
    }
}

impl Design for K8sDesign {
    fn kind(&self) -> &'static dyn Kind {
        &Kubernetes
    }

    fn values(&self) -> &Values {
        &self.values
    }

    fn guarantees(&self) -> Guarantees {
        let (ld, rd, rp) = (self.lease_duration_ms, self.renew_deadline_ms, self.retry_period_ms);
        Guarantees {
            lock: LockKind::Efficiency,
            safety: format!(
                "At most one leader acts at a time, provided no leader stalls and then acts before it notices, and clocks run at rates within about leaseDuration / (renewDeadline + retryPeriod) ({} / ({} + {}) = {}×): the leader's last round of renewing starts up to a retry period after its last success, so the bound is a little under the ratio leaseDuration / renewDeadline that client-go's documentation gives as approximate. The package does not fence: a resource that checks leaseTransitions can.",
                ms(ld),
                ms(rd),
                ms(rp),
                ratio(ld, rd + rp)
            ),
            liveness: format!(
                "If the leader dies, candidates take over {} after they last saw the Lease change; a leader that cannot renew for {} stops leading.",
                ms(ld),
                ms(rd)
            ),
            assumes: "Clock rates within the ratio, time measured by monotonic clocks, and leaders that stop acting when their renew deadline passes; or a resource that checks leaseTransitions.".into(),
        }
    }

    fn services(&self) -> Services {
        Services { count: 1..=1, what: "one API server" }
    }

    fn script_renewal(&self) -> Result<(), &'static str> {
        Err("the leader renews every retry_period_ms by itself and stops after renew_deadline_ms; leave renew out")
    }

    fn release_modes(&self) -> &'static [ReleaseMode] {
        &[ReleaseMode::Safe]
    }
}

/// Formats `a / b` to at most two decimals: `1.5`, `1.25`, `3`.
fn ratio(a: u64, b: u64) -> String {
    let hundredths = (a * 100 + b / 2) / b.max(1);
    let text = format!("{}.{:02}", hundredths / 100, hundredths % 100);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl Vocabulary for K8sDesign {
    fn token(&self, token: u64) -> Option<String> {
        Some(format!("leaseTransitions {token}"))
    }

    fn lock(&self, token: u64) -> String {
        format!("the Lease (leaseTransitions {token})")
    }

    fn how_ended(&self, how: LockEnd) -> &'static str {
        match how {
            LockEnd::Replaced => "taken over",
            LockEnd::Released => "released",
            LockEnd::Expired => "expired",
            LockEnd::DeletedByOther => "deleted by another client",
            LockEnd::LostOnRestart | LockEnd::Resynced => "lost on restart",
        }
    }

    fn label(&self, msg: &LockMsg, names: Names) -> String {
        let Some(msg) = msg.get::<ApiMsg>() else { return String::new() };
        match msg {
            ApiMsg::Get { .. } => "GET Lease".into(),
            ApiMsg::Found { lease, version, .. } => match lease.holder {
                Some(h) => format!("holder {} (rv {version})", names.of(h)),
                None => format!("no holder (rv {version})"),
            },
            ApiMsg::NotFound { .. } => "404 Not Found".into(),
            ApiMsg::Create { .. } => "POST Lease: holder me".into(),
            ApiMsg::Update { take: true, version, .. } => format!("PUT holder me (rv {version})"),
            ApiMsg::Update { lease, version, .. } if lease.holder.is_none() => format!("PUT no holder (rv {version})"),
            ApiMsg::Update { version, .. } => format!("PUT renewTime (rv {version})"),
            ApiMsg::Stored { version, .. } => format!("200 OK (rv {version})"),
            ApiMsg::Conflict { .. } => "409 Conflict".into(),
        }
    }

    fn sending(&self, msg: &LockMsg, me: &str, to: &str, names: Names) -> String {
        let Some(msg) = msg.get::<ApiMsg>() else { return String::new() };
        match msg {
            ApiMsg::Get { .. } => format!("{me} reads the Lease from {to}."),
            ApiMsg::Found { lease, version, .. } => match lease.holder {
                Some(h) => format!(
                    "{me} answers {to} with the Lease: holder {}, renewTime {} on the holder's clock, leaseTransitions {}, resourceVersion {version}. {to} times the Lease from when it last saw the record change, on its own clock.",
                    names.of(h),
                    group(lease.renew_time),
                    lease.transitions
                ),
                None => format!("{me} answers {to} with the Lease: nobody holds it (resourceVersion {version})."),
            },
            ApiMsg::NotFound { .. } => format!("{me} answers {to}: there is no Lease yet."),
            ApiMsg::Create { .. } => format!("{me} asks {to} to create the Lease with itself as holder."),
            ApiMsg::Update { lease, take: true, version, .. } => format!(
                "{me} judges the Lease expired by its own clock and asks {to} to write it in as holder, with leaseTransitions {}, if the Lease is still at resourceVersion {version}.",
                lease.transitions
            ),
            ApiMsg::Update { lease, version, .. } if lease.holder.is_none() => {
                format!("{me} gives the Lease up on {to} as it exits, since it runs with ReleaseOnCancel (client-go leaves it off by default): no holder, if the Lease is still at resourceVersion {version}.")
            }
            ApiMsg::Update { lease, version, .. } => format!(
                "{me} renews: it asks {to} to set renewTime to {} (its own clock), if the Lease is still at resourceVersion {version}.",
                group(lease.renew_time)
            ),
            ApiMsg::Stored { version, .. } => format!("{me} answers {to}: stored, the Lease is now at resourceVersion {version}."),
            ApiMsg::Conflict { .. } => format!("{me} answers {to}: 409 Conflict, someone else updated the Lease first."),
        }
    }

    fn lasts(&self, _expires_local: Option<i64>) -> String {
        format!("until a candidate sees it unrenewed for {}", ms(self.lease_duration_ms))
    }

    fn believes(&self, until_local: Option<i64>) -> String {
        match until_local {
            Some(t) => format!("until {} on its own clock, when its renew deadline would pass if renewals kept failing", local(t)),
            None => "while it keeps renewing".into(),
        }
    }

    fn granted(&self, me: &str, holder: &str, token: u64, _expires_local: Option<i64>) -> String {
        format!(
            "{me} now records {holder} as the Lease's holder, with leaseTransitions {token}. {me} judges no time: each candidate decides by its own clock when the Lease has gone {} without a renewal.",
            ms(self.lease_duration_ms)
        )
    }

    fn extended(&self, me: &str, holder: &str, _token: u64, _expires_local: Option<i64>) -> String {
        format!("{me} stores {holder}'s renewal: a new renewTime, so every candidate starts its wait again.")
    }

    fn ended(&self, me: &str, holder: &str, token: u64, how: LockEnd) -> String {
        match how {
            LockEnd::Replaced => format!(
                "The Lease on {me} no longer names {holder} (leaseTransitions {token}): another candidate judged it expired by its own clock and wrote itself in. Nobody tells {holder}."
            ),
            LockEnd::Released => format!("{holder} gives the Lease up: it now names no holder."),
            LockEnd::Expired | LockEnd::DeletedByOther | LockEnd::LostOnRestart | LockEnd::Resynced => {
                format!("The Lease on {me} no longer names {holder}: {}.", self.how_ended(how))
            }
        }
    }

    fn held(&self) -> &'static str {
        "the Lease"
    }

    fn ended_mark(&self, holder: &str, _token: u64, how: LockEnd) -> String {
        match how {
            LockEnd::Replaced => format!("taken over from {holder}"),
            LockEnd::Released | LockEnd::Expired | LockEnd::DeletedByOther | LockEnd::LostOnRestart | LockEnd::Resynced => {
                format!("{holder}: {}", self.how_ended(how))
            }
        }
    }

    fn renewal_failed(&self, me: &str, _abort: bool) -> String {
        format!(
            "{me} has gone {} in this round of renewing without a successful renewal: its renew deadline has passed, so client-go stops it leading.",
            ms(self.renew_deadline_ms)
        )
    }

    fn acquires(&self) -> &'static str {
        "claims of the Lease"
    }

    fn expiries(&self) -> &'static str {
        "takeovers"
    }
}

/// The Lease's spec, as the model keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LeaseSpec {
    pub holder: Option<NodeId>,
    pub duration_s: u64,
    /// When the holder acquired it, on the holder's clock.
    pub acquire_time: i64,
    /// When the holder last renewed it, on the holder's clock.
    pub renew_time: i64,
    pub transitions: u64,
}

/// API requests and responses about the Lease. `request` ties a response to its request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum ApiMsg {
    Get {
        request: u32,
    },
    Found {
        request: u32,
        lease: LeaseSpec,
        version: u64,
    },
    NotFound {
        request: u32,
    },
    /// Create the Lease (claiming it).
    Create {
        request: u32,
        lease: LeaseSpec,
    },
    /// Replace the Lease if it is still at `version`; `take` when this writes a new holder in.
    Update {
        request: u32,
        lease: LeaseSpec,
        version: u64,
        take: bool,
    },
    Stored {
        request: u32,
        version: u64,
    },
    /// Someone else wrote first (or created it first).
    Conflict {
        request: u32,
    },
}

impl DesignMsg for ApiMsg {
    fn kind(&self) -> MsgKind {
        match self {
            ApiMsg::Create { .. } | ApiMsg::Update { take: true, .. } => MsgKind::Acquire,
            ApiMsg::Get { .. } | ApiMsg::Update { .. } => MsgKind::Request,
            ApiMsg::Found { .. } | ApiMsg::NotFound { .. } | ApiMsg::Stored { .. } => MsgKind::Reply,
            ApiMsg::Conflict { .. } => MsgKind::Busy,
        }
    }
}

/// The API server: stores the Lease with optimistic concurrency, and judges no time.
struct ApiServer {
    lease: Option<LeaseSpec>,
    resource_version: u64,
}

impl ApiServer {
    /// Stores a new version of the Lease and records who holds it now.
    fn store(&mut self, cx: &mut Cx, lease: LeaseSpec) -> u64 {
        let old = self.lease.replace(lease);
        self.resource_version += 1;
        let old_holder = old.and_then(|o| o.holder.map(|h| (h, o.transitions)));
        match (old_holder, lease.holder) {
            (Some((o, _)), Some(n)) if o == n => {
                cx.note(EventKind::LockExtended { holder: n, token: lease.transitions, expires_local: None })
            }
            (old, new) => {
                if let Some((o, token)) = old {
                    let how = if new.is_some() { LockEnd::Replaced } else { LockEnd::Released };
                    cx.note(EventKind::LockEnded { holder: o, token, how });
                }
                if let Some(n) = new {
                    cx.note(EventKind::LockGranted { holder: n, token: lease.transitions, expires_local: None });
                }
            }
        }
        self.resource_version
    }
}

impl Actor for ApiServer {
    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &Msg) {
        let Msg::Lock { msg } = msg else { return };
        let Some(msg) = msg.get::<ApiMsg>() else { return };
        let reply = match *msg {
            ApiMsg::Get { request } => match self.lease {
                Some(lease) => ApiMsg::Found { request, lease, version: self.resource_version },
                None => ApiMsg::NotFound { request },
            },
            ApiMsg::Create { request, .. } if self.lease.is_some() => ApiMsg::Conflict { request },
            ApiMsg::Create { request, lease } => ApiMsg::Stored { request, version: self.store(cx, lease) },
            ApiMsg::Update { request, .. } if self.lease.is_none() => ApiMsg::NotFound { request },
            ApiMsg::Update { request, version, .. } if version != self.resource_version => ApiMsg::Conflict { request },
            ApiMsg::Update { request, lease, .. } => ApiMsg::Stored { request, version: self.store(cx, lease) },
            ApiMsg::Found { .. } | ApiMsg::NotFound { .. } | ApiMsg::Stored { .. } | ApiMsg::Conflict { .. } => return,
        };
        cx.send(from, Msg::lock(reply));
    }

    fn on_timer(&mut self, _cx: &mut Cx, _timer: Timer) {}

    fn on_restart(&mut self, _cx: &mut Cx, _keep_state: bool) {
        // The API server keeps the Lease in etcd: it survives a restart.
    }
}

/// The request a candidate or leader is waiting on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum InFlight {
    Nothing,
    Get,
    /// A create or update of the Lease to `lease`; `fast` for the leader's optimistic renewal.
    Write {
        lease: LeaseSpec,
        fast: bool,
    },
    Release,
}

/// What a finished `tryAcquireOrRenew` says.
enum Tried {
    Pending,
    Succeeded,
    Failed,
}

/// The renew round's deadline timer.
const DEADLINE: u8 = 0;

/// One candidate's leader elector.
struct Elector {
    api: NodeId,
    lease_duration_ms: u64,
    renew_deadline_ms: u64,
    retry_period_ms: u64,
    /// The number of the request in flight; answers to older ones are ignored.
    request: u32,
    in_flight: InFlight,
    /// The Lease as last observed, its resourceVersion, and when (on this clock) it last changed.
    observed: Option<LeaseSpec>,
    observed_version: u64,
    observed_time: i64,
    /// Whether a round of renewing is under way (and its deadline set).
    renewing: bool,
}

impl Elector {
    fn is_leader(&self, me: NodeId) -> bool {
        self.observed.is_some_and(|l| l.holder == Some(me))
    }

    /// Says whether the observed Lease is still valid by this candidate's clock.
    fn lease_valid(&self, now: i64) -> bool {
        self.observed.is_some_and(|l| self.observed_time + (l.duration_s * 1000) as i64 > now)
    }

    fn send(&mut self, cx: &mut Cx, msg: impl FnOnce(u32) -> ApiMsg) {
        self.request += 1;
        cx.send(self.api, Msg::lock(msg(self.request)));
    }

    fn get(&mut self, cx: &mut Cx) {
        self.in_flight = InFlight::Get;
        self.send(cx, |request| ApiMsg::Get { request });
    }

    /// Starts `tryAcquireOrRenew`: the leader's fast path if its Lease is valid, else a GET.
    fn try_acquire_or_renew(&mut self, cx: &mut Cx) {
        match self.observed {
            Some(lease) if self.is_leader(cx.me) && self.lease_valid(cx.now) => {
                let lease = LeaseSpec { renew_time: cx.now, ..lease };
                let version = self.observed_version;
                self.in_flight = InFlight::Write { lease, fast: true };
                self.send(cx, |request| ApiMsg::Update { request, lease, version, take: false });
            }
            Some(_) | None => self.get(cx),
        }
    }

    /// Handles an answer to the request in flight.
    fn answer(&mut self, cx: &mut Cx, msg: &ApiMsg) -> Tried {
        match (*msg, self.in_flight) {
            (ApiMsg::Found { lease, version, .. }, InFlight::Get) => {
                if self.observed != Some(lease) {
                    self.observed = Some(lease);
                    self.observed_time = cx.now;
                }
                self.observed_version = version;
                let leader = self.is_leader(cx.me);
                if lease.holder.is_some() && self.lease_valid(cx.now) && !leader {
                    self.in_flight = InFlight::Nothing;
                    return Tried::Failed;
                }
                let duration_s = self.lease_duration_ms / 1000;
                let next = if leader {
                    LeaseSpec { renew_time: cx.now, duration_s, ..lease }
                } else {
                    LeaseSpec {
                        holder: Some(cx.me),
                        duration_s,
                        acquire_time: cx.now,
                        renew_time: cx.now,
                        transitions: lease.transitions + 1,
                    }
                };
                self.in_flight = InFlight::Write { lease: next, fast: false };
                self.send(cx, |request| ApiMsg::Update { request, lease: next, version, take: !leader });
                Tried::Pending
            }
            (ApiMsg::NotFound { .. }, InFlight::Get) => {
                let lease = LeaseSpec {
                    holder: Some(cx.me),
                    duration_s: self.lease_duration_ms / 1000,
                    acquire_time: cx.now,
                    renew_time: cx.now,
                    transitions: 0,
                };
                self.in_flight = InFlight::Write { lease, fast: false };
                self.send(cx, |request| ApiMsg::Create { request, lease });
                Tried::Pending
            }
            (ApiMsg::Stored { version, .. }, InFlight::Write { lease, .. }) => {
                self.observed = Some(lease);
                self.observed_version = version;
                self.observed_time = cx.now;
                self.in_flight = InFlight::Nothing;
                Tried::Succeeded
            }
            // The optimistic renewal lost: fall back to reading the Lease.
            (ApiMsg::Conflict { .. }, InFlight::Write { fast: true, .. }) => {
                self.get(cx);
                Tried::Pending
            }
            (ApiMsg::Stored { .. } | ApiMsg::Conflict { .. } | ApiMsg::NotFound { .. }, InFlight::Release) => {
                self.in_flight = InFlight::Nothing;
                Tried::Succeeded
            }
            (_, InFlight::Nothing | InFlight::Get | InFlight::Write { .. } | InFlight::Release) => {
                self.in_flight = InFlight::Nothing;
                Tried::Failed
            }
        }
    }

    /// Returns when the leader's renew deadline would pass if renewals failed from now on.
    fn deadline_after(&self, now: i64) -> Option<i64> {
        Some(now + (self.retry_period_ms + self.renew_deadline_ms) as i64)
    }
}

impl LockClient for Elector {
    fn acquire(&mut self, cx: &mut Cx, timeout_ms: u64) {
        self.try_acquire_or_renew(cx);
        cx.after(Timer::Timeout, timeout_ms);
    }

    fn on_message(&mut self, cx: &mut Cx, _from: NodeId, msg: &LockMsg, view: ClientView) -> Progress {
        let Some(msg) = msg.get::<ApiMsg>() else { return Progress::Pending };
        let request = match *msg {
            ApiMsg::Found { request, .. }
            | ApiMsg::NotFound { request }
            | ApiMsg::Stored { request, .. }
            | ApiMsg::Conflict { request } => request,
            ApiMsg::Get { .. } | ApiMsg::Create { .. } | ApiMsg::Update { .. } => return Progress::Pending,
        };
        if request != self.request || self.in_flight == InFlight::Nothing {
            return Progress::Pending;
        }
        let releasing = self.in_flight == InFlight::Release;
        let tried = self.answer(cx, msg);
        let token = self.observed.map_or(0, |l| l.transitions);
        match tried {
            Tried::Pending => Progress::Pending,
            Tried::Succeeded if releasing => Progress::Released,
            Tried::Succeeded if view.acquiring => Progress::Granted { token, until_local: self.deadline_after(cx.now) },
            Tried::Succeeded => {
                self.renewing = false;
                cx.cancel(Timer::Client(DEADLINE));
                Progress::Renewed { until_local: self.deadline_after(cx.now) }
            }
            Tried::Failed if view.acquiring => Progress::Refused,
            Tried::Failed => Progress::RenewRetry,
        }
    }

    fn on_timeout(&mut self, _cx: &mut Cx, _timeout_ms: u64) -> Progress {
        self.in_flight = InFlight::Nothing;
        Progress::Refused
    }

    fn on_timer(&mut self, _cx: &mut Cx, id: u8) -> Progress {
        match id {
            DEADLINE if self.renewing => {
                self.renewing = false;
                self.in_flight = InFlight::Nothing;
                Progress::RenewFailed
            }
            _ => Progress::Pending,
        }
    }

    fn retry(&mut self, cx: &mut Cx, attempts: u32, policy: &AcquirePolicy) -> Option<u64> {
        // wait.JitterUntil: RetryPeriod plus up to 1.2 × RetryPeriod at random.
        let rp = self.retry_period_ms;
        (attempts < policy.max_attempts).then(|| rp + cx.rng.range_inclusive(0, rp * JITTER_TENTHS / 10))
    }

    fn renewal(&self, _policy: Option<RenewPolicy>) -> Option<RenewPolicy> {
        Some(RenewPolicy { every_ms: self.retry_period_ms, on_failure: RenewFailure::Abort })
    }

    fn renew(&mut self, cx: &mut Cx, _held: Option<u64>) {
        if !self.renewing {
            // A new round of renewing: it has RenewDeadline to succeed.
            self.renewing = true;
            cx.after(Timer::Client(DEADLINE), self.renew_deadline_ms);
        }
        self.try_acquire_or_renew(cx);
    }

    fn on_renew_timeout(&mut self, _cx: &mut Cx) -> Progress {
        self.in_flight = InFlight::Nothing;
        Progress::RenewRetry
    }

    fn release(&mut self, cx: &mut Cx, held: Option<u64>, _last: u64, _mode: ReleaseMode) -> Release {
        let (Some(_), Some(lease)) = (held, self.observed) else { return Release::Nothing };
        self.renewing = false;
        cx.cancel(Timer::Client(DEADLINE));
        let lease = LeaseSpec { holder: None, duration_s: 1, acquire_time: cx.now, renew_time: cx.now, ..lease };
        let version = self.observed_version;
        self.in_flight = InFlight::Release;
        self.send(cx, |request| ApiMsg::Update { request, lease, version, take: false });
        Release::AwaitReply
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::actor::testing::{call, sent};
    use crate::engine::actor::Command;

    fn lease(holder: usize, renew_time: i64, transitions: u64) -> LeaseSpec {
        LeaseSpec { holder: Some(NodeId(holder)), duration_s: 15, acquire_time: 0, renew_time, transitions }
    }

    fn answer(api: &mut ApiServer, from: usize, msg: ApiMsg) -> (Vec<Command>, Msg) {
        let out = call(api, 0, from, Msg::lock(msg));
        let reply = sent(&out).remove(0).1;
        (out, reply)
    }

    #[test]
    fn the_api_server_accepts_an_update_only_at_the_version_it_read() {
        let mut api = ApiServer { lease: None, resource_version: 0 };
        assert_eq!(answer(&mut api, 1, ApiMsg::Get { request: 1 }).1, Msg::lock(ApiMsg::NotFound { request: 1 }));
        assert_eq!(
            answer(&mut api, 1, ApiMsg::Create { request: 2, lease: lease(1, 0, 0) }).1,
            Msg::lock(ApiMsg::Stored { request: 2, version: 1 })
        );
        // Two candidates read version 1; the first to write wins, the second conflicts.
        let (out, reply) = answer(&mut api, 2, ApiMsg::Update { request: 3, lease: lease(2, 20, 1), version: 1, take: true });
        assert_eq!(reply, Msg::lock(ApiMsg::Stored { request: 3, version: 2 }));
        assert!(out.contains(&Command::Note(EventKind::LockEnded { holder: NodeId(1), token: 0, how: LockEnd::Replaced })));
        assert!(out.contains(&Command::Note(EventKind::LockGranted { holder: NodeId(2), token: 1, expires_local: None })));
        assert_eq!(
            answer(&mut api, 3, ApiMsg::Update { request: 4, lease: lease(3, 20, 1), version: 1, take: true }).1,
            Msg::lock(ApiMsg::Conflict { request: 4 })
        );
    }

    #[test]
    fn client_go_rejects_deadlines_it_would_reject() {
        let build = |ld, rd, rp| {
            let settings = KubernetesSettings { lease_duration_ms: ld, renew_deadline_ms: rd, retry_period_ms: rp };
            settings.build().map(|_| ()).map_err(|e| e.to_string())
        };
        assert_eq!(build(15_000, 10_000, 2_000), Ok(()));
        assert!(build(15_000, 15_000, 2_000).unwrap_err().starts_with("lock.renew_deadline_ms: must be less than lease_duration_ms"));
        assert!(build(15_000, 2_400, 2_000).unwrap_err().starts_with("lock.renew_deadline_ms: must be more than 1.2 × retry_period_ms"));
        assert!(build(15_500, 10_000, 2_000).unwrap_err().starts_with("lock.lease_duration_ms: must be whole seconds"));
        assert_eq!((ratio(15_000, 10_000), ratio(15_000, 12_000), ratio(30_000, 10_000)), ("1.5".into(), "1.25".into(), "3".into()));
    }
}
