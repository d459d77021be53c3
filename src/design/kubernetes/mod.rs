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

mod client;
mod messages;
mod service;
mod settings;
#[cfg(test)]
mod tests;
mod words;

use super::{Design, Factory, Guarantees, Kind, LockKind, Row, Rows, Services, Summary, Values};
use crate::engine::actor::Actor;
use crate::engine::clock::TimerClock;
use crate::engine::ids::NodeId;
use crate::engine::msg::ReleaseMode;
use crate::engine::protocol::{LockClient, Protocol};
use crate::engine::spec::ResourceMode;
use crate::present::number::ms;
use client::Elector;
pub use messages::{ApiMsg, LeaseSpec};
use service::ApiServer;
pub use settings::KubernetesSettings;
use words::ratio;

/// The registry entry.
pub struct Kubernetes;

/// client-go's `JitterFactor` for the acquire loop, in tenths.
const JITTER_TENTHS: u64 = 12;

/// The design as the registry lists it.
static SUMMARY: Summary = Summary::of::<KubernetesSettings>(
    "kubernetes",
    "Kubernetes leader election",
    "client-go leader election over a Lease: candidates judge expiry by their own clocks, updates are optimistic, nothing fences.",
);

impl Kind for Kubernetes {
    fn summary(&self) -> &'static Summary {
        &SUMMARY
    }

    fn rows(&self, ttl_ms: u64) -> Vec<Row> {
        // The Lease stores whole seconds.
        let lease = ttl_ms.div_ceil(1000).max(1) * 1000;
        let settings = KubernetesSettings { lease_duration_ms: lease, renew_deadline_ms: lease * 3 / 5, retry_period_ms: lease / 5 };
        let design = settings.configure();
        let rows = Rows { design, services: 1, service_name: "API server" };
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
        Some(Box::new(ApiServer::new()))
    }

    fn client(&self, nodes: &[NodeId]) -> Option<Box<dyn LockClient>> {
        Some(Box::new(Elector::new(nodes[0], self.lease_duration_ms, self.renew_deadline_ms, self.retry_period_ms)))
    }

    /// The API server keeps no lease time; the electors time it (client-go, monotonic).
    fn service_clock(&self) -> TimerClock {
        TimerClock::Monotonic
    }

    fn connections(&self) -> &'static str {
        "client-go bounds each API call by a timeout and abandons it when the reply is overdue; the Lease is an object, not a session, so no connection ends it: it runs out only when a candidate sees it unrenewed for leaseDurationSeconds on its own clock"
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
