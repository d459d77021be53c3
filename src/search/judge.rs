//! What counts as a failure: a safety violation the checker found (a stale write accepted, a
//! lost update), or a client kept waiting for the lock longer than the stall limit.

use crate::engine::msg::MsgKind;
use crate::engine::{EventKind, FindingKind, NodeKind, Trace};
use serde::Serialize;

/// A kind of failure; shrinking keeps the kind it started with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "failure", content = "finding", rename_all = "snake_case")]
pub enum Failure {
    Safety(FindingKind),
    /// No progress: a client waited for the lock longer than the stall limit.
    Liveness,
}

/// The first failure in a run, and when it showed.
pub fn judge(trace: &Trace, stall_ms: u64) -> Option<(Failure, u64)> {
    if let Some(f) = trace.verdict.findings.iter().find(|f| f.kind().is_violation()) {
        return Some((Failure::Safety(f.kind()), f.at_ms));
    }
    stalled(trace, stall_ms).map(|at| (Failure::Liveness, at))
}

/// When a client had waited for the lock for more than `stall_ms` before it got the lock (or
/// by the end of the run), if one did. Time the lock service
/// was down or paused, or the waiter itself paused or cut off, does not count: a stall is the
/// design's, such as a holder that never lets go.
fn stalled(trace: &Trace, stall_ms: u64) -> Option<u64> {
    let n = trace.participants.len();
    let service = |i: usize| trace.participants[i].role == NodeKind::LockService;
    // Per node: since when it has been unavailable (paused, crashed or cut off), if it is.
    let mut down_since: Vec<Option<u64>> = vec![None; n];
    // Per client: when its wait began, and the unavailable time within it so far.
    let mut waiting: Vec<Option<(u64, u64)>> = vec![None; n];
    let mut service_down: Option<u64> = None;
    let end = trace.events.last().map_or(0, |e| e.at_ms);
    let over = |(since, lost): (u64, u64), now: u64| (now - since).saturating_sub(lost) > stall_ms;
    for e in &trace.events {
        let i = e.node.0;
        let (went_down, came_up) = match &e.kind {
            EventKind::PauseStart { .. } | EventKind::Crash => (vec![i], vec![]),
            EventKind::PauseEnd | EventKind::Restart { .. } => (vec![], vec![i]),
            EventKind::PartitionStart { from, to, .. } => (from.iter().chain(to).map(|n| n.0).collect(), vec![]),
            EventKind::PartitionEnd { from, to } => (vec![], from.iter().chain(to).map(|n| n.0).collect()),
            _ => (vec![], vec![]),
        };
        for d in went_down {
            down_since[d].get_or_insert(e.at_ms);
            if service(d) {
                service_down.get_or_insert(e.at_ms);
            }
        }
        for u in came_up {
            if let Some(since) = down_since[u].take() {
                let service_since =
                    if service(u) && !(0..n).any(|k| service(k) && down_since[k].is_some()) { service_down.take() } else { None };
                for (c, w) in waiting.iter_mut().enumerate() {
                    if let Some(w) = w {
                        let lost_from = if c == u { Some(since) } else { service_since };
                        if let Some(from) = lost_from {
                            w.1 += e.at_ms - from.max(w.0);
                        }
                    }
                }
            }
        }
        if trace.participants[i].role != NodeKind::Client {
            continue;
        }
        match &e.kind {
            EventKind::Send { msg, .. } if msg.kind() == MsgKind::Acquire && waiting[i].is_none() => waiting[i] = Some((e.at_ms, 0)),
            EventKind::BeliefStart { .. } => {
                if let Some(w) = waiting[i].take() {
                    if over(w, e.at_ms) {
                        return Some(e.at_ms);
                    }
                }
            }
            // A client that gave up (or lost its place with its session) chose to stop waiting.
            EventKind::GaveUp { .. } | EventKind::Done => waiting[i] = None,
            _ => {}
        }
    }
    waiting.iter().flatten().find(|w| over(**w, end)).map(|_| end)
}
