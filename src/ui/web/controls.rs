//! Playback controls: jump, step, play, speed and a scrubber over the steps. The buttons
//! name their action (`data-action`, see [`Action::named`]); the page's click handler does it.

use super::run::RunRef;
use crate::present::number::{group, group_u};
use crate::ui::player::{Action, Player, Speed};
use yew::prelude::*;

/// A 16×16 icon drawn from one path, in the button's text colour.
macro_rules! icon {
    ($d:literal) => {
        concat!(r#"<svg class="icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"><path d=""#, $d, r#""/></svg>"#)
    };
}

const TO_START: &str = icon!("M3 3h2v10H3z M13 3 6 8l7 5z");
const BACK: &str = icon!("M11 3 4 8l7 5z");
const FORWARD: &str = icon!("M5 3l7 5-7 5z");
const TO_END: &str = icon!("M11 3h2v10h-2z M3 3l7 5-7 5z");
const PLAY: &str = icon!("M4 2.5l10 5.5-10 5.5z");
const PAUSE: &str = icon!("M4 3h3v10H4z M9 3h3v10H9z");

/// An icon as a page node.
fn icon(svg: &'static str) -> Html {
    Html::from_html_unchecked(AttrValue::Static(svg))
}

/// The controls for `run` as the player stands; the scrubber and speed choice ask `on_action`.
pub fn controls(run: &RunRef, p: Player, on_action: &Callback<Action>) -> Html {
    let events = &run.trace.events;
    let now_ms = p.cursor().map_or(0, |c| events[c].at_ms);
    let button = |label: Html, aria: &'static str, name: &'static str, disabled: bool| {
        html! { <button class="btn btn--icon" aria-label={aria} title={aria} data-testid={name} data-action={name} {disabled}>{label}</button> }
    };
    // The scrubber moves by events, so each arrow key press is one step.
    let on_scrub = {
        let on_action = on_action.clone();
        Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            if let Ok(step) = input.value().parse::<usize>() {
                on_action.emit(Action::Seek(step));
            }
        })
    };
    let on_speed = {
        let on_action = on_action.clone();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            if let Some(speed) = Speed::ALL.get(select.selected_index().max(0) as usize) {
                on_action.emit(Action::SetSpeed(*speed));
            }
        })
    };
    let (at_start, at_end) = (p.step == 0, p.step >= p.steps);
    html! {
        <div class="controls" role="group" aria-label="Playback">
            <div class="controls-buttons">
                { button(icon(TO_START), "Jump to start (Home)", "to-start", at_start) }
                { button(icon(BACK), "Step back (←)", "step-back", at_start) }
                <button class="btn btn--play" data-testid="play" data-action="play"
                    aria-label={if p.playing { "Pause (space)" } else { "Play (space)" }} aria-pressed={p.playing.to_string()}>
                    { if p.playing { icon(PAUSE) } else { icon(PLAY) } }
                    <span>{ if p.playing { "Pause" } else { "Play" } }</span>
                </button>
                { button(icon(FORWARD), "Step forward (→)", "step-forward", at_end) }
                { button(icon(TO_END), "Jump to end (End)", "to-end", at_end) }
                <label class="speed">
                    <span class="visually-hidden">{"Playback speed"}</span>
                    <select onchange={on_speed} aria-label="Playback speed" data-testid="speed">
                        { for Speed::ALL.iter().map(|s| html! { <option selected={*s == p.speed}>{s.label()}</option> }) }
                    </select>
                </label>
            </div>
            <div class="scrubber">
                <input type="range" min="0" max={p.steps.to_string()} value={p.step.to_string()} step="1"
                    aria-label="Step" aria-valuetext={format!("step {} of {}, {} ms", group_u(p.step as u64), group_u(p.steps as u64), group(now_ms as i64))}
                    oninput={on_scrub} data-testid="scrubber" />
                <span class="step-count" data-testid="step-count" aria-live="polite">
                    { format!("Step {} of {}", group_u(p.step as u64), group_u(p.steps as u64)) }
                    <span class="step-time">{ format!(" · {} ms", group(now_ms as i64)) }</span>
                </span>
            </div>
        </div>
    }
}
