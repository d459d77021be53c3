//! The page as the state stands: the top bar, the run (its heading, diagram and controls, the
//! panels beside it and its log) or the comparison table, and the lesson list.

use super::controls::controls;
use super::diagram_view::DiagramView;
use super::event_log::EventLog;
use super::kept::Kept;
use super::panels::{compare_table, editor, guarantees, inspector, narration, sidebar};
use crate::diagram::layout::Room;
use crate::ui::panels;
use crate::ui::panels::{drill_card, finder_card, lesson_head, top, verdict_text, From};
use crate::ui::player::Playback;
use crate::ui::shell::edited::Editing;
use crate::ui::shell::state::ZOOMS;
use crate::ui::shell::{AppState, Page, RunRef, View};
use yew::prelude::*;

/// What the page's controls report back through.
pub struct Callbacks {
    pub on_play: Callback<Playback>,
    pub on_room: Callback<Room>,
}

/// The whole page.
pub fn page(state: &AppState, on: &Callbacks) -> Html {
    let run_exports = state.run.as_ref().filter(|_| state.table.is_none() && state.view.is_none()).map(|r| r.source.is_some());
    let stage = match (&state.table, &state.run) {
        _ if state.view == Some(View::Home) => front(&panels::home(&state.progress, state.env.preferences.score), "home"),
        _ if state.view == Some(View::Builder) => front(&panels::builder(&state.draft), "builder"),
        (Some(rows), _) => compare_table(rows, state.proving.as_deref()),
        (None, Some(run)) => stage(run, state, on),
        (None, None) => Html::from_html_unchecked(AttrValue::Static(if state.pending.is_some() {
            r#"<main class="stage" aria-busy="true"><p class="loading" data-testid="loading">Loading the lesson…</p></main>"#
        } else {
            r#"<main class="stage"><p class="loading" data-testid="loading">Nothing to show.</p></main>"#
        })),
    };
    html! {
        <>
            { Html::from_html_unchecked(top(run_exports, state.notice.as_deref()).into()) }
            { stage }
            { sidebar() }
        </>
    }
}

/// A page in place of the run (the front page, the course builder), kept in place as its text
/// changes so a field being typed in keeps its focus.
fn front(text: &str, class: &str) -> Html {
    html! { <main class={format!("stage stage--{class}")} aria-labelledby="lesson-title"><Kept html={AttrValue::from(text.to_string())} /></main> }
}

/// A run with this many lanes or more needs the page's whole width (Redlock's eight).
const WIDE_LANES: usize = 7;

/// What the `.app` element's attributes say of the page, for the style sheet.
pub struct Marks {
    /// Which view the page is in: the table, two runs side by side, or (none) one run.
    pub view: Option<&'static str>,
    /// A question waits for an answer.
    pub asking: Option<&'static str>,
    /// Questions are asked in this run, so nothing of its future may be read before it is shown.
    pub predicting: Option<&'static str>,
    /// The run's setup is shown, before its first event.
    pub setup: Option<&'static str>,
    /// The run has so many lanes that it needs the page's whole width.
    pub wide: Option<&'static str>,
}

/// Reads the page's marks off the state.
pub fn marks(state: &AppState) -> Marks {
    let paired = state.editing.as_ref().is_some_and(|e| e.beside_run().is_some());
    let view = if state.view == Some(View::Home) {
        Some("home")
    } else if state.view == Some(View::Builder) {
        Some("builder")
    } else if state.table.is_some() {
        Some("table")
    } else if paired {
        Some("pair")
    } else {
        None
    };
    let predicting = state.asking() && state.run.as_ref().is_some_and(|r| !r.predictions.is_empty());
    Marks {
        view,
        asking: state.question().is_some().then_some("true"),
        predicting: predicting.then_some(""),
        setup: (state.run.is_some() && state.player.cursor().is_none()).then_some(""),
        wide: state.run.as_ref().filter(|r| r.trace.participants.len() >= WIDE_LANES).map(|_| ""),
    }
}

/// The run's heading, as text.
fn head(run: &RunRef, state: &AppState) -> String {
    let cursor = state.player.cursor();
    let (is_cell, edited) = (state.is_cell(), state.editing.is_some());
    let from = if let Some(c) = &state.course {
        From::Course(&c.course.title, c.at + 1, c.course.stops.len())
    } else if is_cell {
        From::Table
    } else if edited {
        // A title of the editor's own is shown as it is; the lesson's is a "what if".
        let own = state.editing.as_ref().is_some_and(|e| e.original().scenario.title != run.scenario.title);
        From::Edited(&run.scenario.topic, own)
    } else {
        From::Topic(&run.scenario.topic)
    };
    let edit = !edited && crate::ui::shell::run::editable(run);
    // A course's stop shows the title the course gives it, if it gives one.
    let title = state.course.as_ref().map(|c| c.stop().title.as_str()).filter(|t| !t.is_empty()).unwrap_or(&run.scenario.title);
    lesson_head(from, title, edit, &verdict_text(&run.trace, cursor))
}

/// The run on screen: its diagram and controls, the narration and state beside it, and its log.
/// While another lesson's file is on its way, the run stays, marked busy.
fn stage(run: &RunRef, state: &AppState, on: &Callbacks) -> Html {
    let cursor = state.player.cursor();
    let editing = state.editing.as_deref();
    let ask = state.ask();
    let on_page = state.env.page == Page::Player;
    html! {
        <>
            <main class="stage" aria-labelledby="lesson-title" aria-busy={state.pending.is_some().then_some("true")}>
                { Html::from_html_unchecked(head(run, state).into()) }
                { diagrams(run, cursor, state.evidence(), editing, ZOOMS[state.zoom], &on.on_room) }
                { controls(run, state.player, state.zoom, &on.on_play) }
            </main>
            // The story first: beside the run, or (narrow) in the band under it.
            <aside class="panel" aria-label="Narration and state">
                { narration(run, cursor, ask, state.next_lesson()) }
                if let Some(editing) = editing {
                    { editor(editing, run, cursor) }
                }
                if let Some(finding) = &state.finding {
                    { Html::from_html_unchecked(finder_card(&finding.report, on_page).into()) }
                }
                if let Some(c) = &state.course {
                    { Html::from_html_unchecked(panels::course_card(c, cursor.is_none(), state.asking() && state.player.step < state.player.steps).into()) }
                }
                if let Some(d) = &state.drill {
                    { Html::from_html_unchecked(drill_card(d, state.player.step == state.player.steps, state.env.preferences.drill_best).into()) }
                }
                { inspector(run, cursor) }
                { guarantees(run, state.proof(), state.asking() && !run.predictions.is_empty() && state.player.step < state.player.steps) }
                { Html::from_html_unchecked(AttrValue::Rc(run.legend.clone())) }
            </aside>
            <section class="log-area" aria-label="Event log">
                <EventLog run={run.clone()} {cursor} />
            </section>
        </>
    }
}

/// The run's diagram (with the editor's layer over it while editing), or, while a variant is
/// drawn beside it, both.
fn diagrams(
    run: &RunRef,
    cursor: Option<usize>,
    evidence: Vec<usize>,
    editing: Option<&Editing>,
    zoom: f64,
    on_room: &Callback<Room>,
) -> Html {
    #[cfg(editing)]
    if let Some((title, other)) = editing.and_then(|e| e.beside_run()) {
        return pair(run, cursor, &title, &other, editing);
    }
    let layer = editing.map(|e| AttrValue::from(e.layer(run)));
    html! { <DiagramView run={run.clone()} {cursor} {evidence} {layer} {zoom} on_room={on_room.clone()} /> }
}

/// The edited run beside a variant of it, on one time axis, each with its verdict; the variant's
/// cursor stays at the same simulated time as the run's, and at the run's end shows the
/// variant's end too, so both outcomes can be read.
#[cfg(editing)]
fn pair(run: &RunRef, cursor: Option<usize>, title: &str, other: &RunRef, editing: Option<&Editing>) -> Html {
    let events = &other.trace.events;
    let beside = match cursor {
        Some(c) if c + 1 == run.trace.events.len() => events.len().checked_sub(1),
        Some(c) => events.partition_point(|e| e.at_ms <= run.trace.events[c].at_ms).checked_sub(1),
        None => None,
    };
    html! {
        <div class="pair" data-testid="pair">
            <section class="pair-side" data-testid="pair-beside">
                <div class="pair-head"><h2>{title}</h2>{ Html::from_html_unchecked(verdict_text(&other.trace, beside).into()) }</div>
                <DiagramView run={other.clone()} cursor={beside} />
            </section>
            <section class="pair-side" data-testid="pair-edited">
                <div class="pair-head">
                    <h2>{"Edited"}</h2>
                    { Html::from_html_unchecked(verdict_text(&run.trace, cursor).into()) }
                    <button class="btn btn--small" data-action="beside:" data-testid="stop-beside">{"✕ One diagram"}</button>
                </div>
                <DiagramView run={run.clone()} cursor={cursor} layer={editing.map(|e| AttrValue::from(e.layer(run)))} />
            </section>
        </div>
    }
}
