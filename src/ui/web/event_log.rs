//! The event log: the trace as text, the accessible alternative to the diagram. Shows a window
//! of events around the cursor, keyed by event, so a step changes only a few rows. Each row's
//! button names the step it opens (`data-step`); the page's click handler opens it.

use super::run::RunRef;
use crate::present::number::group;
use crate::ui::panels::Escaped;
use yew::prelude::*;

/// Events shown on each side of the cursor.
const WINDOW: usize = 20;

/// The log of `run` around the cursor.
pub fn event_log(run: &RunRef, cursor: Option<usize>) -> Html {
    let t = &run.trace;
    let words = run.words();
    let center = cursor.unwrap_or(0);
    let (from, to) = (center.saturating_sub(WINDOW), (center + WINDOW + 1).min(t.events.len()));
    let items = (from..to).map(|i| {
        let e = &t.events[i];
        let current = cursor == Some(i);
        let future = cursor.is_none_or(|c| i > c);
        let row = format!(
            r#"<button class="log-button" data-step="{}"><span class="log-index">{}</span><span class="log-time">{} ms</span><span class="log-node">{}</span><span class="log-text">{}</span></button>"#,
            i + 1,
            i + 1,
            group(e.at_ms as i64),
            Escaped(t.name(e.node)),
            Escaped(&words.summary(i))
        );
        html! {
            <li key={i} class="log-row" aria-current={current.then_some("step")} data-future={future.then_some("true")}>
                { Html::from_html_unchecked(row.into()) }
            </li>
        }
    });
    html! {
        <details class="card log" open=true data-testid="event-log">
            { Html::from_html_unchecked(format!(r#"<summary><h2>Event log</h2><span class="muted">{} events; the text alternative to the diagram</span></summary>"#, t.events.len()).into()) }
            <ol start={(from + 1).to_string()}>{ for items }</ol>
        </details>
    }
}
