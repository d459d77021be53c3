//! What just happened and why it matters, and the verdict so far (their text comes from
//! [`crate::ui::panels`]). The narration's card stays in place while its text changes, so screen
//! readers announce each step.

use super::run::RunRef;
use crate::ui::panels;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub run: RunRef,
    pub cursor: Option<usize>,
}

/// The narration panel.
#[component]
pub fn Narration(props: &Props) -> Html {
    let run = &props.run;
    let text = panels::narration(&run.scenario, &run.trace, &run.words(), props.cursor);
    html! {
        <section class="card narration" aria-live="polite" data-testid="narration">{ Html::from_html_unchecked(text.into()) }</section>
    }
}

/// The verdict as far as the cursor has got.
#[component]
pub fn VerdictBadge(props: &Props) -> Html {
    let (class, text) = panels::verdict(&props.run.trace, props.cursor);
    html! { <div class={class} role="status" data-testid="verdict">{text}</div> }
}
