//! What just happened and why it matters, and the verdict so far.

use super::Escaped;
use crate::engine::checker::FindingKind;
use crate::engine::Trace;
use crate::present::number::group;
use crate::present::{Beat, Words};
use crate::scenario::Scenario;
use std::fmt::Write;

fn finding_class(kind: FindingKind) -> &'static str {
    match kind {
        FindingKind::StaleWriteAccepted | FindingKind::LostUpdate => "finding finding--violation",
        FindingKind::TwoHolders => "finding finding--hazard",
        FindingKind::StaleWriteRejected => "finding finding--saved",
    }
}

/// The narration of the event at `cursor`: when, who, what and what it means, and at a story
/// beat (`beat`) why the moment matters; before the first event, the setup.
pub fn narration(scenario: &Scenario, trace: &Trace, words: &Words, cursor: Option<usize>, beat: Option<&Beat>) -> String {
    let Some(c) = cursor else {
        return format!(
            r#"<h2>The setup</h2><p class="intro">{}</p><p class="hint">Press <kbd>Space</kbd> to play, <kbd>→</kbd> to step, or <kbd>PageDown</kbd> for the next key moment.</p>"#,
            Escaped(&scenario.intro)
        );
    };
    let e = &trace.events[c];
    let mut s = format!(
        r#"<h2><span class="when">{} ms</span><span class="who">{}</span><span class="local">its clock: {} ms</span></h2><p class="now" data-testid="narration-text">{}</p>"#,
        group(e.at_ms as i64),
        Escaped(trace.name(e.node)),
        group(e.local_ms),
        Escaped(&words.narrate(c))
    );
    if let Some(b) = beat {
        let _ = write!(s, r#"<p class="beat-why" data-testid="beat"><strong>{}.</strong> {}</p>"#, Escaped(&b.title), Escaped(&b.why));
    }
    for f in trace.verdict.findings.iter().filter(|f| f.event == c) {
        let _ = write!(
            s,
            r#"<p class="{}" data-testid="finding"><strong>{}</strong>: {}</p>"#,
            finding_class(f.kind()),
            Words::finding_kind(f.kind()),
            Escaped(&words.finding(f))
        );
    }
    if c + 1 == trace.events.len() {
        let _ = write!(
            s,
            r#"<div class="takeaway" data-testid="takeaway"><h3>What this shows</h3><p>{}</p></div>"#,
            Escaped(&scenario.takeaway)
        );
    }
    s
}

/// The verdict as far as the cursor has got: unsafe from the first violation on, safe at the end.
/// Returns the badge's class and text.
pub fn verdict(trace: &Trace, cursor: Option<usize>) -> (&'static str, String) {
    let seen = |i: usize| cursor.is_some_and(|c| i <= c);
    let mut violations: Vec<&str> =
        trace.verdict.findings.iter().filter(|f| f.kind().is_violation() && seen(f.event)).map(|f| Words::finding_kind(f.kind())).collect();
    violations.dedup();
    let hazard = trace.verdict.findings.iter().any(|f| f.kind() == FindingKind::TwoHolders && seen(f.event));
    let at_end = cursor.is_some_and(|c| c + 1 == trace.events.len());
    if !violations.is_empty() {
        ("badge badge--unsafe", format!("Unsafe: {}", violations.join(", ")))
    } else if at_end && hazard {
        ("badge badge--safe", "Safe, though two clients held it at once".to_string())
    } else if at_end {
        ("badge badge--safe", "Safe".to_string())
    } else if hazard {
        ("badge badge--hazard", "Two holders at once".to_string())
    } else {
        ("badge badge--pending", "No violation so far".to_string())
    }
}
