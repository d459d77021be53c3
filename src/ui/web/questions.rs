//! The interview questions, each with a short answer and links to the lessons that show it.

use crate::scenario::questions::QUESTIONS;
use crate::ui::route::Target;
use yew::prelude::*;

/// The questions; a lesson link calls `on_select`.
pub fn questions(on_select: &Callback<Target>) -> Html {
    html! {
        <section class="topic questions" data-testid="questions">
            <h2>{"Interview questions"}</h2>
            { for QUESTIONS.iter().map(|q| html! {
                <details class="question">
                    <summary>{q.question}</summary>
                    <p>{q.answer}</p>
                    <p class="see">{"See: "}
                        { for q.lessons.iter().map(|id| {
                            let on_select = on_select.clone();
                            let target = Target::Lesson(id.to_string());
                            html! {
                                <button class="link" onclick={Callback::from(move |_| on_select.emit(target.clone()))}>{*id}</button>
                            }
                        }) }
                    </p>
                </details>
            }) }
        </section>
    }
}
