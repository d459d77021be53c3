//! What just happened and why it matters, and the verdict so far.

use super::{Escaped, ROUTE_ATTRIBUTE};
use crate::engine::checker::FindingKind;
use crate::engine::Trace;
use crate::present::number::{clocks, group_u};
use crate::present::{Asks, Beat, Prediction, Words};
use crate::scenario::lessons::Entry;
use crate::scenario::Scenario;
use crate::ui::route::{self, Route, Target};
use std::fmt::Write;

fn finding_class(kind: FindingKind) -> &'static str {
    match kind {
        FindingKind::LostUpdate | FindingKind::OutOfOrder | FindingKind::DuplicateEffect => "finding finding--violation",
        FindingKind::StaleWriteAccepted | FindingKind::TwoHolders | FindingKind::HolderWriteRejected => "finding finding--hazard",
        FindingKind::StaleWriteRejected => "finding finding--saved",
    }
}

/// What the narration asks or tells about predictions.
pub enum Ask<'a> {
    Nothing,
    /// Before the run: whether predictions are on, with a switch.
    Offer(bool),
    /// The outcome of the next event is hidden until this is answered.
    Question(&'a Prediction),
    /// A question about the run's end was answered with `chosen` (`None`: passed over): its
    /// answer waits for the end.
    Noted {
        prediction: &'a Prediction,
        chosen: Option<usize>,
    },
    /// This was answered with `chosen` (`None`: its answer was revealed without a choice); the
    /// score so far (right, answered).
    Answered {
        prediction: &'a Prediction,
        chosen: Option<usize>,
        score: (u32, u32),
    },
}

/// Writes what `ask` asks or tells.
fn predict(s: &mut String, ask: &Ask) {
    match ask {
        Ask::Nothing => {}
        Ask::Offer(on) => {
            let (state, switch) =
                if *on { ("on: the run stops before each outcome and asks you first", "Switch off") } else { ("off", "Switch on") };
            let _ = write!(
                s,
                r#"<p class="hint" data-testid="predict-offer">Predictions are {state}. <button class="btn btn--small" data-action="predict">{switch}</button></p>"#
            );
        }
        Ask::Question(p) => {
            let _ = write!(
                s,
                r#"<div class="predict" data-testid="predict"><h3><span>Predict <span class="predict-number">· question {}</span></span> <button class="btn btn--ghost btn--small" data-action="predict">Stop asking</button></h3><p>{}</p><div class="choices">"#,
                p.number,
                Escaped(&p.question)
            );
            for (i, choice) in p.choices.iter().enumerate() {
                let n = i + 1;
                let _ = write!(
                    s,
                    r#"<button class="btn" data-action="answer:{n}" data-testid="answer-{i}"><kbd>{n}</kbd> {}</button>"#,
                    Escaped(choice)
                );
            }
            s.push_str(r#"</div><p class="hint reveal-hint">Or press <kbd>PageDown</kbd> to show the answer.</p></div>"#);
        }
        Ask::Noted { prediction: p, chosen } => {
            let said = chosen.and_then(|c| p.choices.get(c)).map_or("You passed it over".to_string(), |c| format!("You said: {c}"));
            let _ = write!(
                s,
                r#"<div class="predict predict--noted" data-testid="predict-noted"><p><strong>Noted.</strong> {}. The end of the run tells whose write it holds.</p></div>"#,
                Escaped(&said)
            );
        }
        Ask::Answered { prediction: p, chosen, score: (right, all) } => {
            let (class, verdict) = match chosen {
                Some(c) if *c == p.answer => ("predict predict--right", "Right"),
                Some(_) => ("predict predict--wrong", "Not this time"),
                None => ("predict predict--shown", "The answer"),
            };
            let score = if chosen.is_some() {
                format!(r#" <span class="muted">Your predictions: {right} of {all} right.</span>"#)
            } else {
                String::new()
            };
            // The answer about the end is told at the end, where the takeaway says why.
            let reason = if p.asks == Asks::Data { String::new() } else { format!(" {}", Escaped(&p.reason)) };
            let _ = write!(
                s,
                r#"<div class="{class}" data-testid="predict-result"><p><strong>{verdict}:</strong> {}.{reason}{score}</p></div>"#,
                Escaped(p.choices.get(p.answer).map_or("", String::as_str)),
            );
        }
    }
}

/// The narration of the event at `cursor` in two parts, what happened and what it means: when,
/// who and what; then at a story beat (`beat`) why the moment matters, any finding, and at the
/// end the takeaway and the way on to the `next` lesson. Before the first event, the setup. (Beside the run the parts stack; in a
/// caption band under it they sit side by side.)
pub fn narration(
    scenario: &Scenario,
    trace: &Trace,
    words: &Words,
    cursor: Option<usize>,
    beat: Option<&Beat>,
    ask: Ask,
    next: Option<&Entry>,
) -> String {
    let Some(c) = cursor else {
        let mut s = format!(
            r#"<div class="told"><h2>The setup</h2><p class="intro">{}</p></div><div class="meant"><p class="hint">Press <kbd>Space</kbd> to play, <kbd>→</kbd> to step, or <kbd>PageDown</kbd> for the next key moment.</p>"#,
            Escaped(&scenario.intro)
        );
        predict(&mut s, &ask);
        s.push_str("</div>");
        return s;
    };
    let e = &trace.events[c];
    let mut s = format!(
        r#"<div class="told"><h2><span class="when">{} ms</span><span class="who">{}</span><span class="local">its clock: {} ms</span></h2><p class="now" data-testid="narration-text">{}</p>"#,
        group_u(e.at_ms.as_ms()),
        Escaped(trace.name(e.node)),
        clocks(&trace.participants[e.node.0].clock, e.at_ms),
        Escaped(&words.narrate(c))
    );
    if let Some(next) = next.filter(|_| c + 1 == trace.events.len()) {
        next_lesson(&mut s, next);
    }
    s.push_str(r#"</div><div class="meant">"#);
    // A question is asked in place of the beat. Once a question on this event's write is
    // answered, its result says what the beat would; the findings follow, but for those the
    // beat already tells.
    if matches!(ask, Ask::Question(_) | Ask::Answered { .. } | Ask::Noted { .. }) {
        predict(&mut s, &ask);
    }
    // What the question rests on (what the resource checks, who does what when) was said in the
    // setup, which is no longer on screen: it is at hand, folded.
    if matches!(ask, Ask::Question(_)) {
        let _ = write!(
            s,
            r#"<details class="predict-setup" data-testid="predict-setup"><summary>The setup again</summary><p>{}</p></details>"#,
            Escaped(&scenario.intro)
        );
    }
    let told = match (beat, &ask) {
        (_, Ask::Question(_)) => None,
        (Some(b), Ask::Answered { prediction, .. }) if prediction.asks == Asks::Write => Some(b),
        (Some(b), _) => {
            let _ = write!(s, r#"<p class="beat-why" data-testid="beat"><strong>{}.</strong> {}</p>"#, Escaped(&b.title), Escaped(&b.why));
            Some(b)
        }
        _ => None,
    };
    let quoted = |i: usize| told.is_some_and(|b| b.quoted.contains(&i));
    for (_, f) in trace.verdict.findings.iter().enumerate().filter(|(i, f)| f.event == c && !quoted(*i)) {
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
    s.push_str("</div>");
    s
}

/// Writes the way on to the `next` lesson, under what happened at the end of a run (PageDown
/// goes there too).
fn next_lesson(s: &mut String, next: &Entry) {
    let link = route::format(&Route { target: Target::Lesson(next.id.into()), step: 0 });
    let _ = write!(
        s,
        r#"<button class="btn btn--primary next-lesson" {ROUTE_ATTRIBUTE}="{}" data-testid="next-lesson">Next lesson: {} ▸</button>"#,
        Escaped(&link),
        Escaped(next.title)
    );
}

/// The verdict as far as the cursor has got, on the data: unsafe from the first harm on, safe
/// at the end; broken exclusion (two holders, a stale write let in) is said, but is not harm.
/// Returns the badge's class and text.
pub fn verdict(trace: &Trace, cursor: Option<usize>) -> (&'static str, String) {
    let seen = |i: usize| cursor.is_some_and(|c| i <= c);
    let mut harms: Vec<&str> =
        trace.verdict.findings.iter().filter(|f| f.kind().is_harm() && seen(f.event)).map(|f| Words::finding_kind(f.kind())).collect();
    harms.dedup();
    let seen_kind = |kind: FindingKind| trace.verdict.findings.iter().any(|f| f.kind() == kind && seen(f.event));
    let hazard = if seen_kind(FindingKind::StaleWriteAccepted) {
        Some("a stale write was let in")
    } else if seen_kind(FindingKind::TwoHolders) {
        Some("two clients held it at once")
    } else {
        None
    };
    let at_end = cursor.is_some_and(|c| c + 1 == trace.events.len());
    match (harms.is_empty(), at_end, hazard) {
        (false, _, _) => ("badge badge--unsafe", format!("Unsafe: {}", harms.join(", "))),
        (true, true, Some(h)) => ("badge badge--safe", format!("Safe: data intact, though {h}")),
        (true, true, None) => ("badge badge--safe", "Safe".to_string()),
        (true, false, Some(h)) => ("badge badge--hazard", format!("No harm so far, though {h}")),
        (true, false, None) => ("badge badge--pending", "No harm so far".to_string()),
    }
}
