//! The node interface: a node handles one input at its local time and writes commands.
//!
//! Nodes never touch the queue, the network or true time; the simulator alone interprets
//! what they write into [`Cx`].

use super::copy::box_copy;
use super::event::EventKind;
use super::ids::NodeId;
use super::msg::Msg;
use super::rng::Rng;
use super::time::{LocalMillis, Millis};

/// A node's named timers; setting one again replaces it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Timer {
    /// The client's script begins.
    Start,
    /// The current script step's wait is over (work done, retry due).
    Step,
    /// The lock request in flight went unanswered for too long.
    Timeout,
    /// The next renewal or keep-alive is due.
    Renew,
    /// The renewal in flight went unanswered for too long.
    RenewTimeout,
    /// A lock design's client-side timer, numbered by the design.
    Client(u8),
    /// Something with this id (a lease, a key, a session) reaches its expiry on the service's clock.
    Expiry(u64),
    /// A lock service's own background work, numbered by the design (replication, say).
    Service(u8),
}

/// A lock design's own timers, as a plain enum of its own: the engine keeps each in a numbered
/// slot of [`Timer::Client`] or [`Timer::Service`], and the design reads the slot back as its
/// timer, so no design handles a bare number.
pub trait DesignTimer: Copy {
    /// The slot the timer uses.
    fn slot(self) -> u8;
    /// The design's timer in `slot`, if it has one there.
    fn of_slot(slot: u8) -> Option<Self>;
}

impl Timer {
    /// A design's client-side timer.
    pub fn client<T: DesignTimer>(timer: T) -> Timer {
        Timer::Client(timer.slot())
    }

    /// A design's service timer.
    pub fn service<T: DesignTimer>(timer: T) -> Timer {
        Timer::Service(timer.slot())
    }

    /// Returns the design's service timer this is, if it is one.
    pub fn as_service<T: DesignTimer>(self) -> Option<T> {
        match self {
            Timer::Service(slot) => T::of_slot(slot),
            _ => None,
        }
    }
}

/// What a node asks the simulator to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Send {
        to: NodeId,
        msg: Msg,
    },
    SetTimer {
        timer: Timer,
        at_local: LocalMillis,
    },
    CancelTimer(Timer),
    Note(EventKind),
    /// Closes the connection to `to` (to every lock service node if `None`) after a reply went
    /// unanswered for too long: what was sent on it still arrives, but no answer on it does.
    HangUp {
        to: Option<NodeId>,
    },
}

/// The context of one handler call: who I am, my local time, my random stream, my outbox.
pub struct Cx<'a> {
    pub me: NodeId,
    /// This node's local clock reading now.
    pub now: LocalMillis,
    pub rng: &'a mut Rng,
    pub out: &'a mut Vec<Command>,
}

impl Cx<'_> {
    /// Sends a message.
    pub fn send(&mut self, to: NodeId, msg: Msg) {
        self.out.push(Command::Send { to, msg });
    }

    /// Sets a timer to fire `after_ms` from now on this node's clock.
    pub fn after(&mut self, timer: Timer, after_ms: Millis) {
        self.at(timer, self.now + after_ms);
    }

    /// Sets a timer to fire when this node's clock reads `at_local`.
    pub fn at(&mut self, timer: Timer, at_local: LocalMillis) {
        self.out.push(Command::SetTimer { timer, at_local });
    }

    /// Cancels a pending timer.
    pub fn cancel(&mut self, timer: Timer) {
        self.out.push(Command::CancelTimer(timer));
    }

    /// Records a protocol event in the trace.
    pub fn note(&mut self, kind: EventKind) {
        self.out.push(Command::Note(kind));
    }

    /// Gives up on a connection whose reply is overdue: see [`Command::HangUp`].
    pub fn hang_up(&mut self, to: Option<NodeId>) {
        self.out.push(Command::HangUp { to });
    }
}

/// Copies a node, state and all, for a run that goes on from another run's state.
pub trait CopyActor {
    fn copy_box(&self) -> Box<dyn Actor>;
    /// Copies the node into `target`, reusing its box if it holds a node of the same kind.
    fn copy_into(&self, target: &mut Box<dyn Actor>);
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any;
    /// Its whole state's fingerprint.
    fn fingerprint(&self) -> u128;
}

box_copy!(CopyActor, Actor);

/// A participant's behaviour.
pub trait Actor: CopyActor {
    /// Handles the start of the run; by default, nothing happens.
    fn on_start(&mut self, _cx: &mut Cx) {}
    /// Handles one delivered message.
    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &Msg);
    /// Handles one fired timer.
    fn on_timer(&mut self, cx: &mut Cx, timer: Timer);
    /// Records what a crash ends; only notes are kept, since a crashed node does nothing. By
    /// default there is nothing to record.
    fn on_crash(&mut self, _cx: &mut Cx) {}
    /// Comes back after a crash, keeping persisted state or starting empty.
    fn on_restart(&mut self, cx: &mut Cx, keep_state: bool);
    /// Becomes the primary; only replicas do anything.
    fn on_promote(&mut self, _cx: &mut Cx) {}
    /// Hears that `peer` closed its connection to this node, or restarted (which reset it); by
    /// default, nothing happens.
    fn on_closed(&mut self, _cx: &mut Cx, _peer: NodeId) {}
}

/// Drives a node directly in unit tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::{Actor, Command, Cx};
    use crate::engine::ids::NodeId;
    use crate::engine::msg::Msg;
    use crate::engine::rng::Rng;
    use crate::engine::time::LocalMillis;

    /// Delivers `msg` from node `from` at local time `now` (ms) and returns every command written.
    pub fn call(node: &mut dyn Actor, now: i64, from: usize, msg: Msg) -> Vec<Command> {
        let (mut rng, mut out) = (Rng::new(0), Vec::new());
        node.on_message(&mut Cx { me: NodeId(99), now: LocalMillis::from_ms(now), rng: &mut rng, out: &mut out }, NodeId(from), &msg);
        out
    }

    /// Fires `timer` on the node at local time `now` (ms) and returns every command written.
    pub fn fire(node: &mut dyn Actor, now: i64, timer: super::Timer) -> Vec<Command> {
        let (mut rng, mut out) = (Rng::new(0), Vec::new());
        node.on_timer(&mut Cx { me: NodeId(99), now: LocalMillis::from_ms(now), rng: &mut rng, out: &mut out }, timer);
        out
    }

    /// Restarts the node without its state at local time `now` (ms) and returns every command written.
    pub fn restart(node: &mut dyn Actor, now: i64) -> Vec<Command> {
        let (mut rng, mut out) = (Rng::new(0), Vec::new());
        node.on_restart(&mut Cx { me: NodeId(99), now: LocalMillis::from_ms(now), rng: &mut rng, out: &mut out }, false);
        out
    }

    /// Returns the messages among `out`, as (recipient, message).
    pub fn sent(out: &[Command]) -> Vec<(usize, Msg)> {
        out.iter().filter_map(|c| if let Command::Send { to, msg } = c { Some((to.0, msg.clone())) } else { None }).collect()
    }
}
