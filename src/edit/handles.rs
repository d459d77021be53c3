//! Faults on the diagram: where each fault of a scenario is drawn as something to grab (a pause's
//! bar, a partition's band, a crash's dot, a dropped or delayed message's arrow), the messages a
//! fault could be scoped to, the diagram's time axis read both ways, and the edits that moving a
//! handle's edge by some milliseconds makes. The geometry comes from the same [`Layout`] that
//! draws the run, so a handle sits on what it stands for.

use crate::diagram::layout::{Arrow, Layout, Shape, Span};
use crate::edit::Edit;
use crate::engine::event::EventKind;
use crate::engine::Trace;
use crate::scenario::format::{Fault, Scenario};
use crate::scenario::json::Value;

/// The diagram's vertical axis: simulated time at each trace event's row.
pub struct Axis<'a> {
    rows: &'a [f32],
    trace: &'a Trace,
    bottom: f32,
}

impl<'a> Axis<'a> {
    /// Returns the axis of `layout`, the layout of `trace`.
    pub fn new(layout: &'a Layout, trace: &'a Trace) -> Axis<'a> {
        Axis { rows: &layout.rows, trace, bottom: layout.height - 16.0 }
    }

    fn at(&self, i: usize) -> (f32, u64) {
        (self.rows[i], self.trace.events[i].at_ms.as_ms())
    }

    /// Returns the y where simulated time `ms` is drawn: the row of the first event at that time,
    /// or a point between the events around it; past the last event, the bottom.
    pub fn y(&self, ms: u64) -> f32 {
        let events = &self.trace.events;
        let next = events.partition_point(|e| e.at_ms.as_ms() < ms);
        match (next.checked_sub(1), next < events.len()) {
            (_, true) if events[next].at_ms.as_ms() == ms => self.rows[next],
            (Some(prev), true) => {
                let ((y0, t0), (y1, t1)) = (self.at(prev), self.at(next));
                y0 + (y1 - y0) * (ms - t0) as f32 / (t1 - t0).max(1) as f32
            }
            (None, true) => self.rows[0],
            (_, false) => self.bottom,
        }
    }

    /// Returns the simulated time drawn at `y`, read between the rows around it, and how many
    /// milliseconds one diagram unit spans there.
    pub fn ms(&self, y: f32) -> (u64, f32) {
        let next = self.rows.partition_point(|&r| r <= y);
        match (next.checked_sub(1), next < self.rows.len()) {
            (Some(prev), true) => {
                let ((y0, t0), (y1, t1)) = (self.at(prev), self.at(next));
                let per_unit = (t1 - t0) as f32 / (y1 - y0).max(1.0);
                (t0 + ((y - y0) * per_unit + 0.5) as u64, per_unit)
            }
            (None, _) => (0, 0.0),
            (Some(last), false) => (self.at(last).1, 0.0),
        }
    }
}

/// Returns the step that times snap to where one screen pixel spans `ms_per_px`: 1, 10 or 100 ms.
pub fn snap_step(ms_per_px: f32) -> u64 {
    if ms_per_px < 1.0 {
        1
    } else if ms_per_px < 10.0 {
        10
    } else {
        100
    }
}

/// What the user did on the diagram's layer of handles, in diagram units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Gesture {
    /// Dragged fault `fault`'s `grip` from `from` to `to` (y), at `px_per_unit` screen pixels per unit.
    Drag { fault: usize, grip: Grip, from: f32, to: f32, px_per_unit: f32 },
    /// Dragged the head of the message sent at event `send` from `from` to `to`.
    Delay { send: usize, from: f32, to: f32, px_per_unit: f32 },
    /// Clicked (or pressed Enter on) fault `fault`.
    Select(usize),
    /// Clicked lifeline `lane` at `y`.
    Add { lane: usize, y: f32 },
    /// Moved fault `fault`'s `grip` by `delta_ms` with the keyboard.
    Nudge { fault: usize, grip: Grip, delta_ms: i64 },
    /// Pressed Delete on fault `fault`.
    Remove(usize),
}

impl Gesture {
    /// Reads a key pressed on fault `fault`'s focused handle: ↑/↓ move it by 10 ms (100 with
    /// Alt), with Shift they change its length; Delete or Backspace removes it; Enter or space
    /// picks it.
    pub fn key(fault: usize, key: &str, alt: bool, shift: bool) -> Option<Gesture> {
        let step = if alt { 100 } else { 10 };
        let grip = if shift { Grip::End } else { Grip::Move };
        Some(match key {
            "ArrowUp" => Gesture::Nudge { fault, grip, delta_ms: -step },
            "ArrowDown" => Gesture::Nudge { fault, grip, delta_ms: step },
            "Delete" | "Backspace" => Gesture::Remove(fault),
            "Enter" | " " => Gesture::Select(fault),
            _ => return None,
        })
    }
}

/// What part of a handle is moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grip {
    /// The whole fault, to another time.
    Move,
    /// A window's start, keeping its end.
    Start,
    /// A window's end, a delayed message's arrival, or a clock jump's size.
    End,
}

impl Grip {
    /// Returns the grip's name in the page's `data-grip`.
    pub fn name(self) -> &'static str {
        match self {
            Grip::Move => "move",
            Grip::Start => "start",
            Grip::End => "end",
        }
    }

    /// Reads a grip's name.
    pub fn parse(name: &str) -> Option<Grip> {
        [Grip::Move, Grip::Start, Grip::End].into_iter().find(|g| g.name() == name)
    }
}

/// How a handle is drawn, in diagram units.
#[derive(Clone, Debug, PartialEq)]
pub enum HandleShape {
    /// A window on one lifeline (a pause): its body moves it, its ends resize it.
    Bar { x: f32, y0: f32, y1: f32 },
    /// A window across lanes (a partition, a slow link).
    Band { x0: f32, x1: f32, y0: f32, y1: f32 },
    /// A point on a lifeline (a crash, restart, promotion, clock jump).
    Dot { x: f32, y: f32 },
    /// The message a fault dropped or delayed: its head is the end grip of a delay.
    Arrow { x1: f32, y1: f32, x2: f32, y2: f32 },
}

/// One fault as something to grab.
#[derive(Clone, Debug, PartialEq)]
pub struct Handle {
    /// The fault's index in the scenario.
    pub fault: usize,
    pub shape: HandleShape,
    /// What the fault is, in words, for a screen reader and a tooltip.
    pub name: String,
    /// The grips it has besides [`Grip::Move`].
    pub ends: &'static [Grip],
}

/// A message a new fault could drop or delay: its sending event and its arrow.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    pub send: usize,
    pub from: String,
    pub to: String,
    pub at_ms: u64,
    pub arrow: (f32, f32, f32, f32),
}

/// Returns the lane x of the participant with id `id`.
fn lane(layout: &Layout, scenario: &Scenario, id: &str) -> f32 {
    let i = scenario.participants.iter().position(|p| p.id() == id).unwrap_or(0);
    layout.lanes.get(i).map_or(0.0, |l| l.x)
}

/// Returns the band across the lanes `ids` name, as the diagram draws a partition.
fn band(layout: &Layout, scenario: &Scenario, ids: &[&String], y0: f32, y1: f32) -> HandleShape {
    let xs = ids.iter().map(|id| lane(layout, scenario, id));
    let (x0, x1) = xs.fold((f32::MAX, f32::MIN), |(lo, hi), x| (lo.min(x), hi.max(x)));
    HandleShape::Band { x0: x0 - 30.0, x1: x1 + 30.0, y0, y1: y1.max(y0 + 6.0) }
}

fn span(ms: i64) -> u64 {
    ms.max(0) as u64
}

/// Returns a handle for each fault of `scenario`, drawn where its run (`trace`, laid out as
/// `layout`) shows it, or where it would be if it changed nothing.
pub fn handles(scenario: &Scenario, trace: &Trace, layout: &Layout) -> Vec<Handle> {
    let axis = Axis::new(layout, trace);
    let made = |i: usize| trace.fault_events.get(i).copied().flatten();
    // The item a fault's event starts, if the layout drew one.
    let drawn = |i: usize, want: fn(&Shape) -> bool| {
        let e = made(i)?;
        layout.items.iter().find(|item| item.events.0 == e && want(&item.shape)).map(|item| item.shape.clone())
    };
    let mut out = Vec::with_capacity(scenario.faults.len());
    for (i, f) in scenario.faults.iter().enumerate() {
        let at = span(f.at_ms());
        let y = axis.y(at);
        // A point fault sits on its mark, where the diagram drew it (a mark moves aside from a
        // label it would cover), or at its time if it changed nothing.
        let node_dot = |node: &str| match drawn(i, |s| matches!(s, Shape::Mark { .. })) {
            Some(Shape::Mark { x, y, .. }) => HandleShape::Dot { x, y },
            _ => HandleShape::Dot { x: lane(layout, scenario, node), y },
        };
        let (shape, name, ends): (HandleShape, String, &'static [Grip]) = match f {
            Fault::Pause { node, for_ms, .. } => {
                let shape = match drawn(i, |s| matches!(s, Shape::Span { span: Span::Pause, .. })) {
                    Some(Shape::Span { x, y0, y1, .. }) => HandleShape::Bar { x, y0, y1 },
                    _ => HandleShape::Bar { x: lane(layout, scenario, node), y0: y, y1: axis.y(at + span(*for_ms)).max(y + 6.0) },
                };
                (shape, format!("pause of {node}"), &[Grip::Start, Grip::End])
            }
            Fault::Crash { node, .. } => (node_dot(node), format!("crash of {node}"), &[]),
            Fault::Restart { node, .. } => (node_dot(node), format!("restart of {node}"), &[]),
            Fault::Promote { node, .. } => (node_dot(node), format!("promotion of {node}"), &[]),
            Fault::ClockJump { node, .. } => (node_dot(node), format!("clock jump of {node}"), &[Grip::End]),
            Fault::Partition { from, to, for_ms, .. } => {
                let shape = match drawn(i, |s| matches!(s, Shape::Band { .. })) {
                    Some(Shape::Band { x0, x1, y0, y1 }) => HandleShape::Band { x0, x1, y0, y1 },
                    _ => band(layout, scenario, &from.iter().chain(to).collect::<Vec<_>>(), y, axis.y(at + span(*for_ms))),
                };
                (shape, format!("partition {} ✕ {}", from.join(", "), to.join(", ")), &[Grip::Start, Grip::End])
            }
            Fault::Delay { from, to, for_ms, .. } => {
                let shape = band(layout, scenario, &[from, to], y, axis.y(at + span(*for_ms)));
                (shape, format!("slow link {from} → {to}"), &[Grip::Start, Grip::End])
            }
            Fault::DropMessage { from, to, .. } | Fault::DelayMessage { from, to, .. } => {
                let shape = match drawn(i, |s| matches!(s, Shape::Arrow { .. })) {
                    Some(Shape::Arrow { x1, y1, x2, y2, .. }) => HandleShape::Arrow { x1, y1, x2, y2 },
                    _ => node_dot(from),
                };
                let (what, ends): (&str, &'static [Grip]) =
                    if matches!(f, Fault::DropMessage { .. }) { ("dropped", &[]) } else { ("delayed", &[Grip::End]) };
                (shape, format!("{what} message {from} → {to}"), ends)
            }
        };
        out.push(Handle { fault: i, shape, name, ends });
    }
    out
}

/// Returns the messages of the run that a new fault could drop or delay: each drawn arrow that a
/// message fault does not already name.
pub fn messages(scenario: &Scenario, trace: &Trace, layout: &Layout) -> Vec<Message> {
    let mut taken = Vec::new();
    for (i, f) in scenario.faults.iter().enumerate() {
        if let (Fault::DropMessage { .. } | Fault::DelayMessage { .. }, Some(Some(send))) = (f, trace.fault_events.get(i)) {
            taken.push(*send);
        }
    }
    let id = |n: crate::engine::NodeId| trace.participants[n.0].key.clone();
    let mut messages = Vec::new();
    for item in &layout.items {
        let Shape::Arrow { x1, y1, x2, y2, arrow } = item.shape else { continue };
        let send = item.events.0;
        if arrow == Arrow::Lost || taken.contains(&send) {
            continue;
        }
        if let e @ crate::engine::Event { kind: EventKind::Send { to, .. }, .. } = &trace.events[send] {
            messages.push(Message { send, from: id(e.node), to: id(*to), at_ms: e.at_ms.as_ms(), arrow: (x1, y1, x2, y2) });
        }
    }
    messages
}

fn number(n: impl ToString) -> Option<Value> {
    Some(Value::Number(n.to_string()))
}

/// Returns the edits that move `grip` of fault `i` by `delta_ms` (later if positive), snapped to
/// `step` ms; nothing moves before 0 or shrinks below 0. `None` if there is no such fault or
/// grip, or nothing would change.
pub fn nudge(scenario: &Scenario, i: usize, grip: Grip, delta_ms: i64, step: u64) -> Option<Vec<Edit>> {
    let f = scenario.faults.get(i)?;
    let step = step.max(1) as i64;
    // To the nearest step, halves away from zero, in whole numbers.
    let snap = |v: i64| (v.signum() * ((v.abs() + step / 2) / step * step)).max(0);
    let at = f.at_ms();
    let length = match f {
        Fault::Pause { for_ms, .. } | Fault::Partition { for_ms, .. } | Fault::Delay { for_ms, .. } => Some(("for_ms", *for_ms)),
        Fault::DelayMessage { extra_ms, .. } => Some(("extra_ms", *extra_ms)),
        Fault::ClockJump { by_ms, .. } => Some(("by_ms", *by_ms)),
        Fault::Crash { .. } | Fault::Restart { .. } | Fault::Promote { .. } | Fault::DropMessage { .. } => None,
    };
    let path = |field: &str| format!("faults[{i}].{field}");
    let set = |field: &str, v: i64| Edit::Set { path: path(field), value: number(v) };
    let edits = match (grip, length) {
        (Grip::Move, _) => vec![set("at_ms", snap(at + delta_ms))],
        (Grip::End, Some(("by_ms", by))) => {
            let by = by + delta_ms;
            vec![set("by_ms", by.signum() * snap(by.abs()))]
        }
        (Grip::End, Some((field, len))) => vec![set(field, snap(len + delta_ms))],
        (Grip::Start, Some((field, len))) if field == "for_ms" => {
            let start = snap(at + delta_ms).min(at + len);
            vec![set("at_ms", start), set(field, at + len - start)]
        }
        _ => return None,
    };
    let unchanged = edits.iter().all(|e| match e {
        Edit::Set { path: p, value: Some(Value::Number(n)) } => {
            let now = if p.ends_with(".at_ms") { Some(at) } else { length.map(|l| l.1) };
            now.map(|v| v.to_string()) == Some(n.clone())
        }
        _ => false,
    });
    (!unchanged).then_some(edits)
}

/// Returns a fault for the message sent at event `send` (see [`messages`]): dropped, or delayed by
/// `extra_ms`.
pub fn message_fault(m: &Message, extra_ms: Option<u64>) -> Fault<String> {
    let (at_ms, from, to) = (m.at_ms as i64, m.from.clone(), m.to.clone());
    match extra_ms {
        Some(extra) => Fault::DelayMessage { at_ms, from, to, extra_ms: extra as i64 },
        None => Fault::DropMessage { at_ms, from, to },
    }
}
