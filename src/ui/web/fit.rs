//! How wide the page lets the diagram be: measured from the diagram's box, and used by every
//! run laid out after it, so the diagram fills the width with its text at least 14 CSS px.

use crate::diagram::layout::Room;
use std::cell::Cell;

/// The least a diagram unit is drawn at: its labels (12.5 units) come out at 14 CSS px.
pub const MIN_SCALE: f64 = 14.0 / 12.5;

/// A change of room smaller than this (in diagram units) does not lay the run out again.
const SLACK: f32 = 12.0;

thread_local! {
    /// The room measured last, in diagram units; until the first measurement, an estimate.
    static ROOM: Cell<f32> = Cell::new(estimate());
}

/// Estimates the diagram's box from the window's width and the page's columns (see
/// `.app` in the stylesheet), before there is a box to measure.
fn estimate() -> f32 {
    let w = gloo::utils::window().inner_width().ok().and_then(|w| w.as_f64()).unwrap_or(1280.0);
    let columns = if w >= 1500.0 {
        232.0 + 344.0 + 60.0
    } else if w >= 1100.0 {
        320.0 + 60.0
    } else {
        26.0
    };
    ((w - columns - 2.0) / MIN_SCALE) as f32
}

/// Returns the room a run on screen is laid out in.
pub fn room() -> Room {
    Room::Fit(ROOM.with(Cell::get))
}

/// Records the width of the diagram's box (CSS px); says whether the room changed enough to
/// lay the run out again.
pub fn measured(box_px: i32) -> bool {
    let room = (f64::from(box_px) / MIN_SCALE) as f32;
    if box_px <= 0 || ROOM.with(|r| (r.get() - room).abs() <= SLACK) {
        return false;
    }
    ROOM.with(|r| r.set(room));
    true
}
