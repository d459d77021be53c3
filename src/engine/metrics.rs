//! Run metrics, counted from the trace: contention, expiries, renewal failures, duplicate work,
//! and stale writes accepted and rejected.

use super::checker::{FindingKind, Verdict};
use super::event::{Event, EventKind, LockEnd};
use super::ids::NodeId;
use super::msg::{Msg, MsgKind};
use serde::Serialize;

/// What a run cost and how often things went wrong.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Metrics {
    /// Requests that asked for the lock.
    pub acquire_requests: u32,
    /// Answers that said someone else holds it.
    pub contended: u32,
    pub gave_up: u32,
    /// Locks that ran out (a lease, a key, a session) or were taken over.
    pub expiries: u32,
    pub renewal_failures: u32,
    /// Pieces of work (distinct written values) done again by another client.
    pub duplicate_work: u32,
    /// Waiters woken by a notification (a ZooKeeper watch).
    pub wake_ups: u32,
    pub stale_writes_accepted: u32,
    pub stale_writes_rejected: u32,
}

impl Metrics {
    /// Counts the metrics of a finished run.
    pub fn of(events: &[Event], verdict: &Verdict) -> Metrics {
        let mut m = Metrics::default();
        // Each value written, with the clients that wrote it (a few dozen values at most).
        let mut writers: Vec<(&str, Vec<NodeId>)> = Vec::new();
        for e in events {
            match &e.kind {
                EventKind::Send { msg: Msg::Write { value, .. }, .. } => match writers.iter_mut().find(|w| w.0 == &**value) {
                    Some((_, list)) if !list.contains(&e.node) => list.push(e.node),
                    Some(_) => {}
                    None => writers.push((value, vec![e.node])),
                },
                EventKind::Send { msg, .. } if msg.kind() == MsgKind::Acquire => m.acquire_requests += 1,
                EventKind::Deliver { msg, .. } => match msg.kind() {
                    MsgKind::Busy => m.contended += 1,
                    MsgKind::WakeUp => m.wake_ups += 1,
                    MsgKind::Acquire | MsgKind::Request | MsgKind::Reply | MsgKind::Refusal => {}
                },
                EventKind::GaveUp { .. } => m.gave_up += 1,
                EventKind::LockEnded { how: LockEnd::Expired | LockEnd::Replaced, .. } => m.expiries += 1,
                EventKind::RenewalFailed { .. } => m.renewal_failures += 1,
                EventKind::Send { .. }
                | EventKind::Drop { .. }
                | EventKind::PauseStart { .. }
                | EventKind::PauseEnd
                | EventKind::Crash
                | EventKind::Restart { .. }
                | EventKind::ClockJump { .. }
                | EventKind::PartitionStart { .. }
                | EventKind::PartitionEnd { .. }
                | EventKind::LinkSlow { .. }
                | EventKind::HungUp { .. }
                | EventKind::WriteUndone { .. }
                | EventKind::LockGranted { .. }
                | EventKind::LockExtended { .. }
                | EventKind::LockEnded { .. }
                | EventKind::LockReplicated { .. }
                | EventKind::Promoted
                | EventKind::BeliefStart { .. }
                | EventKind::BeliefExtended { .. }
                | EventKind::BeliefEnd { .. }
                | EventKind::WriteAccepted { .. }
                | EventKind::WriteRejected { .. }
                | EventKind::LockChecked { .. }
                | EventKind::Done => {}
            }
        }
        m.duplicate_work = writers.iter().map(|w| w.1.len() as u32 - 1).sum();
        m.stale_writes_accepted = verdict.of(FindingKind::StaleWriteAccepted).count() as u32;
        m.stale_writes_rejected = verdict.of(FindingKind::StaleWriteRejected).count() as u32;
        m
    }
}
