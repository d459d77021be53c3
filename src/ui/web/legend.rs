//! The legend: what each mark in the diagram means.

use yew::prelude::*;

/// One legend entry: a small drawing in the diagram's own classes, and its meaning.
fn entry(swatch: Html, text: &'static str) -> Html {
    html! {
        <li>
            <svg class="lockstep-diagram swatch" viewBox="0 0 40 18" width="40" height="18" aria-hidden="true">{swatch}</svg>
            <span>{text}</span>
        </li>
    }
}

#[component]
pub fn Legend() -> Html {
    let arrow = |class: &'static str, marker: &'static str| {
        html! {
            <g class={classes!("item", class)}><line class="shaft" x1="2" y1="9" x2="36" y2="9" marker-end={format!("url(#{marker})")} /></g>
        }
    };
    let span = |class: &'static str, w: &'static str| html! { <g class={classes!("item", class)}><rect class="span" x="14" y="1" width={w} height="16" rx="2" /></g> };
    let mark = |class: &'static str, glyph: &'static str| {
        html! {
            <g class={classes!("item", class)}><circle class="dot" cx="20" cy="9" r="8" /><text class="glyph" x="20" y="13" text-anchor="middle">{glyph}</text></g>
        }
    };
    html! {
        <details class="card legend" open=true data-testid="legend">
            <summary><h2>{"Legend"}</h2></summary>
            <ul>
                { entry(arrow("msg", "head"), "request; slanted while in flight") }
                { entry(arrow("msg msg--reply", "head-reply"), "reply") }
                { entry(arrow("msg msg--refusal", "head-refusal"), "refusal (busy, not yours)") }
                { entry(arrow("msg msg--lost", "cross"), "message lost ✗") }
                { entry(span("pause", "14"), "process paused (stop the world)") }
                { entry(span("lease lease--service", "6"), "lease as the lock service sees it") }
                { entry(span("belief", "10"), "client believes it holds the lock") }
                { entry(span("belief belief--stale", "10"), "belief after the service expired it") }
                { entry(mark("write write--accepted", "✓"), "write accepted") }
                { entry(mark("write write--rejected", "✗"), "write rejected") }
                { entry(mark("write write--violation", "!"), "violation: stale write accepted") }
                { entry(mark("mark mark--expiry", "◷"), "lease expires on the service's clock") }
                { entry(mark("mark mark--hazard", "⚠"), "two clients believe they hold it") }
            </ul>
        </details>
    }
}
