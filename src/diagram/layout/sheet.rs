//! What every step of laying out one trace reads: its words, the frame and lanes, each event's
//! row, and the event being laid out.

use super::axis::{TimeAxis, ROW};
use super::items::Lane;
use super::label::Label;
use super::lanes::{Frame, Room, LEFT};
use crate::engine::checker::FindingKind;
use crate::engine::{Event, NodeId, Trace};
use crate::present::Words;

/// One trace's words, lanes and rows.
pub(super) struct Sheet<'a> {
    pub(super) words: Words<'a>,
    pub(super) frame: Frame,
    pub(super) lanes: Vec<Lane>,
    /// The y of each trace event.
    pub(super) rows: Vec<f32>,
    /// Where what is still open at the end stops.
    pub(super) bottom: f32,
}

/// The event being laid out: its index in the trace, and its point on its node's lifeline.
#[derive(Clone, Copy)]
pub(super) struct At<'a> {
    pub(super) i: usize,
    pub(super) e: &'a Event,
    pub(super) x: f32,
    pub(super) y: f32,
}

impl<'a> Sheet<'a> {
    /// Returns the sheet of `words`' trace on `axis`, in `room`.
    pub(super) fn new(words: &Words<'a>, axis: &TimeAxis, room: Room) -> Sheet<'a> {
        let trace = words.trace();
        let frame = Frame::new(trace.participants.len(), room);
        let lanes = frame.lanes(&trace.participants);
        Sheet { words: *words, frame, lanes, rows: axis.rows(trace), bottom: axis.end + ROW * 1.5 }
    }

    /// Returns the trace laid out.
    pub(super) fn trace(&self) -> &'a Trace {
        self.words.trace()
    }

    /// Returns the x of `node`'s lifeline.
    pub(super) fn x(&self, node: NodeId) -> f32 {
        self.lanes[node.0].x
    }

    /// Returns the last lifeline's x.
    pub(super) fn last_x(&self) -> f32 {
        self.lanes.last().map_or(LEFT, |l| l.x)
    }

    /// Returns the event `i` of the trace at its point.
    pub(super) fn at(&self, i: usize) -> At<'a> {
        let e = &self.trace().events[i];
        At { i, e, x: self.x(e.node), y: self.rows[i] }
    }

    /// Returns the kinds of finding the checker made at event `i`.
    pub(super) fn found_at(&self, i: usize) -> impl Iterator<Item = FindingKind> + 'a {
        // The checker finds in event order: the kinds found at one event sit together.
        let findings = &self.trace().verdict.findings;
        let from = findings.partition_point(|f| f.event < i);
        findings[from..].iter().take_while(move |f| f.event == i).map(|f| f.kind())
    }

    /// Places a label `offset` beside `node`'s lane at (`x`, `y`).
    pub(super) fn side_label(&self, x: f32, y: f32, text: String, node: NodeId, offset: f32) -> Label {
        self.frame.side_label(x, y, text, self.lanes.len(), node, offset)
    }
}
