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
    let mut nodes = vec![Availability::default(); n];
    let mut services_down_since: Option<u64> = None;
    // Per client: when its wait began, and the unavailable time within it so far.
    let mut waiting: Vec<Option<(u64, u64)>> = vec![None; n];
    let end = trace.events.last().map_or(0, |e| e.at_ms);
    // A client is cut off when a partition puts it and a lock-service node on opposite sides.
    let cut_off = |from: &[crate::engine::NodeId], to: &[crate::engine::NodeId]| -> Vec<usize> {
        let has_service = |side: &[crate::engine::NodeId]| side.iter().any(|n| service(n.0));
        let mut out: Vec<usize> = Vec::new();
        if has_service(to) {
            out.extend(from.iter().map(|n| n.0).filter(|&k| !service(k)));
        }
        if has_service(from) {
            out.extend(to.iter().map(|n| n.0).filter(|&k| !service(k)));
        }
        out
    };
    for e in &trace.events {
        let i = e.node.0;
        let touched: Vec<usize> = match &e.kind {
            EventKind::PauseStart { .. } | EventKind::PauseEnd | EventKind::Crash | EventKind::Restart { .. } => vec![i],
            EventKind::PartitionStart { from, to, .. } | EventKind::PartitionEnd { from, to } => cut_off(from, to),
            _ => Vec::new(),
        };
        for k in touched {
            let was = nodes[k].down();
            nodes[k].apply(&e.kind);
            match (was, nodes[k].down()) {
                (false, true) => nodes[k].since = e.at_ms,
                (true, false) => {
                    if let Some(w) = waiting[k].as_mut() {
                        w.1 += e.at_ms.saturating_sub(nodes[k].since.max(w.0));
                    }
                }
                _ => {}
            }
        }
        // While any lock-service node is unavailable, nobody's wait counts.
        let services_down = (0..n).any(|k| service(k) && nodes[k].down());
        match (services_down_since, services_down) {
            (None, true) => services_down_since = Some(e.at_ms),
            (Some(from), false) => {
                services_down_since = None;
                for w in waiting.iter_mut().flatten() {
                    w.1 += e.at_ms.saturating_sub(from.max(w.0));
                }
            }
            _ => {}
        }
        if trace.participants[i].role != NodeKind::Client {
            continue;
        }
        // How long a wait has lasted, less the time the waiter or the service was unavailable,
        // stretches still running included.
        let counted = |k: usize, (since, lost): (u64, u64), now: u64| {
            let running = |from: u64| now.saturating_sub(from.max(since));
            let own = if nodes[k].down() { running(nodes[k].since) } else { 0 };
            let services = services_down_since.map_or(0, running);
            (now - since).saturating_sub(lost + own + services)
        };
        match &e.kind {
            EventKind::Send { msg, .. } if msg.kind() == MsgKind::Acquire && waiting[i].is_none() => waiting[i] = Some((e.at_ms, 0)),
            EventKind::BeliefStart { .. } => {
                if let Some(w) = waiting[i].take() {
                    if counted(i, w, e.at_ms) > stall_ms {
                        return Some(e.at_ms);
                    }
                }
            }
            // A client that gave up (or lost its place with its session) chose to stop waiting.
            EventKind::GaveUp { .. } | EventKind::Done => waiting[i] = None,
            _ => {}
        }
    }
    let counted = |k: usize, (since, lost): (u64, u64)| {
        let running = |from: u64| end.saturating_sub(from.max(since));
        let own = if nodes[k].down() { running(nodes[k].since) } else { 0 };
        (end - since).saturating_sub(lost + own + services_down_since.map_or(0, running))
    };
    waiting.iter().enumerate().any(|(k, w)| w.is_some_and(|w| counted(k, w) > stall_ms)).then_some(end)
}

/// Whether a node can act: not paused, not crashed, and in no partition; and since when not.
#[derive(Clone, Copy, Default)]
struct Availability {
    paused: bool,
    crashed: bool,
    cuts: u32,
    since: u64,
}

impl Availability {
    fn down(&self) -> bool {
        self.paused || self.crashed || self.cuts > 0
    }

    fn apply(&mut self, kind: &EventKind) {
        match kind {
            EventKind::PauseStart { .. } => self.paused = true,
            EventKind::PauseEnd => self.paused = false,
            EventKind::Crash => self.crashed = true,
            EventKind::Restart { .. } => self.crashed = false,
            // Only partitions that cut the node off from the lock service reach here.
            EventKind::PartitionStart { .. } => self.cuts += 1,
            EventKind::PartitionEnd { .. } => self.cuts = self.cuts.saturating_sub(1),
            _ => {}
        }
    }
}
