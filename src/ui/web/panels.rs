//! The side panels as page nodes: each card holds the text that [`crate::ui::panels`] writes.
//! The cards stay in place while their text changes, so the narration's live region announces
//! each step.

use super::kept::Kept;
use crate::scenario::compare::Cell;
use crate::scenario::lessons::Entry;
use crate::search::wire::Report;
use crate::ui::panels;
use crate::ui::shell::edited::Editing;
use crate::ui::shell::{RunRef, TableProofs};
use std::sync::OnceLock;
use yew::prelude::*;

/// A card of the page holding panel text. (Written as text too: a class chosen at run time would
/// bring Yew's class-set code into the page.)
fn card(class: &str, testid: &str, text: &str) -> Html {
    Html::from_html_unchecked(format!(r#"<section class="{class}" data-testid="{testid}">{text}</section>"#).into())
}

/// The scenario editor, for the run on screen.
pub fn editor(editing: &Editing, run: &RunRef, cursor: Option<usize>) -> Html {
    let parts = editing.panel(run, &editing.close_link(run, cursor), cursor);
    html! {
        <section class="card editor" data-testid="editor">
            { for parts.into_iter().map(|part| html! { <Kept html={AttrValue::from(part)} /> }) }
        </section>
    }
}

/// What just happened and why it matters, and at the end the way on (`next`).
pub fn narration(run: &RunRef, cursor: Option<usize>, ask: panels::Ask, next: Option<&Entry>) -> Html {
    let text = panels::narration(&run.scenario, &run.trace, &run.words(), cursor, cursor.and_then(|c| run.beat_at(c)), ask, next);
    // The live region stays in place while its text changes, so each step is announced.
    html! { <section class="card narration" aria-live="polite" data-testid="narration">{ Html::from_html_unchecked(text.into()) }</section> }
}

/// The state of every node at the cursor.
pub fn inspector(run: &RunRef, cursor: Option<usize>) -> Html {
    let snap = cursor.map(|c| run.state(c));
    card("card inspector", "inspector", &panels::state(&run.trace, &run.words(), snap.as_ref()))
}

/// What the lesson's lock promises, under which assumptions, what a verification proved of it
/// (`proof`), and the run's metrics, unless its outcome is still to be predicted (`untold`).
pub fn guarantees(run: &RunRef, proof: Option<&Report>, untold: bool) -> Html {
    let text = panels::guarantees(&run.trace, run.design(), &run.scenario.guarantees(), run.scenario.guard(), proof, untold);
    card("card guarantees", "guarantees", &text)
}

/// The comparison table as the page's stage (the page's route handler opens whichever cell is
/// chosen), with its verification so far.
pub fn compare_table(rows: &[Vec<Cell>], proofs: Option<&TableProofs>) -> Html {
    let table = panels::compare_table(rows, proofs);
    Html::from_html_unchecked(
        format!(
            r#"<main class="stage" aria-labelledby="lesson-title"><section class="compare" data-testid="compare">{table}</section></main>"#
        )
        .into(),
    )
}

/// The paths, the lessons and the interview questions, written once; [`super::browser::mark_current`]
/// marks what is on screen. (It follows the run in the page's order, so the keyboard reaches
/// playback first; the grid still draws it on the left.)
pub fn sidebar() -> Html {
    static TEXT: OnceLock<String> = OnceLock::new();
    let text = TEXT.get_or_init(|| {
        format!(
            r#"<nav class="sidebar" aria-label="Lessons"><button class="btn btn--ghost menu-close" data-action="close-menu" data-testid="menu-close">✕ Close</button>{}{}<section class="topic questions" data-testid="questions">{}</section></nav>"#,
            panels::menu_paths(),
            panels::picker(),
            panels::questions()
        )
    });
    Html::from_html_unchecked(AttrValue::Static(text))
}
