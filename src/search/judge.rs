//! What counts as a failure: a safety violation the checker found (a stale write accepted, a
//! lost update), or no progress: a client kept waiting for the lock longer than the stall limit,
//! or a run still going at the search's limits. Every run is judged.

use crate::engine::msg::MsgKind;
use crate::engine::time::Millis;
use crate::engine::{Event, EventKind, Finding, FindingKind, NodeId, NodeKind};
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

/// The first failure in a run (its events, the checker's findings and each participant's role),
/// and when it showed; `unfinished` says the run was stopped at a limit.
pub fn judge(events: &[Event], findings: &[Finding], roles: &[NodeKind], stall_ms: u64, unfinished: bool) -> Option<(Failure, u64)> {
    if let Some(f) = findings.iter().find(|f| f.kind().is_harm()) {
        return Some((Failure::Safety(f.kind()), f.at_ms.as_ms()));
    }
    if let Some(s) = stalled(events, roles, stall_ms) {
        return Some((Failure::Liveness(Liveness::Stalled), s.at_ms));
    }
    let last_ms = events.last().map_or(0, |e| e.at_ms.as_ms());
    unfinished.then_some((Failure::Liveness(Liveness::Unfinished), last_ms))
}

/// What the stall check follows for one participant.
#[derive(Clone, Copy, Default)]
struct Follow {
    can: Availability,
    /// A lock-service node's holder.
    holder: Option<usize>,
    /// A client's counted wait, if it waits.
    waited: Option<u64>,
    /// The last holder the waiter was counted waiting behind, and why that one could not act.
    behind: (usize, &'static str),
}

/// When a client had waited for the lock for more than `stall_ms` (at the moment it got it, or
/// at the end of the run) while the lock was held for a client that could not act (paused,
/// crashed or cut off from the lock service), with the waiter and the service able to act: a
/// stall of the design's, such as a paused holder whose lock never expires. Waiting behind a
/// holder at work, or for a server that is down, is not one.
pub fn stalled(events: &[Event], roles: &[NodeKind], stall_ms: u64) -> Option<Stall> {
    // A run no longer than the limit kept nobody waiting longer.
    if events.last().is_none_or(|e| e.at_ms.as_ms() <= stall_ms) {
        return None;
    }
    let service = |i: usize| roles[i] == NodeKind::LockService;
    let mut at = vec![Follow::default(); roles.len()];
    let mut last_ms = Millis::ZERO;
    // How many clients wait, and how many participants are down: with no waiter or nobody
    // down, there is no time to count.
    let (mut waiting, mut down) = (0usize, 0usize);
    for e in events {
        // The conditions held since the last event: count the time for each waiter.
        let stuck = (waiting > 0 && down > 0).then(|| at.iter().filter_map(|f| f.holder).find(|&h| at[h].can.down())).flatten();
        if let Some(h) = stuck.filter(|_| !at.iter().enumerate().any(|(k, f)| service(k) && f.can.down())) {
            let why = at[h].can.why();
            for f in at.iter_mut().filter(|f| !f.can.down()) {
                if let Some(w) = f.waited.as_mut() {
                    *w += (e.at_ms - last_ms).as_ms();
                    f.behind = (h, why);
                }
            }
        }
        last_ms = e.at_ms;
        let i = e.node.0;
        match &e.kind {
            EventKind::PauseStart { .. } | EventKind::PauseEnd | EventKind::Crash | EventKind::Restart { .. } => {
                at[i].can.apply(&e.kind, &mut down)
            }
            EventKind::PartitionStart { from, to, .. } | EventKind::PartitionEnd { from, to } => {
                // A client is cut off when a partition puts it and a lock-service node on opposite sides.
                let has_service = |side: &[NodeId]| side.iter().any(|n| service(n.0));
                let sides = [(from, has_service(to)), (to, has_service(from))];
                for (side, _) in sides.iter().filter(|(_, facing)| *facing) {
                    for k in side.iter().map(|n| n.0).filter(|&k| !service(k)) {
                        at[k].can.apply(&e.kind, &mut down);
                    }
                }
            }
            EventKind::LockGranted { holder: h, .. } if service(i) => at[i].holder = Some(h.0),
            EventKind::LockEnded { .. } if service(i) => at[i].holder = None,
            EventKind::Send { msg, .. } if at[i].waited.is_none() && !service(i) && msg.kind() == MsgKind::Acquire => {
                at[i].waited = Some(0);
                waiting += 1;
            }
            EventKind::BeliefStart { .. } if at[i].waited.is_some() => {
                waiting -= 1;
                if at[i].waited.take().is_some_and(|w| w > stall_ms) {
                    let (holder, why) = at[i].behind;
                    return Some(Stall { at_ms: e.at_ms.as_ms(), waiter: i, holder, why });
                }
            }
            // A client that gave up (or lost its place with its session) chose to stop waiting.
            EventKind::GaveUp { .. } | EventKind::Done if at[i].waited.is_some() => {
                at[i].waited = None;
                waiting -= 1;
            }
            _ => {}
        }
    }
    let waiter = at.iter().position(|f| f.waited.is_some_and(|w| w > stall_ms))?;
    let (holder, why) = at[waiter].behind;
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

    /// Applies an event that may bring the node down or up, keeping `down`, the count of nodes
    /// down, in step.
    fn apply(&mut self, kind: &EventKind, down: &mut usize) {
        let was = self.down();
        match kind {
            EventKind::PauseStart { .. } => self.paused = true,
            EventKind::PauseEnd => self.paused = false,
            EventKind::Crash => self.crashed = true,
            EventKind::Restart { .. } => self.crashed = false,
            EventKind::PartitionStart { .. } => self.cuts += 1,
            EventKind::PartitionEnd { .. } => self.cuts = self.cuts.saturating_sub(1),
            _ => {}
        }
        match (was, self.down()) {
            (false, true) => *down += 1,
            (true, false) => *down -= 1,
            _ => {}
        }
    }
}
