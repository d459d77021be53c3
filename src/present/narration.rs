//! The narration: each event told in one plain sentence, for a learner.

use super::number::{capital, ms};
use super::phrases;
use super::quoted::Quoted;
use super::words::Words;
use crate::engine::event::{BeliefEnd, EventKind};
use crate::engine::msg::Msg;
use crate::engine::{Millis, NodeId, NodeKind};

impl Words<'_> {
    /// Returns a message's label in quotes.
    fn quote(&self, msg: &Msg, to: NodeId) -> String {
        format!("“{}”", self.label(msg, to))
    }

    /// Tells event `i` in one plain sentence, for a learner.
    pub fn narrate(&self, i: usize) -> String {
        let e = &self.trace().events[i];
        let me = self.name(e.node);
        let n = |id: NodeId| self.name(id);
        let v = self.vocabulary();
        match &e.kind {
            EventKind::Send { to, msg, .. } => self.sending(me, *to, msg),
            EventKind::Deliver { from, msg, .. } => match msg {
                Msg::Lock { msg: lock } => self.vocabulary().receiving(lock, me, n(*from)),
                _ => None,
            }
            .unwrap_or_else(|| format!("{me} receives {} from {}.", self.quote(msg, e.node), n(*from))),
            EventKind::Drop { from, msg, reason, .. } => {
                format!("{} from {} never reaches {me}: {}.", capital(&self.quote(msg, e.node)), n(*from), self.drop_reason(*reason, e.node))
            }
            EventKind::PauseStart { until_ms } => format!(
                "{me} stops the world (think of a long GC pause) until {}: it handles nothing and cannot notice time passing.",
                ms(*until_ms)
            ),
            EventKind::PauseEnd => format!("{me} resumes exactly where it stopped, unaware that it was paused."),
            EventKind::Crash => format!("{me} crashes: everything in its memory is gone."),
            EventKind::Restart { keep_state: true } => format!("{me} restarts and reloads its saved state."),
            EventKind::Restart { keep_state: false } => format!("{me} restarts with nothing it kept in memory before the crash."),
            EventKind::ClockJump { by_ms, elapsed } => format!(
                "{me}'s {} jumps {} by {} (an NTP step or an operator's fix); true time is unchanged.{}",
                phrases::stepped_clock(*elapsed),
                if *by_ms >= 0 { "forward" } else { "back" },
                ms(by_ms.unsigned_abs()),
                if *elapsed { " It times its leases and sessions by elapsed time, which a step does not move: none of its timers move." } else { "" }
            ),
            EventKind::PartitionStart { .. } | EventKind::PartitionEnd { .. } | EventKind::HungUp { .. } | EventKind::LinkSlow { .. } => {
                self.network(me, &e.kind)
            }
            EventKind::LockGranted { holder, token, expires_local } => v.granted(me, n(*holder), *token, *expires_local),
            EventKind::LockExtended { holder, token, expires_local } => v.extended(me, n(*holder), *token, *expires_local),
            EventKind::LockEnded { holder, token, how } => v.ended(me, n(*holder), *token, *how),
            EventKind::LockReplicated { holder, token, .. } => v.replicated(me, n(*holder), *token),
            EventKind::Promoted => format!(
                "{me} is promoted to primary (as a failover would do). Whatever the old primary granted but never replicated does not exist here."
            ),
            EventKind::BeliefStart { token, until_local } => {
                let passed = if until_local.is_some_and(|t| t <= e.local_ms) { ", a time its clock has already passed: it does not look" } else { "" };
                format!("{me} believes it holds {}, {}{passed}.", self.held(*token), v.believes(*until_local))
            }
            EventKind::BeliefExtended { until_local, .. } => {
                format!("{me} now believes {} is its own, {}.", v.held(), v.believes(*until_local))
            }
            EventKind::BeliefEnd { token, why } => self.belief_ended(me, *token, *why),
            EventKind::RenewalFailed { abort, .. } => v.renewal_failed(me, *abort),
            EventKind::GaveUp { attempts } => format!("{me} gives up on {} after {}.", v.held(), phrases::attempts_n(*attempts)),
            EventKind::LockChecked { token, left_ms, margin_ms, ok } => self.checking(me, token.is_some(), *left_ms, *margin_ms, *ok),
            EventKind::WriteAccepted { writer, value, version, .. } if !self.has_lock() => {
                format!("{me} accepts {value_q} from {}; the data is now at version {version}.", n(*writer), value_q = Quoted(value))
            }
            EventKind::WriteAccepted { writer, token, value, version } => {
                format!("{me} accepts {value_q} from {} ({}); the data is now at version {version}.", n(*writer), self.token(*token), value_q = Quoted(value))
            }
            EventKind::WriteRejected { writer, value, reason, .. } => {
                format!("{me} rejects {value_q} from {}: {}. {}", n(*writer), self.rejection(reason), self.rejection_means(reason), value_q = Quoted(value))
            }
            EventKind::WriteUndone { writer, value, version } => format!(
                "{me} removes {value_q}, which {} wrote: the compensation undoes that step, and {value_q} is free again (version {version}). It was visible to everyone in between.",
                n(*writer),
                value_q = Quoted(value)
            ),
            EventKind::Done => format!("{me} has finished its script."),
        }
    }

    /// Tells what the network did: a partition, its heal, a client hanging up, a slower link.
    fn network(&self, me: &str, kind: &EventKind) -> String {
        let n = |id: NodeId| self.name(id);
        match kind {
            EventKind::PartitionStart { from, to, two_way, until_ms } => format!(
                "The network splits: messages from {} to {}{} are held until {}, when their connections retransmit them, unless an end gives up waiting first.",
                self.list(from, " and "),
                self.list(to, " and "),
                if *two_way { " and back" } else { "" },
                ms(*until_ms)
            ),
            EventKind::PartitionEnd { from, to } => format!(
                "The partition between {} and {} heals: what it held is delivered, in the order it was sent.",
                self.list(from, " and "),
                self.list(to, " and ")
            ),
            EventKind::HungUp { peer } => format!(
                "{me} has waited too long for {}'s reply, which the partition holds: it closes the connection and sees an error. What it sent may still reach {} when the partition heals (its kernel keeps retransmitting for a while); an answer on that connection will not reach {me}.",
                n(*peer),
                n(*peer)
            ),
            EventKind::LinkSlow { to, extra_ms, until_ms } => {
                format!("Messages from {me} to {} now take {} longer (until {}).", n(*to), ms(*extra_ms), ms(*until_ms))
            }
            _ => String::new(),
        }
    }

    /// Tells why `me` stops believing it holds the lock under `token`.
    fn belief_ended(&self, me: &str, token: u64, why: BeliefEnd) -> String {
        let v = self.vocabulary();
        match why {
            BeliefEnd::Released => format!("{me} is done with {} and lets it go.", self.held(token)),
            BeliefEnd::RenewalFailed => format!("{me} stops: it no longer believes it holds {}, and skips the rest of its work.", v.held()),
            BeliefEnd::Crashed => format!("{me}'s belief that it holds {} dies with the process.", v.held()),
            BeliefEnd::CheckFailed => format!(
                "{me} checks {} on its own clock before going on: too little of it is left, so it stops without touching the resource.",
                self.held(token)
            ),
        }
    }

    /// Tells `me`'s check of its own lock before going on: whether it `holds` one, how long is
    /// `left_ms` of it, and whether that is at least the `margin_ms` it wants.
    fn checking(&self, me: &str, holds: bool, left_ms: Option<i64>, margin_ms: Millis, ok: bool) -> String {
        let v = self.vocabulary();
        if !holds {
            return format!("{me} checks before going on and finds it holds no lock: it stops.");
        }
        let left = left_ms.map_or("no end it can foresee".to_string(), |l| format!("{} left", ms(l.max(0).unsigned_abs())));
        if ok {
            format!("{me} checks {} on its own clock before going on: {left}, at least the {} it wants, so it goes on. Nothing tells it what happens after this check.", v.held(), ms(margin_ms))
        } else {
            format!("{me} checks {} on its own clock before going on: {left}, less than the {} it wants.", v.held(), ms(margin_ms))
        }
    }

    /// Tells `me` sending `msg` to `to`.
    fn sending(&self, me: &str, to: NodeId, msg: &Msg) -> String {
        let to_name = self.name(to);
        match msg {
            Msg::Lock { msg } => self.vocabulary().sending(msg, me, to_name, self.names()),
            Msg::Read => format!("{me} asks {to_name} which version the data is at."),
            Msg::ReadResult { version } => format!("{me} answers {to_name}: the data is at version {version}."),
            Msg::Write { expected_version: Some(v), value, .. } => format!(
                "{me} sends a write of {value_q} to {to_name}, based on version {v}, which it read; a store that checks versions takes it only if the data is still at version {v}.", value_q = Quoted(value)),
            Msg::Write { .. } if self.trace().participants[to.0].role == NodeKind::LockService => {
                format!("{me} sends {to_name} “{}”.", self.label(msg, to))
            }
            Msg::Write { value, .. } if !self.has_lock() => format!("{me} sends a write of {value_q} to {to_name}.", value_q = Quoted(value)),
            Msg::Write { token, value, .. } => match self.vocabulary().token(*token) {
                Some(t) => format!("{me} sends a write of {value_q} to {to_name}, carrying {t}.", value_q = Quoted(value)),
                None => format!("{me} sends a write of {value_q} to {to_name}; it has no token to carry.", value_q = Quoted(value)),
            },
            Msg::Undo { value } => format!(
                "{me} sends {to_name} a compensation: undo its own {value_q}, because a later step of its saga was refused.",
                value_q = Quoted(value)
            ),
            Msg::WriteAccepted { version } => format!("{me} answers {to_name}: ok, the data is now at version {version}."),
            Msg::WriteRejected { reason } => format!("{me} answers {to_name}: rejected ({}).", self.rejection(reason)),
        }
    }
}
