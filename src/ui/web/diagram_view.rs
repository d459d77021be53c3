//! The diagram on the page: the run's SVG, drawn once, under a light overlay that veils the
//! future, draws the cursor line and highlights the items of the current event.

use super::browser;
use super::run::RunRef;
use crate::diagram::layout::{Layout, TOP};
use crate::diagram::svg::{drawing_order, frame, item_svg, lane_heads, Px};
use crate::ui::player::Action;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub run: RunRef,
    pub cursor: Option<usize>,
    pub on_seek: Callback<Action>,
}

#[derive(Properties, PartialEq)]
struct StaticProps {
    run: RunRef,
}

/// Items drawn into the page per piece of markup: the text for the whole diagram never sits in
/// memory at once.
const ITEMS_PER_CHUNK: usize = 512;

/// The full diagram, with the lane names in a strip that stays on top while scrolling;
/// re-drawn only when the run changes. The diagram goes into the page piece by piece.
#[component]
fn StaticDiagram(props: &StaticProps) -> Html {
    let body = use_node_ref();
    {
        let (body, run) = (body.clone(), props.run.clone());
        use_effect_with(props.run.clone(), move |_| {
            if let Some(el) = body.cast::<web_sys::Element>() {
                let (head, tail) = frame(&run.layout, &run.scenario.title, false);
                el.set_inner_html(&(head + tail));
                if let Ok(Some(items)) = el.query_selector("g.items") {
                    let order: Vec<_> = drawing_order(&run.layout).collect();
                    for chunk in order.chunks(ITEMS_PER_CHUNK) {
                        let mut s = String::with_capacity(chunk.len() * 220);
                        for item in chunk {
                            item_svg(&mut s, item);
                        }
                        let _ = items.insert_adjacent_html("beforeend", &s);
                    }
                }
            }
        });
    }
    let l = &props.run.layout;
    let strip = format!(
        r#"<svg class="lockstep-diagram lane-strip" viewBox="0 0 {w} {h}" aria-hidden="true"><rect class="strip-bg" width="{w}" height="{h}"/>{}</svg>"#,
        lane_heads(l),
        w = Px(l.width),
        h = Px(STRIP_HEIGHT)
    );
    html! {
        <>
            { Html::from_html_unchecked(strip.into()) }
            <div class="diagram-body" ref={body}></div>
        </>
    }
}

/// The height of the sticky strip of lane names, in diagram units.
const STRIP_HEIGHT: f32 = 46.0;

/// Draws the cursor's overlay: a veil over the future, the cursor line, and the current event's
/// items drawn again on top. The `<svg>` stays in place between steps; only attributes and the
/// small group of current items change, so a step costs the same at any trace length.
fn overlay(layout: &Layout, cursor: Option<usize>) -> Html {
    let (w, h) = (Px(layout.width), Px(layout.height));
    let y = cursor.map_or(TOP - 26.0, |c| layout.rows[c]);
    let current = cursor.map(|c| {
        let mut s = String::new();
        for item in layout.items.iter().filter(|i| i.events.0 == c || i.events.1 == c) {
            item_svg(&mut s, item);
        }
        s
    });
    html! {
        <svg class="lockstep-diagram overlay" viewBox={format!("0 0 {w} {h}")} aria-hidden="true">
            <rect class="veil" x="0" y={Px(y + 14.0).to_string()} width={w.to_string()} height={Px((layout.height - y - 14.0).max(0.0)).to_string()} />
            if let Some(current) = current {
                <line class="cursor-line" x1="0" y1={Px(y).to_string()} x2={w.to_string()} y2={Px(y).to_string()} />
                <g class="current">{ Html::from_html_unchecked(current.into()) }</g>
            }
        </svg>
    }
}

/// The diagram with its overlay, scrolled to keep the cursor in view; a click on an item seeks to it.
#[component]
pub fn DiagramView(props: &Props) -> Html {
    let scroller = use_node_ref();
    let layout = &props.run.layout;
    {
        let scroller = scroller.clone();
        let y = props.cursor.map_or(0.0, |c| layout.rows[c]);
        let width = layout.width;
        use_effect_with((props.run.clone(), props.cursor), move |_| {
            // Scroll in the next animation frame, when the browser lays the page out anyway,
            // rather than forcing a layout in the middle of the step.
            let frame = gloo::render::request_animation_frame(move |_| {
                if let Some(el) = scroller.cast::<web_sys::Element>() {
                    let scale = f64::from(el.client_width()).min(f64::from(width) * 1.6) / f64::from(width);
                    browser::keep_in_view(&el, f64::from(y) * scale);
                }
            });
            move || drop(frame)
        });
    }
    let onclick = {
        let on_seek = props.on_seek.clone();
        Callback::from(move |e: MouseEvent| {
            let item = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).and_then(|el| el.closest(".item").ok().flatten());
            let last = item.and_then(|i| i.get_attribute("data-events")).and_then(|d| d.split(' ').nth(1)?.parse::<usize>().ok());
            if let Some(last) = last {
                on_seek.emit(Action::Seek(last + 1));
            }
        })
    };
    html! {
        <div class="diagram-scroll" ref={scroller} data-testid="diagram">
            <div class="diagram-stack" style={format!("max-width: {}px; --natural-width: {}px; --strip-height: {}%", Px(layout.width * 1.6), Px(layout.width), Px(STRIP_HEIGHT / layout.width * 100.0))} {onclick}>
                <StaticDiagram run={props.run.clone()} />
                { overlay(layout, props.cursor) }
            </div>
        </div>
    }
}
