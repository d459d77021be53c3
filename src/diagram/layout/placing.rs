//! Placing items so that they stay readable: a label or mark moves off the labels and dots
//! already placed, and an arrow's label off other arrows.

use super::items::{Item, Shape, MARK_R};
use super::label::{Anchor, Extent, Label, LABEL_PX, LINE_H};
use super::lanes::HEADS_BOTTOM;
use crate::diagram::obstacles::{Obstacles, Rect, Segment, Shafts};

/// The items placed so far, and what a new one must keep clear of.
#[derive(Default)]
pub(super) struct Builder {
    pub(super) items: Vec<Item>,
    /// What a new label or mark must not cover: labels, and the dots of marks.
    placed: Obstacles,
    /// Arrowheads, which a mark's label keeps clear of.
    pub(super) heads: Obstacles,
    /// Every arrow's shaft, which no other item's label crosses where it has room not to.
    pub(super) shafts: Shafts,
    /// Where a label moved across its lifeline must stay: right of the time axis, and within
    /// the frame's width.
    span: (f32, f32),
}

/// Returns the box of the head of an arrow from `x1` that ends at (`x2`, `y2`).
pub fn head_box(x1: f32, x2: f32, y2: f32) -> Rect {
    let back = if x2 >= x1 { x2 - 12.0 } else { x2 + 12.0 };
    (back.min(x2), y2 - 6.0, back.max(x2), y2 + 6.0)
}

/// Returns the box of a mark's dot at (x, y).
fn dot(x: f32, y: f32) -> Rect {
    (x - MARK_R, y - MARK_R, x + MARK_R, y + MARK_R)
}

impl Builder {
    /// Returns an empty builder whose labels moved across a lifeline stay between `span`'s xs,
    /// and stay below the lanes' name boxes.
    pub(super) fn new(span: (f32, f32)) -> Builder {
        let mut placed = Obstacles::default();
        placed.insert((f32::MIN, f32::MIN, f32::MAX, HEADS_BOTTOM));
        Builder { span, placed, ..Builder::default() }
    }

    /// Adds an item; its label moves a line down or up if it would cover a label already placed
    /// (or, where it can, be crossed by another arrow), and so does a mark (with its label)
    /// whose dot would.
    pub(super) fn push(&mut self, mut shape: Shape, mut label: Option<Label>, events: (usize, usize)) {
        if let Shape::Mark { x, y, mark } = shape {
            let dy = [0.0, -14.0, 14.0, -28.0, 28.0].into_iter().find(|dy| !self.placed.hit(dot(x, y + dy))).unwrap_or(0.0);
            shape = Shape::Mark { x, y: y + dy, mark };
            label = label.map(|l| Label { y: l.y + dy, ..l });
        }
        // A mark's label also keeps clear of arrowheads (a message's label runs along its arrow).
        let heads = matches!(shape, Shape::Mark { .. });
        let own = match shape {
            Shape::Arrow { x1, y1, x2, y2, .. } => Some((x1, y1, x2, y2)),
            _ => None,
        };
        // A mark's label may also go to the other side of its lifeline, if the time axis is not there.
        let mark_x = match shape {
            Shape::Mark { x, .. } => Some(x),
            _ => None,
        };
        let label = label.map(|l| {
            // The places tried, as anchor points: where the label sits, a line or more away, or
            // across its lifeline.
            let extent = l.extent;
            let bbox = |&(x, y, anchor): &(f32, f32, Anchor)| extent.bbox(x, y, anchor);
            let free = |p: &&(f32, f32, Anchor)| !(self.placed.hit(bbox(p)) || heads && self.heads.hit(bbox(p)));
            let clear = |p: &&(f32, f32, Anchor)| free(p) && !self.shafts.cross(bbox(p), own);
            let at = [0.0, 14.0, -14.0, 28.0, -28.0, 42.0, -42.0, 56.0, -56.0].map(|dy| (l.x, l.y + dy, l.anchor));
            let mirror = match (mark_x, l.anchor) {
                (Some(x), Anchor::Start | Anchor::End) => {
                    let anchor = if l.anchor == Anchor::Start { Anchor::End } else { Anchor::Start };
                    let (x0, _, x1, _) = extent.bbox(2.0 * x - l.x, l.y, anchor);
                    (x0 >= self.span.0 && x1 <= self.span.1).then_some((2.0 * x - l.x, anchor))
                }
                _ => None,
            };
            // Where the label already sits clear of other arrows, or a line away, or across its
            // lifeline; else clear of labels.
            let mirrored = mirror.map(|(x, anchor)| [0.0, 14.0, -14.0, 28.0, -28.0].map(|dy| (x, l.y + dy, anchor)));
            let farther = &at[3..7];
            let near = at[..3].iter().chain(mirrored.iter().flatten()).chain(farther).find(clear);
            match near.or_else(|| at.iter().find(free)) {
                Some(&(x, y, anchor)) => Label { x, y, anchor, ..l },
                None => l,
            }
        });
        if let Some(l) = &label {
            self.placed.insert(l.bbox());
        }
        if let Shape::Mark { x, y, .. } = shape {
            self.placed.insert(dot(x, y));
        }
        self.items.push(Item { shape, label, events });
    }

    /// Places an arrow's label just above the arrow, at the middle if that spot is free, else at
    /// the first point along the arrow where it overlaps no label and no other arrow crosses it;
    /// failing that, just below the arrow; failing that, where it overlaps no label.
    pub(super) fn arrow_label(&self, x1: f32, y1: f32, x2: f32, y2: f32, text: String) -> Label {
        const ALONG: [f32; 5] = [0.5, 0.35, 0.65, 0.25, 0.75];
        // A wrapped label's last line sits just above the arrow; below, its first line just under it.
        let up = text.matches('\n').count() as f32 * LINE_H;
        let extent = Extent::of(&text);
        // The label's anchor t of the way along the arrow, dy below it, moved sideways where it
        // must be to stay within the frame.
        let place = |t: f32, dy: f32| {
            let (x, y) = (x1 + (x2 - x1) * t, y1 + (y2 - y1) * t + dy);
            let (x0, _, xe, _) = extent.bbox(x, y, Anchor::Middle);
            (x - (xe - self.span.1).max(0.0) + (self.span.0 - x0).max(0.0), y)
        };
        let above = ALONG.map(|t| place(t, -6.0 - up));
        // Below a sloped arrow the label starts under the shaft's lower end within its width.
        let drop = ((y2 - y1) / (x2 - x1)).abs() * extent.width() / 2.0;
        let below = ALONG.map(|t| place(t, LABEL_PX + 2.0 + if drop.is_finite() { drop } else { 0.0 }));
        let own: Segment = (x1, y1, x2, y2);
        let bbox = |&&(x, y): &&(f32, f32)| extent.bbox(x, y, Anchor::Middle);
        let free = |p: &&(f32, f32)| !self.placed.hit(bbox(p));
        let clear = |p: &&(f32, f32)| free(p) && !self.shafts.cross(bbox(p), Some(own));
        let below_clear = |p: &&(f32, f32)| clear(p) && !self.shafts.cross(bbox(p), None);
        let (x, y) = above
            .iter()
            .find(clear)
            .or_else(|| below.iter().find(below_clear))
            .or_else(|| above.iter().find(free))
            .copied()
            .unwrap_or_else(|| place(0.5, -6.0 - up));
        Label { x, y, text, anchor: Anchor::Middle, extent }
    }
}
