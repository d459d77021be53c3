//! The story beats of a run: the few events that tell its story (a client taking the lock, a
//! pause, a lock running out, each fault, each write judged, each finding), each with a short
//! title and a sentence on why it matters. Derived from the typed events and the checker's
//! findings, so every lesson, comparison cell and edited scenario has them.

use super::number::{capital, ms};
use super::phrases;
use super::words::Words;
use crate::engine::checker::FindingKind;
use crate::engine::event::{EventKind, LockEnd};
use crate::engine::NodeId;

/// One key event of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Beat {
    /// The event's index in the trace.
    pub event: usize,
    pub title: String,
    /// Why the moment matters, for the narration.
    pub why: String,
    /// The findings (their places in the verdict) that `why` already tells.
    pub quoted: Vec<usize>,
}

impl Words<'_> {
    /// Returns the run's beats, in event order, at most one per event.
    pub fn beats(&self) -> Vec<Beat> {
        let mut out: Vec<Beat> = Vec::new();
        // The (holder, token) locks whose ending has been told, so a lock held on several
        // servers runs out once in the story.
        let mut ended: Vec<(NodeId, u64)> = Vec::new();
        for i in 0..self.trace().events.len() {
            let mut quoted = Vec::new();
            let beat = self.event_beat(i, &mut ended, &mut quoted);
            if let Some((title, why)) = self.with_two_holders(i, beat, &mut quoted) {
                out.push(Beat { event: i, title, why, quoted });
            }
        }
        out
    }

    /// Returns the title and the why of event `i`'s own beat, if it has one, noting in `quoted`
    /// the findings the why tells and in `ended` the locks whose ending it tells.
    fn event_beat(&self, i: usize, ended: &mut Vec<(NodeId, u64)>, quoted: &mut Vec<usize>) -> Option<(String, String)> {
        let trace = self.trace();
        let e = &trace.events[i];
        let n = |id: NodeId| trace.name(id);
        let held = self.vocabulary().held();
        match &e.kind {
            EventKind::BeliefStart { token, .. } => Some((
                format!("{} takes {held}{}", n(e.node), self.vocabulary().token(*token).map_or(String::new(), |t| format!(", {t}"))),
                format!("From here {} acts as the holder, and nothing will tell it when that stops being true.", n(e.node)),
            )),
            EventKind::PauseStart { until_ms } => Some((
                format!("{} pauses for {}", n(e.node), ms(*until_ms - e.at_ms)),
                "A paused process runs no code: it cannot notice time passing or its lock running out.".to_string(),
            )),
            EventKind::LockEnded { token, how, holder } if *how != LockEnd::Released && !ended.contains(&(*holder, *token)) => {
                ended.push((*holder, *token));
                // Told as the diagram's mark tells it ("lease 41 expires", "session … expired").
                Some((
                    format!("{} loses {held}: {}", n(*holder), self.vocabulary().ended_mark(n(*holder), *token, *how)),
                    format!("The lock service no longer counts {} as the holder, and {} is not told.", n(*holder), n(*holder)),
                ))
            }
            EventKind::Crash => Some((format!("{} crashes", n(e.node)), "What it held only in memory is gone.".to_string())),
            EventKind::Restart { keep_state } => Some((
                format!("{} restarts", n(e.node)),
                if *keep_state {
                    "It comes back with what it had written to disk."
                } else {
                    "It comes back empty: what it held is forgotten."
                }
                .to_string(),
            )),
            EventKind::Promoted => Some((
                format!("{} becomes the primary", n(e.node)),
                "It serves with only what had reached it before the failover.".to_string(),
            )),
            EventKind::ClockJump { by_ms, elapsed } => Some((
                format!("{}'s {} jumps {}", n(e.node), phrases::stepped_clock(*elapsed), phrases::signed_ms(*by_ms)),
                if *elapsed {
                    "It times leases by elapsed time, which the step does not move: no deadline moves."
                } else {
                    "Every time it measures on that clock, such as a lease's end, moves with it."
                }
                .to_string(),
            )),
            EventKind::PartitionStart { .. } => Some((
                "The network splits".to_string(),
                "What crosses the cut is held, not lost: each side sees only silence until it heals, or until one gives up waiting.".to_string(),
            )),
            EventKind::HungUp { peer } => Some((
                format!("{} hangs up on {}", n(e.node), n(*peer)),
                "It waited past its timeout for a reply the partition holds, so it closes the connection and sees an error. What it sent can still arrive after the heal.".to_string(),
            )),
            EventKind::WriteAccepted { writer, token, .. } | EventKind::WriteRejected { writer, token, .. } => {
                Some(self.write_beat(i, *writer, *token, quoted))
            }
            EventKind::LockChecked { token: Some(_), left_ms, ok, .. } => Some((
                format!(
                    "{} checks {held}: {}",
                    n(e.node),
                    left_ms.map_or("no end in sight".to_string(), |l| format!("{} left", ms(l.max(0) as u64)))
                ),
                if *ok {
                    "The check is true when it is made; nothing tells the client what happens between it and the write.".to_string()
                } else {
                    "Too little is left, so the client stops before touching the resource.".to_string()
                },
            )),
            EventKind::GaveUp { .. } => Some((format!("{} gives up", n(e.node)), "It stops trying; the work is left undone.".to_string())),
            _ => None,
        }
    }

    /// Returns the beat of a write judged at event `i`: who accepts or rejects whose write, and
    /// what it did to the data (noted in `quoted`).
    fn write_beat(&self, i: usize, writer: NodeId, token: u64, quoted: &mut Vec<usize>) -> (String, String) {
        let trace = self.trace();
        let e = &trace.events[i];
        let n = |id: NodeId| trace.name(id);
        let verb = if matches!(e.kind, EventKind::WriteAccepted { .. }) { "accepts" } else { "rejects" };
        let with = if self.has_lock() { format!(" ({})", self.token(token)) } else { String::new() };
        // What the write did to the data: harm, or a stale write that harmed nothing.
        let at = |kind: FindingKind| trace.verdict.findings.iter().position(|f| f.event == i && f.kind() == kind);
        let harm = trace.verdict.findings.iter().position(|f| f.event == i && f.kind().is_harm());
        let stale = at(FindingKind::StaleWriteAccepted).filter(|_| harm.is_none());
        quoted.extend(harm.or(stale));
        let why = match (&e.kind, harm.or(stale).map(|v| &trace.verdict.findings[v])) {
            (_, Some(f)) if f.kind().is_harm() => format!("{}: {}.", capital(Words::finding_kind(f.kind())), self.finding(f)),
            (_, Some(f)) => format!("{}.", capital(&self.finding(f))),
            (EventKind::WriteRejected { reason, .. }, _) => self.rejection_means(reason).to_string(),
            _ => "The data changes under a write the checker finds safe.".to_string(),
        };
        (format!("{} {verb} {}'s write{with}", n(e.node), n(writer)), why)
    }

    /// Adds the two holders found at event `i` to its beat, or makes them a beat of their own.
    fn with_two_holders(&self, i: usize, beat: Option<(String, String)>, quoted: &mut Vec<usize>) -> Option<(String, String)> {
        let trace = self.trace();
        let two = trace.verdict.findings.iter().position(|f| f.event == i && f.kind() == FindingKind::TwoHolders);
        quoted.extend(two);
        match (beat, two.map(|t| &trace.verdict.findings[t])) {
            (Some((title, why)), Some(f)) => Some((format!("{title}: two holders"), format!("{why} {}.", capital(&self.finding(f))))),
            (None, Some(f)) => Some(("Two clients hold the lock at once".to_string(), format!("{}.", capital(&self.finding(f))))),
            (beat, None) => beat,
        }
    }
}
