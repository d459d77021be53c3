//! The diagram's labels: a few words on each arrow, span and mark, and the Mermaid export's
//! notes, in the same wording as the event log (a restart, a client giving up and a failed
//! renewal read alike in both).

use super::number::ms;
use super::phrases;
use super::quoted::Quoted;
use super::words::Words;
use crate::engine::checker::FindingKind;
use crate::engine::event::EventKind;
use crate::engine::msg::{Msg, Rejection};
use crate::engine::time::Millis;
use crate::engine::NodeId;

/// The label of a client's belief once the lock service has let its lock go.
pub const STALE_BELIEF: &str = "stale: still believes";

impl Words<'_> {
    /// Labels the arrow of a message that never arrived.
    pub fn lost_arrow(&self, msg: &Msg, to: NodeId) -> String {
        format!("{} ✗", self.label(msg, to))
    }

    /// Labels the arrow of a resource's refusal (the ✗ at the resource gives the reason).
    pub fn refusal_arrow(&self) -> String {
        "rejected".into()
    }

    /// Labels a message that never arrived, in the Mermaid export.
    pub fn lost_note(&self, msg: &Msg, to: NodeId) -> String {
        format!("{} (lost)", self.label(msg, to))
    }

    /// Labels a violation found at an event, in the Mermaid export.
    pub fn violation_note(&self, finding: &str) -> String {
        format!("VIOLATION: {finding}")
    }

    /// Labels a process pause of `for_ms`.
    pub fn paused(&self, for_ms: Millis) -> String {
        format!("paused {}", ms(for_ms))
    }

    /// Labels the mark of a judged write: accepted (with its token), rejected (with why), or
    /// harm: `stale` says the writer no longer held the lock, `harm` what the write did to the
    /// data, if anything.
    pub fn write_mark(&self, kind: &EventKind, stale: bool, harm: Option<FindingKind>) -> String {
        let accepted = |token: u64| if self.has_lock() { format!("accepted, {}", self.token(token)) } else { "accepted".into() };
        match (kind, stale, harm) {
            // The constraint's name is in the story; the mark names the key.
            (EventKind::WriteRejected { reason: Rejection::Duplicate { value }, .. }, _, _) => format!("rejected: duplicate key {value}"),
            (EventKind::WriteRejected { reason, .. }, _, _) => format!("rejected: {}", self.rejection(reason)),
            (EventKind::WriteAccepted { token, .. }, stale, Some(harm)) => {
                format!("{}: {}{}", accepted(*token), if stale { "STALE, " } else { "" }, Words::finding_kind(harm).to_uppercase())
            }
            (EventKind::WriteAccepted { token, .. }, true, None) => format!("{}: stale, no harm", accepted(*token)),
            (EventKind::WriteAccepted { token, .. }, false, None) => accepted(*token),
            (EventKind::WriteUndone { value, .. }, _, _) => format!("{} undone", Quoted(value)),
            _ => String::new(),
        }
    }

    /// Labels the mark of event `i`, for the kinds drawn as a mark on a lifeline: a crash, a
    /// restart, a promotion, a clock jump, a client giving up, a check of the lock, a failed
    /// renewal, a slowed link, a hang-up. `None` for any other event.
    pub fn mark(&self, i: usize) -> Option<String> {
        let e = &self.trace().events[i];
        Some(match &e.kind {
            EventKind::Crash => phrases::CRASH.into(),
            EventKind::Promoted => phrases::PROMOTED.into(),
            EventKind::Restart { keep_state } => phrases::restart(*keep_state).into(),
            EventKind::GaveUp { attempts } => phrases::gave_up(*attempts),
            EventKind::RenewalFailed { abort, .. } => phrases::renewal_failed(self.vocabulary().renewal(), *abort),
            EventKind::LockChecked { token, left_ms, margin_ms, ok } => phrases::checked(token.is_some(), *left_ms, *margin_ms, *ok),
            EventKind::ClockJump { by_ms, elapsed } => format!("{} {}", phrases::stepped_clock(*elapsed), phrases::signed_ms(*by_ms)),
            EventKind::LinkSlow { to, extra_ms, .. } => format!("link to {} +{}", self.trace().name(*to), ms(*extra_ms)),
            EventKind::HungUp { peer } => phrases::hung_up(self.trace().name(*peer)),
            _ => return None,
        })
    }

    /// Labels a partition's band: who is cut off from whom.
    pub fn partition_band(&self, from: &[NodeId], to: &[NodeId]) -> String {
        let names = |ids: &[NodeId]| ids.iter().map(|&n| self.trace().name(n)).collect::<Vec<_>>().join(", ");
        format!("partition: {} ✕ {}", names(from), names(to))
    }
}

/// Labels a time on the diagram's axis.
pub fn tick(at_ms: u64) -> String {
    ms(at_ms)
}

/// Names a diagram for a screen reader.
pub fn diagram(title: &str) -> String {
    format!("Sequence diagram: {title}")
}

/// Labels a stretch of `skipped_ms` idle time drawn shorter than to scale.
pub fn idle(skipped_ms: u64) -> String {
    format!("≈ {} idle, compressed", ms(skipped_ms))
}
