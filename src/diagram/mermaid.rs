//! Trace → Mermaid `sequenceDiagram` text, for pasting into docs. Mermaid has no time axis, so
//! messages appear in arrival order; `-x` marks lost or rejected messages, notes mark faults.

use crate::engine::event::EventKind;
use crate::engine::msg::{Msg, MsgKind};
use crate::engine::NodeId;
use crate::present::Words;
use std::fmt::Write;

/// Renders a trace as Mermaid text.
pub fn render(words: &Words) -> String {
    let trace = words.trace();
    let keys: Vec<String> = trace.participants.iter().map(|p| alias(&p.key)).collect();
    let k = |n: NodeId| keys[n.0].as_str();
    let mut s = String::from("sequenceDiagram\n");
    for (p, key) in trace.participants.iter().zip(&keys) {
        let _ = writeln!(s, "    participant {key} as {}", clean(&p.name));
    }
    for (i, e) in trace.events.iter().enumerate() {
        let me = k(e.node);
        let line = match &e.kind {
            EventKind::Deliver { from, msg, .. } => {
                let arrow = match (msg, msg.kind()) {
                    (Msg::WriteRejected { .. }, _) => "--x",
                    (_, MsgKind::Busy | MsgKind::Refusal) => "--)",
                    (_, MsgKind::Reply) => "-->>",
                    (_, MsgKind::Acquire | MsgKind::Request | MsgKind::WakeUp) => "->>",
                };
                Some(format!("{}{arrow}{me}: {}", k(*from), clean(&words.label(msg, e.node))))
            }
            EventKind::Drop { from, msg, .. } => Some(format!("{}-x{me}: {} (lost)", k(*from), clean(&words.label(msg, e.node)))),
            EventKind::PartitionStart { from, to, .. } | EventKind::PartitionEnd { from, to } => {
                words.note(i).map(|n| format!("Note over {},{}: {}", k(from[0]), k(to[0]), clean(&n)))
            }
            EventKind::Send { .. }
            | EventKind::PauseStart { .. }
            | EventKind::PauseEnd
            | EventKind::Crash
            | EventKind::Restart { .. }
            | EventKind::ClockJump { .. }
            | EventKind::LinkSlow { .. }
            | EventKind::LockGranted { .. }
            | EventKind::LockExtended { .. }
            | EventKind::LockEnded { .. }
            | EventKind::LockReplicated { .. }
            | EventKind::Promoted
            | EventKind::BeliefStart { .. }
            | EventKind::BeliefExtended { .. }
            | EventKind::BeliefEnd { .. }
            | EventKind::RenewalFailed { .. }
            | EventKind::GaveUp { .. }
            | EventKind::WriteAccepted { .. }
            | EventKind::WriteRejected { .. }
            | EventKind::Done => words.note(i).map(|n| format!("Note over {me}: {}", clean(&n))),
        };
        if let Some(line) = line {
            let _ = writeln!(s, "    {line}");
        }
        for f in trace.verdict.findings.iter().filter(|f| f.event == i && f.kind().is_violation()) {
            let _ = writeln!(s, "    Note over {me}: VIOLATION: {}", clean(&words.finding(f)));
        }
    }
    s
}

/// Makes a participant key safe as a Mermaid identifier.
fn alias(key: &str) -> String {
    let a: String = key.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    if a.starts_with(|c: char| c.is_ascii_alphabetic()) {
        a
    } else {
        format!("P_{a}")
    }
}

/// Removes characters that end or break a Mermaid message.
fn clean(text: &str) -> String {
    text.replace([';', '#', '\n'], " ")
}
