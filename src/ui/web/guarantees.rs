//! What the lesson's lock promises, under which assumptions, and the run's metrics (the text
//! comes from [`crate::ui::panels::guarantees`]).

use super::run::RunRef;
use crate::ui::panels;
use yew::prelude::*;

/// The promises, assumptions and metrics of a run.
pub fn guarantees(run: &RunRef) -> Html {
    let text = panels::guarantees(&run.trace, run.design(), &run.scenario.guarantees());
    html! { <section class="card guarantees" data-testid="guarantees">{ Html::from_html_unchecked(text.into()) }</section> }
}
