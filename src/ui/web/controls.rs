//! Playback controls: jump, step, play, speed and a scrubber over the steps. The buttons
//! name their command (`data-action`, see [`crate::ui::shell::binding`]); the page's click handler does it.

use crate::present::number::group_u;
use crate::ui::panels::Escaped;
use crate::ui::player::{Playback, Player, Speed};
use crate::ui::shell::state::ZOOMS;
use crate::ui::shell::RunRef;
use std::fmt::Write;
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

/// The buttons: to the start, back, play or pause, forward, to the end, and beat to beat, as
/// text (each element a Yew view builds costs several hundred bytes of WebAssembly).
fn buttons(p: Player) -> String {
    let (at_start, at_end) = (p.step == 0, p.step >= p.steps);
    let disabled = |off: bool| if off { r#" disabled="""# } else { "" };
    let button = |s: &mut String, icon: &str, aria: &str, name: &str, off: bool| {
        let _ = write!(
            s,
            r#"<button class="btn btn--icon" aria-label="{aria}" title="{aria}" data-testid="{name}" data-action="{name}"{}>{icon}</button>"#,
            disabled(off)
        );
    };
    let mut s = String::with_capacity(2048);
    button(&mut s, TO_START, "Jump to start (Home)", "to-start", at_start);
    button(&mut s, BACK, "Step back (←)", "step-back", at_start);
    let (icon, label) = if p.playing { (PAUSE, "Pause") } else { (PLAY, "Play") };
    let _ = write!(
        s,
        r#"<button class="btn btn--play" data-testid="play" data-action="play" aria-label="{label} (space)" aria-pressed="{}">{icon}<span>{label}</span></button>"#,
        p.playing
    );
    button(&mut s, FORWARD, "Step forward (→)", "step-forward", at_end);
    button(&mut s, TO_END, "Jump to end (End)", "to-end", at_end);
    let _ = write!(
        s,
        r#"<button class="btn btn--small beat-button" data-action="previous-beat" data-testid="previous-beat" title="The key moment before (PageUp or P)"{}>◂ Beat</button><button class="btn btn--small beat-button" data-action="next-beat" data-testid="next-beat" title="The next key moment, and after the last one the end (PageDown or N)"{}>Beat ▸</button>"#,
        disabled(at_start),
        disabled(at_end)
    );
    s
}

/// The zoom buttons: out, fit to the width, in; `zoom` indexes [`ZOOMS`].
fn zoom_buttons(zoom: usize) -> String {
    let disabled = |off: bool| if off { r#" disabled="""# } else { "" };
    format!(
        concat!(
            r#"<span class="zoom" role="group" aria-label="Zoom">"#,
            r#"<button class="btn btn--icon" data-action="zoom-out" data-testid="zoom-out" aria-label="Zoom out (−)" title="Zoom out (−)"{}>−</button>"#,
            r#"<button class="btn zoom-fit" data-action="zoom-fit" data-testid="zoom-fit" title="Fit the diagram to the width (0)" aria-pressed="{}">{}%</button>"#,
            r#"<button class="btn btn--icon" data-action="zoom-in" data-testid="zoom-in" aria-label="Zoom in (+)" title="Zoom in (+)"{}>+</button></span>"#
        ),
        disabled(zoom == 0),
        ZOOMS[zoom] == 1.0,
        (ZOOMS[zoom] * 100.0).round() as u32,
        disabled(zoom + 1 == ZOOMS.len())
    )
}

/// The controls for `run` as the player stands, with the diagram's `zoom`; the scrubber and
/// speed choice ask `on_action`.
pub fn controls(run: &RunRef, p: Player, zoom: usize, on_action: &Callback<Playback>) -> Html {
    let events = &run.trace.events;
    let now_ms = p.cursor().map_or(0, |c| events[c].at_ms.as_ms());
    // The scrubber moves by events, so each arrow key press is one step.
    let on_scrub = {
        let on_action = on_action.clone();
        Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            if let Ok(step) = input.value().parse::<usize>() {
                on_action.emit(Playback::Seek(step));
            }
        })
    };
    let on_speed = {
        let on_action = on_action.clone();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            if let Some(speed) = Speed::ALL.get(select.selected_index().max(0) as usize) {
                on_action.emit(Playback::SetSpeed(*speed));
            }
        })
    };
    html! {
        <div class="controls" role="group" aria-label="Playback">
            <div class="controls-buttons">
                { Html::from_html_unchecked(buttons(p).into()) }
                <select class="speed" onchange={on_speed} aria-label="Playback speed" data-testid="speed">
                    { for Speed::ALL.iter().map(|s| html! { <option selected={*s == p.speed}>{s.label()}</option> }) }
                </select>
                { Html::from_html_unchecked(zoom_buttons(zoom).into()) }
            </div>
            <div class="scrubber">
                <div class="scrub-track">
                <input type="range" min="0" max={p.steps.to_string()} value={p.step.to_string()} step="1"
                    aria-label="Step" aria-valuetext={format!("step {} of {}, {} ms", group_u(p.step as u64), group_u(p.steps as u64), group_u(now_ms))}
                    oninput={on_scrub} data-testid="scrubber" />
                { beat_ticks(run, p) }
                </div>
                // The narration is the live region that announces each step; this count is not.
                { Html::from_html_unchecked(format!(
                    r#"<span class="step-count" data-testid="step-count">Step {} of {}<span class="step-time"> · {} ms</span></span>"#,
                    group_u(p.step as u64), group_u(p.steps as u64), group_u(now_ms)).into()) }
            </div>
        </div>
    }
}

/// The most beats drawn as ticks under the scrubber; a run with more is too dense to mark.
const MAX_TICKS: usize = 60;

/// The story's beats as ticks under the scrubber, each opening its step when clicked (the page's
/// one click handler reads `data-step`). They are marks for the pointer; the Beat buttons and
/// PageDown give the keyboard and screen readers the same steps, by name in the narration.
fn beat_ticks(run: &RunRef, p: Player) -> Html {
    if run.beats.len() > MAX_TICKS || p.steps == 0 {
        return Html::default();
    }
    let mut s = String::from(r#"<div class="beat-ticks" data-testid="beat-ticks" aria-hidden="true">"#);
    for b in run.beats.iter() {
        let step = b.event + 1;
        // A beat still to come is not named: its title would tell the story ahead.
        let (passed, title) =
            if step <= p.step { (" passed", Escaped(b.title.as_str()).to_string()) } else { ("", "still to come".into()) };
        let _ = write!(
            s,
            r#"<span class="beat-tick{passed}" style="left: {}%" data-step="{step}" title="Key moment: {title} (step {step})"></span>"#,
            step * 100 / p.steps,
        );
    }
    s.push_str("</div>");
    Html::from_html_unchecked(s.into())
}
