//! The simulator: an event queue ordered by (true time, sequence) that delivers messages, fires
//! timers and applies faults, and is the only place commands from nodes are interpreted. The
//! state a run builds up is its [`World`]; the run itself is a [`Sim`].

use crate::engine::actor::{Actor, Command, Cx, Timer};
use crate::engine::client::Client;
use crate::engine::clock::{Clock, TimerClock};
use crate::engine::copy::field_clone;
use crate::engine::error::RunError;
use crate::engine::event::{DropReason, Event, EventKind};
use crate::engine::fault::{span, Fault};
use crate::engine::ids::NodeId;
use crate::engine::msg::Msg;
use crate::engine::network::{Arrival, Fate, Held, Transport};
use crate::engine::queue::Queue;
use crate::engine::resource::Resource;
use crate::engine::rng::Rng;
use crate::engine::spec::{Latency, LinkSpec, NetworkSpec, Role, Spec};
use crate::engine::time::{LocalMillis, Millis};
use crate::limits::{EXTRA_POPS, MAX_POPS_PER_EVENT};
use std::cell::Cell;
use std::rc::Rc;

/// When a timer whose clock never reads its deadline within the run's time limit is due: it
/// waits in the queue, and the run ends when it comes first. (Kept, not dropped, so that a run
/// going on from this one's state with that clock stepped forward finds it: [`super::fork`].)
pub(super) const NEVER: Millis = Millis::from_ms(u64::MAX);

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

/// The lists a run fills: its events and command buffer, handed back emptied. The next run uses
/// their room again.
#[derive(Default)]
pub(super) struct Lists {
    pub(super) events: Vec<Event>,
    commands: Vec<Command>,
}

#[derive(Clone, Debug)]
pub(super) enum Pending {
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
    /// A timer, due when the node's clock reads `at_local` (at [`NEVER`] if it does not
    /// within the run's time limit).
    Timer {
        node: NodeId,
        timer: Timer,
        gen: u64,
        at_local: LocalMillis,
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Status {
    Up,
    Paused { until_ms: Millis },
    Down,
}

pub(super) struct Slot {
    /// Changed only through [`Slot::handle`], which forgets `print`.
    actor: Box<dyn Actor>,
    /// The node's fingerprint, once taken and until the node next changes: between two grid
    /// instants of a verification most nodes handle nothing.
    print: Cell<Option<u128>>,
    pub(super) clock: Clock,
    /// The clock the node's timers and its readings of the time use.
    pub(super) reads: TimerClock,
    pub(super) rng: Rng,
    pub(super) status: Status,
    /// Deliveries and timers that arrived while the node was paused, in arrival order.
    pub(super) held: Vec<Pending>,
    /// The live generation of each of the node's pending timers; a popped timer with another
    /// generation is stale.
    pub(super) timers: Vec<(Timer, u64)>,
}

field_clone!(Slot { actor, print, clock, reads, rng, status, held, timers });

impl Slot {
    /// Lets node `me` handle something at true time `now_ms` (`f` calls its handler), writing
    /// its commands to `out`.
    pub(super) fn handle(&mut self, me: NodeId, now_ms: Millis, out: &mut Vec<Command>, f: impl FnOnce(&mut dyn Actor, &mut Cx)) {
        self.print.set(None);
        let now = self.clock.reading(self.reads, now_ms);
        f(self.actor.as_mut(), &mut Cx { me, now, rng: &mut self.rng, out });
    }

    /// The node's whole state's fingerprint.
    pub(super) fn print(&self) -> u128 {
        self.print.get().unwrap_or_else(|| {
            let print = self.actor.fingerprint();
            self.print.set(Some(print));
            print
        })
    }

    fn timer(&self, timer: Timer) -> Option<usize> {
        self.timers.iter().position(|t| t.0 == timer)
    }

    /// When the node's clock reads `at_local`, from `now_ms` on; [`NEVER`] if not by the run's
    /// time limit, `max_time_ms`.
    pub(super) fn due(&self, at_local: LocalMillis, now_ms: Millis, max_time_ms: Millis) -> Millis {
        let horizon = max_time_ms + Millis::from_ms(1);
        self.clock.true_when_reaches(self.reads, at_local, now_ms, horizon).unwrap_or(NEVER)
    }
}

/// Everything a run has done so far that the rest of it depends on, apart from its events: a
/// base run's copy of it lets another run go on from there ([`super::fork`]).
pub(super) struct World {
    pub(super) now_ms: Millis,
    pub(super) queue: Queue<Pending>,
    pub(super) nodes: Vec<Slot>,
    pub(super) next_gen: u64,
    pub(super) next_msg: u64,
    pub(super) net: Transport,
    pub(super) fault_events: Vec<Option<usize>>,
    /// Entries taken from the queue so far.
    pub(super) pops: usize,
}

field_clone!(World { now_ms, queue, nodes, next_gen, next_msg, net, fault_events, pops });

/// Room for a run's world, before a run fills it ([`Sim::new`]).
impl Default for World {
    fn default() -> World {
        let link = LinkSpec { latency: Latency { min_ms: 0, max_ms: 0 }, loss: 0.0 };
        World {
            now_ms: Millis::ZERO,
            queue: Queue::with_capacity(QUEUE_ROOM),
            nodes: Vec::new(),
            next_gen: 0,
            next_msg: 0,
            net: Transport::new(NetworkSpec { default: link, links: Vec::new() }, Rng::new(0)),
            fault_events: Vec::new(),
            pops: 0,
        }
    }
}

/// A run: its spec, and the world it changes, which outlives it (a run that branches keeps its
/// world between the instants it is stepped to).
pub(super) struct Sim<'s> {
    pub(super) spec: &'s Spec,
    pub(super) w: &'s mut World,
    pub(super) events: Vec<Event>,
    /// While a node handles a message: the node, the sender and their connection, which its
    /// answer goes back on.
    pub(super) answering: Option<(NodeId, NodeId, u32)>,
    pub(super) commands: Vec<Command>,
}

impl<'s> Sim<'s> {
    /// Prepares a run of `spec` in `w`, whose queue and nodes' list it empties and uses again,
    /// and the (empty) lists `lists` keeps.
    pub(super) fn new(spec: &'s Spec, w: &'s mut World, lists: &mut Lists) -> Result<Self, RunError> {
        let Some(data) = spec.write_target() else { return Err(RunError::MissingRole) };
        if spec.locks.is_empty() && spec.lock.quorum(0) > 0 {
            return Err(RunError::MissingRole);
        }
        let (mut queue, mut nodes) = (std::mem::replace(&mut w.queue, Queue::with_capacity(0)), std::mem::take(&mut w.nodes));
        queue.clear();
        nodes.clear();
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
                    Box::new(Client::new(c.clone(), Rc::new(move || design.client(&locks)), data, spec.resources.clone()))
                }
                Role::LockService => {
                    let index = spec.locks.iter().position(|&l| l.0 == i).unwrap_or(0);
                    spec.lock.service(index, &spec.locks).ok_or(RunError::MissingRole)?
                }
                Role::Resource(mode) => Box::new(Resource::new(*mode)),
            };
            nodes.push(Slot {
                actor,
                print: Cell::new(None),
                clock: n.clock.clone(),
                reads,
                rng: Rng::derive_numbered(spec.seed, "node:", i),
                status: Status::Up,
                held: Vec::new(),
                timers: Vec::new(),
            });
        }
        *w = World {
            now_ms: Millis::ZERO,
            queue,
            nodes,
            next_gen: 0,
            next_msg: 0,
            net: Transport::new(spec.network.clone(), Rng::derive(spec.seed, "net")),
            fault_events: vec![None; spec.faults.len()],
            pops: 0,
        };
        let mut sim = Sim::with(spec, w, lists);
        for i in 0..spec.nodes.len() {
            sim.schedule(Millis::ZERO, Pending::Start(NodeId(i)));
        }
        for (i, f) in spec.faults.iter().enumerate() {
            sim.schedule(span(f.at_ms()), Pending::Fault(i));
        }
        Ok(sim)
    }

    /// A run of `spec` from `w`, with the (empty) event list and command buffer of `lists`.
    pub(super) fn with(spec: &'s Spec, w: &'s mut World, lists: &mut Lists) -> Self {
        let mut events = std::mem::take(&mut lists.events);
        events.reserve(spec.limits.max_events.min(256));
        Sim { spec, w, events, answering: None, commands: std::mem::take(&mut lists.commands) }
    }

    /// Ends the run: gives its lists back to `lists` and returns what it did.
    pub(super) fn finish(self, lists: &mut Lists, stopped: Option<RunError>) -> Simulated {
        let fault_events = std::mem::take(&mut self.w.fault_events);
        lists.commands = self.commands;
        Simulated { events: self.events, fault_events, stopped }
    }

    pub(super) fn schedule(&mut self, at_ms: Millis, what: Pending) {
        self.w.queue.push(at_ms, what);
    }

    pub(super) fn run(&mut self) -> Result<(), RunError> {
        while self.advance()? {}
        Ok(())
    }

    /// Handles the next entry due; says whether there was one, or which limit the run passed.
    pub(super) fn advance(&mut self) -> Result<bool, RunError> {
        let limits = self.spec.limits;
        let Some((at_ms, what)) = self.w.queue.pop().filter(|(at_ms, _)| *at_ms != NEVER) else {
            return match self.events.len() > limits.max_events {
                true => Err(RunError::EventLimit { limit: limits.max_events }),
                false => Ok(false),
            };
        };
        if at_ms > limits.max_time_ms {
            return Err(RunError::TimeLimit { limit_ms: limits.max_time_ms });
        }
        // Each pop either records an event or discards a stale timer, so this bounds the run.
        let max_pops = limits.max_events.saturating_mul(MAX_POPS_PER_EVENT).saturating_add(EXTRA_POPS);
        self.w.pops += 1;
        if self.w.pops > max_pops || self.events.len() > limits.max_events {
            return Err(RunError::EventLimit { limit: limits.max_events });
        }
        self.w.now_ms = at_ms;
        self.step(what);
        Ok(true)
    }

    fn step(&mut self, what: Pending) {
        if let Some(node) = what.target() {
            match self.w.nodes[node.0].status {
                Status::Paused { .. } => return self.w.nodes[node.0].held.push(what),
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
                if self.w.net.is_cut(from, to) {
                    return self.w.net.hold(Held { msg_id, from, to, conn, msg: Some(msg), sent_at_ms });
                }
                if self.w.net.arrival(from, to, conn) == Arrival::Closed {
                    let reason = DropReason::ConnectionClosed;
                    return self.record(to, EventKind::Drop { msg_id, from, msg, sent_at_ms, reason });
                }
                self.record(to, EventKind::Deliver { msg_id, from, msg: msg.clone(), sent_at_ms });
                // The answer goes back on the connection the message came on.
                self.answering = Some((to, from, conn));
                self.call(to, |a, cx| a.on_message(cx, from, &msg));
                self.answering = None;
            }
            Pending::Timer { node, timer, gen, .. } => {
                let slot = &mut self.w.nodes[node.0];
                if let Some(at) = slot.timer(timer).filter(|&at| slot.timers[at].1 == gen) {
                    slot.timers.swap_remove(at);
                    self.call(node, |a, cx| a.on_timer(cx, timer));
                }
            }
            Pending::Fault(i) => self.apply_fault(i),
            Pending::Resume(node) => {
                if self.w.nodes[node.0].status == (Status::Paused { until_ms: self.w.now_ms }) {
                    self.w.nodes[node.0].status = Status::Up;
                    self.record(node, EventKind::PauseEnd);
                    // What waited is handled now, in the order it arrived, before anything due
                    // at this same moment: a connection delivers in order.
                    for held in std::mem::take(&mut self.w.nodes[node.0].held) {
                        self.step(held);
                    }
                }
            }
            Pending::Heal(i) => {
                if let Fault::Partition { from, to, .. } = &self.spec.faults[i] {
                    let (from, to) = (from.clone(), to.clone());
                    self.record(from[0], EventKind::PartitionEnd { from, to });
                }
                for (at_ms, h) in self.w.net.heal(i, self.w.now_ms) {
                    self.release(at_ms, h);
                }
            }
            Pending::Closed { from, to } => self.call(to, |a, cx| a.on_closed(cx, from)),
        }
    }

    /// Lets `node`'s actor handle something, then carries out what it asked for. (The command
    /// buffer is the run's own, lent out and taken back, so a call allocates nothing.)
    pub(super) fn call(&mut self, node: NodeId, f: impl FnOnce(&mut dyn Actor, &mut Cx)) {
        let mut out = std::mem::take(&mut self.commands);
        self.w.nodes[node.0].handle(node, self.w.now_ms, &mut out, f);
        for c in out.drain(..) {
            self.interpret(node, c);
        }
        self.commands = out;
    }

    fn interpret(&mut self, node: NodeId, command: Command) {
        match command {
            Command::Send { to, msg } => {
                self.w.next_msg += 1;
                let msg_id = self.w.next_msg;
                self.record(node, EventKind::Send { msg_id, to, msg: msg.clone() });
                let sent_at_ms = self.w.now_ms;
                let conn = match self.answering {
                    Some((me, peer, conn)) if (me, peer) == (node, to) => conn,
                    _ => self.w.net.connection(node, to),
                };
                let (fate, fault) = self.w.net.send(node, to, sent_at_ms);
                if let Some(f) = fault {
                    self.w.fault_events[f] = Some(self.events.len() - 1);
                }
                match fate {
                    Fate::Arrives { after_ms } => {
                        self.schedule(sent_at_ms + after_ms, Pending::Deliver { msg_id, from: node, to, conn, msg, sent_at_ms })
                    }
                    Fate::Held => self.w.net.hold(Held { msg_id, from: node, to, conn, msg: Some(msg), sent_at_ms }),
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
                self.w.next_gen += 1;
                let gen = self.w.next_gen;
                let slot = &mut self.w.nodes[node.0];
                match slot.timer(timer) {
                    Some(at) => slot.timers[at].1 = gen,
                    None => slot.timers.push((timer, gen)),
                }
                let at_ms = self.w.nodes[node.0].due(at_local, self.w.now_ms, self.spec.limits.max_time_ms);
                self.schedule(at_ms, Pending::Timer { node, timer, gen, at_local });
            }
            Command::CancelTimer(timer) => {
                let slot = &mut self.w.nodes[node.0];
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
        if !self.w.net.stalled(node, peer) {
            return;
        }
        self.record(node, EventKind::HungUp { peer });
        if let Some(at_ms) = self.w.net.close(node, peer, self.w.now_ms) {
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
    pub(super) fn record(&mut self, node: NodeId, kind: EventKind) {
        let slot = &self.w.nodes[node.0];
        let local_ms = slot.clock.reading(slot.reads, self.w.now_ms);
        self.events.push(Event { at_ms: self.w.now_ms, node, local_ms, kind });
    }
}
