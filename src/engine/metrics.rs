//! Run metrics, counted from the trace: contention, expiries, renewal failures, duplicate work,
//! and stale writes accepted and rejected.

use super::checker::{FindingKind, Verdict};
use super::msg::Msg;
use super::trace::{Event, EventKind, LeaseEnd};
use super::NodeId;
use serde::Serialize;
use std::collections::BTreeMap;

/// What a run cost and how often things went wrong.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Metrics {
    pub acquire_requests: u32,
    /// Attempts that were refused or went unanswered.
    pub contended: u32,
    pub gave_up: u32,
    pub lease_expiries: u32,
    pub renewal_failures: u32,
    /// Pieces of work (distinct written values) done again by another client.
    pub duplicate_work: u32,
    /// Waiters woken by a watch (ZooKeeper).
    pub wake_ups: u32,
    pub stale_writes_accepted: u32,
    pub stale_writes_rejected: u32,
}

impl Metrics {
    /// Counts the metrics of a finished run.
    pub fn of(events: &[Event], verdict: &Verdict) -> Metrics {
        let mut m = Metrics::default();
        let mut writers: BTreeMap<&str, Vec<NodeId>> = BTreeMap::new();
        for e in events {
            match &e.kind {
                EventKind::Send { msg: Msg::Acquire { .. }, .. } => m.acquire_requests += 1,
                EventKind::Deliver { msg: Msg::Busy, .. } => m.contended += 1,
                EventKind::Deliver { msg: Msg::WatchFired { .. }, .. } => m.wake_ups += 1,
                EventKind::GaveUp { .. } => m.gave_up += 1,
                EventKind::LeaseEnded { how: LeaseEnd::Expired, .. } => m.lease_expiries += 1,
                EventKind::RenewalFailed { .. } => m.renewal_failures += 1,
                EventKind::Send { msg: Msg::Write { value, .. }, .. } => {
                    let list = writers.entry(value.as_str()).or_default();
                    if !list.contains(&e.node) {
                        list.push(e.node);
                    }
                }
                _ => {}
            }
        }
        m.duplicate_work = writers.values().map(|w| w.len() as u32 - 1).sum();
        m.stale_writes_accepted = verdict.of(FindingKind::StaleWriteAccepted).count() as u32;
        m.stale_writes_rejected = verdict.of(FindingKind::StaleWriteRejected).count() as u32;
        m
    }

    /// Renders the metrics as one line for the text trace.
    pub fn to_text(&self) -> String {
        format!(
            "metrics: {} acquire requests ({} refused, {} gave up, {} wake-ups), {} lease expiries, {} renewal failures, {} duplicate work, stale writes {} accepted / {} rejected\n",
            self.acquire_requests,
            self.contended,
            self.gave_up,
            self.wake_ups,
            self.lease_expiries,
            self.renewal_failures,
            self.duplicate_work,
            self.stale_writes_accepted,
            self.stale_writes_rejected
        )
    }
}
