//! The simulator's queue of what is due, ordered by (true time, sequence): a binary heap of
//! small keys over a slab of entries, so sifting moves 24 bytes rather than a message, and a
//! slot freed by a pop is reused by the next push.

use super::copy::field_clone;
use super::time::Millis;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Room for sorting a queue's keys: see [`Queue::in_order`].
pub type QueueKeys = Vec<Reverse<(Millis, u64, u32)>>;

/// Entries due at true instants; among entries due at the same instant, the first pushed pops
/// first (or the one given the earlier reserved place: [`Queue::reserve`]).
pub struct Queue<T> {
    heap: BinaryHeap<Reverse<(Millis, u64, u32)>>,
    slab: Vec<Option<T>>,
    free: Vec<u32>,
    seq: u64,
}

field_clone!(Queue<T> { heap, slab, free, seq });

impl<T> Queue<T> {
    /// An empty queue with room for `n` entries before it grows.
    pub fn with_capacity(n: usize) -> Self {
        Queue { heap: BinaryHeap::with_capacity(n), slab: Vec::with_capacity(n), free: Vec::with_capacity(n), seq: 0 }
    }

    /// Empties the queue, keeping its room.
    pub fn clear(&mut self) {
        self.heap.clear();
        self.slab.clear();
        self.free.clear();
        self.seq = 0;
    }

    /// Adds `what`, due at `at_ms`.
    pub fn push(&mut self, at_ms: Millis, what: T) {
        self.seq += 1;
        self.push_at(at_ms, self.seq, what);
    }

    /// Keeps the next `n` places in the order pushed for [`Queue::push_reserved`]; returns the
    /// first.
    pub fn reserve(&mut self, n: u64) -> u64 {
        self.seq += n;
        self.seq - n + 1
    }

    /// Adds `what`, due at `at_ms`, in the place `seq` that [`Queue::reserve`] kept.
    pub fn push_reserved(&mut self, at_ms: Millis, seq: u64, what: T) {
        self.push_at(at_ms, seq, what);
    }

    fn push_at(&mut self, at_ms: Millis, seq: u64, what: T) {
        let slot = match self.free.pop() {
            Some(slot) => {
                self.slab[slot as usize] = Some(what);
                slot
            }
            None => {
                self.slab.push(Some(what));
                // A run's queue is bounded by its event limit, far below `u32::MAX` entries.
                u32::try_from(self.slab.len() - 1).unwrap_or(u32::MAX)
            }
        };
        self.heap.push(Reverse((at_ms, seq, slot)));
    }

    /// The instant the next entry is due.
    pub fn next_due(&self) -> Option<Millis> {
        self.heap.peek().map(|Reverse((at_ms, _, _))| *at_ms)
    }

    /// Moves each entry to the instant `due` gives, keeping its place among entries due at the
    /// same instant.
    pub fn retime(&mut self, mut due: impl FnMut(&T, Millis) -> Millis) {
        let mut keys = std::mem::take(&mut self.heap).into_vec();
        for Reverse((at_ms, _, slot)) in &mut keys {
            if let Some(what) = &self.slab[*slot as usize] {
                *at_ms = due(what, *at_ms);
            }
        }
        self.heap = BinaryHeap::from(keys);
    }

    /// Shows `f` every entry in the order they would pop, with the instant each is due, sorting
    /// their keys in `keys`.
    pub fn in_order(&self, keys: &mut QueueKeys, mut f: impl FnMut(Millis, &T)) {
        keys.clear();
        keys.extend(self.heap.iter().copied());
        keys.sort_unstable_by(|a, b| b.cmp(a));
        for Reverse((at_ms, _, slot)) in keys.iter() {
            if let Some(what) = &self.slab[*slot as usize] {
                f(*at_ms, what);
            }
        }
    }

    /// Takes the entry due first, with the instant it is due.
    pub fn pop(&mut self) -> Option<(Millis, T)> {
        let Reverse((at_ms, _, slot)) = self.heap.pop()?;
        self.free.push(slot);
        Some((at_ms, self.slab[slot as usize].take()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_by_time_then_by_the_order_pushed_and_reuses_freed_slots() {
        let mut q = Queue::with_capacity(0);
        for (at, what) in [(30, 'a'), (10, 'b'), (30, 'c'), (10, 'd'), (20, 'e')] {
            q.push(Millis::from_ms(at), what);
        }
        let first: Vec<_> = (0..3).filter_map(|_| q.pop()).map(|(at, w)| (at.as_ms(), w)).collect();
        assert_eq!(first, [(10, 'b'), (10, 'd'), (20, 'e')]);
        q.push(Millis::from_ms(5), 'f');
        assert_eq!(q.slab.len(), 5, "the new entry took a freed slot");
        let rest: Vec<_> = std::iter::from_fn(|| q.pop()).map(|(at, w)| (at.as_ms(), w)).collect();
        assert_eq!(rest, [(5, 'f'), (30, 'a'), (30, 'c')]);
    }

    #[test]
    fn a_reserved_place_pops_before_later_pushes_at_the_same_instant() {
        let mut q = Queue::with_capacity(0);
        q.push(Millis::from_ms(10), 'a');
        let place = q.reserve(2);
        q.push(Millis::from_ms(10), 'b');
        q.push_reserved(Millis::from_ms(10), place + 1, 'r');
        assert_eq!(q.next_due(), Some(Millis::from_ms(10)));
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).map(|(_, w)| w).collect();
        assert_eq!(order, ['a', 'r', 'b']);
    }

    #[test]
    fn retiming_moves_entries_and_keeps_their_order() {
        let mut q = Queue::with_capacity(0);
        for (at, what) in [(10, 'a'), (20, 'b'), (30, 'c'), (40, 'd')] {
            q.push(Millis::from_ms(at), what);
        }
        q.retime(|&w, at| match w {
            'b' => Millis::from_ms(50),
            'd' => Millis::from_ms(30),
            _ => at,
        });
        let rest: Vec<_> = std::iter::from_fn(|| q.pop()).map(|(at, w)| (at.as_ms(), w)).collect();
        assert_eq!(rest, [(10, 'a'), (30, 'c'), (30, 'd'), (50, 'b')]);
    }
}
