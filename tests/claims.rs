//! What a lesson says agrees with its own run: no claim its diagram contradicts. Each rule comes
//! from a text the real servers' replay found wrong.

#![cfg(not(target_arch = "wasm32"))]

mod support;

use lockstep::design::LockKind;
use lockstep::engine::checker::FindingKind;
use lockstep::scenario::lessons;
use support::run_lesson;

#[test]
fn what_a_lesson_says_agrees_with_its_own_run() {
    let mut problems = Vec::new();
    for lesson in lessons::all() {
        let (s, id) = (&lesson.scenario, lesson.id());
        let g = s.guarantees();
        let ran = run_lesson(id);
        let found = |k: FindingKind| ran.verdict.findings.iter().any(|f| f.kind() == k);
        let text = format!("{} {} {} {} {}", s.intro, s.takeaway, g.safety, g.liveness, g.assumes);
        // A run with two holders cannot promise that two never act at once.
        if found(FindingKind::TwoHolders) {
            for claim in ["no two consumers ever", "never handle", "exactly one consumer"] {
                if text.contains(claim) {
                    problems.push(format!("{id}: says “{claim}”, and its run has two holders"));
                }
            }
        }
        // A lesson marked a correctness lock does not say it is not one.
        if g.lock == LockKind::Correctness && g.safety.starts_with("Not a correctness lock") {
            problems.push(format!("{id}: marked a correctness lock, and says it is not one"));
        }
        // Where the run accepts a stale write, a lesson's own assumption that the resource checks
        // is said to be broken here (a design's general text leaves that to the lesson's takeaway).
        if s.guarantees.is_some()
            && found(FindingKind::StaleWriteAccepted)
            && g.assumes.contains("resource")
            && g.assumes.contains("checks")
            && !g.assumes.contains("does not")
        {
            problems.push(format!("{id}: assumes the resource checks, and its run accepts a stale write without saying so"));
        }
        // No lesson promises that a client never touches the resource: a pause can always come
        // between its last check and its write.
        if text.contains("never touches the resource") {
            problems.push(format!("{id}: promises a client never touches the resource"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
