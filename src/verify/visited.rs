//! The states a verification has explored, by fingerprint.
//!
//! A fingerprint is 128 bits, hashed from everything a state's future depends on, each part in
//! a fixed order (the parts kept in no particular order, such as a node's live timers, are fed
//! in ascending order, not summed, so no part is narrower than the whole). Two states
//! with the same fingerprint are taken to be the same state, so a fingerprint collision would
//! wrongly skip a state never explored. Treating fingerprints as random, the chance that any two
//! of `n` states collide is below n² / 2¹²⁶ (125 bits are compared: the other 3 hold how many
//! faults were left), and the report prints that bound for the states it kept: for ten million
//! states it is below 10⁻²³. (TLC and SPIN report the same kind of estimate for their hash
//! compaction.)

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

/// The bits of an entry that hold how many faults were left.
const LEFT: u128 = 0b111;
/// How many parts the table is split into, each behind a lock of its own, so that threads
/// exploring side by side seldom wait for one another (the top bits of a fingerprint pick one).
const SHARDS: usize = 32;
/// Slots each part starts with.
const FIRST_SLOTS: usize = 64;

/// The fingerprints of the states explored, each kept with the most faults that were left when
/// its state was explored: a state reached again with no more faults left has nothing new to
/// explore. It holds at most `max` states, and threads may share it.
pub struct Visited {
    shards: Box<[Line<Mutex<Shard>>]>,
    len: Line<AtomicUsize>,
    max: usize,
}

/// A value on a cache line of its own, so that threads writing values side by side do not
/// take the line from each other.
#[repr(align(64))]
struct Line<T>(T);

/// One part of the table: open addressing, 0 marking an empty slot.
struct Shard {
    slots: Vec<u128>,
    len: usize,
}

/// What [`Visited::visit`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visit {
    /// First seen, or seen with fewer faults left: explore it.
    New,
    /// Explored already with as many faults left or more.
    Seen,
    /// The table holds its most states.
    Full,
}

impl Visited {
    /// An empty table for at most `max` states.
    pub fn new(max: usize) -> Visited {
        let shards = (0..SHARDS).map(|_| Line(Mutex::new(Shard { slots: vec![0; FIRST_SLOTS], len: 0 }))).collect();
        Visited { shards, len: Line(AtomicUsize::new(0)), max }
    }

    /// How many states it holds.
    pub fn len(&self) -> usize {
        self.len.0.load(Ordering::Relaxed)
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes its table takes.
    pub fn bytes(&self) -> usize {
        (0..SHARDS).map(|i| self.shard(i).slots.len() * std::mem::size_of::<u128>()).sum()
    }

    /// Part `i`, locked. (A thread that panicked holding it left it whole: each change to a
    /// part is one store, or a grow that replaces its slots at once.)
    fn shard(&self, i: usize) -> MutexGuard<'_, Shard> {
        self.shards[i].0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Records a state by its fingerprint, with `left` faults left (at most 7). (Threads
    /// sharing the table may each add a state as it fills: it may end up to one state per
    /// thread over its most.)
    pub fn visit(&self, fingerprint: u128, left: usize) -> Visit {
        // 0 marks an empty slot: no fingerprint is kept as 0.
        let key = (fingerprint & !LEFT).max(LEFT + 1);
        let entry = key | (left as u128).min(LEFT);
        let mut shard = self.shard((key >> 123) as usize % SHARDS);
        let mask = shard.slots.len() - 1;
        let mut i = (key >> 64) as usize & mask;
        loop {
            let slot = shard.slots[i];
            if slot == 0 {
                break;
            }
            if slot & !LEFT == key {
                if slot & LEFT >= entry & LEFT {
                    return Visit::Seen;
                }
                shard.slots[i] = entry;
                return Visit::New;
            }
            i = (i + 1) & mask;
        }
        if self.len() >= self.max {
            return Visit::Full;
        }
        shard.slots[i] = entry;
        shard.len += 1;
        self.len.0.fetch_add(1, Ordering::Relaxed);
        if shard.len * 2 > shard.slots.len() {
            shard.grow();
        }
        Visit::New
    }
}

impl Shard {
    /// Doubles the part.
    fn grow(&mut self) {
        let larger = vec![0; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, larger);
        let mask = self.slots.len() - 1;
        for entry in old.into_iter().filter(|&e| e != 0) {
            let mut i = (entry >> 64) as usize & mask;
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = entry;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::fingerprint::Fingerprint;
    use std::hash::Hasher;

    #[test]
    fn a_state_is_new_once_unless_it_comes_back_with_more_faults_left() {
        let v = Visited::new(10);
        assert_eq!(v.visit(12345 << 64, 1), Visit::New);
        assert_eq!(v.visit(12345 << 64, 1), Visit::Seen);
        assert_eq!(v.visit(12345 << 64, 0), Visit::Seen);
        assert_eq!(v.visit(12345 << 64, 2), Visit::New);
        assert_eq!(v.visit(12345 << 64, 2), Visit::Seen);
        assert_eq!(v.len(), 1);
    }

    #[test]
    fn it_grows_keeps_every_state_and_stops_at_its_most() {
        let v = Visited::new(5_000);
        let fp = |i: u128| {
            let mut h = Fingerprint::default();
            h.write_u64(i as u64);
            h.finish128()
        };
        for i in 0..5_000 {
            assert_eq!(v.visit(fp(i), 0), Visit::New, "state {i}");
        }
        assert!((0..5_000).all(|i| v.visit(fp(i), 0) == Visit::Seen));
        assert_eq!(v.visit(fp(5_000), 0), Visit::Full);
        assert_eq!(v.len(), 5_000);
        assert!(v.bytes() >= 5_000 * 16);
    }
}
