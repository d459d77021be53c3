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
