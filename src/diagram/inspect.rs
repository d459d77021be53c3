//! The state of the world after each event, for the inspector: folded from the trace alone, so
//! stepping back is exact and needs no re-run. A [`Timeline`] keeps the state at every
//! [`CHECKPOINT_EVERY`]th event and folds forward from the nearest one, so memory stays small
//! and a step costs at most that many events.

use crate::engine::event::EventKind;
use crate::engine::holdings::{Change, Holdings};
use crate::engine::time::{LocalMillis, Millis};
use crate::engine::{NodeId, NodeKind, Trace};

/// Whether a node is running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Up,
    Paused,
    Down,
}

/// What one node looks like at the cursor.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeState {
    pub status: Status,
    /// A client's belief: (token, until local ms, if it foresees an end).
    pub belief: Option<(u64, Option<LocalMillis>)>,
    /// Whether the lock services agree that this client holds the lock.
    pub holds: bool,
    /// What a lock-service node holds: (holder, token, expires at local ms, if it expires).
    pub key: Option<(NodeId, u64, Option<LocalMillis>)>,
    /// The data this node stores, if it has taken a write: a resource's, or a lock service's
    /// when the data lives there.
    pub data: Option<ResourceState>,
}

/// The protected data's state at the node that stores it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResourceState {
    pub data: Option<String>,
    pub writer: Option<NodeId>,
    pub data_token: u64,
    pub version: u64,
    pub highest_token: u64,
}

/// Everything the inspector shows after one event.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    pub at_ms: Millis,
    pub nodes: Vec<NodeState>,
}

/// How many events lie between two kept states.
pub const CHECKPOINT_EVERY: usize = 256;

/// The state before any event, and the holdership that goes with it.
#[derive(Clone, Debug)]
struct State {
    snap: Snapshot,
    holdings: Holdings,
}

/// States kept every [`CHECKPOINT_EVERY`] events, from which any event's state is folded.
#[derive(Clone, Debug)]
pub struct Timeline {
    /// `checkpoints[k]` is the state before event `k * CHECKPOINT_EVERY`.
    checkpoints: Vec<State>,
}

impl Timeline {
    /// Folds the whole trace once, keeping a state every [`CHECKPOINT_EVERY`] events.
    pub fn new(trace: &Trace) -> Timeline {
        let mut cur = State {
            snap: Snapshot {
                at_ms: Millis::ZERO,
                nodes: trace
                    .participants
                    .iter()
                    .map(|_| NodeState { status: Status::Up, belief: None, holds: false, key: None, data: None })
                    .collect(),
            },
            holdings: Holdings::new(trace.quorum),
        };
        let mut checkpoints = Vec::with_capacity(trace.events.len() / CHECKPOINT_EVERY + 1);
        for i in 0..trace.events.len() {
            if i % CHECKPOINT_EVERY == 0 {
                checkpoints.push(cur.clone());
            }
            apply(&mut cur, trace, i);
        }
        Timeline { checkpoints }
    }

    /// Returns the state just after event `i`.
    pub fn at(&self, trace: &Trace, i: usize) -> Snapshot {
        let from = (i / CHECKPOINT_EVERY).min(self.checkpoints.len().saturating_sub(1));
        let Some(start) = self.checkpoints.get(from) else { return Snapshot::default() };
        let mut cur = start.clone();
        for j in from * CHECKPOINT_EVERY..=i.min(trace.events.len().saturating_sub(1)) {
            apply(&mut cur, trace, j);
        }
        cur.snap
    }
}

/// Applies event `i` to a state.
fn apply(state: &mut State, trace: &Trace, i: usize) {
    let e = &trace.events[i];
    let cur = &mut state.snap;
    cur.at_ms = e.at_ms;
    for change in state.holdings.apply(e) {
        match change {
            Change::Gained { holder, .. } => cur.nodes[holder.0].holds = true,
            Change::Lost { holder, .. } => cur.nodes[holder.0].holds = false,
        }
    }
    let node = &mut cur.nodes[e.node.0];
    match &e.kind {
        EventKind::PauseStart { .. } => node.status = Status::Paused,
        EventKind::PauseEnd | EventKind::Restart { keep_state: true } => node.status = Status::Up,
        EventKind::Restart { keep_state: false } => {
            node.status = Status::Up;
            if trace.participants[e.node.0].role == NodeKind::Resource {
                node.data = None;
            }
        }
        EventKind::Crash => node.status = Status::Down,
        EventKind::BeliefStart { token, until_local } | EventKind::BeliefExtended { token, until_local } => {
            node.belief = Some((*token, *until_local))
        }
        EventKind::BeliefEnd { .. } => node.belief = None,
        EventKind::LockGranted { token, holder, expires_local }
        | EventKind::LockExtended { token, holder, expires_local }
        | EventKind::LockReplicated { token, holder, expires_local } => node.key = Some((*holder, *token, *expires_local)),
        EventKind::LockEnded { .. } => node.key = None,
        EventKind::WriteAccepted { writer, token, value, version } => {
            let r = node.data.get_or_insert_with(ResourceState::default);
            r.data = Some(value.to_string());
            r.writer = Some(*writer);
            r.data_token = *token;
            r.version = *version;
            r.highest_token = r.highest_token.max(*token);
        }
        EventKind::WriteUndone { value, version, .. } => {
            let r = node.data.get_or_insert_with(ResourceState::default);
            r.version = *version;
            // The last value written is gone if that is the one undone.
            if r.data.as_deref() == Some(&**value) {
                (r.data, r.writer) = (None, None);
            }
        }
        EventKind::Send { .. }
        | EventKind::Deliver { .. }
        | EventKind::Drop { .. }
        | EventKind::ClockJump { .. }
        | EventKind::PartitionStart { .. }
        | EventKind::PartitionEnd { .. }
        | EventKind::LinkSlow { .. }
        | EventKind::HungUp { .. }
        | EventKind::Promoted
        | EventKind::RenewalFailed { .. }
        | EventKind::GaveUp { .. }
        | EventKind::WriteRejected { .. }
        | EventKind::LockChecked { .. }
        | EventKind::Done => {}
    }
}
