//! Marks on a lifeline, each with its label beside it: a crash, a restart, a clock jump, a lock
//! that ended, a write's verdict, two holders at once.

use super::items::{Mark, Shape};
use super::label::{Anchor, Label};
use super::placing::Builder;
use super::sheet::{At, Sheet};
use crate::engine::checker::FindingKind;
use crate::engine::event::{EventKind, LockEnd};
use crate::engine::NodeId;
use crate::present::Words;

/// Draws `mark` on the lifeline `at`, labelled `text` beside it.
pub(super) fn side_mark(sheet: &Sheet, b: &mut Builder, at: At, mark: Mark, text: String) {
    let label = sheet.side_label(at.x, at.y + 4.0, text, at.e.node, 14.0);
    b.push(Shape::Mark { x: at.x, y: at.y, mark }, Some(label), (at.i, at.i));
}

/// Returns the mark a lock's end makes on the service's lifeline, if it makes one.
pub(super) fn ended(how: LockEnd) -> Option<Mark> {
    match how {
        LockEnd::Expired | LockEnd::SessionClosed => Some(Mark::Expired),
        LockEnd::Released => None,
        LockEnd::DeletedByOther => Some(Mark::DeletedByOther),
        LockEnd::LostOnRestart | LockEnd::Resynced => Some(Mark::Lost),
        LockEnd::Replaced => Some(Mark::TakenOver),
    }
}

/// Draws a write's verdict at the resource: accepted, rejected, or accepted and harmful.
pub(super) fn write(sheet: &Sheet, b: &mut Builder, at: At, writer: NodeId) {
    let found: Vec<FindingKind> = sheet.found_at(at.i).collect();
    let stale = found.contains(&FindingKind::StaleWriteAccepted);
    let harm = found.iter().copied().find(|k| k.is_harm());
    let kind = match (&at.e.kind, harm) {
        (EventKind::WriteRejected { .. }, _) => Mark::WriteRejected,
        (_, Some(_)) => Mark::WriteViolation,
        (_, None) => Mark::WriteAccepted,
    };
    let text = sheet.words.write_mark(&at.e.kind, stale, harm);
    // The reply goes back toward the writer, so the verdict sits on the other side.
    let frame = &sheet.frame;
    let text = frame.fit(text, frame.gap - 28.0);
    let (ex, ey) = (at.x, at.y);
    let label = if sheet.x(writer) > ex {
        Label::new(ex - 14.0, ey + 4.0, text, Anchor::End)
    } else {
        Label::new(ex + 14.0, ey + 4.0, text, Anchor::Start)
    };
    b.push(Shape::Mark { x: ex, y: ey, mark: kind }, Some(label), (at.i, at.i));
}

/// Draws the marks an event makes of its own: one the wording layer labels (a crash, a
/// restart, a clock jump…), and two holders at once.
pub(super) fn of_event(sheet: &Sheet, b: &mut Builder, at: At) {
    if let (Some(kind), Some(text)) = (on_lifeline(&at.e.kind), sheet.words.mark(at.i)) {
        side_mark(sheet, b, at, kind, text);
    }
    if sheet.found_at(at.i).any(|kind| kind == FindingKind::TwoHolders) {
        let label = sheet.side_label(at.x, at.y - 12.0, Words::finding_kind(FindingKind::TwoHolders).into(), at.e.node, 14.0);
        b.push(Shape::Mark { x: at.x, y: at.y - 16.0, mark: Mark::TwoHolders }, Some(label), (at.i, at.i));
    }
}

/// Returns the mark an event makes on its node's lifeline, if it makes one of its own.
fn on_lifeline(kind: &EventKind) -> Option<Mark> {
    Some(match kind {
        EventKind::Crash => Mark::Crash,
        EventKind::Promoted => Mark::Promoted,
        EventKind::Restart { .. } => Mark::Restart,
        EventKind::ClockJump { .. } => Mark::ClockJump,
        EventKind::GaveUp { .. } => Mark::GaveUp,
        EventKind::LockChecked { .. } => Mark::Checked,
        EventKind::RenewalFailed { .. } => Mark::RenewalFailed,
        EventKind::LinkSlow { .. } => Mark::SlowLink,
        EventKind::HungUp { .. } => Mark::HungUp,
        _ => return None,
    })
}
