//! Trace → layout: lanes, rows, arrows, spans and marks in SVG user units. Pure geometry.
//!
//! The vertical axis is simulated true time: each drawn event moves down by a fixed row plus a
//! part proportional to the time since the previous event; an idle stretch longer than
//! [`MAX_IDLE_PX`] is compressed and marked. Messages in flight are slanted arrows.

use crate::engine::checker::FindingKind;
use crate::engine::holdings::{Change, Holdings};
use crate::engine::msg::{group, lease_name, ms, token_name, Msg};
use crate::engine::trace::{EventKind, LeaseEnd, Trace};
use crate::engine::NodeId;
use std::collections::BTreeMap;

pub const LANE_GAP: f32 = 190.0;
pub const LANE_GAP_TIGHT: f32 = 165.0;
pub const LEFT: f32 = 78.0;
pub const TOP: f32 = 64.0;
pub const ROW: f32 = 24.0;
pub const MAX_IDLE_PX: f32 = 72.0;
pub const CHAR_PX: f32 = 6.6;
pub const LABEL_PX: f32 = 14.0;
/// The radius of a mark's dot.
pub const MARK_R: f32 = 9.0;
/// Belief bars sit just right of the lifeline, beside any pause block on it.
pub const BELIEF_OFFSET: f32 = 14.0;

/// A participant's lifeline.
#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    pub x: f32,
    pub name: String,
    pub role: &'static str,
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
        let w = self.text.chars().count() as f32 * CHAR_PX;
        let x0 = match self.anchor {
            Anchor::Start => self.x,
            Anchor::Middle => self.x - w / 2.0,
            Anchor::End => self.x - w,
        };
        (x0, self.y - LABEL_PX + 3.0, x0 + w, self.y + 3.0)
    }
}

/// What is drawn.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A message; `lost` arrows end in ✗ short of their target.
    Arrow { x1: f32, y1: f32, x2: f32, y2: f32, lost: bool },
    /// A vertical span on a lifeline (pause, lease, belief).
    Span { x: f32, y0: f32, y1: f32 },
    /// A horizontal band across lanes (partition).
    Band { x0: f32, x1: f32, y0: f32, y1: f32 },
    /// A point mark on a lifeline with a glyph.
    Mark { x: f32, y: f32, glyph: &'static str },
}

/// One drawn item with its CSS class, its label and the events it belongs to.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub shape: Shape,
    /// Semantic CSS classes, e.g. `msg msg--refusal` or `write write--rejected`.
    pub class: &'static str,
    pub label: Option<Label>,
    /// The first and last trace events the item stands for; the cursor on either highlights it.
    pub events: (usize, usize),
}

/// The laid-out diagram.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub width: f32,
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
    !matches!(
        kind,
        EventKind::Send { .. }
            | EventKind::LeaseGranted { .. }
            | EventKind::LeaseRenewed { .. }
            | EventKind::KeyReplicated { .. }
            | EventKind::BeliefStart { .. }
            | EventKind::BeliefExtended { .. }
            | EventKind::BeliefEnd { .. }
            | EventKind::Done
    )
}

/// Chooses pixels per simulated millisecond so that a typical run is a few screens tall at most.
fn scale(trace: &Trace) -> f32 {
    let span = trace.events.last().map_or(1, |e| e.at_ms.max(1)) as f32;
    (600.0 / span).clamp(0.002, 0.5)
}

/// Lays out a whole trace.
pub fn layout(trace: &Trace) -> Layout {
    let lanes: Vec<Lane> = trace
        .participants
        .iter()
        .enumerate()
        .map(|(i, p)| Lane { x: LEFT + 72.0 + i as f32 * lane_gap(trace.participants.len()), name: p.name.clone(), role: p.role })
        .collect();
    let x = |n: NodeId| lanes[n.0].x;
    let px_per_ms = scale(trace);
    let (mut rows, mut gaps, mut ticks) = (Vec::with_capacity(trace.events.len()), Vec::new(), Vec::new());
    let (mut y, mut last_ms) = (TOP, 0u64);
    for e in &trace.events {
        let dt = e.at_ms - last_ms;
        let to_scale = dt as f32 * px_per_ms;
        if to_scale > MAX_IDLE_PX {
            gaps.push(Gap { y0: y + 4.0, y1: y + MAX_IDLE_PX - 4.0, skipped_ms: dt });
            y += MAX_IDLE_PX;
        } else {
            y += to_scale;
        }
        if takes_row(&e.kind) {
            y += ROW;
        }
        if ticks.last().is_none_or(|t: &Tick| t.at_ms != e.at_ms && y - t.y >= ROW * 0.75) {
            ticks.push(Tick { y, at_ms: e.at_ms });
        }
        rows.push(y);
        last_ms = e.at_ms;
    }
    let bottom = y + ROW * 1.5;
    let mut b = Builder { items: Vec::new() };
    let mut sends: BTreeMap<u64, usize> = BTreeMap::new();
    let mut open: BTreeMap<(NodeId, &'static str), (usize, String)> = BTreeMap::new();
    // Where each holder last lost the lock (by token) at the lock services.
    let mut lease_end: BTreeMap<(NodeId, u64), usize> = BTreeMap::new();
    // Open partitions: (item index of the band).
    let mut partitions: Vec<usize> = Vec::new();
    let (band_x0, band_x1) = (lanes[0].x - 40.0, lanes.last().map_or(LEFT, |l| l.x) + 40.0);
    let violations: BTreeMap<usize, Vec<FindingKind>> = trace.verdict.findings.iter().fold(BTreeMap::new(), |mut m, f| {
        m.entry(f.event).or_insert_with(Vec::new).push(f.kind);
        m
    });

    let mut holdings = Holdings::new(trace.quorum);
    for (i, e) in trace.events.iter().enumerate() {
        let (ex, ey) = (x(e.node), rows[i]);
        for change in holdings.apply(e) {
            if let Change::Lost { holder, token } = change {
                lease_end.insert((holder, token), i);
            }
        }
        if matches!(e.kind, EventKind::Crash) {
            // What a crashed lock service holds is out of service until it restarts.
            if let Some((s, _)) = open.remove(&(e.node, "lease")) {
                b.push(Shape::Span { x: ex, y0: rows[s], y1: ey }, "lease lease--service", None, (s, i));
            }
        }
        match &e.kind {
            EventKind::Send { msg_id, .. } => {
                sends.insert(*msg_id, i);
            }
            EventKind::Deliver { msg_id, from, msg, .. } | EventKind::Drop { msg_id, from, msg, .. } => {
                let lost = matches!(e.kind, EventKind::Drop { .. });
                let s = sends.get(msg_id).copied().unwrap_or(i);
                let (x1, y1) = (x(*from), rows[s]);
                let x2 = if lost { x1 + (ex - x1) * 0.6 } else { ex };
                let class = match msg {
                    _ if lost => "msg msg--lost",
                    Msg::WriteRejected { .. } => "msg msg--rejected",
                    m if m.is_refusal() => "msg msg--refusal",
                    Msg::Write { .. } => "msg msg--write",
                    Msg::Granted { .. } | Msg::Renewed { .. } | Msg::ReleaseResult { .. } | Msg::ReadResult { .. } | Msg::WriteAccepted { .. } => "msg msg--reply",
                    _ => "msg",
                };
                let text = match msg {
                    _ if lost => format!("{} ✗", msg.label()),
                    // The ✗ at the resource already gives the reason.
                    Msg::WriteRejected { .. } => "rejected".into(),
                    _ => msg.label(),
                };
                let label = b.arrow_label(x1, y1, x2, ey, text);
                b.push(Shape::Arrow { x1, y1, x2, y2: ey, lost }, class, Some(label), (s, i));
            }
            EventKind::PauseStart { until_ms } => {
                let text = format!("paused {}", ms(until_ms - e.at_ms));
                open.insert((e.node, "pause"), (i, text));
            }
            EventKind::PauseEnd => {
                if let Some((s, text)) = open.remove(&(e.node, "pause")) {
                    let label = side_label(ex, (rows[s] + ey) / 2.0 + 4.0, text, lanes.len(), e.node, 30.0);
                    b.push(Shape::Span { x: ex, y0: rows[s], y1: ey }, "pause", Some(label), (s, i));
                }
            }
            EventKind::LeaseGranted { token, .. } | EventKind::KeyReplicated { token, .. } => {
                open.insert((e.node, "lease"), (i, lease_name(*token)));
            }
            EventKind::LeaseEnded { token, how, holder } => {
                if let Some((s, _)) = open.remove(&(e.node, "lease")) {
                    b.push(Shape::Span { x: ex, y0: rows[s], y1: ey }, "lease lease--service", None, (s, i));
                }
                let (glyph, class, text) = match how {
                    LeaseEnd::Expired => ("◷", "mark mark--expiry", format!("{} expires", lease_name(*token))),
                    LeaseEnd::Released => ("", "mark mark--release", String::new()),
                    LeaseEnd::DeletedByOther => ("✗", "mark mark--violation", format!("{} of {} deleted", lease_name(*token), trace.name(*holder))),
                    LeaseEnd::LostOnRestart => ("✗", "mark mark--expiry", format!("{} lost", lease_name(*token))),
                };
                if !glyph.is_empty() {
                    let label = side_label(ex, ey + 4.0, text, lanes.len(), e.node, 14.0);
                    b.push(Shape::Mark { x: ex, y: ey, glyph }, class, Some(label), (i, i));
                }
            }
            EventKind::BeliefStart { token, .. } => {
                open.insert((e.node, "belief"), (i, format!("token {token}")));
            }
            EventKind::BeliefEnd { token, .. } => {
                if let Some((s, _)) = open.remove(&(e.node, "belief")) {
                    let service_end = lease_end.get(&(e.node, *token)).filter(|&&j| j > s).map(|&j| rows[j]);
                    b.belief(ex, rows[s], ey, service_end, (s, i));
                }
            }
            EventKind::WriteAccepted { token, writer, .. } | EventKind::WriteRejected { token, writer, .. } => {
                let rejected = matches!(e.kind, EventKind::WriteRejected { .. });
                let found = violations.get(&i).cloned().unwrap_or_default();
                let violation = found.iter().any(|k| k.is_violation());
                // Without a lock there is no token to speak of.
                let accepted = if trace.quorum == 0 { "accepted".into() } else { format!("accepted, {}", token_name(*token)) };
                let (glyph, class, mut text) = match &e.kind {
                    EventKind::WriteRejected { reason, .. } => ("✗", "write write--rejected", format!("rejected: {reason}")),
                    _ if violation => ("!", "write write--violation", accepted),
                    _ => ("✓", "write write--accepted", accepted),
                };
                if violation && !rejected {
                    let lost = found.contains(&FindingKind::LostUpdate);
                    let stale = found.contains(&FindingKind::StaleWriteAccepted);
                    let what = match (stale, lost) {
                        (true, true) => "STALE, LOST UPDATE",
                        (true, false) => "STALE WRITE",
                        _ => "LOST UPDATE",
                    };
                    text = format!("{text}: {what}");
                }
                // The reply goes back toward the writer, so the verdict sits on the other side.
                let label = if x(*writer) > ex {
                    Label { x: ex - 14.0, y: ey + 4.0, text, anchor: Anchor::End }
                } else {
                    Label { x: ex + 14.0, y: ey + 4.0, text, anchor: Anchor::Start }
                };
                b.push(Shape::Mark { x: ex, y: ey, glyph }, class, Some(label), (i, i));
            }
            EventKind::Crash
            | EventKind::Restart { .. }
            | EventKind::Promoted
            | EventKind::ClockJump { .. }
            | EventKind::GaveUp { .. }
            | EventKind::RenewalFailed { .. }
            | EventKind::LinkSlow { .. } => {
                let (glyph, class, text) = match &e.kind {
                    EventKind::Crash => ("✗", "mark mark--crash", "crash".to_string()),
                    EventKind::Promoted => ("↑", "mark mark--restart", "promoted to primary".to_string()),
                    EventKind::Restart { keep_state } => ("↻", "mark mark--restart", if *keep_state { "restart (state kept)".into() } else { "restart (state lost)".into() }),
                    EventKind::ClockJump { by_ms } => ("↷", "mark mark--clock", format!("clock {}{}", if *by_ms >= 0 { "+" } else { "−" }, ms(by_ms.unsigned_abs()))),
                    EventKind::GaveUp { attempts } => ("✗", "mark mark--gaveup", format!("gives up after {attempts} tries")),
                    EventKind::RenewalFailed { abort, .. } => ("!", "mark mark--renewal", if *abort { "renewal failed: abort".into() } else { "renewal failed: carry on".into() }),
                    EventKind::LinkSlow { to, extra_ms, .. } => ("»", "mark mark--slow", format!("link to {} +{}", trace.name(*to), ms(*extra_ms))),
                    _ => unreachable!("matched above"),
                };
                let label = side_label(ex, ey + 4.0, text, lanes.len(), e.node, 14.0);
                b.push(Shape::Mark { x: ex, y: ey, glyph }, class, Some(label), (i, i));
            }
            EventKind::PartitionStart { from, to, .. } => {
                // The band spans the lanes cut off from each other.
                let xs = from.iter().chain(to).map(|&n| x(n));
                let (x0, x1) = xs.fold((f32::MAX, f32::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
                let (x0, x1) = ((x0 - 30.0).max(band_x0), (x1 + 30.0).min(band_x1));
                let names = |ids: &[NodeId]| ids.iter().map(|&n| trace.name(n)).collect::<Vec<_>>().join(", ");
                let text = format!("partition: {} ✕ {}", names(from), names(to));
                let label = Label { x: x0 + 4.0, y: ey + 14.0, text, anchor: Anchor::Start };
                partitions.push(b.items.len());
                b.push(Shape::Band { x0, x1, y0: ey, y1: bottom }, "partition", Some(label), (i, i));
            }
            EventKind::PartitionEnd { .. } => {
                if let Some(Shape::Band { y1, .. }) = partitions.pop().map(|k| &mut b.items[k].shape) {
                    *y1 = ey;
                }
            }
            _ => {}
        }
        if let Some(kinds) = violations.get(&i) {
            if kinds.contains(&FindingKind::TwoHolders) {
                let label = side_label(ex, ey - 12.0, "two holders".into(), lanes.len(), e.node, 14.0);
                b.push(Shape::Mark { x: ex, y: ey - 16.0, glyph: "⚠" }, "mark mark--hazard", Some(label), (i, i));
            }
        }
    }
    // Whatever is still open runs to the bottom of the diagram.
    let last = trace.events.len().saturating_sub(1);
    for ((node, what), (s, text)) in open {
        let (nx, y0) = (x(node), rows[s]);
        match what {
            "pause" => {
                let label = side_label(nx, y0 + 16.0, text, lanes.len(), node, 30.0);
                b.push(Shape::Span { x: nx, y0, y1: bottom }, "pause", Some(label), (s, last));
            }
            "lease" => b.push(Shape::Span { x: nx, y0, y1: bottom }, "lease lease--service", None, (s, last)),
            _ => {
                let token = text.trim_start_matches("token ").parse::<u64>().unwrap_or(0);
                let service_end = lease_end.get(&(node, token)).filter(|&&j| j > s).map(|&j| rows[j]);
                b.belief(nx, y0, bottom, service_end, (s, last));
            }
        }
    }
    // Wide enough for the last lane's side labels, and for any longer label.
    let widest = b.items.iter().filter_map(|i| i.label.as_ref()).map(|l| l.bbox().2 + 40.0).fold(0.0, f32::max);
    let width = (lanes.last().map_or(LEFT, |l| l.x) + 230.0).max(widest);
    Layout { width, height: bottom + 16.0, lanes, rows, items: b.items, gaps, ticks }
}

struct Builder {
    items: Vec<Item>,
}

impl Builder {
    /// Adds an item; its label moves a line down or up if it would cover a label already placed,
    /// and so does a mark (with its label) whose dot would.
    fn push(&mut self, mut shape: Shape, class: &'static str, mut label: Option<Label>, events: (usize, usize)) {
        if let Shape::Mark { x, y, glyph } = shape {
            let placed = self.obstacles();
            let free = |dy: &f32| !placed.iter().any(|b| overlap((x - MARK_R, y + dy - MARK_R, x + MARK_R, y + dy + MARK_R), *b));
            let dy = [0.0, -14.0, 14.0, -28.0, 28.0].into_iter().find(free).unwrap_or(0.0);
            shape = Shape::Mark { x, y: y + dy, glyph };
            label = label.map(|l| Label { y: l.y + dy, ..l });
        }
        let label = label.map(|l| {
            let shifted = |dy: f32| Label { y: l.y + dy, ..l.clone() };
            self.first_free([0.0, 14.0, -14.0, 28.0, -28.0].map(shifted)).unwrap_or(l)
        });
        self.items.push(Item { shape, class, label, events });
    }

    /// Returns the boxes of everything placed so far that a new label or mark must not cover:
    /// labels, and the dots of marks.
    fn obstacles(&self) -> Vec<(f32, f32, f32, f32)> {
        let dots = self.items.iter().filter_map(|i| match i.shape {
            Shape::Mark { x, y, .. } => Some((x - MARK_R, y - MARK_R, x + MARK_R, y + MARK_R)),
            _ => None,
        });
        self.items.iter().filter_map(|i| i.label.as_ref().map(Label::bbox)).chain(dots).collect()
    }

    /// Returns the first candidate label that overlaps no label placed so far.
    fn first_free(&self, candidates: impl IntoIterator<Item = Label>) -> Option<Label> {
        let placed = self.obstacles();
        candidates.into_iter().find(|l| !placed.iter().any(|b| overlap(l.bbox(), *b)))
    }

    /// Places an arrow's label just above the arrow, at the middle if that spot is free, else at
    /// the first point along the arrow where it overlaps no label drawn so far.
    fn arrow_label(&self, x1: f32, y1: f32, x2: f32, y2: f32, text: String) -> Label {
        let at = |t: f32| Label { x: x1 + (x2 - x1) * t, y: y1 + (y2 - y1) * t - 6.0, text: text.clone(), anchor: Anchor::Middle };
        self.first_free([0.5, 0.35, 0.65, 0.25, 0.75].map(at)).unwrap_or_else(|| at(0.5))
    }

    /// Draws a client's belief: the part while the service agrees, then the stale part shaded.
    fn belief(&mut self, x: f32, y0: f32, y1: f32, service_end: Option<f32>, events: (usize, usize)) {
        let x = x + BELIEF_OFFSET;
        match service_end.filter(|&end| end < y1) {
            Some(end) => {
                let end = end.max(y0);
                self.push(Shape::Span { x, y0, y1: end }, "belief", None, events);
                let label = Label { x: x + 10.0, y: end + 18.0, text: "stale: still believes".into(), anchor: Anchor::Start };
                self.push(Shape::Span { x, y0: end, y1 }, "belief belief--stale", Some(label), events);
            }
            None => self.push(Shape::Span { x, y0, y1 }, "belief", None, events),
        }
    }
}


/// Says whether two boxes (x0, y0, x1, y1) overlap.
fn overlap(a: (f32, f32, f32, f32), b: (f32, f32, f32, f32)) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// Places a label `offset` beside its lane: to the right, or to the left on the last lane.
fn side_label(x: f32, y: f32, text: String, lanes: usize, node: NodeId, offset: f32) -> Label {
    if node.0 + 1 == lanes {
        Label { x: x - offset, y, text, anchor: Anchor::End }
    } else {
        Label { x: x + offset, y, text, anchor: Anchor::Start }
    }
}

/// Formats a tick's time for the axis.
pub fn tick_text(at_ms: u64) -> String {
    format!("{} ms", group(at_ms as i64))
}
