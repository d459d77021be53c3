//! The story beats: every lesson has a handful, in order, one per event, and the key moments of
//! the lease race are among them with what they mean.

#![cfg(not(target_arch = "wasm32"))]

mod support;

use lockstep::scenario::{compare, lessons};
use support::{run_lesson, Ran};

fn titles(ran: &Ran) -> Vec<(u64, String)> {
    ran.words().beats().into_iter().map(|b| (ran.events[b.event].at_ms.as_ms(), b.title)).collect()
}

#[test]
fn the_fenced_lease_race_tells_its_story_in_beats() {
    let ran = run_lesson("lease-race-fenced");
    assert_eq!(
        titles(&ran),
        [
            (10, "Client A takes the lock, token 41"),
            (50, "Client A pauses for 1,500 ms"),
            (1005, "Client A loses the lock: lease 41 expires"),
            (1110, "Client B takes the lock, token 42: two holders"),
            (1165, "Protected resource accepts Client B's write (token 42)"),
            (1555, "Protected resource rejects Client A's write (token 41)"),
        ]
        .map(|(t, s)| (t, s.to_string()))
    );
    let beats = ran.words().beats();
    assert_eq!(beats[5].why, "The resource itself stopped a stale writer.");
    let unfenced = run_lesson("lease-race-unfenced").words().beats();
    let stale = unfenced.last().expect("a beat");
    assert!(stale.title.starts_with("Protected resource accepts Client A's write (token 41)"), "{}", stale.title);
    assert!(
        stale.why.starts_with("Writes out of order: Client A's write (token 41) was applied after Client B's (token 42) and erased it"),
        "{}",
        stale.why
    );
}

#[test]
fn every_run_has_a_few_beats_one_per_event_in_order() {
    let mut runs: Vec<(String, Ran)> = lessons::all().iter().map(|l| (l.id().to_string(), run_lesson(l.id()))).collect();
    for row in compare::rows() {
        for s in compare::Schedule::ALL {
            let (cell, _, trace) = compare::cell(s, &row).unwrap();
            runs.push((cell.id(), Ran { trace, design: row.design.clone() }));
        }
    }
    for (id, ran) in &runs {
        let beats = ran.words().beats();
        assert!(
            beats.len() >= 2 && beats.len() * 3 <= ran.events.len().max(6),
            "{id}: {} beats for {} events",
            beats.len(),
            ran.events.len()
        );
        assert!(beats.windows(2).all(|w| w[0].event < w[1].event), "{id}: in order, one per event");
        for b in &beats {
            assert!(!b.title.is_empty() && b.why.ends_with('.') && b.why.chars().next().is_some_and(char::is_uppercase), "{id}: {b:?}");
        }
    }
}

#[test]
fn each_judged_write_asks_a_prediction_answered_by_the_run() {
    let fenced = run_lesson("lease-race-fenced").words().predictions();
    let asked: Vec<(&str, usize)> = fenced.iter().map(|p| (p.question.as_str(), p.answer)).collect();
    assert_eq!(
        asked,
        [
            ("Will Protected resource accept Client B's write with token 42?", 0),
            ("Will Protected resource accept Client A's write with token 41?", 1)
        ]
    );
    assert_eq!(lockstep::present::beats::CHOICES[fenced[1].answer], "It rejects the write");
    assert!(fenced[1].reason.ends_with("The resource itself stopped a stale writer."), "{}", fenced[1].reason);
    let unfenced = run_lesson("lease-race-unfenced").words().predictions();
    assert_eq!(unfenced[1].answer, 0, "without fencing the stale write is accepted");
    assert!(unfenced[1].reason.contains("Writes out of order"), "{}", unfenced[1].reason);
}
