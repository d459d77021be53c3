//! Trace → Mermaid `sequenceDiagram` text, for pasting into docs. Mermaid has no time axis, so
//! messages appear in arrival order; `-x` marks lost or rejected messages, notes mark faults.
//!
//! Valid for any names: a participant keeps its id as its alias only when that is a plain ASCII
//! identifier, no Mermaid keyword and unique, and gets a generated one (`p0`, `p1`, …) otherwise;
//! every text is written with Mermaid's entity codes for the characters that could end a
//! statement, open a directive or carry markup.

use crate::engine::event::EventKind;
use crate::engine::msg::{Msg, MsgKind};
use crate::engine::NodeId;
use crate::present::Words;

/// Renders a trace as Mermaid text.
pub fn render(words: &Words) -> String {
    let mut s = String::new();
    let _ = write_to(&mut s, words);
    s
}

/// Writes a trace as Mermaid text to `s`, line by line, so a trace of any size is never held
/// whole as text (the command line writes it straight to its output).
pub fn write_to(s: &mut dyn std::fmt::Write, words: &Words) -> std::fmt::Result {
    let trace = words.trace();
    let keys = aliases(trace.participants.iter().map(|p| p.key.as_str()));
    let k = |n: NodeId| keys[n.0].as_str();
    s.write_str("sequenceDiagram\n")?;
    for (p, key) in trace.participants.iter().zip(&keys) {
        writeln!(s, "    participant {key} as {}", clean(&p.name))?;
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
            EventKind::Drop { from, msg, .. } => Some(format!("{}-x{me}: {}", k(*from), clean(&words.lost_note(msg, e.node)))),
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
            | EventKind::HungUp { .. }
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
            | EventKind::WriteUndone { .. }
            | EventKind::LockChecked { .. }
            | EventKind::Done => words.note(i).map(|n| format!("Note over {me}: {}", clean(&n))),
        };
        if let Some(line) = line {
            writeln!(s, "    {line}")?;
        }
        for f in trace.verdict.findings.iter().filter(|f| f.event == i && f.kind().is_harm()) {
            writeln!(s, "    Note over {me}: {}", clean(&words.violation_note(&words.finding(f))))?;
        }
    }
    Ok(())
}

/// Words a sequence diagram reserves; none may serve as an alias (compared ignoring case). The
/// end-to-end suite reads the words from Mermaid's own lexer (`tools/mermaid-keywords.mjs`) and
/// exports a participant named by each, in three letter cases, through Mermaid's parser.
const KEYWORDS: &[&str] = &[
    "participant",
    "actor",
    "as",
    "loop",
    "alt",
    "else",
    "opt",
    "par",
    "par_over",
    "and",
    "rect",
    "end",
    "note",
    "over",
    "left",
    "right",
    "of",
    "critical",
    "option",
    "break",
    "autonumber",
    "off",
    "activate",
    "deactivate",
    "title",
    "box",
    "create",
    "destroy",
    "link",
    "links",
    "properties",
    "details",
    "sequencediagram",
    "acctitle",
    "accdescr",
];

/// Chooses a unique alias for each participant: its id if that is a safe identifier, else `p<i>`.
fn aliases<'a>(keys: impl Iterator<Item = &'a str>) -> Vec<String> {
    let keys: Vec<&str> = keys.collect();
    let safe = |k: &str| {
        k.len() <= 32
            && k.starts_with(|c: char| c.is_ascii_alphabetic())
            && k.chars().all(|c| c.is_ascii_alphanumeric())
            && !KEYWORDS.contains(&k.to_ascii_lowercase().as_str())
    };
    let mut out: Vec<String> = Vec::with_capacity(keys.len());
    for (i, k) in keys.iter().enumerate() {
        let mut alias = if safe(k) { k.to_string() } else { format!("p{i}") };
        let mut n = 0;
        // Mermaid compares aliases as written; a clash with an earlier one takes a fresh name.
        while out.contains(&alias) || (!safe(k) && keys.contains(&alias.as_str())) {
            n += 1;
            alias = format!("p{i}_{n}");
        }
        out.push(alias);
    }
    out
}

/// Writes text for a Mermaid label. What could end a statement (`;`, a line break), start an
/// entity or a comment (`#`, `%`), or open markup (`<` before an ASCII letter, `/`, `!` or `?`;
/// `&` before an ASCII letter, digit or `#`, as HTML reads tags and entities) becomes a Mermaid
/// entity code; characters no text can hold are dropped. Everything else, `token 41 < 42` and
/// `a <é` included, stays as it reads.
fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied().unwrap_or(' ');
        let markup = match c {
            '<' => next.is_ascii_alphabetic() || matches!(next, '/' | '!' | '?'),
            '&' => next.is_ascii_alphanumeric() || next == '#',
            ';' | '#' | '%' => true,
            _ => false,
        };
        match c {
            _ if markup => out.push_str(&format!("#{};", u32::from(c))),
            '\n' | '\r' | '\t' => out.push(' '),
            c if c.is_control() || c == '\u{fffe}' || c == '\u{ffff}' => {}
            c => out.push(c),
        }
    }
    match out.trim() {
        "" => "?".into(),
        t => t.to_string(),
    }
}
