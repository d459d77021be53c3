//! Snapshots of every lesson's text trace: a behaviour change shows up as a diff in review.
//! Update with `UPDATE_EXPECT=1 cargo test --test snapshots`.

use lockstep::engine;
use lockstep::scenario::lessons;

#[test]
fn lesson_traces_match_snapshots() {
    for lesson in lessons::all() {
        let text = engine::run(&lesson.spec).unwrap().to_text();
        let path = format!("{}/tests/snapshots/{}.txt", env!("CARGO_MANIFEST_DIR"), lesson.id());
        expect_test::expect_file![path].assert_eq(&text);
    }
}
