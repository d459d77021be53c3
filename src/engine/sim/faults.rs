//! Faults as the simulator applies them: each starts at its instant, and what it changes.

use super::world::{Pending, Sim, Status};
use crate::engine::actor::Command;
use crate::engine::clock::TimerClock;
use crate::engine::event::EventKind;
use crate::engine::fault::{span, Fault};
use crate::engine::ids::NodeId;

impl Sim<'_> {
    /// Starts fault `i`, and notes the event it made, if any.
    pub(super) fn apply_fault(&mut self, i: usize) {
        let before = self.events.len();
        self.start_fault(i);
        if self.events.len() > before {
            self.w.fault_events[i] = Some(before);
        }
    }

    fn start_fault(&mut self, i: usize) {
        let now = self.w.now_ms;
        match self.spec.faults[i].clone() {
            Fault::Pause { node, for_ms, .. } => {
                let for_ms = span(for_ms);
                let slot = &mut self.w.nodes[node.0];
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
                if self.w.nodes[node.0].status == Status::Down {
                    return;
                }
                self.record(node, EventKind::Crash);
                let slot = &mut self.w.nodes[node.0];
                slot.status = Status::Down;
                slot.held.clear();
                slot.timers.clear();
                self.call_notes_only(node);
            }
            Fault::Restart { node, keep_state, .. } => {
                if self.w.nodes[node.0].status != Status::Down {
                    return;
                }
                self.w.nodes[node.0].status = Status::Up;
                self.record(node, EventKind::Restart { keep_state });
                self.call(node, |a, cx| a.on_restart(cx, keep_state));
                // Its old connections were reset: each peer hears so when the network lets it.
                for peer in (0..self.w.nodes.len()).map(NodeId).filter(|&p| p != node) {
                    let conn = self.w.net.connection(node, peer);
                    if let Some(at_ms) = self.w.net.notify(node, peer, conn, now) {
                        self.schedule(at_ms, Pending::Closed { from: node, to: peer });
                    }
                }
            }
            Fault::ClockJump { node, by_ms, .. } => {
                let elapsed = self.w.nodes[node.0].reads == TimerClock::Monotonic;
                self.record(node, EventKind::ClockJump { by_ms, elapsed })
            }
            Fault::Promote { node, .. } => {
                if self.w.nodes[node.0].status == Status::Down {
                    return;
                }
                self.record(node, EventKind::Promoted);
                self.call(node, |a, cx| a.on_promote(cx));
            }
            Fault::Partition { from, to, two_way, for_ms, .. } => {
                self.w.net.cut(i, from.clone(), to.clone(), two_way);
                let until_ms = now + span(for_ms);
                self.schedule(until_ms, Pending::Heal(i));
                self.record(from[0], EventKind::PartitionStart { from, to, two_way, until_ms });
            }
            Fault::Delay { from, to, extra_ms, for_ms, .. } => {
                let (extra_ms, until_ms) = (span(extra_ms), now + span(for_ms));
                self.w.net.slow(from, to, extra_ms, now, until_ms);
                self.record(from, EventKind::LinkSlow { to, extra_ms, until_ms });
            }
            Fault::DropMessage { from, to, .. } => self.w.net.arm(i, from, to, None),
            Fault::DelayMessage { from, to, extra_ms, .. } => self.w.net.arm(i, from, to, Some(span(extra_ms))),
        }
    }

    /// Lets a crashing node record what the crash ends, discarding anything else it asks for.
    fn call_notes_only(&mut self, node: NodeId) {
        let mut out = Vec::new();
        self.w.nodes[node.0].handle(node, self.w.now_ms, &mut out, |actor, cx| actor.on_crash(cx));
        for c in out {
            if let Command::Note(kind) = c {
                self.record(node, kind);
            }
        }
    }
}
