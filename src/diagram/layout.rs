//! Trace → layout: lanes, rows, arrows, spans and marks in SVG user units. Pure geometry; every
//! item is typed ([`ItemKind`]) and its label comes from [`Words`], never parsed back.
//!
//! The vertical axis is simulated true time: each drawn event moves down by a fixed row plus a
//! part proportional to the time since the previous event; an idle stretch longer than
//! [`MAX_IDLE_PX`] is compressed and marked. Messages in flight are slanted arrows.

use super::obstacles::{Obstacles, Rect, Segment, Shafts};
use crate::engine::checker::FindingKind;
use crate::engine::event::{EventKind, LockEnd};
use crate::engine::holdings::{Change, Holdings};
use crate::engine::ids::NodeMap;
use crate::engine::msg::{Msg, MsgKind};
use crate::engine::{NodeId, NodeKind};
use crate::present::labels::STALE_BELIEF;
use crate::present::Words;

pub const LANE_GAP: f32 = 190.0;
pub const LANE_GAP_TIGHT: f32 = 165.0;
/// The closest a fitted diagram draws its lifelines; a narrower room scrolls sideways.
pub const MIN_LANE_GAP: f32 = 84.0;
/// The narrowest room a diagram is fitted to; a narrower box (a phone's) scrolls sideways.
pub const MIN_ROOM: f32 = 560.0;
/// The widest a lane's name box is.
pub const HEAD_W: f32 = 160.0;
pub const LEFT: f32 = 78.0;
pub const TOP: f32 = 64.0;
pub const ROW: f32 = 24.0;
pub const MAX_IDLE_PX: f32 = 72.0;
pub const CHAR_PX: f32 = 6.6;
pub const LABEL_PX: f32 = 14.0;
/// The distance between the lines of a wrapped label.
pub const LINE_H: f32 = 15.0;
/// The radius of a mark's dot.
pub const MARK_R: f32 = 9.0;
/// Belief bars sit just right of the lifeline, beside any pause block on it.
pub const BELIEF_OFFSET: f32 = 14.0;

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

/// Where a label sits: its anchor point and how text is aligned there.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub x: f32,
    pub y: f32,
    pub text: String,
    pub anchor: Anchor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

impl Label {
    /// Returns the label's estimated box (x0, y0, x1, y1).
    pub fn bbox(&self) -> (f32, f32, f32, f32) {
        let (w, lines) = self.text.split('\n').fold((0.0f32, 0.0), |(w, n), line| (w.max(line.chars().count() as f32 * CHAR_PX), n + 1.0));
        let x0 = match self.anchor {
            Anchor::Start => self.x,
            Anchor::Middle => self.x - w / 2.0,
            Anchor::End => self.x - w,
        };
        (x0, self.y - LABEL_PX + 3.0, x0 + w, self.y + 3.0 + (lines - 1.0) * LINE_H)
    }

    /// Returns the label's lines (a wrapped label has several).
    pub fn lines(&self) -> std::str::Split<'_, char> {
        self.text.split('\n')
    }
}

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
struct Frame {
    /// The first lifeline's x.
    x0: f32,
    gap: f32,
    head: f32,
    /// The margin after the last lifeline.
    right: f32,
    wrap: bool,
}

impl Frame {
    fn new(lanes: usize, room: Room) -> Frame {
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

    /// Returns `text`, wrapped to `max` units if this frame wraps.
    fn fit(&self, text: String, max: f32) -> String {
        if self.wrap {
            wrap(&text, max.max(80.0))
        } else {
            text
        }
    }

    /// Places a label `offset` beside its lane: to the right, or to the left on the last lane.
    fn side_label(&self, x: f32, y: f32, text: String, lanes: usize, node: NodeId, offset: f32) -> Label {
        let text = self.fit(text, self.gap - offset - 8.0);
        if node.0 + 1 == lanes {
            Label { x: x - offset, y, text, anchor: Anchor::End }
        } else {
            Label { x: x + offset, y, text, anchor: Anchor::Start }
        }
    }
}

/// Breaks `text` at spaces into lines of at most `max` units of label text (a longer word keeps
/// a line of its own), joined by `\n`.
pub fn wrap(text: &str, max: f32) -> String {
    let per_line = ((max / CHAR_PX) as usize).max(6);
    let mut out = String::with_capacity(text.len() + 4);
    let mut line = 0;
    for word in text.split(' ') {
        let n = word.chars().count();
        if line > 0 && line + 1 + n > per_line {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += n;
    }
    out
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
    /// Two clients believe they hold the lock.
    TwoHolders,
    WriteAccepted,
    WriteRejected,
    /// A write accepted that the checker found stale or lost.
    WriteViolation,
}

impl Mark {
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
            _ => return None,
        })
    }

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

/// Returns the distance between lifelines: tighter when there are many.
fn lane_gap(lanes: usize) -> f32 {
    if lanes > 5 {
        LANE_GAP_TIGHT
    } else {
        LANE_GAP
    }
}

/// Says whether an event takes a row of its own (it draws something with a label).
fn takes_row(kind: &EventKind) -> bool {
    match kind {
        EventKind::Send { .. }
        | EventKind::LockGranted { .. }
        | EventKind::LockExtended { .. }
        | EventKind::LockReplicated { .. }
        | EventKind::BeliefStart { .. }
        | EventKind::BeliefExtended { .. }
        | EventKind::BeliefEnd { .. }
        | EventKind::Done => false,
        EventKind::Deliver { .. }
        | EventKind::Drop { .. }
        | EventKind::PauseStart { .. }
        | EventKind::PauseEnd
        | EventKind::Crash
        | EventKind::Restart { .. }
        | EventKind::ClockJump { .. }
        | EventKind::PartitionStart { .. }
        | EventKind::PartitionEnd { .. }
        | EventKind::LinkSlow { .. }
        | EventKind::LockEnded { .. }
        | EventKind::Promoted
        | EventKind::RenewalFailed { .. }
        | EventKind::GaveUp { .. }
        | EventKind::LockChecked { .. }
        | EventKind::WriteAccepted { .. }
        | EventKind::WriteUndone { .. }
        | EventKind::WriteRejected { .. } => true,
    }
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

/// Chooses pixels per simulated millisecond so that a typical run is a few screens tall at most.
fn scale(last_ms: u64) -> f32 {
    (600.0 / last_ms.max(1) as f32).clamp(0.002, 0.5)
}

/// A span begun and not yet ended: its first event and what it is about.
#[derive(Clone, Debug)]
struct Open {
    start: usize,
    /// The token of a belief; the pause's label.
    token: u64,
    label: Option<String>,
}

/// One simulated millisecond at which events happen, on a [`TimeAxis`].
#[derive(Clone, Copy, Debug, PartialEq)]
struct Slot {
    at_ms: u64,
    /// The y just before the millisecond's first row.
    top: f32,
}

/// The vertical axis: where each millisecond with events is drawn, the idle stretches drawn
/// shorter, and the time labels. Built from one trace, or from several drawn side by side, so
/// that the same time is at the same height in each.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeAxis {
    slots: Vec<Slot>,
    gaps: Vec<Gap>,
    ticks: Vec<Tick>,
    /// The y after the last millisecond's rows.
    end: f32,
}

/// A millisecond's events in one trace: how many rows they take, and how many rows come
/// before the first event (0 or 1).
#[derive(Clone, Copy, Debug)]
struct Moment {
    at_ms: u64,
    rows: u32,
    first: u32,
}

/// Returns the moments of a trace, in time order.
fn moments(trace: &crate::engine::Trace) -> Vec<Moment> {
    let mut out: Vec<Moment> = Vec::new();
    for e in &trace.events {
        let row = u32::from(takes_row(&e.kind));
        match out.last_mut() {
            Some(m) if m.at_ms == e.at_ms => m.rows += row,
            _ => out.push(Moment { at_ms: e.at_ms, rows: row, first: row }),
        }
    }
    out
}

/// Merges two time-ordered lists of moments: a millisecond in both takes the rows of the
/// busier, and starts as early as the earlier first event.
fn merge(a: Vec<Moment>, b: &[Moment]) -> Vec<Moment> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let next = match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if x.at_ms == y.at_ms => {
                (i, j) = (i + 1, j + 1);
                Moment { at_ms: x.at_ms, rows: x.rows.max(y.rows), first: x.first.min(y.first) }
            }
            (Some(x), Some(y)) if x.at_ms < y.at_ms => {
                i += 1;
                *x
            }
            (Some(x), None) => {
                i += 1;
                *x
            }
            (_, Some(y)) => {
                j += 1;
                *y
            }
            (None, None) => break,
        };
        out.push(next);
    }
    out
}

impl TimeAxis {
    /// Returns the axis of one trace.
    pub fn of(trace: &crate::engine::Trace) -> TimeAxis {
        TimeAxis::from_moments(&moments(trace))
    }

    /// Returns one axis for two traces drawn side by side.
    pub fn shared(a: &crate::engine::Trace, b: &crate::engine::Trace) -> TimeAxis {
        TimeAxis::from_moments(&merge(moments(a), &moments(b)))
    }

    fn from_moments(all: &[Moment]) -> TimeAxis {
        let px_per_ms = scale(all.last().map_or(1, |m| m.at_ms));
        let (mut slots, mut gaps, mut ticks) = (Vec::with_capacity(all.len()), Vec::new(), Vec::new());
        let (mut y, mut last_ms) = (TOP, 0u64);
        for m in all {
            let dt = m.at_ms - last_ms;
            let to_scale = dt as f32 * px_per_ms;
            if to_scale > MAX_IDLE_PX {
                gaps.push(Gap { y0: y + 4.0, y1: y + MAX_IDLE_PX - 4.0, skipped_ms: dt });
                y += MAX_IDLE_PX;
            } else {
                y += to_scale;
            }
            // The label goes on the first row of the millisecond far enough below the last one.
            let rows = (m.first..=m.rows.max(m.first)).map(|k| y + k as f32 * ROW);
            if let Some(at) = rows.into_iter().find(|&r| ticks.last().is_none_or(|t: &Tick| r - t.y >= ROW * 0.75)) {
                ticks.push(Tick { y: at, at_ms: m.at_ms });
            }
            slots.push(Slot { at_ms: m.at_ms, top: y });
            y += m.rows as f32 * ROW;
            last_ms = m.at_ms;
        }
        TimeAxis { slots, gaps, ticks, end: y }
    }

    /// Returns the y of each of `trace`'s events on this axis (which must include its times).
    fn rows(&self, trace: &crate::engine::Trace) -> Vec<f32> {
        let mut rows = Vec::with_capacity(trace.events.len());
        let (mut slot, mut taken) = (0, 0u32);
        for e in &trace.events {
            if self.slots[slot].at_ms != e.at_ms {
                slot += self.slots[slot..].partition_point(|s| s.at_ms < e.at_ms).min(self.slots.len() - 1 - slot);
                taken = 0;
            }
            taken += u32::from(takes_row(&e.kind));
            rows.push(self.slots[slot].top + taken as f32 * ROW);
        }
        rows
    }
}

/// Lays out a whole trace.
pub fn layout(words: &Words) -> Layout {
    layout_on(words, &TimeAxis::of(words.trace()), Room::Natural)
}

/// Lays out a whole trace on `axis`, which may be shared with traces drawn beside it, in `room`.
pub fn layout_on(words: &Words, axis: &TimeAxis, room: Room) -> Layout {
    let trace = words.trace();
    let frame = Frame::new(trace.participants.len(), room);
    let lanes: Vec<Lane> = trace
        .participants
        .iter()
        .enumerate()
        .map(|(i, p)| Lane { x: frame.x0 + i as f32 * frame.gap, name: p.name.clone(), role: p.role })
        .collect();
    let x = |n: NodeId| lanes[n.0].x;
    let rows = axis.rows(trace);
    let (gaps, ticks, y) = (axis.gaps.clone(), axis.ticks.clone(), axis.end);
    let bottom = y + ROW * 1.5;
    let mut b = Builder { span: (LEFT, lanes.last().map_or(LEFT, |l| l.x) + frame.right - 40.0), ..Builder::default() };
    // Every arrowhead and shaft first, so that a label keeps clear of those drawn after it too.
    // By message id (the engine numbers messages 1, 2, 3… as it sends them): the event that sent it.
    let mut sent: Vec<usize> = Vec::new();
    for (i, e) in trace.events.iter().enumerate() {
        match e.kind {
            EventKind::Send { msg_id, .. } => {
                let id = msg_id as usize;
                if sent.len() <= id {
                    sent.resize(id + 1, usize::MAX);
                }
                sent[id] = i;
            }
            EventKind::Deliver { msg_id, from, .. } | EventKind::Drop { msg_id, from, .. } => {
                let s = sent.get(msg_id as usize).copied().filter(|&s| s != usize::MAX).unwrap_or(i);
                let (x1, y1, ex) = (x(from), rows[s], x(e.node));
                let x2 = if matches!(e.kind, EventKind::Drop { .. }) { x1 + (ex - x1) * 0.6 } else { ex };
                b.shafts.insert((x1, y1, x2, rows[i]));
                if matches!(e.kind, EventKind::Deliver { .. }) {
                    b.heads.insert(head_box(x1, ex, rows[i]));
                }
            }
            _ => {}
        }
    }
    // By node, the spans it has open, by kind.
    let mut open: NodeMap<[Option<Open>; 3]> = NodeMap::default();
    // By holder: the tokens under which it lost the lock at the lock services, and where.
    let mut lock_end: NodeMap<Vec<(u64, usize)>> = NodeMap::default();
    // Open partitions: the item indices of each one's bands.
    let mut partitions: Vec<Vec<usize>> = Vec::new();
    let (band_x0, band_x1) = (lanes[0].x - 40.0, lanes.last().map_or(LEFT, |l| l.x) + 40.0);
    // The checker finds in event order: the kinds found at one event sit together.
    let findings = &trace.verdict.findings;
    let found_at = |i: usize| {
        let from = findings.partition_point(|f| f.event < i);
        findings[from..].iter().take_while(move |f| f.event == i).map(|f| f.kind())
    };
    let vocab = words.vocabulary();
    let mut holdings = Holdings::new(trace.quorum);
    for (i, e) in trace.events.iter().enumerate() {
        let (ex, ey) = (x(e.node), rows[i]);
        for change in holdings.apply(e) {
            if let Change::Lost { holder, token } = change {
                let ends = lock_end.or_default(holder);
                match ends.iter_mut().rev().find(|end| end.0 == token) {
                    Some(end) => end.1 = i,
                    None => ends.push((token, i)),
                }
            }
        }
        let mark = |b: &mut Builder, mark: Mark, text: String| {
            let label = frame.side_label(ex, ey + 4.0, text, lanes.len(), e.node, 14.0);
            b.push(Shape::Mark { x: ex, y: ey, mark }, Some(label), (i, i));
        };
        match &e.kind {
            EventKind::Deliver { msg_id, from, msg, .. } | EventKind::Drop { msg_id, from, msg, .. } => {
                let lost = matches!(e.kind, EventKind::Drop { .. });
                let s = sent.get(*msg_id as usize).copied().filter(|&s| s != usize::MAX).unwrap_or(i);
                let (x1, y1) = (x(*from), rows[s]);
                let x2 = if lost { x1 + (ex - x1) * 0.6 } else { ex };
                let kind = arrow(msg, lost);
                let text = match kind {
                    Arrow::Lost => words.lost_arrow(msg, e.node),
                    Arrow::Rejected => words.refusal_arrow(),
                    Arrow::Request | Arrow::Reply | Arrow::Refusal | Arrow::Write => words.label(msg, e.node),
                };
                let label = b.arrow_label(x1, y1, x2, ey, frame.fit(text, (x2 - x1).abs() - 16.0));
                b.push(Shape::Arrow { x1, y1, x2, y2: ey, arrow: kind }, Some(label), (s, i));
            }
            EventKind::PauseStart { until_ms } => {
                let label = Some(words.paused(until_ms - e.at_ms));
                open.or_default(e.node)[SpanKey::Pause as usize] = Some(Open { start: i, token: 0, label });
            }
            EventKind::PauseEnd => {
                if let Some(o) = open.or_default(e.node)[SpanKey::Pause as usize].take() {
                    let label = o.label.map(|t| frame.side_label(ex, (rows[o.start] + ey) / 2.0 + 4.0, t, lanes.len(), e.node, 30.0));
                    b.push(Shape::Span { x: ex, y0: rows[o.start], y1: ey, span: Span::Pause }, label, (o.start, i));
                }
            }
            EventKind::LockGranted { token, .. } | EventKind::LockReplicated { token, .. } => {
                // A second grant of the same key (its token named later) keeps the bar's start.
                let held = &mut open.or_default(e.node)[SpanKey::Held as usize];
                match held {
                    Some(o) => o.token = *token,
                    None => *held = Some(Open { start: i, token: *token, label: None }),
                }
            }
            EventKind::LockEnded { token, how, holder } => {
                if let Some(o) = open.or_default(e.node)[SpanKey::Held as usize].take() {
                    b.push(Shape::Span { x: ex, y0: rows[o.start], y1: ey, span: Span::Held }, None, (o.start, i));
                }
                let kind = match how {
                    LockEnd::Expired => Some(Mark::Expired),
                    LockEnd::Released => None,
                    LockEnd::DeletedByOther => Some(Mark::DeletedByOther),
                    LockEnd::LostOnRestart | LockEnd::Resynced => Some(Mark::Lost),
                    LockEnd::Replaced => Some(Mark::TakenOver),
                };
                if let Some(kind) = kind {
                    mark(&mut b, kind, vocab.ended_mark(trace.name(*holder), *token, *how));
                }
            }
            EventKind::BeliefStart { token, .. } => {
                open.or_default(e.node)[SpanKey::Belief as usize] = Some(Open { start: i, token: *token, label: None });
            }
            EventKind::BeliefEnd { token, .. } => {
                if let Some(o) = open.or_default(e.node)[SpanKey::Belief as usize].take() {
                    let service_end = lost_at(&lock_end, e.node, *token).filter(|&j| j > o.start).map(|j| rows[j]);
                    b.belief(&frame, ex, rows[o.start], ey, service_end, (o.start, i));
                }
            }
            EventKind::WriteAccepted { writer, .. } | EventKind::WriteRejected { writer, .. } | EventKind::WriteUndone { writer, .. } => {
                let found: Vec<FindingKind> = found_at(i).collect();
                let stale = found.contains(&FindingKind::StaleWriteAccepted);
                let harm = found.iter().copied().find(|k| k.is_harm());
                let kind = match (&e.kind, harm) {
                    (EventKind::WriteRejected { .. }, _) => Mark::WriteRejected,
                    (_, Some(_)) => Mark::WriteViolation,
                    (_, None) => Mark::WriteAccepted,
                };
                let text = words.write_mark(&e.kind, stale, harm);
                // The reply goes back toward the writer, so the verdict sits on the other side.
                let text = frame.fit(text, frame.gap - 22.0);
                let label = if x(*writer) > ex {
                    Label { x: ex - 14.0, y: ey + 4.0, text, anchor: Anchor::End }
                } else {
                    Label { x: ex + 14.0, y: ey + 4.0, text, anchor: Anchor::Start }
                };
                b.push(Shape::Mark { x: ex, y: ey, mark: kind }, Some(label), (i, i));
            }
            EventKind::Crash => {
                // What a crashed lock service holds is out of service until it restarts.
                if let Some(o) = open.or_default(e.node)[SpanKey::Held as usize].take() {
                    b.push(Shape::Span { x: ex, y0: rows[o.start], y1: ey, span: Span::Held }, None, (o.start, i));
                }
            }
            EventKind::Promoted
            | EventKind::Restart { .. }
            | EventKind::ClockJump { .. }
            | EventKind::GaveUp { .. }
            | EventKind::LockChecked { .. }
            | EventKind::RenewalFailed { .. }
            | EventKind::LinkSlow { .. } => {}
            EventKind::PartitionStart { from, to, .. } => {
                // A band over each run of neighbouring lanes the partition cuts, and over no other.
                let mut cut = vec![false; lanes.len()];
                for n in from.iter().chain(to) {
                    cut[n.0] = true;
                }
                let mut label = Some(words.partition_band(from, to));
                let mut bands = Vec::new();
                for run in cut.iter().enumerate().collect::<Vec<_>>().chunk_by(|a, b| a.1 == b.1).filter(|run| *run[0].1) {
                    let (x0, x1) = ((lanes[run[0].0].x - 30.0).max(band_x0), (lanes[run[run.len() - 1].0].x + 30.0).min(band_x1));
                    let label =
                        label.take().map(|t| Label { x: x0 + 4.0, y: ey + 14.0, text: frame.fit(t, x1 - x0 - 8.0), anchor: Anchor::Start });
                    bands.push(b.items.len());
                    b.push(Shape::Band { x0, x1, y0: ey, y1: bottom }, label, (i, i));
                }
                partitions.push(bands);
            }
            EventKind::PartitionEnd { .. } => {
                for k in partitions.pop().unwrap_or_default() {
                    if let Shape::Band { y1, .. } = &mut b.items[k].shape {
                        *y1 = ey;
                    }
                }
            }
            EventKind::Send { .. } | EventKind::LockExtended { .. } | EventKind::BeliefExtended { .. } | EventKind::Done => {}
        }
        // A mark on the lifeline, labelled by the wording layer: a crash, a restart, a clock jump…
        if let (Some(kind), Some(text)) = (Mark::on_lifeline(&e.kind), words.mark(i)) {
            mark(&mut b, kind, text);
        }
        if found_at(i).any(|kind| kind == FindingKind::TwoHolders) {
            let label = frame.side_label(ex, ey - 12.0, Words::finding_kind(FindingKind::TwoHolders).into(), lanes.len(), e.node, 14.0);
            b.push(Shape::Mark { x: ex, y: ey - 16.0, mark: Mark::TwoHolders }, Some(label), (i, i));
        }
    }
    // Whatever is still open runs to the bottom of the diagram.
    let last = trace.events.len().saturating_sub(1);
    let still_open = open.into_entries().flat_map(|(node, spans)| {
        [SpanKey::Pause, SpanKey::Held, SpanKey::Belief].into_iter().zip(spans).filter_map(move |(key, o)| Some((node, key, o?)))
    });
    for (node, key, o) in still_open {
        let (nx, y0) = (x(node), rows[o.start]);
        match key {
            SpanKey::Pause => {
                let label = o.label.map(|t| frame.side_label(nx, y0 + 16.0, t, lanes.len(), node, 30.0));
                b.push(Shape::Span { x: nx, y0, y1: bottom, span: Span::Pause }, label, (o.start, last));
            }
            SpanKey::Held => b.push(Shape::Span { x: nx, y0, y1: bottom, span: Span::Held }, None, (o.start, last)),
            SpanKey::Belief => {
                let service_end = lost_at(&lock_end, node, o.token).filter(|&j| j > o.start).map(|j| rows[j]);
                b.belief(&frame, nx, y0, bottom, service_end, (o.start, last));
            }
        }
    }
    // Wide enough for the last lane's side labels, and for any longer label.
    let widest = b.items.iter().filter_map(|i| i.label.as_ref()).map(|l| l.bbox().2 + 40.0).fold(0.0, f32::max);
    let width = (lanes.last().map_or(LEFT, |l| l.x) + frame.right).max(widest);
    Layout { width, head: frame.head, height: bottom + 16.0, lanes, rows, items: b.items, gaps, ticks }
}

/// Returns where `holder` last lost the lock under `token` at the lock services.
fn lost_at(lock_end: &NodeMap<Vec<(u64, usize)>>, holder: NodeId, token: u64) -> Option<usize> {
    lock_end.get(holder)?.iter().rev().find(|end| end.0 == token).map(|end| end.1)
}

/// Which span a lifeline has open; its number indexes a node's open spans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SpanKey {
    Pause,
    Held,
    Belief,
}

#[derive(Default)]
struct Builder {
    items: Vec<Item>,
    /// What a new label or mark must not cover: labels, and the dots of marks.
    placed: Obstacles,
    /// Arrowheads, which a mark's label keeps clear of.
    heads: Obstacles,
    /// Every arrow's shaft, which no other item's label crosses where it has room not to.
    shafts: Shafts,
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
    /// Adds an item; its label moves a line down or up if it would cover a label already placed
    /// (or, where it can, be crossed by another arrow), and so does a mark (with its label)
    /// whose dot would.
    fn push(&mut self, mut shape: Shape, mut label: Option<Label>, events: (usize, usize)) {
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
        let mirror = |l: &Label| match (mark_x, l.anchor) {
            (Some(x), Anchor::Start | Anchor::End) => {
                let anchor = if l.anchor == Anchor::Start { Anchor::End } else { Anchor::Start };
                Some(Label { x: 2.0 * x - l.x, anchor, ..l.clone() }).filter(|m| m.bbox().0 >= self.span.0 && m.bbox().2 <= self.span.1)
            }
            _ => None,
        };
        let label = label.map(|l| {
            let shifted = |l: &Label, dy: f32| Label { y: l.y + dy, ..l.clone() };
            let free = |c: &Label| !(self.placed.hit(c.bbox()) || heads && self.heads.hit(c.bbox()));
            let clear = |c: &Label| free(c) && !self.shafts.cross(c.bbox(), own);
            let at = [0.0, 14.0, -14.0, 28.0, -28.0, 42.0, -42.0, 56.0, -56.0].map(|dy| shifted(&l, dy));
            // Where the label already sits clear of other arrows, or a line away, or across its
            // lifeline; else clear of labels.
            let mirrored = mirror(&l).map(|m| [0.0, 14.0, -14.0, 28.0, -28.0].map(|dy| shifted(&m, dy)));
            let farther = &at[3..7];
            let near = at[..3].iter().chain(mirrored.iter().flatten()).chain(farther).find(|c| clear(c));
            near.or_else(|| at.iter().find(|c| free(c))).cloned().unwrap_or(l)
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
    fn arrow_label(&self, x1: f32, y1: f32, x2: f32, y2: f32, text: String) -> Label {
        const ALONG: [f32; 5] = [0.5, 0.35, 0.65, 0.25, 0.75];
        // A wrapped label's last line sits just above the arrow; below, its first line just under it.
        let up = text.matches('\n').count() as f32 * LINE_H;
        let label =
            |t: f32, dy: f32| Label { x: x1 + (x2 - x1) * t, y: y1 + (y2 - y1) * t + dy, text: text.clone(), anchor: Anchor::Middle };
        let above = ALONG.map(|t| label(t, -6.0 - up));
        // Below a sloped arrow the label starts under the shaft's lower end within its width.
        let below = ALONG.map(|t| {
            let l = label(t, 0.0);
            let (x0, _, xe, _) = l.bbox();
            let drop = ((y2 - y1) / (x2 - x1)).abs() * (xe - x0) / 2.0;
            label(t, LABEL_PX + 2.0 + if drop.is_finite() { drop } else { 0.0 })
        });
        let own: Segment = (x1, y1, x2, y2);
        let free = |l: &&Label| !self.placed.hit(l.bbox());
        let clear = |l: &&Label| free(l) && !self.shafts.cross(l.bbox(), Some(own));
        let below_clear = |l: &&Label| clear(l) && !self.shafts.cross(l.bbox(), None);
        above
            .iter()
            .find(clear)
            .or_else(|| below.iter().find(below_clear))
            .or_else(|| above.iter().find(free))
            .cloned()
            .unwrap_or_else(|| label(0.5, -6.0 - up))
    }

    /// Draws a client's belief: the part while the service agrees, then the stale part shaded.
    fn belief(&mut self, frame: &Frame, x: f32, y0: f32, y1: f32, service_end: Option<f32>, events: (usize, usize)) {
        let x = x + BELIEF_OFFSET;
        match service_end.filter(|&end| end < y1) {
            Some(end) => {
                let end = end.max(y0);
                self.push(Shape::Span { x, y0, y1: end, span: Span::Belief }, None, events);
                let text = frame.fit(STALE_BELIEF.into(), frame.gap - BELIEF_OFFSET - 18.0);
                let label = Label { x: x + 10.0, y: end + 18.0, text, anchor: Anchor::Start };
                self.push(Shape::Span { x, y0: end, y1, span: Span::StaleBelief }, Some(label), events);
            }
            None => self.push(Shape::Span { x, y0, y1, span: Span::Belief }, None, events),
        }
    }
}
