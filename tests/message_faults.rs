//! Faults scoped to one message: the first message on a link from the fault's time on is
//! dropped or delayed, and nothing else changes.

#![cfg(not(target_arch = "wasm32"))]

mod support;

use lockstep::engine::event::{DropReason, EventKind};
use lockstep::engine::FindingKind::*;
use lockstep::scenario::lessons;
use support::*;

/// The fenced lease race with one more fault.
fn fenced_with(fault: &str) -> Ran {
    let source = lessons::find("lease-race-fenced").expect("lesson").source;
    let pause = r#"{ "fault": "pause", "at_ms": 50, "node": "A", "for_ms": 1500 }"#;
    run_json(&source.replace(pause, &format!("{pause}, {fault}")))
}

/// Lists (sent, arrived, from) for every delivered message.
fn deliveries(ran: &Ran) -> Vec<(u64, u64, String)> {
    let e = ran.events.iter();
    e.filter_map(|e| match &e.kind {
        EventKind::Deliver { sent_at_ms, from, .. } => Some((sent_at_ms.as_ms(), e.at_ms.as_ms(), ran.name(*from).to_string())),
        _ => None,
    })
    .collect()
}

#[test]
fn dropping_the_new_holders_write_lets_the_stale_token_through() {
    let ran = fenced_with(r#"{ "fault": "drop_message", "at_ms": 1100, "from": "B", "to": "R" }"#);
    let send = ran.fault_events[1].expect("the drop hit a message");
    let EventKind::Send { msg_id, .. } = ran.events[send].kind else { panic!("the fault names the sending") };
    assert!(ran.events.iter().any(|e| matches!(e.kind, EventKind::Drop { msg_id: m, reason: DropReason::Dropped, .. } if m == msg_id)));
    // The resource never saw 42, so it takes A's 41, though A's lease is long gone.
    assert_eq!(writes(&ran), vec![ok(1555, "Client A", 41, "A", 1)]);
    assert_eq!(findings(&ran), vec![(TwoHolders, 1110), (StaleWriteAccepted, 1555)]);
}

#[test]
fn delaying_the_new_holders_write_lets_the_stale_token_in_first() {
    let ran = fenced_with(r#"{ "fault": "delay_message", "at_ms": 1100, "from": "B", "to": "R", "extra_ms": 1000 }"#);
    assert_eq!(writes(&ran), vec![ok(1555, "Client A", 41, "A", 1), ok(2165, "Client B", 42, "B", 2)]);
    assert!(findings(&ran).contains(&(StaleWriteAccepted, 1555)));
}

#[test]
fn a_message_fault_changes_that_message_only() {
    let plain = run_lesson("lease-race-fenced");
    let late = fenced_with(r#"{ "fault": "delay_message", "at_ms": 0, "from": "A", "to": "L", "extra_ms": 7 }"#);
    let (before, after) = (deliveries(&plain), deliveries(&late));
    assert_eq!(before[0].1 + 7, after[0].1, "the first message A sends the lock service arrives 7 ms later");
    // Every later message on another link keeps its latency: the random draws are the same.
    let latency = |d: &[(u64, u64, String)]| d.iter().filter(|m| m.2 != "Client A").map(|m| m.1 - m.0).collect::<Vec<_>>();
    assert_eq!(latency(&before), latency(&after));
}

#[test]
fn each_fault_names_the_event_it_made_and_a_fault_that_changed_nothing_names_none() {
    let ran = fenced_with(r#"{ "fault": "drop_message", "at_ms": 90000, "from": "B", "to": "R" }"#);
    let pause = ran.fault_events[0].expect("the pause made an event");
    assert!(matches!(ran.events[pause].kind, EventKind::PauseStart { until_ms } if until_ms.as_ms() == 1550));
    assert_eq!(ran.fault_events[1], None, "no message was sent after 90 s");
}
