//! Runs that branch. A verification steps one run to an instant, copies its state, and goes on
//! in each copy with another fault added there ([`Branch`]). Each copy is the run from the start
//! with those faults, for the reasons [`super::fork`] gives: an added fault takes the queue place
//! kept free for it, and a clock it changes retimes the timers set on it.
//!
//! A state's fingerprint feeds a hasher everything its future depends on, and nothing that only
//! names things in the trace: see [`Branch::fingerprint`].

use super::fork::FORK_ROOM;
use super::world::{Lists, Pending, Sim, Slot, Status, World, NEVER};
use crate::engine::actor::{Command, Timer};
use crate::engine::copy::field_clone;
use crate::engine::error::RunError;
use crate::engine::event::Event;
use crate::engine::fault::Fault;
use crate::engine::fingerprint::hash_set;
use crate::engine::ids::NodeId;
use crate::engine::queue::QueueKeys;
use crate::engine::spec::Spec;
use crate::engine::time::Millis;
use std::hash::{Hash, Hasher};

/// A run stopped between two instants, to go on from or to copy. Its events are the caller's,
/// lent to each call: branches of one run share their events up to where they part.
pub struct Branch {
    w: World,
    commands: Vec<Command>,
}

field_clone!(Branch { w, commands });

impl Branch {
    /// A run of `spec` before anything has happened, with room kept for faults added later.
    pub fn start(spec: &Spec) -> Result<Branch, RunError> {
        let mut w = World::default();
        let sim = Sim::new(spec, &mut w, &mut Lists::default())?;
        sim.w.queue.reserve(FORK_ROOM);
        let commands = sim.commands;
        Ok(Branch { w, commands })
    }

    /// How many faults may be added, over those of the spec it started with.
    pub const ROOM: usize = FORK_ROOM as usize;

    /// Handles every entry due before `before_ms`, recording its events in `events`; an error
    /// says which of the spec's limits the run passed.
    pub fn run_until(&mut self, spec: &Spec, events: &mut Vec<Event>, before_ms: Millis) -> Result<(), RunError> {
        self.lend(spec, events, |sim| {
            while sim.w.queue.next_due().is_some_and(|at_ms| at_ms < before_ms && at_ms != NEVER) {
                if !sim.advance()? {
                    break;
                }
            }
            Ok(())
        })
    }

    /// Runs to the end; returns the limit that stopped it first, if one did.
    pub fn run_out(&mut self, spec: &Spec, events: &mut Vec<Event>) -> Option<RunError> {
        self.lend(spec, events, |sim| sim.run().err())
    }

    /// Starts the faults `spec` lists from index `from` on, each at its instant (none earlier
    /// than the next entry due), and gives each node the clock `spec` gives it. `spec` must be
    /// the spec run so far with faults added at the end, at most [`Branch::ROOM`] of them.
    pub fn add_faults(&mut self, spec: &Spec, events: &mut Vec<Event>, from: usize) {
        self.lend(spec, events, |sim| sim.add_faults(from))
    }

    /// Ends fault `i` of `spec` early, at `at_ms` (the instant the run was stepped to): a pause or
    /// a partition planned to end at `planned_ms`, or a crash's restart planned then. The run then
    /// goes on as if the fault had been that long from its start: its end keeps the place in the
    /// queue's order it took when the fault began (a restart, the place its spec gives it).
    /// (Other kinds of fault are left as they are.)
    pub fn end_early(&mut self, spec: &Spec, i: usize, planned_ms: Millis, at_ms: Millis) {
        match spec.faults.get(i) {
            Some(&Fault::Pause { node, .. }) => self.end_pause(node, planned_ms, at_ms),
            Some(Fault::Partition { .. }) => self.w.queue.retime(|what, due_ms| match *what {
                Pending::Heal(j) if j == i => at_ms,
                _ => due_ms,
            }),
            Some(Fault::Restart { .. }) => self.w.queue.retime(|what, due_ms| match *what {
                Pending::Fault(j) if j == i => at_ms,
                _ => due_ms,
            }),
            _ => {}
        }
    }

    /// Ends a pause of `node` early, as [`Branch::end_early`] does. The node stays paused until
    /// the latest of its pauses still running ends, as a pause that overlaps another does. (With
    /// two of the node's pauses planned to end at the same instant either may move: one resumes
    /// the node, the other then finds it running.)
    fn end_pause(&mut self, node: NodeId, planned_ms: Millis, at_ms: Millis) {
        let (mut moved, mut until_ms) = (false, at_ms);
        self.w.queue.retime(|what, due_ms| match *what {
            Pending::Resume(n) if n == node && due_ms == planned_ms && !moved => {
                moved = true;
                at_ms
            }
            Pending::Resume(n) if n == node => {
                until_ms = until_ms.max(due_ms);
                due_ms
            }
            _ => due_ms,
        });
        if let Status::Paused { until_ms: until } = &mut self.w.nodes[node.0].status {
            *until = until_ms;
        }
    }

    /// Lends the world and `events` to a run of `spec` for one call.
    fn lend<R>(&mut self, spec: &Spec, events: &mut Vec<Event>, f: impl FnOnce(&mut Sim) -> R) -> R {
        let (events_in, commands) = (std::mem::take(events), std::mem::take(&mut self.commands));
        let mut sim = Sim { spec, w: &mut self.w, events: events_in, answering: None, commands };
        let out = f(&mut sim);
        (self.commands, *events) = (sim.commands, sim.events);
        out
    }

    /// What the fault `i` of the run's spec did: the index of the event it made, if any.
    pub fn fault_event(&self, i: usize) -> Option<usize> {
        self.w.fault_events.get(i).copied().flatten()
    }

    /// Feeds `h` the run's whole state (every node's state, clock and timers, what is due and in
    /// which order, what the network holds, how many entries and `events` it has handled),
    /// leaving out what only names things in the trace: a message's number, a timer's
    /// generation (only whether it is still live), a fault's event. Two branches with the same
    /// fingerprint, at the same instant and under the same spec, go on alike, event for event.
    /// `from_ms` is the instant the run was stepped to; `keys` is room for sorting the queue.
    pub fn fingerprint(&self, spec: &Spec, h: &mut impl Hasher, from_ms: Millis, events: usize, keys: &mut QueueKeys) {
        let w = &self.w;
        (w.pops, events).hash(h);
        w.net.fingerprint(h, from_ms);
        for slot in &w.nodes {
            h.write_u128(slot.print());
            (&slot.clock, slot.reads, &slot.rng, slot.status).hash(h);
            for p in &slot.held {
                pending(p, spec, &w.nodes, h);
            }
            // Which timers are live, as a set: a node keeps one generation per timer.
            hash_set(h, slot.timers.iter().map(|(t, _)| timer_code(*t)));
        }
        w.queue.in_order(keys, |at_ms, p| {
            at_ms.hash(h);
            pending(p, spec, &w.nodes, h);
        });
    }
}

/// Feeds `h` one entry: a delivery without its message's number, a timer by whether it is
/// still the node's live one, a fault by what it does.
fn pending(p: &Pending, spec: &Spec, nodes: &[Slot], h: &mut impl Hasher) {
    std::mem::discriminant(p).hash(h);
    match p {
        Pending::Deliver { from, to, conn, msg, sent_at_ms, .. } => (from, to, conn, msg, sent_at_ms).hash(h),
        Pending::Timer { node, timer, gen, at_local } => {
            let live = nodes[node.0].timers.iter().any(|(t, g)| t == timer && g == gen);
            (node, timer, at_local, live).hash(h)
        }
        Pending::Start(n) | Pending::Resume(n) => n.hash(h),
        Pending::Fault(i) | Pending::Heal(i) => spec.faults.get(*i).hash(h),
        Pending::Closed { from, to } => (from, to).hash(h),
    }
}

/// A number for each timer, different for different timers.
fn timer_code(t: Timer) -> u64 {
    match t {
        Timer::Start => 1,
        Timer::Step => 2,
        Timer::Timeout => 3,
        Timer::Renew => 4,
        Timer::RenewTimeout => 5,
        Timer::Client(n) => 6 | u64::from(n) << 8,
        Timer::Service(n) => 7 | u64::from(n) << 8,
        Timer::Expiry(id) => 8 | id << 8,
    }
}
