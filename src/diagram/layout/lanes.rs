//! Where the lanes go: the room a diagram has, the gap between lifelines, and labels fitted to
//! the room beside them.

use super::items::Lane;
use super::label::{wrap, Anchor, Label};
use crate::engine::trace::NodeInfo;
use crate::engine::NodeId;

pub const LANE_GAP: f32 = 190.0;
pub const LANE_GAP_TIGHT: f32 = 165.0;
/// The closest a fitted diagram draws its lifelines; a narrower room scrolls sideways.
pub const MIN_LANE_GAP: f32 = 84.0;
/// The narrowest room a diagram is fitted to; a narrower box (a phone's) scrolls sideways.
pub const MIN_ROOM: f32 = 560.0;
/// The widest a lane's name box is.
pub const HEAD_W: f32 = 160.0;
/// How far down the lanes' name boxes reach, with a little room under them: no label is placed
/// above this, and the page's sticky strip of names is this tall.
pub const HEADS_BOTTOM: f32 = 46.0;
pub const LEFT: f32 = 78.0;

/// How wide a diagram may be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Room {
    /// Lanes [`LANE_GAP`] apart and every label on one line: files and the command line.
    Natural,
    /// At most this many units wide where it can be: lanes drawn closer (down to
    /// [`MIN_LANE_GAP`]), names and labels wrapped to the room between them.
    Fit(f32),
}

/// Where the lanes go and how wide labels may be.
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    /// The first lifeline's x.
    x0: f32,
    pub(super) gap: f32,
    pub(super) head: f32,
    /// The margin after the last lifeline.
    pub(super) right: f32,
    wrap: bool,
}

impl Frame {
    /// Returns where `lanes` lanes go in `room`.
    pub(super) fn new(lanes: usize, room: Room) -> Frame {
        let natural = lane_gap(lanes);
        let Room::Fit(w) = room else { return Frame { x0: LEFT + 72.0, gap: natural, head: HEAD_W, right: 230.0, wrap: false } };
        let (w, n) = (w.max(MIN_ROOM), lanes.max(1) as f32);
        // Full-width name boxes if they fit, else boxes as wide as the gap allows.
        let wide = (w - LEFT - 16.0 - HEAD_W) / (n - 1.0).max(1.0);
        let gap = if wide >= HEAD_W + 12.0 { wide } else { (w - LEFT - 4.0) / n };
        let gap = gap.clamp(MIN_LANE_GAP, natural);
        let head = (gap - 12.0).min(HEAD_W);
        Frame { x0: LEFT + head / 2.0 + 4.0, gap, head, right: head / 2.0 + 12.0, wrap: true }
    }

    /// Returns a lane for each participant, in order.
    pub(super) fn lanes(&self, participants: &[NodeInfo]) -> Vec<Lane> {
        participants
            .iter()
            .enumerate()
            .map(|(i, p)| Lane { x: self.x0 + i as f32 * self.gap, name: p.name.clone(), role: p.role })
            .collect()
    }

    /// Returns `text`, wrapped to `max` units if this frame wraps.
    pub(super) fn fit(&self, text: String, max: f32) -> String {
        if self.wrap {
            wrap(&text, max.max(80.0))
        } else {
            text
        }
    }

    /// Places a label `offset` beside its lane: to the right, or to the left on the last lane.
    pub(super) fn side_label(&self, x: f32, y: f32, text: String, lanes: usize, node: NodeId, offset: f32) -> Label {
        // Short of the next lane by more than an arrowhead (12), so the heads arriving there stay clear.
        let text = self.fit(text, self.gap - offset - 14.0);
        if node.0 + 1 == lanes {
            Label::new(x - offset, y, text, Anchor::End)
        } else {
            Label::new(x + offset, y, text, Anchor::Start)
        }
    }
}

/// Returns the distance between lifelines: tighter when there are many.
fn lane_gap(lanes: usize) -> f32 {
    if lanes > 5 {
        LANE_GAP_TIGHT
    } else {
        LANE_GAP
    }
}
