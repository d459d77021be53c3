//! The pauses, partitions and crashes a path of the exploration has started, each planned to
//! its longest and maybe ended early since.

use crate::engine::fault::Fault;
use crate::engine::fingerprint::Fingerprint;
use crate::engine::Spec;
use std::hash::{Hash, Hasher};

/// A pause, partition or crash the path started: planned to its longest, and maybe ended early.
#[derive(Clone, Copy)]
pub(super) struct Open {
    /// Its place in the spec.
    pub(super) place: usize,
    /// The place of the fault whose instant ends it: its own, or a crash's restart.
    pub(super) fault: usize,
    /// What it is, for the fingerprint: a paused or crashed node, or a hash of what a partition
    /// cuts.
    pub(super) what: (u8, u64),
    pub(super) start: u64,
    pub(super) planned: u64,
    /// When it ends: `planned`, unless ended early.
    pub(super) end: u64,
}

impl Open {
    /// The pause, partition or crash fault `place` of `spec` is, started at `t`, if it is one.
    pub(super) fn of(spec: &Spec, place: usize, t: u64) -> Option<Open> {
        let (fault, what, planned) = match (spec.faults.get(place)?, spec.faults.get(place + 1)) {
            (Fault::Pause { node, for_ms, .. }, _) => (place, (0, node.0 as u64), t + for_ms.unsigned_abs()),
            (Fault::Partition { from, to, two_way, for_ms, .. }, _) => {
                let mut h = Fingerprint::default();
                (from, to, two_way).hash(&mut h);
                (place, (1, h.finish()), t + for_ms.unsigned_abs())
            }
            (Fault::Crash { node, .. }, Some(Fault::Restart { at_ms, .. })) => (place + 1, (2, node.0 as u64), at_ms.unsigned_abs()),
            _ => return None,
        };
        Some(Open { place, fault, what, start: t, planned, end: planned })
    }

    /// Whether it may be ended at instant `t` (or was, at `t`, by a branch of the same state).
    pub(super) fn endable(&self, t: u64) -> bool {
        self.start < t && t < self.planned && self.end >= t
    }
}
