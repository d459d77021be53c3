//! The legend: what each mark in the diagram means, drawn with the diagram's own kinds and classes.

use crate::diagram::layout::{Arrow, ItemKind, Mark, Span};
use crate::diagram::svg::{class, marker, span_width, Px};
use yew::prelude::*;

/// One legend entry: a small drawing in the diagram's own classes, and its meaning.
fn entry(kind: ItemKind, text: &'static str) -> Html {
    let swatch = match kind {
        ItemKind::Arrow(arrow) => {
            html! { <line class="shaft" x1="2" y1="9" x2="36" y2="9" marker-end={format!("url(#{})", marker(arrow))} /> }
        }
        ItemKind::Span(span) => {
            let width = span_width(span).min(14.0);
            html! { <rect class="span" x={Px(20.0 - width / 2.0).to_string()} y="1" width={Px(width).to_string()} height="16" rx="2" /> }
        }
        ItemKind::Partition => html! { <rect class="band" x="2" y="2" width="36" height="14" /> },
        ItemKind::Mark(mark) => html! {
            <><circle class="dot" cx="20" cy="9" r="8" /><text class="glyph" x="20" y="13" text-anchor="middle">{mark.glyph()}</text></>
        },
    };
    html! {
        <li>
            <svg class="lockstep-diagram swatch" viewBox="0 0 40 18" width="40" height="18" aria-hidden="true">
                <g class={classes!("item", class(kind))}>{swatch}</g>
            </svg>
            <span>{text}</span>
        </li>
    }
}

#[component]
pub fn Legend() -> Html {
    html! {
        <details class="card legend" open=true data-testid="legend">
            <summary><h2>{"Legend"}</h2></summary>
            <ul>
                { entry(ItemKind::Arrow(Arrow::Request), "request; slanted while in flight") }
                { entry(ItemKind::Arrow(Arrow::Reply), "reply") }
                { entry(ItemKind::Arrow(Arrow::Refusal), "refusal (busy, not yours)") }
                { entry(ItemKind::Arrow(Arrow::Lost), "message lost ✗") }
                { entry(ItemKind::Span(Span::Pause), "process paused (stop the world)") }
                { entry(ItemKind::Span(Span::Held), "lock as the lock service holds it") }
                { entry(ItemKind::Span(Span::Belief), "client believes it holds the lock") }
                { entry(ItemKind::Span(Span::StaleBelief), "belief after the service let it go") }
                { entry(ItemKind::Mark(Mark::WriteAccepted), "write accepted") }
                { entry(ItemKind::Mark(Mark::WriteRejected), "write rejected") }
                { entry(ItemKind::Mark(Mark::WriteViolation), "violation: stale write accepted") }
                { entry(ItemKind::Mark(Mark::Expired), "lock expires on the service's clock") }
                { entry(ItemKind::Mark(Mark::TakenOver), "another client took the lock over") }
                { entry(ItemKind::Mark(Mark::TwoHolders), "two clients believe they hold it") }
            </ul>
        </details>
    }
}
