//! The event log: the trace as text, the accessible alternative to the diagram, every event of
//! it. A long run keeps only the rows near the view in the page (rows are one line each, of a
//! fixed height, so the list scrolls as if all were there). Each row's button names the step it
//! opens (`data-step`); the page's click handler opens it.

use crate::present::number::group_u;
use crate::ui::panels::Escaped;
use crate::ui::shell::RunRef;
use crate::ui::web::browser;
use std::fmt::Write;
use yew::prelude::*;

/// A row's height in CSS px (see `.log-row` in the stylesheet).
const ROW_PX: i32 = 26;

/// Runs with up to this many events (every lesson and comparison cell) list every row.
const ALL_UP_TO: usize = 400;

/// How many rows the part of a long log in the page moves by.
const BLOCK: usize = 32;

#[derive(Properties, PartialEq)]
pub struct EventLogProps {
    pub run: RunRef,
    pub cursor: Option<usize>,
}

/// The log of `run`, with the cursor's row marked and kept in view.
#[component]
pub fn EventLog(props: &EventLogProps) -> Html {
    let list = use_node_ref();
    let n = props.run.trace.events.len();
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
    let (from, to) = if n <= ALL_UP_TO { (0, n) } else { (block.saturating_sub(1) * BLOCK, ((*block + 2) * BLOCK).min(n)) };
    // The rows are written once per run and block, as the list's text in one piece (as Yew
    // children, each of up to 400 rows would be put in the page and taken out one call at a
    // time), with the page's other changes, so the frame that shows a new run lists its events;
    // a step only marks them (below), so the page lays out only what a mark changes.
    let text = use_memo((props.run.clone(), from, to), |(run, from, to)| AttrValue::from(rows(run, *from, *to)));
    {
        let list = list.clone();
        use_effect_with((props.run.clone(), props.cursor, from, to), move |&(_, cursor, from, _)| {
            if let Some(el) = list.cast::<web_sys::Element>() {
                mark(&el, from, cursor);
            }
            // Read where the list is scrolled when the frame lays the page out anyway.
            let pending = browser::in_next_frame(move || {
                if let (Some(el), Some(c)) = (list.cast::<web_sys::Element>(), cursor) {
                    let (y, top, height) = (c as i32 * ROW_PX, el.scroll_top(), el.client_height());
                    if y < top || y + ROW_PX > top + height {
                        el.set_scroll_top((y - height / 2).max(0));
                    }
                }
            });
            move || drop(pending)
        });
    }
    html! {
        <details class="card log" open=true data-testid="event-log">
            { Html::from_html_unchecked(format!(r#"<summary><h2>Event log</h2><span class="muted">{n} events; the text alternative to the diagram</span></summary>"#).into()) }
            <ol ref={list} {onscroll}>{ Html::from_html_unchecked((*text).clone()) }</ol>
        </details>
    }
}

/// The rows `from..to` of `run`'s log as text (each element a Yew view builds costs
/// WebAssembly); empty rows stand for those not in the page, so the list scrolls as if they
/// were. Every row is marked still to come, as at a run's start; [`mark`] marks the cursor's.
pub(super) fn rows(run: &RunRef, from: usize, to: usize) -> String {
    let (t, words) = (&run.trace, run.words());
    let n = t.events.len();
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
        let _ = write!(
            s,
            r#"<li class="log-row" data-future=""><button class="log-button" data-step="{}"><span class="log-index">{}</span><span class="log-time">{} ms</span><span class="log-node">{}</span><span class="log-text">{}</span></button></li>"#,
            i + 1,
            i + 1,
            group_u(e.at_ms.as_ms()),
            Escaped(t.name(e.node)),
            Escaped(&summary)
        );
    }
    spacer(&mut s, n - to);
    s
}

/// Marks the rows in `list` (the first is row `from`) for `cursor`: the current event's row
/// (`aria-current`) and those still to come (`data-future`). A row that has happened has its
/// whole text as its title (a row's line may cut it short); one still to come has none, so a
/// pointer resting on it reads nothing of the future. A row already marked so is left alone, so
/// a step changes only the rows it moves past.
fn mark(list: &web_sys::Element, from: usize, cursor: Option<usize>) {
    let mut row = list.first_element_child();
    let mut i = from;
    while let Some(el) = row {
        if el.class_name() == "log-row" {
            let future = cursor.is_none_or(|c| i > c);
            let _ = el.toggle_attribute_with_force("data-future", future);
            if let Some(button) = el.first_element_child().filter(|b| b.has_attribute("title") == future) {
                let _ = if future {
                    button.remove_attribute("title")
                } else {
                    button.set_attribute("title", &button.text_content().unwrap_or_default())
                };
            }
            match (cursor == Some(i), el.has_attribute("aria-current")) {
                (true, false) => drop(el.set_attribute("aria-current", "step")),
                (false, true) => drop(el.remove_attribute("aria-current")),
                _ => {}
            }
            i += 1;
        }
        row = el.next_element_sibling();
    }
}
