//! What the explorers of one verification share, so that several threads can explore side by
//! side: the table of states explored, the verdicts of the runs judged, which of the start's
//! branches each explorer takes, and whether to stop.

use super::visited::Visited;
use crate::engine::FindingKind;
use crate::limits::MAX_VERIFY_FAULTS;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The first harm of each finished run judged, by the fingerprint of what the checker read of
/// it: runs alike there have the same verdict, so each is checked once.
type Verdicts = HashMap<u128, Option<FindingKind>>;

/// The tables and counters explorers share.
pub struct Shared {
    pub visited: Visited,
    verdicts: Mutex<Verdicts>,
    max: usize,
    /// For each pass, the next of the start's branches no explorer has taken.
    claims: [AtomicUsize; MAX_VERIFY_FAULTS + 1],
    stop: AtomicBool,
}

impl Shared {
    /// Empty tables for at most `max` states and as many verdicts.
    pub fn new(max: usize) -> Shared {
        let claims = std::array::from_fn(|_| AtomicUsize::new(0));
        Shared { visited: Visited::new(max), verdicts: Mutex::new(HashMap::new()), max, claims, stop: AtomicBool::new(false) }
    }

    fn verdicts(&self) -> std::sync::MutexGuard<'_, Verdicts> {
        self.verdicts.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The verdict of a run judged already, by its fingerprint.
    pub fn verdict(&self, key: u128) -> Option<Option<FindingKind>> {
        self.verdicts().get(&key).copied()
    }

    /// Keeps a run's verdict, while there is room.
    pub fn keep(&self, key: u128, harm: Option<FindingKind>) {
        let mut verdicts = self.verdicts();
        if verdicts.len() < self.max {
            verdicts.insert(key, harm);
        }
    }

    /// How many fingerprints it keeps: of the states explored and of the runs judged.
    pub fn fingerprints(&self) -> usize {
        self.visited.len() + self.verdicts().len()
    }

    /// The bytes the two tables take.
    pub fn bytes(&self) -> usize {
        self.visited.bytes() + self.verdicts().capacity() * std::mem::size_of::<(u128, Option<FindingKind>)>()
    }

    /// Takes the next of the start's branches in `pass` that no explorer has taken: its number,
    /// counting from 0 in the order every explorer meets them.
    pub fn claim(&self, pass: usize) -> usize {
        self.claims[pass.min(MAX_VERIFY_FAULTS)].fetch_add(1, Ordering::Relaxed)
    }

    /// Tells every explorer to stop.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether an explorer was told to stop.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}
