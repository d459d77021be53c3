//! The event log: the trace as text, the accessible alternative to the diagram. Shows a window
//! of events around the cursor, keyed by event, so a step changes only a few rows.

use super::browser;
use super::run::RunRef;
use crate::present::number::group;
use crate::ui::player::Action;
use yew::prelude::*;

/// Events shown on each side of the cursor.
const WINDOW: usize = 20;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub run: RunRef,
    pub cursor: Option<usize>,
    pub on_seek: Callback<Action>,
}

#[component]
pub fn EventLog(props: &Props) -> Html {
    let t = &props.run.trace;
    let words = props.run.words();
    let center = props.cursor.unwrap_or(0);
    let (from, to) = (center.saturating_sub(WINDOW), (center + WINDOW + 1).min(t.events.len()));
    let items = (from..to).map(|i| {
        let e = &t.events[i];
        let current = props.cursor == Some(i);
        let future = props.cursor.is_none_or(|c| i > c);
        let class = match (current, future) {
            (true, _) => "log-row is-current",
            (false, true) => "log-row is-future",
            (false, false) => "log-row",
        };
        html! {
            <li key={i} class={class} aria-current={current.then_some("step")}>
                <button class="log-button" data-step={(i + 1).to_string()}>
                    <span class="log-index">{i + 1}</span>
                    <span class="log-time">{format!("{} ms", group(e.at_ms as i64))}</span>
                    <span class="log-node">{t.name(e.node)}</span>
                    <span class="log-text">{words.summary(i)}</span>
                </button>
            </li>
        }
    });
    // One handler for the whole list: a row's button names the step it opens.
    let onclick = {
        let on_seek = props.on_seek.clone();
        Callback::from(move |e: MouseEvent| {
            if let Some(step) = browser::clicked_attribute(&e, ".log-button", "data-step").and_then(|s| s.parse().ok()) {
                on_seek.emit(Action::Seek(step));
            }
        })
    };
    html! {
        <details class="card log" open=true data-testid="event-log">
            <summary>
                <h2>{"Event log"}</h2>
                <span class="muted">{ format!("{} events; the text alternative to the diagram", t.events.len()) }</span>
            </summary>
            <ol start={(from + 1).to_string()} {onclick}>{ for items }</ol>
        </details>
    }
}
