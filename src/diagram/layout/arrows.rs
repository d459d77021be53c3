//! Messages as arrows: from the row of the event that sent a message to the row where it
//! arrived, or ending short of its target where it was lost.

use super::items::{Arrow, Shape};
use super::placing::{head_box, Builder};
use super::sheet::{At, Sheet};
use crate::engine::event::EventKind;
use crate::engine::msg::{Msg, MsgKind};
use crate::engine::NodeId;

/// By message id (the engine numbers messages 1, 2, 3… as it sends them): the event that sent it.
pub(super) struct Senders(Vec<usize>);

impl Senders {
    /// Returns every message's sender, and files every arrow's shaft and head with `b` first, so
    /// that a label keeps clear of the arrows drawn after it too.
    pub(super) fn file(sheet: &Sheet, b: &mut Builder) -> Senders {
        let mut sent = Senders(Vec::new());
        for (i, e) in sheet.trace().events.iter().enumerate() {
            match e.kind {
                EventKind::Send { msg_id, .. } => {
                    let id = msg_id as usize;
                    if sent.0.len() <= id {
                        sent.0.resize(id + 1, usize::MAX);
                    }
                    sent.0[id] = i;
                }
                EventKind::Deliver { msg_id, from, .. } | EventKind::Drop { msg_id, from, .. } => {
                    let at = sheet.at(i);
                    let (x1, y1, x2) = shaft(sheet, at, sent.of(msg_id, i), from);
                    b.shafts.insert((x1, y1, x2, at.y));
                    if matches!(e.kind, EventKind::Deliver { .. }) {
                        b.heads.insert(head_box(x1, at.x, at.y));
                    }
                }
                _ => {}
            }
        }
        sent
    }

    /// Returns the event that sent message `msg_id`, or `i` if none did.
    pub(super) fn of(&self, msg_id: u64, i: usize) -> usize {
        self.0.get(msg_id as usize).copied().filter(|&s| s != usize::MAX).unwrap_or(i)
    }
}

/// Returns where the arrow of the message sent at event `s` from `from` and delivered or lost
/// `at` starts (x1, y1), and the x its shaft ends at: 0.6 of the way if it was lost.
fn shaft(sheet: &Sheet, at: At, s: usize, from: NodeId) -> (f32, f32, f32) {
    let (x1, y1) = (sheet.x(from), sheet.rows[s]);
    let x2 = if matches!(at.e.kind, EventKind::Drop { .. }) { x1 + (at.x - x1) * 0.6 } else { at.x };
    (x1, y1, x2)
}

/// Draws the message sent at event `s` from `from` and delivered or lost `at`, with its label.
pub(super) fn message(sheet: &Sheet, b: &mut Builder, at: At, s: usize, from: NodeId, msg: &Msg) {
    let (x1, y1, x2) = shaft(sheet, at, s, from);
    let (words, node) = (&sheet.words, at.e.node);
    let kind = arrow(msg, matches!(at.e.kind, EventKind::Drop { .. }));
    let text = match kind {
        Arrow::Lost => words.lost_arrow(msg, node),
        Arrow::Rejected => words.refusal_arrow(),
        Arrow::Request | Arrow::Reply | Arrow::Refusal | Arrow::Write => words.label(msg, node),
    };
    let label = b.arrow_label(x1, y1, x2, at.y, sheet.frame.fit(text, (x2 - x1).abs() - 16.0));
    b.push(Shape::Arrow { x1, y1, x2, y2: at.y, arrow: kind }, Some(label), (s, at.i));
}

/// Says how a delivered (or lost) message is drawn.
fn arrow(msg: &Msg, lost: bool) -> Arrow {
    match (msg, msg.kind()) {
        _ if lost => Arrow::Lost,
        (Msg::WriteRejected { .. }, _) => Arrow::Rejected,
        (Msg::Write { .. } | Msg::Undo { .. }, _) => Arrow::Write,
        (_, MsgKind::Busy | MsgKind::Refusal) => Arrow::Refusal,
        (_, MsgKind::Reply) => Arrow::Reply,
        (_, MsgKind::Acquire | MsgKind::Request | MsgKind::WakeUp) => Arrow::Request,
    }
}
