//! Faults on the diagram: each fault's handle sits on what the diagram draws for it, the axis
//! reads times both ways, and moving a grip makes the edits a person would type.

#![cfg(not(target_arch = "wasm32"))]

use lockstep::diagram::layout::{Arrow, Shape, Span};
use lockstep::edit::handles::{self, Axis, Grip, HandleShape};
use lockstep::edit::{self, Edit};
use lockstep::engine::{self, Trace};
use lockstep::scenario::format::Scenario;
use lockstep::scenario::json::Value;
use lockstep::scenario::{lessons, validate};
use lockstep::ui::panels;

struct Shown {
    scenario: Scenario,
    trace: Trace,
    layout: lockstep::diagram::layout::Layout,
}

fn show(scenario: &Scenario) -> Shown {
    let scenario = scenario.clone();
    let spec = validate::compile(&scenario).expect("valid");
    let trace = engine::run(&spec).expect("runs");
    let layout = lockstep::diagram::layout::layout(&lockstep::present::Words::new(&trace, &*scenario.lock.design));
    Shown { scenario, trace, layout }
}

fn lesson(id: &str) -> Scenario {
    lessons::find(id).expect("lesson").scenario
}

fn set(path: &str, n: i64) -> Edit {
    Edit::Set { path: path.into(), value: Some(Value::Number(n.to_string())) }
}

#[test]
fn a_pause_handle_covers_the_drawn_pause_and_moving_its_end_shortens_it() {
    let s = show(&lesson("lease-race-unfenced"));
    let hs = handles::handles(&s.scenario, &s.trace, &s.layout);
    let pause = s.layout.items.iter().find(|i| matches!(i.shape, Shape::Span { span: Span::Pause, .. })).expect("a pause is drawn");
    let Shape::Span { x, y0, y1, .. } = pause.shape else { unreachable!() };
    assert_eq!(hs[0].shape, HandleShape::Bar { x, y0, y1 });
    assert_eq!(hs[0].ends, &[Grip::Start, Grip::End]);
    // The end dragged 1,000 ms earlier: a 500 ms pause, shorter than the lease, so the race is gone.
    let edits = handles::nudge(&s.scenario, 0, Grip::End, -1_000, 10).expect("it moves");
    assert_eq!(edits, vec![set("faults[0].for_ms", 500)]);
    let doc = edits.iter().fold(lesson("lease-race-unfenced"), |d, e| edit::apply(&d, e).unwrap());
    assert!(show(&doc).trace.verdict.findings.is_empty(), "a 500 ms pause is shorter than the lease");
}

#[test]
fn grips_snap_keep_their_other_edge_and_never_go_below_zero() {
    let s = show(&lesson("lease-race-unfenced"));
    let at = s.scenario.faults[0].at_ms();
    // The start moved 104 ms later at a 10 ms step: the end stays where it was.
    let edits = handles::nudge(&s.scenario, 0, Grip::Start, 104, 10).unwrap();
    assert_eq!(edits, vec![set("faults[0].at_ms", at + 100), set("faults[0].for_ms", 1_400)]);
    assert_eq!(handles::nudge(&s.scenario, 0, Grip::Move, -10_000, 1).unwrap(), vec![set("faults[0].at_ms", 0)]);
    assert_eq!(handles::nudge(&s.scenario, 0, Grip::End, -10_000, 100).unwrap(), vec![set("faults[0].for_ms", 0)]);
    assert_eq!(handles::nudge(&s.scenario, 0, Grip::Move, 4, 10), None, "a move that snaps back changes nothing");
    assert_eq!(handles::nudge(&s.scenario, 9, Grip::Move, 100, 10), None, "no such fault");
}

#[test]
fn the_axis_reads_each_events_time_back_from_its_row() {
    let s = show(&lesson("redlock-clock-jump"));
    let axis = Axis::new(&s.layout, &s.trace);
    for (i, e) in s.trace.events.iter().enumerate() {
        assert_eq!(axis.ms(s.layout.rows[i]).0, e.at_ms.as_ms(), "event {i}");
        assert!(axis.y(e.at_ms.as_ms()) <= s.layout.rows[i], "event {i} is at or below its time's first row");
    }
    assert_eq!(handles::snap_step(0.5), 1);
    assert_eq!(handles::snap_step(5.0), 10);
    assert_eq!(handles::snap_step(50.0), 100);
}

#[test]
fn a_clicked_message_becomes_a_fault_on_its_arrow_and_leaves_the_targets() {
    let s = show(&lesson("lease-race-fenced"));
    let messages = handles::messages(&s.scenario, &s.trace, &s.layout);
    let write = messages.iter().find(|m| m.from == "B" && m.to == "R").expect("B writes to the resource");
    let mut doc = lesson("lease-race-fenced");
    doc = edit::apply(&doc, &Edit::AddFault(handles::message_fault(write, None))).unwrap();
    let dropped = show(&doc);
    let hs = handles::handles(&dropped.scenario, &dropped.trace, &dropped.layout);
    let HandleShape::Arrow { y1, .. } = hs[1].shape else { panic!("the drop sits on its arrow: {:?}", hs[1].shape) };
    let lost = dropped.layout.items.iter().find(|i| matches!(i.shape, Shape::Arrow { arrow: Arrow::Lost, .. })).expect("drawn lost");
    assert!(matches!(lost.shape, Shape::Arrow { y1: y, .. } if y == y1));
    let left = handles::messages(&dropped.scenario, &dropped.trace, &dropped.layout);
    assert!(!left.iter().any(|m| m.send == dropped.trace.fault_events[1].unwrap()), "a dropped message is no target");
    // Delayed instead, its head is a grip that changes the delay.
    let delay = handles::message_fault(write, Some(300));
    let doc = edit::apply(&lesson("lease-race-fenced"), &Edit::AddFault(delay)).unwrap();
    let late = show(&doc);
    assert_eq!(handles::handles(&late.scenario, &late.trace, &late.layout)[1].ends, &[Grip::End]);
    assert_eq!(handles::nudge(&late.scenario, 1, Grip::End, 200, 100).unwrap(), vec![set("faults[1].extra_ms", 500)]);
}

#[test]
fn every_lesson_has_a_handle_per_fault_inside_the_diagram_and_the_layer_is_well_formed() {
    for l in lessons::all() {
        let s = show(&lesson(l.id()));
        let hs = handles::handles(&s.scenario, &s.trace, &s.layout);
        assert_eq!(hs.len(), s.scenario.faults.len(), "{}", l.id());
        for h in &hs {
            let ys = match h.shape {
                HandleShape::Bar { y0, y1, .. } | HandleShape::Band { y0, y1, .. } => (y0, y1),
                HandleShape::Dot { y, .. } => (y, y),
                HandleShape::Arrow { y1, y2, .. } => (y1, y2),
            };
            assert!(0.0 < ys.0 && ys.0 <= ys.1 && ys.1 <= s.layout.height, "{}: {} at {ys:?}", l.id(), h.name);
            // A point fault that made an event sits on that event's mark.
            if let (HandleShape::Dot { x, y }, Some(e)) = (&h.shape, s.trace.fault_events[h.fault]) {
                let on_mark = s
                    .layout
                    .items
                    .iter()
                    .any(|i| i.events.0 == e && matches!(i.shape, Shape::Mark { x: mx, y: my, .. } if (mx, my) == (*x, *y)));
                assert!(on_mark, "{}: {} is on its mark", l.id(), h.name);
            }
        }
        let messages = handles::messages(&s.scenario, &s.trace, &s.layout);
        let layer = panels::handles(&s.layout, &hs, &messages, Some(0), Some("pause"));
        roxmltree::Document::parse(&layer).unwrap_or_else(|e| panic!("{}: {e}", l.id()));
    }
}
