//! The state inspector at the cursor (its text comes from [`crate::ui::panels::state`]).

use super::run::RunRef;
use crate::ui::panels;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub run: RunRef,
    pub cursor: Option<usize>,
}

#[component]
pub fn Inspector(props: &Props) -> Html {
    let snap = props.cursor.map(|c| props.run.state(c));
    let text = panels::state(&props.run.trace, &props.run.words(), snap.as_ref());
    html! { <section class="card inspector" data-testid="inspector">{ Html::from_html_unchecked(text.into()) }</section> }
}
