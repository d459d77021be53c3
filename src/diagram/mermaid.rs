//! Trace → Mermaid `sequenceDiagram` text, for pasting into docs. Mermaid has no time axis, so
//! messages appear in arrival order; `-x` marks lost or rejected messages, notes mark faults.

use crate::engine::msg::{ms, Msg};
use crate::engine::trace::{EventKind, LeaseEnd, Trace};
use crate::engine::NodeId;
use std::fmt::Write;

/// Renders a trace as Mermaid text.
pub fn render(trace: &Trace) -> String {
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
                let arrow = match msg {
                    Msg::WriteRejected { .. } => "--x",
                    m if m.is_refusal() => "--)",
                    Msg::Granted { .. } | Msg::Renewed { .. } | Msg::ReleaseResult { .. } | Msg::ReadResult { .. } | Msg::WriteAccepted { .. } => "-->>",
                    _ => "->>",
                };
                format!("{}{arrow}{me}: {}", k(*from), clean(&msg.label()))
            }
            EventKind::Drop { from, msg, reason, .. } => format!("{}-x{me}: {} (lost: {})", k(*from), clean(&msg.label()), clean(reason)),
            EventKind::PauseStart { until_ms } => format!("Note over {me}: paused for {}", ms(until_ms - e.at_ms)),
            EventKind::PauseEnd => format!("Note over {me}: resumes"),
            EventKind::Crash => format!("Note over {me}: crash"),
            EventKind::Restart { keep_state } => format!("Note over {me}: restart{}", if *keep_state { "" } else { ", state lost" }),
            EventKind::Promoted => format!("Note over {me}: promoted to primary"),
            EventKind::ClockJump { by_ms } => format!("Note over {me}: clock jumps {by_ms:+} ms"),
            EventKind::LeaseEnded { token, how: LeaseEnd::Expired, .. } => format!("Note over {me}: lease {token} expires"),
            EventKind::LeaseEnded { token, how: LeaseEnd::DeletedByOther, .. } => format!("Note over {me}: lease {token} deleted by another client"),
            EventKind::PartitionStart { from, to, .. } => format!("Note over {},{}: partition", k(from[0]), k(to[0])),
            EventKind::PartitionEnd { from, to } => format!("Note over {},{}: partition heals", k(from[0]), k(to[0])),
            _ => String::new(),
        };
        if !line.is_empty() {
            let _ = writeln!(s, "    {line}");
        }
        for f in trace.verdict.findings.iter().filter(|f| f.event == i && f.kind.is_violation()) {
            let _ = writeln!(s, "    Note over {me}: VIOLATION: {}", clean(&f.text));
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
