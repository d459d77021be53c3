//! Trace → layout: lanes, rows, arrows, spans and marks in SVG user units. Pure geometry; every
//! item is typed ([`ItemKind`]) and its label comes from [`Words`](crate::present::Words), never
//! parsed back.
//!
//! The vertical axis is simulated true time: each drawn event moves down by a fixed row plus a
//! part proportional to the time since the previous event; an idle stretch longer than
//! [`MAX_IDLE_PX`] is compressed and marked. Messages in flight are slanted arrows.

mod arrows;
mod axis;
mod bands;
mod items;
mod label;
mod lanes;
mod marks;
mod placing;
mod sheet;
mod spans;
mod walk;

pub use axis::{TimeAxis, MAX_IDLE_PX, ROW, TOP};
pub use items::{Arrow, Gap, Item, ItemKind, Lane, Layout, Mark, Shape, Span, Tick, MARK_R};
pub use label::{wrap, Anchor, Label, CHAR_PX, LABEL_PX, LINE_H};
pub use lanes::{Room, HEADS_BOTTOM, HEAD_W, LANE_GAP, LANE_GAP_TIGHT, LEFT, MIN_LANE_GAP, MIN_ROOM};
pub use placing::head_box;
pub use spans::BELIEF_OFFSET;
pub use walk::{layout, layout_on};
