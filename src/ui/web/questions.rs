//! The interview questions (their text comes from [`crate::ui::panels::questions`]; the page's
//! route handler opens the lessons they name).

use crate::ui::panels;
use std::sync::OnceLock;
use yew::prelude::*;

/// The questions, written once: they never change.
pub fn questions() -> Html {
    static TEXT: OnceLock<String> = OnceLock::new();
    let text = TEXT.get_or_init(panels::questions);
    html! { <section class="topic questions" data-testid="questions">{ Html::from_html_unchecked(AttrValue::Static(text)) }</section> }
}
