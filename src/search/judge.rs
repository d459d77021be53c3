//! What counts as a failure: a safety violation the checker found (a stale write accepted, a
//! lost update), or no progress: a client kept waiting for the lock longer than the stall limit,
//! or a run still going at the search's limits. Every run is judged.

use crate::engine::msg::MsgKind;
use crate::engine::time::Millis;
use crate::engine::{EventKind, FindingKind, NodeKind, Trace};
use serde::Serialize;

/// A kind of failure; shrinking keeps the kind it started with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "failure", content = "finding", rename_all = "snake_case")]
pub enum Failure {
    Safety(FindingKind),
    Liveness(Liveness),
}

/// Why a run made no progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Liveness {
    /// A client waited for the lock longer than the stall limit, behind a holder that could not act.
    Stalled,
    /// The run was still going at the search's limit of events or time: a client never finished.
    Unfinished,
}

/// Who waited for the lock too long, behind whom, and when that showed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stall {
    pub at_ms: u64,
    pub waiter: usize,
    /// The holder that could not act while the waiter waited, and why it could not.
    pub holder: usize,
    pub why: &'static str,
}

/// The first failure in a run, and when it showed; `unfinished` says the run was stopped at a limit.
pub fn judge(trace: &Trace, stall_ms: u64, unfinished: bool) -> Option<(Failure, u64)> {
    if let Some(f) = trace.verdict.findings.iter().find(|f| f.kind().is_harm()) {
        return Some((Failure::Safety(f.kind()), f.at_ms.as_ms()));
    }
    if let Some(s) = stalled(trace, stall_ms) {
        return Some((Failure::Liveness(Liveness::Stalled), s.at_ms));
    }
    let last_ms = trace.events.last().map_or(0, |e| e.at_ms.as_ms());
    unfinished.then_some((Failure::Liveness(Liveness::Unfinished), last_ms))
}

/// When a client had waited for the lock for more than `stall_ms` (at the moment it got it, or
/// at the end of the run) while the lock was held for a client that could not act (paused,
/// crashed or cut off from the lock service), with the waiter and the service able to act: a
/// stall of the design's, such as a paused holder whose lock never expires. Waiting behind a
/// holder at work, or for a server that is down, is not one.
pub fn stalled(trace: &Trace, stall_ms: u64) -> Option<Stall> {
    let n = trace.participants.len();
    let service = |i: usize| trace.participants[i].role == NodeKind::LockService;
    let mut nodes = vec![Availability::default(); n];
    // Each lock-service node's holder, and each client's counted wait, if it waits.
    let mut holder: Vec<Option<usize>> = vec![None; n];
    let mut waited: Vec<Option<u64>> = vec![None; n];
    // The last holder each waiter was counted waiting behind.
    let mut behind: Vec<(usize, &'static str)> = vec![(0, ""); n];
    let mut last_ms = Millis::ZERO;
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
        // The conditions held since the last event: count the time for each waiter.
        let stuck = holder.iter().flatten().copied().find(|&h| nodes[h].down());
        if let Some(h) = stuck.filter(|_| !(0..n).any(|k| service(k) && nodes[k].down())) {
            for (c, w) in waited.iter_mut().enumerate() {
                if let Some(w) = w.as_mut().filter(|_| !nodes[c].down()) {
                    *w += (e.at_ms - last_ms).as_ms();
                    behind[c] = (h, nodes[h].why());
                }
            }
        }
        last_ms = e.at_ms;
        let i = e.node.0;
        match &e.kind {
            EventKind::PauseStart { .. } | EventKind::PauseEnd | EventKind::Crash | EventKind::Restart { .. } => nodes[i].apply(&e.kind),
            EventKind::PartitionStart { from, to, .. } | EventKind::PartitionEnd { from, to } => {
                for k in cut_off(from, to) {
                    nodes[k].apply(&e.kind);
                }
            }
            EventKind::LockGranted { holder: h, .. } if service(i) => holder[i] = Some(h.0),
            EventKind::LockEnded { .. } if service(i) => holder[i] = None,
            EventKind::Send { msg, .. } if msg.kind() == MsgKind::Acquire && waited[i].is_none() && !service(i) => waited[i] = Some(0),
            EventKind::BeliefStart { .. } if waited[i].take().is_some_and(|w| w > stall_ms) => {
                let (holder, why) = behind[i];
                return Some(Stall { at_ms: e.at_ms.as_ms(), waiter: i, holder, why });
            }
            // A client that gave up (or lost its place with its session) chose to stop waiting.
            EventKind::GaveUp { .. } | EventKind::Done => waited[i] = None,
            _ => {}
        }
    }
    let waiter = waited.iter().position(|w| w.is_some_and(|w| w > stall_ms))?;
    let (holder, why) = behind[waiter];
    Some(Stall { at_ms: last_ms.as_ms(), waiter, holder, why })
}

/// Whether a node can act: not paused, not crashed, and in no partition that cuts it off from
/// the lock service.
#[derive(Clone, Copy, Default)]
struct Availability {
    paused: bool,
    crashed: bool,
    cuts: u32,
}

impl Availability {
    fn down(&self) -> bool {
        self.paused || self.crashed || self.cuts > 0
    }

    /// Why a node that is down cannot act.
    fn why(&self) -> &'static str {
        if self.crashed {
            "crashed"
        } else if self.paused {
            "paused"
        } else {
            "cut off from the lock service"
        }
    }

    fn apply(&mut self, kind: &EventKind) {
        match kind {
            EventKind::PauseStart { .. } => self.paused = true,
            EventKind::PauseEnd => self.paused = false,
            EventKind::Crash => self.crashed = true,
            EventKind::Restart { .. } => self.crashed = false,
            EventKind::PartitionStart { .. } => self.cuts += 1,
            EventKind::PartitionEnd { .. } => self.cuts = self.cuts.saturating_sub(1),
            _ => {}
        }
    }
}
