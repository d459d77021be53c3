//! The vertical axis: simulated time, each event's row, idle stretches drawn shorter, and the
//! time labels.

use super::items::{Gap, Tick};
use crate::engine::event::EventKind;
use crate::engine::time::Millis;
use crate::engine::Trace;

pub const TOP: f32 = 64.0;
pub const ROW: f32 = 24.0;
pub const MAX_IDLE_PX: f32 = 72.0;
/// The most an idle stretch takes on a told story's axis (presenter mode): the time between
/// the story's moments drawn shorter, so more of the story is in view at once.
pub const STORY_IDLE_PX: f32 = 30.0;

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
        | EventKind::HungUp { .. }
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

/// Chooses pixels per simulated millisecond so that a typical run's time between events takes
/// `budget` pixels at most.
fn scale(last_ms: u64, budget: f32) -> f32 {
    (budget / last_ms.max(1) as f32).clamp(0.002, 0.5)
}

/// One simulated millisecond at which events happen, on a [`TimeAxis`].
#[derive(Clone, Copy, Debug, PartialEq)]
struct Slot {
    at_ms: Millis,
    /// The y just before the millisecond's first row.
    top: f32,
}

/// The vertical axis: where each millisecond with events is drawn, the idle stretches drawn
/// shorter, and the time labels. Built from one trace, or from several drawn side by side, so
/// that the same time is at the same height in each.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeAxis {
    slots: Vec<Slot>,
    pub(super) gaps: Vec<Gap>,
    pub(super) ticks: Vec<Tick>,
    /// The y after the last millisecond's rows.
    pub(super) end: f32,
}

/// A millisecond's events in one trace: how many rows they take, and how many rows come
/// before the first event (0 or 1).
#[derive(Clone, Copy, Debug)]
struct Moment {
    at_ms: Millis,
    rows: u32,
    first: u32,
}

/// Returns the moments of a trace, in time order.
fn moments(trace: &Trace) -> Vec<Moment> {
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
    pub fn of(trace: &Trace) -> TimeAxis {
        TimeAxis::from_moments(&moments(trace), 600.0, MAX_IDLE_PX)
    }

    /// Returns the axis of one trace told as a story to a room (presenter mode): its time
    /// between events drawn shorter, so its moments are closer together.
    pub fn story(trace: &Trace) -> TimeAxis {
        TimeAxis::from_moments(&moments(trace), 240.0, STORY_IDLE_PX)
    }

    /// Returns one axis for two traces drawn side by side.
    pub fn shared(a: &Trace, b: &Trace) -> TimeAxis {
        TimeAxis::from_moments(&merge(moments(a), &moments(b)), 600.0, MAX_IDLE_PX)
    }

    fn from_moments(all: &[Moment], budget: f32, max_idle: f32) -> TimeAxis {
        let px_per_ms = scale(all.last().map_or(1, |m| m.at_ms.as_ms()), budget);
        let (mut slots, mut gaps, mut ticks) = (Vec::with_capacity(all.len()), Vec::new(), Vec::new());
        let (mut y, mut last_ms) = (TOP, Millis::ZERO);
        for m in all {
            let dt = (m.at_ms - last_ms).as_ms();
            let to_scale = dt as f32 * px_per_ms;
            if to_scale > max_idle {
                gaps.push(Gap { y0: y + 4.0, y1: y + max_idle - 4.0, skipped_ms: dt });
                y += max_idle;
            } else {
                y += to_scale;
            }
            // The label goes on the first row of the millisecond far enough below the last one.
            let rows = (m.first..=m.rows.max(m.first)).map(|k| y + k as f32 * ROW);
            if let Some(at) = rows.into_iter().find(|&r| ticks.last().is_none_or(|t: &Tick| r - t.y >= ROW * 0.75)) {
                ticks.push(Tick { y: at, at_ms: m.at_ms.as_ms() });
            }
            slots.push(Slot { at_ms: m.at_ms, top: y });
            y += m.rows as f32 * ROW;
            last_ms = m.at_ms;
        }
        TimeAxis { slots, gaps, ticks, end: y }
    }

    /// Returns the y of each of `trace`'s events on this axis (which must include its times).
    pub(super) fn rows(&self, trace: &Trace) -> Vec<f32> {
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
