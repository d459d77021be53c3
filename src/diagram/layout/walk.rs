//! Laying out a whole trace: every arrow's shaft filed first, then each event drawn in turn,
//! then what is still open drawn to the bottom.

use super::arrows::{self, Senders};
use super::axis::TimeAxis;
use super::bands::Bands;
use super::items::Layout;
use super::label::Label;
use super::lanes::{Room, LEFT};
use super::marks;
use super::placing::Builder;
use super::sheet::{At, Sheet};
use super::spans::Spans;
use crate::engine::event::EventKind;
use crate::present::Words;

/// Lays out a whole trace.
pub fn layout(words: &Words) -> Layout {
    layout_on(words, &TimeAxis::of(words.trace()), Room::Natural)
}

/// Lays out a whole trace on `axis`, which may be shared with traces drawn beside it, in `room`.
pub fn layout_on(words: &Words, axis: &TimeAxis, room: Room) -> Layout {
    let sheet = Sheet::new(words, axis, room);
    let mut b = Builder::new((LEFT, sheet.last_x() + sheet.frame.right - 40.0));
    let senders = Senders::file(&sheet, &mut b);
    let mut bands = Bands::across(&sheet);
    let mut spans = Spans::new(sheet.trace().quorum);
    for i in 0..sheet.trace().events.len() {
        let at = sheet.at(i);
        spans.note_losses(at);
        draw(&sheet, &mut b, at, &senders, &mut spans, &mut bands);
        marks::of_event(&sheet, &mut b, at);
    }
    spans.close(&sheet, &mut b);
    // Wide enough for the last lane's side labels, and for any longer label.
    let boxes = || b.items.iter().filter_map(|i| i.label.as_ref()).map(Label::bbox);
    let widest = boxes().map(|(_, _, right, _)| right + 40.0).fold(0.0, f32::max);
    let width = (sheet.last_x() + sheet.frame.right).max(widest);
    // Tall enough for a label pushed below the last row.
    let lowest = boxes().map(|(_, _, _, bottom)| bottom + 4.0).fold(0.0, f32::max);
    let Sheet { frame, lanes, rows, bottom, .. } = sheet;
    Layout {
        width,
        head: frame.head,
        height: (bottom + 16.0).max(lowest),
        lanes,
        rows,
        items: b.items,
        gaps: axis.gaps.clone(),
        ticks: axis.ticks.clone(),
    }
}

/// Draws what the event `at` draws by its kind: an arrow, the start or end of a span or a band,
/// a write's verdict.
fn draw(sheet: &Sheet, b: &mut Builder, at: At, senders: &Senders, spans: &mut Spans, bands: &mut Bands) {
    match &at.e.kind {
        EventKind::Deliver { msg_id, from, msg, .. } | EventKind::Drop { msg_id, from, msg, .. } => {
            arrows::message(sheet, b, at, senders.of(*msg_id, at.i), *from, msg);
        }
        EventKind::PauseStart { until_ms } => spans.pause_start(sheet, at, *until_ms),
        EventKind::PauseEnd => spans.pause_end(sheet, b, at),
        EventKind::LockGranted { token, .. } | EventKind::LockReplicated { token, .. } => spans.granted(at, *token),
        EventKind::LockEnded { token, how, holder } => spans.lock_ended(sheet, b, at, *holder, *token, *how),
        EventKind::BeliefStart { token, .. } => spans.belief_start(at, *token),
        EventKind::BeliefEnd { token, .. } => spans.belief_end(sheet, b, at, *token),
        EventKind::WriteAccepted { writer, .. } | EventKind::WriteRejected { writer, .. } | EventKind::WriteUndone { writer, .. } => {
            marks::write(sheet, b, at, *writer);
        }
        // What a crashed lock service holds is out of service until it restarts.
        EventKind::Crash => spans.held_end(sheet, b, at),
        EventKind::PartitionStart { from, to, .. } => bands.start(sheet, b, at, from, to),
        EventKind::PartitionEnd { .. } => bands.end(b, at.y),
        EventKind::Promoted
        | EventKind::Restart { .. }
        | EventKind::ClockJump { .. }
        | EventKind::GaveUp { .. }
        | EventKind::LockChecked { .. }
        | EventKind::RenewalFailed { .. }
        | EventKind::LinkSlow { .. }
        | EventKind::HungUp { .. }
        | EventKind::Send { .. }
        | EventKind::LockExtended { .. }
        | EventKind::BeliefExtended { .. }
        | EventKind::Done => {}
    }
}
