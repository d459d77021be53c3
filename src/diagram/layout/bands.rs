//! Partitions as bands: one across each run of neighbouring lanes a partition cuts, from where
//! it starts to where it heals.

use super::items::Shape;
use super::label::{Anchor, Label};
use super::placing::Builder;
use super::sheet::{At, Sheet};
use crate::engine::NodeId;

/// The partitions open, and how far sideways a band may reach.
pub(super) struct Bands {
    /// Each open partition's bands, as indices of the builder's items.
    open: Vec<Vec<usize>>,
    x0: f32,
    x1: f32,
}

impl Bands {
    /// Returns no band open, on `sheet`'s lanes.
    pub(super) fn across(sheet: &Sheet) -> Bands {
        Bands { open: Vec::new(), x0: sheet.lanes[0].x - 40.0, x1: sheet.last_x() + 40.0 }
    }

    /// Draws a band over each run of neighbouring lanes the partition `at` cuts, and over no
    /// other, down to the bottom until it heals.
    pub(super) fn start(&mut self, sheet: &Sheet, b: &mut Builder, at: At, from: &[NodeId], to: &[NodeId]) {
        let lanes = &sheet.lanes;
        let mut cut = vec![false; lanes.len()];
        for n in from.iter().chain(to) {
            cut[n.0] = true;
        }
        let mut label = Some(sheet.words.partition_band(from, to));
        let mut bands = Vec::new();
        for run in cut.iter().enumerate().collect::<Vec<_>>().chunk_by(|p, q| p.1 == q.1).filter(|run| *run[0].1) {
            let (x0, x1) = ((lanes[run[0].0].x - 30.0).max(self.x0), (lanes[run[run.len() - 1].0].x + 30.0).min(self.x1));
            let label = label.take().map(|t| Label::new(x0 + 4.0, at.y + 14.0, sheet.frame.fit(t, x1 - x0 - 8.0), Anchor::Start));
            bands.push(b.items.len());
            b.push(Shape::Band { x0, x1, y0: at.y, y1: sheet.bottom }, label, (at.i, at.i));
        }
        self.open.push(bands);
    }

    /// Ends the last partition's bands at `y`, where it heals.
    pub(super) fn end(&mut self, b: &mut Builder, y: f32) {
        for k in self.open.pop().unwrap_or_default() {
            if let Shape::Band { y1, .. } = &mut b.items[k].shape {
                *y1 = y;
            }
        }
    }
}
