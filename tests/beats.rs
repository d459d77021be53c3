//! The story beats: every lesson has a handful, in order, one per event, and the key moments of
//! the lease race are among them with what they mean.

#![cfg(not(target_arch = "wasm32"))]

mod support;

use lockstep::present::Asks;
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

/// Returns each question's kind, its answer as the choice's text, and its evidence.
fn answers(id: &str) -> Vec<(Asks, String, Vec<usize>)> {
    run_lesson(id).words().predictions().into_iter().map(|p| (p.asks, p.choices[p.answer].clone(), p.evidence)).collect()
}

#[test]
fn questions_vary_and_the_run_answers_each() {
    let fenced = run_lesson("lease-race-fenced").words().predictions();
    let asked: Vec<(usize, &str)> = fenced.iter().map(|p| (p.event, p.question.as_str())).collect();
    assert_eq!(
        asked,
        [
            (7, "When Client B's request for the lock reaches Lock service at 1,105 ms, whom will the lock service count as holding the lock?"),
            (16, "Before any write is judged: when the run ends, whose write will Protected resource hold?"),
            (29, "What will Protected resource do with Client A's write with token 41?")
        ]
    );
    assert_eq!(
        answers("lease-race-fenced"),
        [
            (Asks::Holder, "Client B".to_string(), vec![7, 10]),
            (Asks::Data, "Client B's".to_string(), vec![16]),
            (Asks::Write, "Rejects it".to_string(), vec![29])
        ]
    );
    assert!(
        fenced[0].reason.starts_with("Client A lost the lock (token 41) at 1,005 ms; Client B took the lock (token 42) at 1,105 ms."),
        "{}",
        fenced[0].reason
    );
    assert!(fenced[2].reason.ends_with("The resource itself stopped a stale writer."), "{}", fenced[2].reason);
    // Without fencing the stale write is accepted over B's, which the evidence marks too.
    let unfenced = answers("lease-race-unfenced");
    assert_eq!(unfenced[1].1, "Client A's");
    assert_eq!(unfenced[2], (Asks::Write, "Accepts it; the data is harmed".to_string(), vec![29, 16]));
    // A waiter queued before the fault: the moment is the takeover. A pause shorter than the
    // lease takes the lock from nobody.
    let etcd = run_lesson("etcd-lease-expires").words().predictions();
    assert!(etcd[0].question.starts_with("At 1,005 ms, whom will") && etcd[0].choices[etcd[0].answer] == "Client B", "{:?}", etcd[0]);
    assert_eq!(answers("short-pause")[0], (Asks::Holder, "Client A".to_string(), vec![]));
    // A stale write before the new holder's first harms nothing with blind writes.
    let blind = answers("lease-fenced-blind-first");
    assert!(blind.iter().any(|a| a.0 == Asks::Write && a.1 == "Accepts it; the data is intact"), "{blind:?}");
    // With no lock there is no holder to ask about; the lost update is the write's answer.
    assert_eq!(
        answers("no-lock-lost-update").iter().map(|a| (a.0, a.1.as_str())).collect::<Vec<_>>(),
        [(Asks::Data, "Client A's"), (Asks::Write, "Accepts it; the data is harmed")]
    );
}

#[test]
fn every_lesson_asks_at_most_six_choices_in_event_order_with_evidence_in_the_run() {
    for lesson in lockstep::scenario::lessons::all() {
        let ran = run_lesson(lesson.id());
        let asked = ran.words().predictions();
        assert!(asked.windows(2).all(|w| w[0].event <= w[1].event), "{}: in order", lesson.id());
        for p in &asked {
            assert!(p.choices.len() >= 2 && p.choices.len() <= 6 && p.answer < p.choices.len(), "{}: {p:?}", lesson.id());
            assert!(p.event < ran.events.len() && p.evidence.iter().all(|&e| e < ran.events.len()), "{}: {p:?}", lesson.id());
            assert!(p.question.ends_with('?') && p.reason.ends_with('.'), "{}: {p:?}", lesson.id());
        }
    }
}
