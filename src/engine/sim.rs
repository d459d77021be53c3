//! The simulator: an event queue ordered by (true time, sequence) that delivers messages, fires
//! timers and applies faults, and is the only place commands from nodes are interpreted.

use super::actor::{Actor, Command, Cx, Timer};
use super::client::Client;
use super::clock::{Clock, TimerClock};
use super::error::RunError;
use super::event::{DropReason, Event, EventKind};
use super::fault::{span, Fault};
use super::ids::NodeId;
use super::msg::Msg;
use super::network::{Arrival, Fate, Held, Transport};
use super::queue::Queue;
use super::resource::Resource;
use super::rng::Rng;
use super::spec::{Role, Spec};
use super::time::Millis;
use crate::limits::{EXTRA_POPS, MAX_POPS_PER_EVENT};

/// Entries the event queue has room for before it grows: more than a lesson's run keeps pending.
const QUEUE_ROOM: usize = 64;

/// What a run did: every event, in order, and for each fault the event it made (the pause,
/// crash or partition it started, or the sending of the one message it dropped or delayed;
/// `None` if it changed nothing, such as crashing a node already down).
pub struct Simulated {
    pub events: Vec<Event>,
    pub fault_events: Vec<Option<usize>>,
    /// The limit that stopped the run before it finished, if one did.
    pub stopped: Option<RunError>,
}

/// What a run leaves for the next one to use again: its event list (once handed back), its
/// queue, its nodes' list and its command buffer, emptied, keeping their room. Runs one after
/// another (a search's) allocate these once.
pub struct Reuse {
    events: Vec<Event>,
    queue: Queue<Pending>,
    nodes: Vec<Slot>,
    commands: Vec<Command>,
}

impl Default for Reuse {
    fn default() -> Self {
        Reuse { events: Vec::new(), queue: Queue::with_capacity(QUEUE_ROOM), nodes: Vec::new(), commands: Vec::new() }
    }
}

impl Reuse {
    /// Takes back a finished run's events, to hold the next run's.
    pub fn give_back(&mut self, mut events: Vec<Event>) {
        events.clear();
        self.events = events;
    }
}

/// Runs a spec to completion, or until it passes one of its limits, in the lists `reuse` keeps.
pub fn simulate(spec: &Spec, reuse: &mut Reuse) -> Result<Simulated, RunError> {
    let mut sim = Sim::new(spec, reuse)?;
    let stopped = sim.run().err();
    sim.queue.clear();
    sim.nodes.clear();
    (reuse.queue, reuse.nodes, reuse.commands) = (sim.queue, sim.nodes, sim.commands);
    Ok(Simulated { events: sim.events, fault_events: sim.fault_events, stopped })
}

#[derive(Clone, Debug)]
enum Pending {
    Start(NodeId),
    Deliver {
        msg_id: u64,
        from: NodeId,
        to: NodeId,
        /// The connection it travels on.
        conn: u32,
        msg: Msg,
        sent_at_ms: Millis,
    },
    Timer {
        node: NodeId,
        timer: Timer,
        gen: u64,
    },
    Fault(usize),
    Resume(NodeId),
    Heal(usize),
    /// `from`'s close of its connection reaches `to`.
    Closed {
        from: NodeId,
        to: NodeId,
    },
}

impl Pending {
    /// The node whose pause would hold this entry back.
    fn target(&self) -> Option<NodeId> {
        match self {
            Pending::Deliver { to, .. } => Some(*to),
            Pending::Timer { node, .. } | Pending::Closed { to: node, .. } => Some(*node),
            Pending::Start(_) | Pending::Fault(_) | Pending::Resume(_) | Pending::Heal(_) => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Up,
    Paused { until_ms: Millis },
    Down,
}

struct Slot {
    actor: Box<dyn Actor>,
    clock: Clock,
    /// The clock the node's timers and its readings of the time use.
    reads: TimerClock,
    rng: Rng,
    status: Status,
    /// Deliveries and timers that arrived while the node was paused, in arrival order.
    held: Vec<Pending>,
    /// The live generation of each of the node's pending timers; a popped timer with another
    /// generation is stale.
    timers: Vec<(Timer, u64)>,
}

impl Slot {
    fn timer(&self, timer: Timer) -> Option<usize> {
        self.timers.iter().position(|t| t.0 == timer)
    }
}

struct Sim<'s> {
    spec: &'s Spec,
    now_ms: Millis,
    queue: Queue<Pending>,
    nodes: Vec<Slot>,
    next_gen: u64,
    next_msg: u64,
    net: Transport,
    events: Vec<Event>,
    fault_events: Vec<Option<usize>>,
    /// While a node handles a message: the node, the sender and their connection, which its
    /// answer goes back on.
    answering: Option<(NodeId, NodeId, u32)>,
    commands: Vec<Command>,
}

impl<'s> Sim<'s> {
    /// Prepares a run of `spec` in the (empty) lists `reuse` keeps.
    fn new(spec: &'s Spec, reuse: &mut Reuse) -> Result<Self, RunError> {
        let mut events = std::mem::take(&mut reuse.events);
        events.reserve(spec.limits.max_events.min(256));
        let Some(data) = spec.write_target() else { return Err(RunError::MissingRole) };
        if spec.locks.is_empty() && spec.lock.quorum(0) > 0 {
            return Err(RunError::MissingRole);
        }
        let mut nodes = std::mem::take(&mut reuse.nodes);
        nodes.reserve(spec.nodes.len());
        for (i, n) in spec.nodes.iter().enumerate() {
            // A client times its waits and checks its lease by elapsed time, as client libraries
            // do (Go's and Java's timers, Redisson's watchdog); a lock service as its design says.
            let reads = match &n.role {
                Role::LockService => spec.lock.service_clock(),
                Role::Client(_) | Role::Resource(_) => TimerClock::Monotonic,
            };
            let actor: Box<dyn Actor> = match &n.role {
                Role::Client(c) => {
                    let (design, locks) = (spec.lock.clone(), spec.locks.clone());
                    Box::new(Client::new(c.clone(), Box::new(move || design.client(&locks)), data, spec.resources.clone()))
                }
                Role::LockService => {
                    let index = spec.locks.iter().position(|&l| l.0 == i).unwrap_or(0);
                    spec.lock.service(index, &spec.locks).ok_or(RunError::MissingRole)?
                }
                Role::Resource(mode) => Box::new(Resource::new(*mode)),
            };
            nodes.push(Slot {
                actor,
                clock: n.clock.clone(),
                reads,
                rng: Rng::derive_numbered(spec.seed, "node:", i),
                status: Status::Up,
                held: Vec::new(),
                timers: Vec::new(),
            });
        }
        let mut sim = Sim {
            spec,
            now_ms: Millis::ZERO,
            queue: std::mem::replace(&mut reuse.queue, Queue::with_capacity(0)),
            nodes,
            next_gen: 0,
            next_msg: 0,
            net: Transport::new(spec.network.clone(), Rng::derive(spec.seed, "net")),
            events,
            fault_events: vec![None; spec.faults.len()],
            answering: None,
            commands: std::mem::take(&mut reuse.commands),
        };
        for i in 0..spec.nodes.len() {
            sim.schedule(Millis::ZERO, Pending::Start(NodeId(i)));
        }
        for (i, f) in spec.faults.iter().enumerate() {
            sim.schedule(span(f.at_ms()), Pending::Fault(i));
        }
        Ok(sim)
    }

    fn schedule(&mut self, at_ms: Millis, what: Pending) {
        self.queue.push(at_ms, what);
    }

    fn run(&mut self) -> Result<(), RunError> {
        let limits = self.spec.limits;
        // Each pop either records an event or discards a stale timer, so this bounds the loop.
        let max_pops = limits.max_events.saturating_mul(MAX_POPS_PER_EVENT).saturating_add(EXTRA_POPS);
        let mut pops = 0usize;
        while let Some((at_ms, what)) = self.queue.pop() {
            if at_ms > limits.max_time_ms {
                return Err(RunError::TimeLimit { limit_ms: limits.max_time_ms });
            }
            pops += 1;
            if pops > max_pops || self.events.len() > limits.max_events {
                return Err(RunError::EventLimit { limit: limits.max_events });
            }
            self.now_ms = at_ms;
            self.step(what);
        }
        if self.events.len() > limits.max_events {
            return Err(RunError::EventLimit { limit: limits.max_events });
        }
        Ok(())
    }

    fn step(&mut self, what: Pending) {
        if let Some(node) = what.target() {
            match self.nodes[node.0].status {
                Status::Paused { .. } => return self.nodes[node.0].held.push(what),
                Status::Down => {
                    if let Pending::Deliver { msg_id, from, msg, sent_at_ms, .. } = what {
                        self.record(node, EventKind::Drop { msg_id, from, msg, sent_at_ms, reason: DropReason::Down });
                    }
                    return;
                }
                Status::Up => {}
            }
        }
        match what {
            Pending::Start(node) => self.call(node, |a, cx| a.on_start(cx)),
            Pending::Deliver { msg_id, from, to, conn, msg, sent_at_ms } => {
                if self.net.is_cut(from, to) {
                    return self.net.hold(Held { msg_id, from, to, conn, msg: Some(msg), sent_at_ms });
                }
                if self.net.arrival(from, to, conn) == Arrival::Closed {
                    let reason = DropReason::ConnectionClosed;
                    return self.record(to, EventKind::Drop { msg_id, from, msg, sent_at_ms, reason });
                }
                self.record(to, EventKind::Deliver { msg_id, from, msg: msg.clone(), sent_at_ms });
                // The answer goes back on the connection the message came on.
                self.answering = Some((to, from, conn));
                self.call(to, |a, cx| a.on_message(cx, from, &msg));
                self.answering = None;
            }
            Pending::Timer { node, timer, gen } => {
                let slot = &mut self.nodes[node.0];
                if let Some(at) = slot.timer(timer).filter(|&at| slot.timers[at].1 == gen) {
                    slot.timers.swap_remove(at);
                    self.call(node, |a, cx| a.on_timer(cx, timer));
                }
            }
            Pending::Fault(i) => self.apply_fault(i),
            Pending::Resume(node) => {
                if self.nodes[node.0].status == (Status::Paused { until_ms: self.now_ms }) {
                    self.nodes[node.0].status = Status::Up;
                    self.record(node, EventKind::PauseEnd);
                    // What waited is handled now, in the order it arrived, before anything due
                    // at this same moment: a connection delivers in order.
                    for held in std::mem::take(&mut self.nodes[node.0].held) {
                        self.step(held);
                    }
                }
            }
            Pending::Heal(i) => {
                if let Fault::Partition { from, to, .. } = &self.spec.faults[i] {
                    let (from, to) = (from.clone(), to.clone());
                    self.record(from[0], EventKind::PartitionEnd { from, to });
                }
                for (at_ms, h) in self.net.heal(i, self.now_ms) {
                    self.release(at_ms, h);
                }
            }
            Pending::Closed { from, to } => self.call(to, |a, cx| a.on_closed(cx, from)),
        }
    }

    fn apply_fault(&mut self, i: usize) {
        let before = self.events.len();
        self.start_fault(i);
        if self.events.len() > before {
            self.fault_events[i] = Some(before);
        }
    }

    fn start_fault(&mut self, i: usize) {
        let now = self.now_ms;
        match self.spec.faults[i].clone() {
            Fault::Pause { node, for_ms, .. } => {
                let for_ms = span(for_ms);
                let slot = &mut self.nodes[node.0];
                let until_ms = match slot.status {
                    Status::Down => return,
                    Status::Paused { until_ms } => until_ms.max(now + for_ms),
                    Status::Up => now + for_ms,
                };
                slot.status = Status::Paused { until_ms };
                self.record(node, EventKind::PauseStart { until_ms });
                self.schedule(until_ms, Pending::Resume(node));
            }
            Fault::Crash { node, .. } => {
                if self.nodes[node.0].status == Status::Down {
                    return;
                }
                self.record(node, EventKind::Crash);
                let slot = &mut self.nodes[node.0];
                slot.status = Status::Down;
                slot.held.clear();
                slot.timers.clear();
                self.call_notes_only(node);
            }
            Fault::Restart { node, keep_state, .. } => {
                if self.nodes[node.0].status != Status::Down {
                    return;
                }
                self.nodes[node.0].status = Status::Up;
                self.record(node, EventKind::Restart { keep_state });
                self.call(node, |a, cx| a.on_restart(cx, keep_state));
                // Its old connections were reset: each peer hears so when the network lets it.
                for peer in (0..self.nodes.len()).map(NodeId).filter(|&p| p != node) {
                    let conn = self.net.connection(node, peer);
                    if let Some(at_ms) = self.net.notify(node, peer, conn, now) {
                        self.schedule(at_ms, Pending::Closed { from: node, to: peer });
                    }
                }
            }
            Fault::ClockJump { node, by_ms, .. } => {
                let elapsed = self.nodes[node.0].reads == TimerClock::Monotonic;
                self.record(node, EventKind::ClockJump { by_ms, elapsed })
            }
            Fault::Promote { node, .. } => {
                if self.nodes[node.0].status == Status::Down {
                    return;
                }
                self.record(node, EventKind::Promoted);
                self.call(node, |a, cx| a.on_promote(cx));
            }
            Fault::Partition { from, to, two_way, for_ms, .. } => {
                self.net.cut(i, from.clone(), to.clone(), two_way);
                let until_ms = now + span(for_ms);
                self.schedule(until_ms, Pending::Heal(i));
                self.record(from[0], EventKind::PartitionStart { from, to, two_way, until_ms });
            }
            Fault::Delay { from, to, extra_ms, for_ms, .. } => {
                let (extra_ms, until_ms) = (span(extra_ms), now + span(for_ms));
                self.net.slow(from, to, extra_ms, now, until_ms);
                self.record(from, EventKind::LinkSlow { to, extra_ms, until_ms });
            }
            Fault::DropMessage { from, to, .. } => self.net.arm(i, from, to, None),
            Fault::DelayMessage { from, to, extra_ms, .. } => self.net.arm(i, from, to, Some(span(extra_ms))),
        }
    }

    /// Lets a crashing node record what the crash ends, discarding anything else it asks for.
    fn call_notes_only(&mut self, node: NodeId) {
        let mut out = Vec::new();
        let slot = &mut self.nodes[node.0];
        let now = slot.clock.reading(slot.reads, self.now_ms);
        slot.actor.on_crash(&mut Cx { me: node, now, rng: &mut slot.rng, out: &mut out });
        for c in out {
            if let Command::Note(kind) = c {
                self.record(node, kind);
            }
        }
    }

    /// Lets `node`'s actor handle something, then carries out what it asked for. (The command
    /// buffer is the run's own, lent out and taken back, so a call allocates nothing.)
    fn call(&mut self, node: NodeId, f: impl FnOnce(&mut dyn Actor, &mut Cx)) {
        let mut out = std::mem::take(&mut self.commands);
        let slot = &mut self.nodes[node.0];
        let now = slot.clock.reading(slot.reads, self.now_ms);
        f(slot.actor.as_mut(), &mut Cx { me: node, now, rng: &mut slot.rng, out: &mut out });
        for c in out.drain(..) {
            self.interpret(node, c);
        }
        self.commands = out;
    }

    fn interpret(&mut self, node: NodeId, command: Command) {
        match command {
            Command::Send { to, msg } => {
                self.next_msg += 1;
                let msg_id = self.next_msg;
                self.record(node, EventKind::Send { msg_id, to, msg: msg.clone() });
                let sent_at_ms = self.now_ms;
                let conn = match self.answering {
                    Some((me, peer, conn)) if (me, peer) == (node, to) => conn,
                    _ => self.net.connection(node, to),
                };
                let (fate, fault) = self.net.send(node, to, sent_at_ms);
                if let Some(f) = fault {
                    self.fault_events[f] = Some(self.events.len() - 1);
                }
                match fate {
                    Fate::Arrives { after_ms } => {
                        self.schedule(sent_at_ms + after_ms, Pending::Deliver { msg_id, from: node, to, conn, msg, sent_at_ms })
                    }
                    Fate::Held => self.net.hold(Held { msg_id, from: node, to, conn, msg: Some(msg), sent_at_ms }),
                    Fate::Lost(reason) => self.record(to, EventKind::Drop { msg_id, from: node, msg, sent_at_ms, reason }),
                }
            }
            Command::HangUp { to } => {
                // One peer, or every lock-service node.
                let locks = self.spec.locks.clone();
                for &peer in to.as_ref().map_or(&locks[..], std::slice::from_ref) {
                    self.hang_up(node, peer);
                }
            }
            Command::SetTimer { timer, at_local } => {
                self.next_gen += 1;
                let gen = self.next_gen;
                let slot = &mut self.nodes[node.0];
                match slot.timer(timer) {
                    Some(at) => slot.timers[at].1 = gen,
                    None => slot.timers.push((timer, gen)),
                }
                let slot = &self.nodes[node.0];
                if let Some(at_ms) =
                    slot.clock.true_when_reaches(slot.reads, at_local, self.now_ms, self.spec.limits.max_time_ms + Millis::from_ms(1))
                {
                    self.schedule(at_ms, Pending::Timer { node, timer, gen });
                }
            }
            Command::CancelTimer(timer) => {
                let slot = &mut self.nodes[node.0];
                if let Some(at) = slot.timer(timer) {
                    slot.timers.swap_remove(at);
                }
            }
            Command::Note(kind) => self.record(node, kind),
        }
    }

    /// Closes `node`'s connection to `peer` if a partition stalls it; the close reaches `peer`
    /// once the partition lets it. (A reply that is merely late still arrives, and is ignored.)
    fn hang_up(&mut self, node: NodeId, peer: NodeId) {
        if !self.net.stalled(node, peer) {
            return;
        }
        self.record(node, EventKind::HungUp { peer });
        if let Some(at_ms) = self.net.close(node, peer, self.now_ms) {
            self.schedule(at_ms, Pending::Closed { from: node, to: peer });
        }
    }

    /// Schedules what a healed partition held (a message's delivery or a close), or records the
    /// loss of a message whose sender's kernel gave up on it.
    fn release(&mut self, at_ms: Option<Millis>, h: Held) {
        let Held { msg_id, from, to, conn, msg, sent_at_ms } = h;
        match (at_ms, msg) {
            (Some(at_ms), Some(msg)) => self.schedule(at_ms, Pending::Deliver { msg_id, from, to, conn, msg, sent_at_ms }),
            (Some(at_ms), None) => self.schedule(at_ms, Pending::Closed { from, to }),
            (None, Some(msg)) => self.record(to, EventKind::Drop { msg_id, from, msg, sent_at_ms, reason: DropReason::ConnectionBroken }),
            (None, None) => {}
        }
    }

    /// Records an event at the node's reading of the clock it times by, so its deadlines and
    /// its readings agree.
    fn record(&mut self, node: NodeId, kind: EventKind) {
        let slot = &self.nodes[node.0];
        let local_ms = slot.clock.reading(slot.reads, self.now_ms);
        self.events.push(Event { at_ms: self.now_ms, node, local_ms, kind });
    }
}
