//! What a laid-out diagram holds: lanes, the items drawn (arrows, spans, bands, marks) with their
//! labels, and the time axis's gaps and ticks.

use super::label::Label;
use crate::engine::NodeKind;

/// The radius of a mark's dot.
pub const MARK_R: f32 = 9.0;

/// A participant's lifeline.
#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    pub x: f32,
    pub name: String,
    pub role: NodeKind,
}

/// A stretch of idle time drawn shorter than to scale.
#[derive(Clone, Debug, PartialEq)]
pub struct Gap {
    pub y0: f32,
    pub y1: f32,
    pub skipped_ms: u64,
}

/// A time label on the left axis.
#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    pub y: f32,
    pub at_ms: u64,
}

/// How a message arrow is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrow {
    Request,
    Reply,
    /// A refusal: busy, not yours, session expired.
    Refusal,
    /// A write's rejection.
    Rejected,
    Write,
    /// Lost on the way: it ends in ✗ short of its target.
    Lost,
}

/// What a vertical span on a lifeline stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Span {
    /// A stopped process.
    Pause,
    /// A lock-service node holding a client's lock.
    Held,
    /// A client believing it holds the lock while the service agrees.
    Belief,
    /// A client still believing after the service let its lock go.
    StaleBelief,
}

/// What a point mark on a lifeline stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A lock ran out on the service's clock.
    Expired,
    /// A lock vanished with a restart.
    Lost,
    /// Someone else's unchecked release deleted a lock.
    DeletedByOther,
    /// Another client took the lock over.
    TakenOver,
    Crash,
    Restart,
    Promoted,
    ClockJump,
    GaveUp,
    /// A client checked its own lock before going on.
    Checked,
    RenewalFailed,
    SlowLink,
    /// A client closed a connection a partition stalled.
    HungUp,
    /// Two clients believe they hold the lock.
    TwoHolders,
    WriteAccepted,
    WriteRejected,
    /// A write accepted that the checker found stale or lost.
    WriteViolation,
}

impl Mark {
    /// Returns the glyph drawn in the mark's dot.
    pub fn glyph(self) -> &'static str {
        match self {
            Mark::Expired => "◷",
            Mark::Lost | Mark::DeletedByOther | Mark::Crash | Mark::GaveUp | Mark::WriteRejected => "✗",
            Mark::TakenOver => "⇄",
            Mark::Restart => "↻",
            Mark::Promoted => "↑",
            Mark::ClockJump => "↷",
            Mark::RenewalFailed | Mark::WriteViolation => "!",
            Mark::SlowLink => "»",
            Mark::HungUp => "⊘",
            Mark::Checked => "?",
            Mark::TwoHolders => "⚠",
            Mark::WriteAccepted => "✓",
        }
    }
}

/// What an item is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemKind {
    Arrow(Arrow),
    Span(Span),
    /// A partition: a band across the lanes it cuts.
    Partition,
    Mark(Mark),
}

/// What is drawn, and where.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A message, from (x1, y1) to (x2, y2).
    Arrow { x1: f32, y1: f32, x2: f32, y2: f32, arrow: Arrow },
    /// A vertical span on a lifeline.
    Span { x: f32, y0: f32, y1: f32, span: Span },
    /// A horizontal band across the lanes a partition cuts.
    Band { x0: f32, x1: f32, y0: f32, y1: f32 },
    /// A point mark on a lifeline.
    Mark { x: f32, y: f32, mark: Mark },
}

/// One drawn item with its label and the events it belongs to.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub shape: Shape,
    pub label: Option<Label>,
    /// The first and last trace events the item stands for; the cursor on either highlights it.
    pub events: (usize, usize),
}

impl Item {
    /// Returns what the item is, without its geometry.
    pub fn kind(&self) -> ItemKind {
        match self.shape {
            Shape::Arrow { arrow, .. } => ItemKind::Arrow(arrow),
            Shape::Span { span, .. } => ItemKind::Span(span),
            Shape::Band { .. } => ItemKind::Partition,
            Shape::Mark { mark, .. } => ItemKind::Mark(mark),
        }
    }
}

/// The laid-out diagram.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub width: f32,
    /// The width of a lane's name box.
    pub head: f32,
    pub height: f32,
    pub lanes: Vec<Lane>,
    /// The y of each trace event.
    pub rows: Vec<f32>,
    pub items: Vec<Item>,
    pub gaps: Vec<Gap>,
    pub ticks: Vec<Tick>,
}
