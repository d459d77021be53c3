//! A candidate: client-go's leader elector, acquiring, renewing and releasing the Lease.

use super::{ApiMsg, LeaseSpec, JITTER_TENTHS};
use crate::engine::actor::{Cx, DesignTimer, Timer};
use crate::engine::ids::NodeId;
use crate::engine::msg::{LockMsg, Msg, ReleaseMode};
use crate::engine::protocol::{ClientView, LockClient, Progress, Release};
use crate::engine::spec::{AcquirePolicy, RenewFailure, RenewPolicy};
use crate::engine::time::{LocalMillis, Millis};

/// The request a candidate or leader is waiting on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

/// The elector's own timer: the renew round's deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ElectorTimer {
    RenewDeadline,
}

impl DesignTimer for ElectorTimer {
    fn slot(self) -> u8 {
        0
    }

    fn of_slot(slot: u8) -> Option<Self> {
        (slot == 0).then_some(ElectorTimer::RenewDeadline)
    }
}

/// One candidate's leader elector.
#[derive(Clone, Hash)]
pub(super) struct Elector {
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
    observed_time: LocalMillis,
    /// Whether a round of renewing is under way (and its deadline set).
    renewing: bool,
}

impl Elector {
    /// Builds a candidate that talks to the API server `api`, with client-go's three durations.
    pub(super) fn new(api: NodeId, lease_duration_ms: u64, renew_deadline_ms: u64, retry_period_ms: u64) -> Self {
        Elector {
            api,
            lease_duration_ms,
            renew_deadline_ms,
            retry_period_ms,
            request: 0,
            in_flight: InFlight::Nothing,
            observed: None,
            observed_version: 0,
            observed_time: LocalMillis::ZERO,
            renewing: false,
        }
    }

    fn is_leader(&self, me: NodeId) -> bool {
        self.observed.is_some_and(|l| l.holder == Some(me))
    }

    /// Says whether the observed Lease is still valid by this candidate's clock.
    fn lease_valid(&self, now: LocalMillis) -> bool {
        self.observed.is_some_and(|l| self.observed_time + Millis::from_ms(l.duration_s * 1000) > now)
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
    fn deadline_after(&self, now: LocalMillis) -> Option<LocalMillis> {
        Some(now + Millis::from_ms(self.retry_period_ms + self.renew_deadline_ms))
    }
}

impl LockClient for Elector {
    fn acquire(&mut self, cx: &mut Cx, timeout_ms: Millis) {
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
                cx.cancel(Timer::client(ElectorTimer::RenewDeadline));
                Progress::Renewed { until_local: self.deadline_after(cx.now) }
            }
            Tried::Failed if view.acquiring => Progress::Refused,
            Tried::Failed => Progress::RenewRetry,
        }
    }

    fn on_timeout(&mut self, _cx: &mut Cx, _timeout_ms: Millis) -> Progress {
        self.in_flight = InFlight::Nothing;
        Progress::Refused
    }

    fn on_timer(&mut self, _cx: &mut Cx, slot: u8) -> Progress {
        match ElectorTimer::of_slot(slot) {
            Some(ElectorTimer::RenewDeadline) if self.renewing => {
                self.renewing = false;
                self.in_flight = InFlight::Nothing;
                Progress::RenewFailed
            }
            _ => Progress::Pending,
        }
    }

    fn retry(&mut self, cx: &mut Cx, attempts: u32, policy: &AcquirePolicy) -> Option<Millis> {
        // wait.JitterUntil: RetryPeriod plus up to 1.2 × RetryPeriod at random.
        let rp = self.retry_period_ms;
        (attempts < policy.max_attempts).then(|| Millis::from_ms(rp + cx.rng.range_inclusive(0, rp * JITTER_TENTHS / 10)))
    }

    fn renewal(&self, _policy: Option<RenewPolicy>) -> Option<RenewPolicy> {
        Some(RenewPolicy { every_ms: self.retry_period_ms, on_failure: RenewFailure::Abort })
    }

    fn renew(&mut self, cx: &mut Cx, _held: Option<u64>) {
        if !self.renewing {
            // A new round of renewing: it has RenewDeadline to succeed.
            self.renewing = true;
            cx.after(Timer::client(ElectorTimer::RenewDeadline), Millis::from_ms(self.renew_deadline_ms));
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
        cx.cancel(Timer::client(ElectorTimer::RenewDeadline));
        let lease = LeaseSpec { holder: None, duration_s: 1, acquire_time: cx.now, renew_time: cx.now, ..lease };
        let version = self.observed_version;
        self.in_flight = InFlight::Release;
        self.send(cx, |request| ApiMsg::Update { request, lease, version, take: false });
        Release::AwaitReply
    }
}
