//! Spans on lifelines: a stopped process, a lock held at a lock service, and a client's belief
//! that it holds the lock, shaded where the service has already let it go.

use super::items::{Shape, Span};
use super::label::{Anchor, Label};
use super::marks::{ended, side_mark};
use super::placing::Builder;
use super::sheet::{At, Sheet};
use crate::engine::event::LockEnd;
use crate::engine::holdings::{Change, Holdings};
use crate::engine::ids::NodeMap;
use crate::engine::time::Millis;
use crate::engine::NodeId;
use crate::present::labels::STALE_BELIEF;

/// Belief bars sit just right of the lifeline, beside any pause block on it.
pub const BELIEF_OFFSET: f32 = 14.0;

/// A span begun and not yet ended: its first event and what it is about.
#[derive(Clone, Debug)]
struct Open {
    start: usize,
    /// The token of a belief; the pause's label.
    token: u64,
    label: Option<String>,
}

/// Which span a lifeline has open; its number indexes a node's open spans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SpanKey {
    Pause,
    Held,
    Belief,
}

/// By holder: the tokens under which it lost the lock at the lock services, and where.
#[derive(Default)]
struct LockEnds(NodeMap<Vec<(u64, usize)>>);

impl LockEnds {
    /// Returns the y where `holder` last lost the lock under `token` at the lock services, if
    /// that was after event `start`.
    fn service_end(&self, sheet: &Sheet, holder: NodeId, token: u64, start: usize) -> Option<f32> {
        let lost_at = self.0.get(holder)?.iter().rev().find(|end| end.0 == token).map(|end| end.1);
        lost_at.filter(|&j| j > start).map(|j| sheet.rows[j])
    }
}

/// The spans open on each lifeline, and where each holder lost the lock.
pub(super) struct Spans {
    /// By node, the spans it has open, by kind.
    open: NodeMap<[Option<Open>; 3]>,
    lock_ends: LockEnds,
    holdings: Holdings,
}

impl Spans {
    /// Returns no span open, for a run whose lock takes `quorum` services.
    pub(super) fn new(quorum: usize) -> Spans {
        Spans { open: NodeMap::default(), lock_ends: LockEnds::default(), holdings: Holdings::new(quorum) }
    }

    /// Notes where a holder lost the lock at the lock services through the event `at`.
    pub(super) fn note_losses(&mut self, at: At) {
        for change in self.holdings.apply(at.e) {
            if let Change::Lost { holder, token } = change {
                let ends = self.lock_ends.0.or_default(holder);
                match ends.iter_mut().rev().find(|end| end.0 == token) {
                    Some(end) => end.1 = at.i,
                    None => ends.push((token, at.i)),
                }
            }
        }
    }

    /// Returns where `node`'s open span of kind `key` is kept.
    fn slot(&mut self, node: NodeId, key: SpanKey) -> &mut Option<Open> {
        &mut self.open.or_default(node)[key as usize]
    }

    /// Opens a pause `at`, labelled with how long it lasts.
    pub(super) fn pause_start(&mut self, sheet: &Sheet, at: At, until_ms: Millis) {
        let label = Some(sheet.words.paused(until_ms - at.e.at_ms));
        *self.slot(at.e.node, SpanKey::Pause) = Some(Open { start: at.i, token: 0, label });
    }

    /// Draws the pause that ends `at`.
    pub(super) fn pause_end(&mut self, sheet: &Sheet, b: &mut Builder, at: At) {
        if let Some(o) = self.slot(at.e.node, SpanKey::Pause).take() {
            let y0 = sheet.rows[o.start];
            let label = o.label.map(|t| sheet.side_label(at.x, (y0 + at.y) / 2.0 + 4.0, t, at.e.node, 30.0));
            b.push(Shape::Span { x: at.x, y0, y1: at.y, span: Span::Pause }, label, (o.start, at.i));
        }
    }

    /// Opens a held span `at`, where a lock service grants the lock under `token`.
    pub(super) fn granted(&mut self, at: At, token: u64) {
        // A second grant of the same key (its token named later) keeps the bar's start.
        let held = self.slot(at.e.node, SpanKey::Held);
        match held {
            Some(o) => o.token = token,
            None => *held = Some(Open { start: at.i, token, label: None }),
        }
    }

    /// Ends the held span `at`, if one is open: a lock service's lock ended or, on a crash, went
    /// out of service until it restarts.
    pub(super) fn held_end(&mut self, sheet: &Sheet, b: &mut Builder, at: At) {
        if let Some(o) = self.slot(at.e.node, SpanKey::Held).take() {
            b.push(Shape::Span { x: at.x, y0: sheet.rows[o.start], y1: at.y, span: Span::Held }, None, (o.start, at.i));
        }
    }

    /// Ends the held span `at`, and marks how `holder`'s lock under `token` ended.
    pub(super) fn lock_ended(&mut self, sheet: &Sheet, b: &mut Builder, at: At, holder: NodeId, token: u64, how: LockEnd) {
        self.held_end(sheet, b, at);
        if let Some(kind) = ended(how) {
            side_mark(sheet, b, at, kind, sheet.words.vocabulary().ended_mark(sheet.trace().name(holder), token, how));
        }
    }

    /// Opens a client's belief `at` that it holds the lock under `token`.
    pub(super) fn belief_start(&mut self, at: At, token: u64) {
        *self.slot(at.e.node, SpanKey::Belief) = Some(Open { start: at.i, token, label: None });
    }

    /// Draws the belief that ends `at`, shaded from where the services let the lock under
    /// `token` go.
    pub(super) fn belief_end(&mut self, sheet: &Sheet, b: &mut Builder, at: At, token: u64) {
        if let Some(o) = self.slot(at.e.node, SpanKey::Belief).take() {
            let service_end = self.lock_ends.service_end(sheet, at.e.node, token, o.start);
            belief(sheet, b, at.x, sheet.rows[o.start], at.y, service_end, (o.start, at.i));
        }
    }

    /// Draws whatever is still open down to the bottom of the diagram.
    pub(super) fn close(self, sheet: &Sheet, b: &mut Builder) {
        let last = sheet.trace().events.len().saturating_sub(1);
        let still_open = self.open.into_entries().flat_map(|(node, spans)| {
            [SpanKey::Pause, SpanKey::Held, SpanKey::Belief].into_iter().zip(spans).filter_map(move |(key, o)| Some((node, key, o?)))
        });
        let bottom = sheet.bottom;
        for (node, key, o) in still_open {
            let (nx, y0) = (sheet.x(node), sheet.rows[o.start]);
            match key {
                SpanKey::Pause => {
                    let label = o.label.map(|t| sheet.side_label(nx, y0 + 16.0, t, node, 30.0));
                    b.push(Shape::Span { x: nx, y0, y1: bottom, span: Span::Pause }, label, (o.start, last));
                }
                SpanKey::Held => b.push(Shape::Span { x: nx, y0, y1: bottom, span: Span::Held }, None, (o.start, last)),
                SpanKey::Belief => {
                    let service_end = self.lock_ends.service_end(sheet, node, o.token, o.start);
                    belief(sheet, b, nx, y0, bottom, service_end, (o.start, last));
                }
            }
        }
    }
}

/// Draws a client's belief: the part while the service agrees, then the stale part shaded.
fn belief(sheet: &Sheet, b: &mut Builder, x: f32, y0: f32, y1: f32, service_end: Option<f32>, events: (usize, usize)) {
    let frame = &sheet.frame;
    let x = x + BELIEF_OFFSET;
    match service_end.filter(|&end| end < y1) {
        Some(end) => {
            let end = end.max(y0);
            b.push(Shape::Span { x, y0, y1: end, span: Span::Belief }, None, events);
            let text = frame.fit(STALE_BELIEF.into(), frame.gap - BELIEF_OFFSET - 18.0);
            let label = Label::new(x + 10.0, end + 18.0, text, Anchor::Start);
            b.push(Shape::Span { x, y0: end, y1, span: Span::StaleBelief }, Some(label), events);
        }
        None => b.push(Shape::Span { x, y0, y1, span: Span::Belief }, None, events),
    }
}
