//! The lesson picker, grouped by topic in teaching order. Each button names its target's link;
//! the page's route handler opens it.

use crate::scenario::lessons::{self, Entry};
use crate::ui::route::{self, Route, Target};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub current: Target,
}

#[component]
pub fn Picker(props: &Props) -> Html {
    let mut topics: Vec<(&str, Vec<&Entry>)> = Vec::new();
    for l in lessons::index() {
        match topics.iter_mut().find(|(t, _)| *t == l.topic) {
            Some((_, list)) => list.push(l),
            None => topics.push((l.topic, vec![l])),
        }
    }
    let entry = |target: Target, title: String, testid: String| {
        let current = props.current == target;
        // `data-route` is [`crate::ui::panels::ROUTE_ATTRIBUTE`].
        html! {
            <li>
                <button class={if current { "lesson-link is-current" } else { "lesson-link" }}
                    aria-current={current.then_some("page")} data-testid={testid}
                    data-route={route::format(&Route { target, step: 0 })}>{title}</button>
            </li>
        }
    };
    html! {
        <div class="picker">
            { for topics.into_iter().map(|(topic, list)| html! {
                <section class="topic">
                    <h2>{topic}</h2>
                    <ul>{ for list.into_iter().map(|l| entry(Target::Lesson(l.id.to_string()), l.title.to_string(), format!("lesson-{}", l.id))) }</ul>
                </section>
            }) }
            <section class="topic">
                <h2>{"Explore"}</h2>
                <ul>
                    { entry(Target::Table, "One schedule, every design".into(), "lesson-compare".into()) }
                    { entry(Target::Stress(1_000), "Many clients contending".into(), "lesson-stress".into()) }
                </ul>
            </section>
        </div>
    }
}
