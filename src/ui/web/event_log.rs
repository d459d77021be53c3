//! The event log: the trace as text, the accessible alternative to the diagram, every event of
//! it. A long run keeps only the rows near the view in the page (rows are one line each, of a
//! fixed height, so the list scrolls as if all were there). Each row's button names the step it
//! opens (`data-step`); the page's click handler opens it.

use crate::present::number::group_u;
use crate::ui::panels::Escaped;
use crate::ui::shell::RunRef;
use std::fmt::Write;
use yew::prelude::*;

/// A row's height in CSS px (see `.log-row` in the stylesheet).
const ROW_PX: i32 = 26;

/// Runs with up to this many events (every lesson and comparison cell) list every row.
const ALL_UP_TO: usize = 400;

/// How many rows the part of a long log in the page moves by.
const BLOCK: usize = 64;

#[derive(Properties, PartialEq)]
pub struct EventLogProps {
    pub run: RunRef,
    pub cursor: Option<usize>,
}

/// The log of `run`, with the cursor's row marked and kept in view.
#[component]
pub fn EventLog(props: &EventLogProps) -> Html {
    let list = use_node_ref();
    let t = &props.run.trace;
    let n = t.events.len();
    // The block of rows at the top of the view.
    let block = use_state_eq(|| 0usize);
    let onscroll = {
        let (list, block) = (list.clone(), block.setter());
        Callback::from(move |_: Event| {
            if let Some(el) = list.cast::<web_sys::Element>() {
                block.set((el.scroll_top() / ROW_PX).max(0) as usize / BLOCK);
            }
        })
    };
    {
        let list = list.clone();
        use_effect_with((props.run.clone(), props.cursor), move |(_, cursor)| {
            if let (Some(el), Some(c)) = (list.cast::<web_sys::Element>(), cursor) {
                let (y, top, height) = (*c as i32 * ROW_PX, el.scroll_top(), el.client_height());
                if y < top || y + ROW_PX > top + height {
                    el.set_scroll_top((y - height / 2).max(0));
                }
            }
        });
    }
    let (from, to) = if n <= ALL_UP_TO { (0, n) } else { (block.saturating_sub(1) * BLOCK, ((*block + 2) * BLOCK).min(n)) };
    let words = props.run.words();
    let cursor = props.cursor;
    // Written as text (each element a Yew view builds costs WebAssembly); empty rows stand for
    // those not in the page, so the list scrolls as if they were.
    let mut s = String::with_capacity((to - from) * 240 + 128);
    let spacer = |s: &mut String, rows: usize| {
        if rows > 0 {
            let _ = write!(s, r#"<li class="log-spacer" aria-hidden="true" style="height: {}px"></li>"#, rows as i32 * ROW_PX);
        }
    };
    spacer(&mut s, from);
    for i in from..to {
        let e = &t.events[i];
        let summary = words.summary(i);
        let current = if cursor == Some(i) { r#" aria-current="step""# } else { "" };
        let future = if cursor.is_none_or(|c| i > c) { r#" data-future="true""# } else { "" };
        let _ = write!(
            s,
            r#"<li class="log-row"{current}{future}><button class="log-button" data-step="{}" title="{}"><span class="log-index">{}</span><span class="log-time">{} ms</span><span class="log-node">{}</span><span class="log-text">{}</span></button></li>"#,
            i + 1,
            Escaped(&summary),
            i + 1,
            group_u(e.at_ms.as_ms()),
            Escaped(t.name(e.node)),
            Escaped(&summary)
        );
    }
    spacer(&mut s, n - to);
    html! {
        <details class="card log" open=true data-testid="event-log">
            { Html::from_html_unchecked(format!(r#"<summary><h2>Event log</h2><span class="muted">{n} events; the text alternative to the diagram</span></summary>"#).into()) }
            <ol ref={list} {onscroll}>{ Html::from_html_unchecked(s.into()) }</ol>
        </details>
    }
}
