//! Runs that go on from a base run's state. A search adds faults to one scenario; until the
//! first added fault starts, and while every clock reads as in the base run, such a run does
//! exactly what the base run did. So the base run keeps its whole state (its [`World`]) at the
//! start of some instants, and a run that adds faults copies the latest kept state before its
//! first difference, with the events recorded by then, and goes on from there.
//!
//! Why that run is the run from the start, event for event:
//! - Everything the base run handled before the kept instant was due before any added fault
//!   and before any clock reads otherwise, so a run from the start handles the same entries in
//!   the same order with the same results, random draws included.
//! - The base run keeps [`FORK_ROOM`] places in the queue's order free right after its own
//!   faults, and the added faults take them: where a run from the start puts them, after the
//!   starts and the base faults and before anything pushed during the run.
//! - A clock that an added jump steps (or a drift speeds) reads as before until then. Each timer
//!   already set on it moves to when the new clock reads its deadline, counted from now, which is
//!   where a run from the start put it: until the kept instant the clocks agree, so neither
//!   reached a deadline the other had not. A timer is kept even when its clock does not reach
//!   its deadline in time ([`NEVER`]), so a clock stepped forward still finds it.
//!
//! A test runs thousands of schedules on every lesson both ways and compares every event.

use super::world::{Lists, Pending, Sim, World, NEVER};
use crate::engine::error::RunError;
use crate::engine::event::Event;
use crate::engine::fault::span;
use crate::engine::spec::Spec;
use crate::engine::time::Millis;
use std::rc::Rc;

/// How many faults a run may add to the base run's and still go on from its state.
pub(super) const FORK_ROOM: u64 = 16;
/// The most states a base run keeps, spread evenly over its events.
const MAX_POINTS: usize = 64;

/// A base run: its spec, its events and some of its states.
pub struct Forks {
    base: Spec,
    events: Vec<Event>,
    /// In the order of their instants; the first is the state before anything happened.
    points: Vec<Point>,
}

struct Point {
    /// Every entry due before this instant had been handled, and none due at or after it.
    next_ms: Millis,
    /// How many events had been recorded.
    events: usize,
    world: World,
}

impl Forks {
    /// Runs `base` (twice: once to count its events, then keeping states spread over them).
    pub(super) fn record(base: &Spec) -> Result<Forks, RunError> {
        let (mut lists, mut world) = (Lists::default(), World::default());
        let mut counted = Sim::new(base, &mut world, &mut lists)?;
        let _ = counted.run();
        let stride = (counted.events.len() / MAX_POINTS).max(1);
        let mut sim = Sim::new(base, &mut world, &mut Lists::default())?;
        sim.w.queue.reserve(FORK_ROOM);
        let mut points = vec![Point { next_ms: Millis::ZERO, events: 0, world: sim.w.clone() }];
        loop {
            let since = points.last().map_or(0, |p| p.events);
            match sim.w.queue.next_due() {
                Some(next_ms) if next_ms != NEVER && next_ms > sim.w.now_ms && sim.events.len() >= since + stride => {
                    points.push(Point { next_ms, events: sim.events.len(), world: sim.w.clone() })
                }
                _ => {}
            }
            // A limit ends the base run; the states kept until then stay good.
            if !matches!(sim.advance(), Ok(true)) {
                break;
            }
        }
        Ok(Forks { base: base.clone(), events: sim.events, points })
    }

    /// A run of `spec` from the latest kept state before it first differs from the base run;
    /// from the start if it differs in more than added faults and clocks.
    /// `world` is room for the run's world: the kept state is copied into it.
    pub(super) fn resume<'s>(&self, spec: &'s Spec, world: &'s mut World, lists: &mut Lists) -> Result<Sim<'s>, RunError> {
        let Some(from_ms) = self.differs_at(spec) else { return Sim::new(spec, world, lists) };
        let point = &self.points[self.points.partition_point(|p| p.next_ms <= from_ms).saturating_sub(1)];
        world.clone_from(&point.world);
        let mut sim = Sim::with(spec, world, lists);
        sim.events.extend_from_slice(&self.events[..point.events]);
        sim.add_faults(self.base.faults.len());
        Ok(sim)
    }

    /// The instant from which a run of `spec` may differ from the base run: its first added
    /// fault, or the first instant a clock may read otherwise. `None` if it differs in any other
    /// way (a seed, a limit, a fault of the base run's, more added faults than there is room for).
    fn differs_at(&self, spec: &Spec) -> Option<Millis> {
        let base = &self.base;
        let kept = base.faults.len();
        let same = spec.seed == base.seed
            && spec.limits == base.limits
            && Rc::ptr_eq(&spec.lock, &base.lock)
            && spec.nodes.len() == base.nodes.len()
            && spec.faults.len() >= kept
            && (spec.faults.len() - kept) as u64 <= FORK_ROOM
            && spec.faults[..kept] == base.faults[..];
        if !same {
            return None;
        }
        let faults = spec.faults[kept..].iter().map(|f| span(f.at_ms()));
        let clocks = spec.nodes.iter().zip(base.nodes.iter()).filter_map(|(n, b)| n.clock.differs_from(&b.clock));
        Some(faults.chain(clocks).min().unwrap_or(NEVER))
    }
}

impl Sim<'_> {
    /// Starts the spec's faults from index `from` on at their instants, each in the place a run
    /// from the start gives it (after the nodes' starts, in the room [`FORK_ROOM`] kept), and
    /// gives each node the clock its spec gives it.
    pub(super) fn add_faults(&mut self, from: usize) {
        self.w.fault_events.resize(self.spec.faults.len(), None);
        let after_starts = self.spec.nodes.len() as u64 + 1;
        for (i, f) in self.spec.faults.iter().enumerate().skip(from) {
            self.w.queue.push_reserved(span(f.at_ms()), after_starts + i as u64, Pending::Fault(i));
        }
        self.set_clocks();
    }

    /// Gives each node the clock its spec gives it; each timer set on a clock that changed
    /// becomes due when the new clock reads its deadline.
    fn set_clocks(&mut self) {
        let spec = self.spec;
        let mut changed = Vec::new();
        for (i, (slot, n)) in self.w.nodes.iter_mut().zip(spec.nodes.iter()).enumerate() {
            if slot.clock != n.clock {
                slot.clock = n.clock.clone();
                changed.push(i);
            }
        }
        if changed.is_empty() {
            return;
        }
        let (nodes, now_ms) = (&self.w.nodes, self.w.now_ms);
        self.w.queue.retime(|what, at_ms| match *what {
            Pending::Timer { node, at_local, .. } if changed.contains(&node.0) => {
                nodes[node.0].due(at_local, now_ms, spec.limits.max_time_ms)
            }
            _ => at_ms,
        });
    }
}
