//! What just happened and why it matters, and the verdict so far.

use super::run::RunRef;
use crate::engine::checker::FindingKind;
use crate::present::number::group;
use crate::present::Words;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub run: RunRef,
    pub cursor: Option<usize>,
}

fn finding_class(kind: FindingKind) -> &'static str {
    match kind {
        FindingKind::StaleWriteAccepted | FindingKind::LostUpdate => "finding finding--violation",
        FindingKind::TwoHolders => "finding finding--hazard",
        FindingKind::StaleWriteRejected => "finding finding--saved",
    }
}

/// The narration panel.
#[component]
pub fn Narration(props: &Props) -> Html {
    let run = &props.run;
    let t = &run.trace;
    let Some(c) = props.cursor else {
        return html! {
            <section class="card narration" aria-live="polite" data-testid="narration">
                <h2>{"The setup"}</h2>
                <p class="intro">{&run.scenario.intro}</p>
                <p class="hint">{"Press "}<kbd>{"Space"}</kbd>{" to play, or "}<kbd>{"→"}</kbd>{" to step."}</p>
            </section>
        };
    };
    let e = &t.events[c];
    let words = run.words();
    let last = c + 1 == t.events.len();
    html! {
        <section class="card narration" aria-live="polite" data-testid="narration">
            <h2>
                <span class="when">{format!("{} ms", group(e.at_ms as i64))}</span>
                <span class="who">{t.name(e.node)}</span>
                <span class="local">{format!("its clock: {} ms", group(e.local_ms))}</span>
            </h2>
            <p class="now" data-testid="narration-text">{words.narrate(c)}</p>
            { for t.verdict.findings.iter().filter(|f| f.event == c).map(|f| html! {
                <p class={finding_class(f.kind())} data-testid="finding">
                    <strong>{Words::finding_kind(f.kind())}</strong>{": "}{words.finding(f)}
                </p>
            }) }
            if last {
                <div class="takeaway" data-testid="takeaway">
                    <h3>{"What this shows"}</h3>
                    <p>{&run.scenario.takeaway}</p>
                </div>
            }
        </section>
    }
}

/// The verdict as far as the cursor has got: unsafe from the first violation on, safe at the end.
#[component]
pub fn VerdictBadge(props: &Props) -> Html {
    let t = &props.run.trace;
    let seen = |i: usize| props.cursor.is_some_and(|c| i <= c);
    let violations: Vec<&str> =
        t.verdict.findings.iter().filter(|f| f.kind().is_violation() && seen(f.event)).map(|f| Words::finding_kind(f.kind())).collect();
    let hazard = t.verdict.findings.iter().any(|f| f.kind() == FindingKind::TwoHolders && seen(f.event));
    let at_end = props.cursor.is_some_and(|c| c + 1 == t.events.len());
    let (class, text) = if !violations.is_empty() {
        let mut v = violations.clone();
        v.dedup();
        ("badge badge--unsafe", format!("Unsafe: {}", v.join(", ")))
    } else if at_end && hazard {
        ("badge badge--safe", "Safe, though two clients held it at once".to_string())
    } else if at_end {
        ("badge badge--safe", "Safe".to_string())
    } else if hazard {
        ("badge badge--hazard", "Two holders at once".to_string())
    } else {
        ("badge badge--pending", "No violation so far".to_string())
    };
    html! { <div class={class} role="status" data-testid="verdict">{text}</div> }
}
