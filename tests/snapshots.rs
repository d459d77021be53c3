//! Snapshots of every lesson's text trace, in its design's words: a change in behaviour or wording
//! shows up as a diff in review. Update with `UPDATE_EXPECT=1 cargo test --test snapshots`.

#![cfg(not(target_arch = "wasm32"))]

mod support;

use lockstep::scenario::lessons;

#[test]
fn lesson_traces_match_snapshots() {
    for lesson in lessons::all() {
        let text = support::run_lesson(lesson.id()).words().to_text();
        let path = format!("{}/tests/snapshots/{}.txt", env!("CARGO_MANIFEST_DIR"), lesson.id());
        expect_test::expect_file![path].assert_eq(&text);
    }
}

/// Fingerprints of every lesson's and comparison cell's exports (the SVG diagram as
/// `lockstep run --format svg` writes it, and the Mermaid text): a change to any of them shows up
/// here, by run and format. Look at the run's diagram before updating.
#[test]
fn exports_match_their_fingerprints() {
    use lockstep::diagram::{layout, mermaid, svg};
    use lockstep::present::Words;
    use lockstep::scenario::compare;
    let mut runs: Vec<(String, String, support::Ran)> =
        lessons::all().iter().map(|l| (l.id().to_string(), l.scenario.title.clone(), support::run_lesson(l.id()))).collect();
    for row in compare::rows() {
        for s in compare::Schedule::ALL {
            let (cell, scenario, trace) = compare::cell(s, &row).unwrap();
            runs.push((cell.id(), scenario.title, support::Ran { trace, design: row.design.clone() }));
        }
    }
    let mut lines = String::new();
    for (id, title, ran) in &runs {
        let words = Words::new(&ran.trace, &*ran.design);
        let svg = svg::render(&layout(&words), title, true);
        lines.push_str(&format!("{id} svg {:016x} mermaid {:016x}\n", support::digest(&svg), support::digest(&mermaid::render(&words))));
    }
    expect_test::expect_file![format!("{}/tests/snapshots/exports.txt", env!("CARGO_MANIFEST_DIR"))].assert_eq(&lines);
}
