//! The pure diagram: geometry of arrows and marks, label overlap, compressed gaps, the SVG and
//! Mermaid snapshots, and the inspector's folded state.

#![cfg(not(target_arch = "wasm32"))]

mod support;

use lockstep::diagram::inspect::{Status, Timeline, CHECKPOINT_EVERY};
use lockstep::diagram::layout::{head_box, layout, Arrow, ItemKind, Layout, Mark, Shape, Span, HEADS_BOTTOM, MARK_R};
use lockstep::diagram::obstacles::crosses;
use lockstep::diagram::{mermaid, svg, window};
use lockstep::engine::{EventKind, LocalMillis, NodeId};
use lockstep::scenario::{compare, lessons};
use support::{run_lesson, Ran};

fn laid_out(t: &Ran) -> Layout {
    layout(&t.words())
}

fn overlaps(a: (f32, f32, f32, f32), b: (f32, f32, f32, f32)) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

#[test]
fn arrows_run_between_the_right_lifelines_at_the_right_times() {
    let t = run_lesson("lease-race-fenced");
    let l = laid_out(&t);
    let words = t.words();
    let is_a_write = |e: &lockstep::engine::Event, to| matches!(&e.kind, EventKind::Send { msg, .. } | EventKind::Deliver { msg, .. } if words.label(msg, to) == "write \"A\" with token 41");
    let send = t.events.iter().position(|e| matches!(e.kind, EventKind::Send { .. }) && is_a_write(e, NodeId(2))).unwrap();
    let deliver = t.events.iter().position(|e| matches!(e.kind, EventKind::Deliver { .. }) && is_a_write(e, NodeId(2))).unwrap();
    let arrow = l.items.iter().find(|i| i.events == (send, deliver)).expect("A's write is drawn");
    let Shape::Arrow { x1, y1, x2, y2, arrow: kind } = arrow.shape else { panic!("not an arrow") };
    assert_eq!((x1, x2), (l.lanes[0].x, l.lanes[2].x), "from Client A to the resource");
    assert_eq!((y1, y2), (l.rows[send], l.rows[deliver]));
    assert!(y2 > y1, "in flight for 5 ms, so slanted down");
    assert_eq!(kind, Arrow::Write);
    let rejected = l.items.iter().find(|i| i.kind() == ItemKind::Mark(Mark::WriteRejected)).unwrap();
    assert_eq!(rejected.label.as_ref().unwrap().text, "rejected: token 41 < 42");
    assert!(matches!(rejected.shape, Shape::Mark { x, .. } if x == l.lanes[2].x));
    assert_eq!(Mark::WriteRejected.glyph(), "✗");
}

#[test]
fn rows_follow_time_and_long_idle_gaps_are_compressed_and_marked() {
    let t = run_lesson("lease-race-fenced");
    let l = laid_out(&t);
    assert!(l.rows.windows(2).all(|w| w[0] <= w[1]));
    let skipped: Vec<u64> = l.gaps.iter().map(|g| g.skipped_ms).collect();
    assert_eq!(skipped, vec![955, 370], "A's pause and B's idle wait are compressed");
    let svg = svg::render(&l, "t", false);
    assert!(svg.contains("≈ 955 ms idle, compressed"));
}

/// Returns where a mark's dot covers a label, two labels overlap, or a label leaves the canvas.
fn crowding(id: &str, l: &Layout) -> Vec<String> {
    let mut problems = Vec::new();
    let labels: Vec<_> = l.items.iter().filter_map(|i| i.label.as_ref()).collect();
    for m in &l.items {
        if let Shape::Mark { x, y, mark } = m.shape {
            let dot = (x - MARK_R, y - MARK_R, x + MARK_R, y + MARK_R);
            for b in labels.iter().filter(|b| overlaps(dot, b.bbox())) {
                problems.push(format!("{id}: {mark:?} at y {y} covers {:?}", b.text));
            }
        }
    }
    // A mark's label keeps clear of every arrowhead.
    let heads: Vec<_> = l
        .items
        .iter()
        .filter_map(|i| match i.shape {
            Shape::Arrow { x1, x2, y2, arrow, .. } if arrow != Arrow::Lost => Some(head_box(x1, x2, y2)),
            _ => None,
        })
        .collect();
    for item in l.items.iter().filter(|i| matches!(i.shape, Shape::Mark { .. })) {
        if let Some(label) = item.label.as_ref().filter(|b| heads.iter().any(|&h| overlaps(h, b.bbox()))) {
            problems.push(format!("{id}: an arrowhead touches {:?}", label.text));
        }
    }
    if labels.len() < 6 {
        problems.push(format!("{id}: {} labels", labels.len()));
    }
    for (i, a) in labels.iter().enumerate() {
        let b0 = a.bbox();
        if !(b0.0 >= 0.0 && b0.2 <= l.width && b0.3 <= l.height) {
            problems.push(format!("{id}: {:?} leaves the canvas", a.text));
        }
        // The page's strip of lane names stays on top: a label under it could not be read.
        if b0.1 < HEADS_BOTTOM {
            problems.push(format!("{id}: {:?} reaches up under the lane names, to {}", a.text, b0.1));
        }
        for b in labels[i + 1..].iter().filter(|b| overlaps(b0, b.bbox())) {
            problems.push(format!("{id}: {:?} overlaps {:?}", a.text, b.text));
        }
    }
    problems
}

/// Returns where an arrow runs through another item's label; but for arrows in flight at once
/// from or to one lifeline (Redlock's five masters), whose labels cannot all sit clear of each
/// other, and a partition's label, which lies under the arrows that cross its band.
fn crossings(id: &str, l: &Layout) -> Vec<String> {
    let mut problems = Vec::new();
    let shafts: Vec<_> = l
        .items
        .iter()
        .filter_map(|i| match i.shape {
            Shape::Arrow { x1, y1, x2, y2, .. } => Some((x1, y1, x2, y2)),
            _ => None,
        })
        .collect();
    for item in &l.items {
        let own = match item.shape {
            Shape::Arrow { x1, y1, x2, y2, .. } => Some((x1, y1, x2, y2)),
            _ => None,
        };
        if let Some(label) = item.label.as_ref().filter(|_| !matches!(item.shape, Shape::Band { .. })) {
            // Two arrows in flight at once from or to one lifeline.
            let sibling = |s: (f32, f32, f32, f32)| own.is_some_and(|o| (o.0 == s.0 || o.2 == s.2) && o.1.max(s.1) < o.3.min(s.3));
            for _ in shafts.iter().filter(|&&s| Some(s) != own && !sibling(s) && crosses(s, label.bbox())) {
                problems.push(format!("{id}: an arrow runs through {:?}", label.text));
            }
        }
    }
    problems
}

#[test]
fn no_arrow_runs_through_a_label_in_the_lease_expiry_race_on_any_screen_from_1024_px() {
    use lockstep::diagram::layout::{layout_on, Room, TimeAxis};
    let mut problems = Vec::new();
    for lesson in lessons::all().iter().filter(|l| l.scenario.topic == "The lease-expiry race") {
        let t = run_lesson(lesson.id());
        problems.extend(crossings(lesson.id(), &laid_out(&t)));
        for room in &ROOMS[..4] {
            let l = layout_on(&t.words(), &TimeAxis::of(&t.trace), Room::Fit(*room));
            problems.extend(crossings(&format!("{} in {room}", lesson.id()), &l));
        }
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn every_label_is_drawn_over_every_shape() {
    for lesson in lessons::all() {
        let svg = svg::render(&laid_out(&run_lesson(lesson.id())), "", false);
        let (last_shape, first_label) = (svg.rfind(r#"class="shaft""#).unwrap(), svg.find(r#"class="label""#).unwrap());
        assert!(last_shape < first_label, "{}: an arrow is drawn after a label", lesson.id());
        for shape in [r#"class="span""#, r#"class="band""#, r#"class="dot""#] {
            assert!(svg.rfind(shape).is_none_or(|at| at < first_label), "{}: a {shape} is drawn after a label", lesson.id());
        }
    }
}

#[test]
fn no_two_labels_overlap_and_all_fit_in_every_lesson() {
    let problems: Vec<String> =
        lessons::all().iter().flat_map(|lesson| crowding(lesson.id(), &laid_out(&run_lesson(lesson.id())))).collect();
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

/// The rooms (diagram units) the page gives the diagram at 1024×768, 1280×720, 1366×768 and
/// 1920×1080, and on a 390 px phone.
const ROOMS: [f32; 5] = [877.0, 803.0, 898.0, 1146.0, 326.0];

#[test]
fn fitted_to_each_screen_every_lane_shows_and_no_two_labels_overlap() {
    use lockstep::diagram::layout::{layout_on, Room, TimeAxis, MIN_LANE_GAP, MIN_ROOM};
    let mut problems = Vec::new();
    for lesson in lessons::all() {
        let t = run_lesson(lesson.id());
        for room in ROOMS {
            let l = layout_on(&t.words(), &TimeAxis::of(&t.trace), Room::Fit(room));
            let id = format!("{} in {room}", lesson.id());
            problems.extend(crowding(&id, &l));
            let gap = l.lanes[1].x - l.lanes[0].x;
            // Within the room, unless the lanes are as close as they are ever drawn (a phone
            // scrolls sideways).
            assert!(room < MIN_ROOM || l.width <= room + 0.5 || gap == MIN_LANE_GAP, "{id}: {} wide", l.width);
            assert!(
                l.lanes[0].x - l.head / 2.0 >= 0.0 && l.lanes.last().unwrap().x + l.head / 2.0 <= l.width,
                "{id}: a name box is cut off"
            );
            assert!(l.head <= gap - 12.0 + 0.01, "{id}: name boxes touch");
        }
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn no_two_labels_overlap_in_any_comparison_cell() {
    use lockstep::scenario::compare::{cell, rows, Schedule};
    let mut problems = Vec::new();
    for r in rows() {
        for s in Schedule::ALL {
            let (c, _, trace) = cell(s, &r).unwrap();
            problems.extend(crowding(&c.id(), &laid_out(&Ran { trace, design: r.design.clone() })));
        }
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn stale_belief_is_shaded_after_the_service_expired_the_lease() {
    let t = run_lesson("lease-race-fenced");
    let l = laid_out(&t);
    let expiry = t.events.iter().position(|e| matches!(e.kind, EventKind::LockEnded { token: 41, .. })).unwrap();
    let stale = l.items.iter().find(|i| i.kind() == ItemKind::Span(Span::StaleBelief)).expect("A's stale belief is drawn");
    let Shape::Span { y0, .. } = stale.shape else { panic!() };
    assert_eq!(y0, l.rows[expiry]);
    assert_eq!(l.items.iter().filter(|i| i.kind() == ItemKind::Span(Span::Pause)).count(), 1);
    assert!(l.items.iter().any(|i| i.kind() == ItemKind::Mark(Mark::TwoHolders)));
}

#[test]
fn violations_are_drawn_in_their_own_class() {
    let l = laid_out(&run_lesson("lease-race-unfenced"));
    let v = l.items.iter().find(|i| i.kind() == ItemKind::Mark(Mark::WriteViolation)).expect("violation mark");
    assert_eq!(v.label.as_ref().unwrap().text, "accepted, token 41: STALE, WRITES OUT OF ORDER");
}

#[test]
fn svg_snapshot_of_the_fenced_lease_race() {
    let t = run_lesson("lease-race-fenced");
    let svg = svg::render(&laid_out(&t), "The lease expiration race, fenced", true);
    expect_test::expect_file!["snapshots/lease-race-fenced.svg"].assert_eq(&svg);
}

#[test]
fn mermaid_export_uses_the_seed_notation() {
    let text = mermaid::render(&run_lesson("lease-race-fenced").words());
    expect_test::expect_file!["snapshots/lease-race-fenced.mmd"].assert_eq(&text);
    assert!(text.contains("R--xA: rejected: token 41 < 42"));
    assert!(text.contains("Note over A: paused for 1,500 ms"));
}

#[test]
fn inspector_folds_state_exactly() {
    let t = run_lesson("lease-race-fenced");
    let timeline = Timeline::new(&t);
    let b_grant = t.events.iter().position(|e| matches!(e.kind, EventKind::BeliefStart { token: 42, .. })).unwrap();
    let s = timeline.at(&t, b_grant);
    assert_eq!(s.nodes[1].key.map(|k| (k.0, k.1)), Some((NodeId(3), 42)), "the lock service's key");
    assert!(s.nodes[3].holds && !s.nodes[0].holds);
    assert_eq!(s.nodes[0].belief, Some((41, Some(LocalMillis::from_ms(1_000)))), "A still believes");
    assert_eq!(s.nodes[0].status, Status::Paused);
    let last = timeline.at(&t, t.events.len() - 1);
    let r = last.nodes[2].data.clone().unwrap();
    assert_eq!((r.data.as_deref(), r.highest_token, r.version), (Some("B"), 42, 1));
    assert_eq!(last.nodes[0].belief, None);
}

#[test]
fn states_replayed_from_checkpoints_match_the_trace_at_every_event() {
    use lockstep::engine::holdings::{Change, Holdings};
    let (scenario, spec) = lockstep::scenario::stress::stress(3_000).unwrap();
    let t = lockstep::engine::run(&spec).unwrap();
    assert_eq!(scenario.id, "stress-3000");
    assert!(t.events.len() > 4 * CHECKPOINT_EVERY, "the run spans several checkpoints");
    let timeline = Timeline::new(&t);
    // Facts folded directly from the events: who holds, who believes, what the data is.
    let mut holdings = Holdings::new(t.quorum);
    let mut holds = vec![false; t.participants.len()];
    let mut believes = vec![None; t.participants.len()];
    let mut data = None;
    for (i, e) in t.events.iter().enumerate() {
        for change in holdings.apply(e) {
            match change {
                Change::Gained { holder, .. } => holds[holder.0] = true,
                Change::Lost { holder, .. } => holds[holder.0] = false,
            }
        }
        match &e.kind {
            EventKind::BeliefStart { token, .. } | EventKind::BeliefExtended { token, .. } => believes[e.node.0] = Some(*token),
            EventKind::BeliefEnd { .. } => believes[e.node.0] = None,
            EventKind::WriteAccepted { value, version, .. } => data = Some((value.to_string(), *version)),
            _ => {}
        }
        let s = timeline.at(&t, i);
        assert_eq!(s.at_ms, e.at_ms, "#{i}");
        assert_eq!(s.nodes.iter().map(|n| n.holds).collect::<Vec<_>>(), holds, "#{i}");
        assert_eq!(s.nodes.iter().map(|n| n.belief.map(|b| b.0)).collect::<Vec<_>>(), believes, "#{i}");
        let stored = s.nodes.iter().find_map(|n| n.data.as_ref());
        assert_eq!(stored.and_then(|r| r.data.clone().zip(Some(r.version))), data, "#{i}");
    }
}

#[test]
fn two_runs_on_one_time_axis_draw_the_same_time_at_the_same_height() {
    use lockstep::diagram::layout::{layout_on, Room, TimeAxis, ROW};
    let (a, b) = (run_lesson("lease-race-fenced"), run_lesson("network-delay"));
    let axis = TimeAxis::shared(&a.trace, &b.trace);
    let (la, lb) = (layout_on(&a.words(), &axis, Room::Natural), layout_on(&b.words(), &axis, Room::Natural));
    assert_eq!((la.height, &la.ticks, &la.gaps), (lb.height, &lb.ticks, &lb.gaps), "one axis, one set of labels");
    // Every event of either run is below every event of either run that came at an earlier
    // millisecond, and a millisecond both runs have starts within a row in both.
    let mut all: Vec<(u64, f32, bool)> = a.events.iter().zip(&la.rows).map(|(e, &y)| (e.at_ms.as_ms(), y, true)).collect();
    all.extend(b.events.iter().zip(&lb.rows).map(|(e, &y)| (e.at_ms.as_ms(), y, false)));
    for &(t1, y1, _) in &all {
        assert!(all.iter().filter(|x| x.0 > t1).all(|x| x.1 > y1), "{t1} ms at {y1} is above every later event");
    }
    let first = |t: u64, side: bool| all.iter().filter(|x| x.0 == t && x.2 == side).map(|x| x.1).reduce(f32::min);
    for &(t, ..) in &all {
        if let (Some(ya), Some(yb)) = (first(t, true), first(t, false)) {
            assert!((ya - yb).abs() <= ROW, "{t} ms: {ya} and {yb}");
        }
    }
    // Alone, a run is laid out exactly as on its own.
    assert_eq!(layout_on(&a.words(), &TimeAxis::of(&a.trace), Room::Natural), layout(&a.words()));
}

#[test]
fn the_cursor_line_is_told_every_label_it_would_cross() {
    use lockstep::diagram::window::Window;
    for id in ["lease-race-fenced", "redlock-clock-jump", "zk-herd"] {
        let l = laid_out(&run_lesson(id));
        let window = Window::new(&l);
        for &y in &l.rows {
            let across: Vec<_> = window.labels_across(&l, y).collect();
            let line = window.line_around_labels(&l, y, (0.0, l.width), 4.0);
            for label in l.items.iter().filter_map(|i| i.label.as_ref()) {
                let b = label.bbox();
                if b.1 <= y && y <= b.3 {
                    assert!(across.contains(&(b.0, b.2)), "{id}: the line at {y} is not told of {:?}", label.text);
                    assert!(line.iter().all(|&(p, q)| q <= b.0 - 4.0 || p >= b.2 + 4.0), "{id}: the line at {y} crosses {:?}", label.text);
                }
            }
            assert!(line.iter().all(|&(p, q)| p < q), "{id}: no empty pieces");
        }
    }
}

#[test]
fn bars_are_drawn_under_every_mark_and_arrow() {
    // In the PostgreSQL no-timeout lesson a write's ✓ sits on the lock's bar.
    let l = laid_out(&run_lesson("pg-no-timeout"));
    let kinds: Vec<ItemKind> = svg::drawing_order(&l).map(|i| i.kind()).collect();
    let last_bar = kinds.iter().rposition(|k| matches!(k, ItemKind::Span(_))).unwrap();
    let first_mark = kinds.iter().position(|k| matches!(k, ItemKind::Mark(_) | ItemKind::Arrow(_))).unwrap();
    assert!(last_bar < first_mark, "a bar is drawn over a mark");
    assert_eq!(kinds.len(), l.items.len(), "every item drawn once");
}

#[test]
fn the_inspector_keeps_each_resources_data_apart() {
    let t = run_lesson("saga-compensation");
    let timeline = Timeline::new(&t);
    let both = t.events.iter().position(|e| matches!(&e.kind, EventKind::WriteAccepted { value, .. } if &**value == "seat 12A")).unwrap();
    let stored = |s: &lockstep::diagram::inspect::Snapshot, node: usize| s.nodes[node].data.as_ref().map(|r| (r.data.clone(), r.version));
    let s = timeline.at(&t, both);
    assert_eq!(stored(&s, 1), Some((Some("room 101".into()), 1)), "the hotel's");
    assert_eq!(stored(&s, 2), Some((Some("seat 12A".into()), 1)), "the airline's");
    assert_eq!(stored(&s, 0), None, "a client stores nothing");
    let last = timeline.at(&t, t.events.len() - 1);
    assert_eq!(stored(&last, 1), Some((None, 2)), "the hotel after its undo: empty at version 2");
}

#[test]
fn a_long_camel_cased_word_breaks_after_a_hyphen_and_other_words_at_spaces() {
    use lockstep::diagram::layout::wrap;
    assert_eq!(wrap("accepted, leaseTransitions 0: STALE", 91.5), "accepted,\nlease-\nTransitions\n0: STALE");
    assert_eq!(wrap("a verylongwordwithoutcaps here", 60.0), "a\nverylongwordwithoutcaps\nhere");
    assert_eq!(wrap("short words only", 200.0), "short words only");
}

#[test]
fn every_lesson_and_comparison_cell_is_drawn_whole() {
    // Larger runs keep only the items near the view in the page; a lesson or a cell of the
    // comparison table shows every item, so find-in-page and a screenshot see all of it.
    let most = window::DRAW_WHOLE_UP_TO;
    for lesson in lessons::all() {
        let items = laid_out(&run_lesson(lesson.id())).items.len();
        assert!(items <= most, "{}: {items} items, over the {most} drawn whole", lesson.id());
    }
    for row in compare::rows() {
        for schedule in compare::Schedule::ALL {
            let (_, scenario, trace) = compare::cell(schedule, &row).expect("a cell runs");
            let items = laid_out(&Ran { trace, design: scenario.lock.design }).items.len();
            assert!(items <= most, "{schedule:?}: {items} items, over the {most} drawn whole");
        }
    }
}
