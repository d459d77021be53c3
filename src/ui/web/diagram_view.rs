//! The diagram on the page: the run's SVG, drawn once, under a light overlay that veils the
//! future, draws the cursor line and highlights the items of the current event.

use super::{browser, fit};
use crate::diagram::layout::Room;
use crate::diagram::layout::{Layout, HEADS_BOTTOM, LEFT, TOP};
use crate::diagram::svg::{self, item_svg, label_item_svg, lane_heads, skeleton, Px};
use crate::diagram::window::{Window, DRAW_WHOLE_UP_TO};
use crate::ui::shell::RunRef;
use gloo::events::EventListener;
use std::fmt::Write;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct DiagramViewProps {
    pub run: RunRef,
    pub cursor: Option<usize>,
    /// Events whose items are drawn marked, over the veil: the evidence of an answer.
    #[prop_or_default]
    pub evidence: Vec<usize>,
    /// A layer drawn over everything (the editor's handles), as SVG text.
    #[prop_or_default]
    pub layer: Option<AttrValue>,
    /// How much larger than fitted to the width the diagram is drawn (1 fits it).
    #[prop_or(1.0)]
    pub zoom: f64,
    /// Told the room when the diagram's box changed width enough to lay the run out again (the
    /// page's main diagram measures the room; the two of a side-by-side view do not).
    #[prop_or_default]
    pub on_room: Option<Callback<Room>>,
}

/// The height, in diagram units, by which the drawn part of a large run moves.
const BLOCK: f32 = 1_024.0;

/// Returns the blocks in view from `top` to `bottom` (diagram units).
fn in_view(top: f32, bottom: f32) -> (u32, u32) {
    ((top / BLOCK) as u32, (bottom / BLOCK) as u32)
}

/// Returns the blocks kept drawn around those in view: one more either side, so scrolling a
/// little never shows an empty stretch.
fn around((first, last): (u32, u32)) -> (u32, u32) {
    (first.saturating_sub(1), last + 1)
}

/// The diagram's markup: the strip of lane names that stays on top while scrolling, and the
/// diagram.
pub(super) struct Markup {
    strip: AttrValue,
    pub(super) body: AttrValue,
}

/// Returns the strip of lane names and the diagram: all of it, or its frame with the items of
/// the blocks `view`.
pub(super) fn markup(run: &RunRef, view: Option<(u32, u32)>) -> Markup {
    let (l, title) = (&run.layout, &run.scenario.title);
    let strip = format!(
        r#"<svg class="lockstep-diagram lane-strip" viewBox="0 0 {w} {h}" aria-hidden="true"><rect class="strip-bg" width="{w}" height="{h}"/>{}</svg>"#,
        lane_heads(l),
        w = Px(l.width),
        h = Px(HEADS_BOTTOM)
    );
    let body = match view {
        None => svg::render(l, title, false),
        Some((first, last)) => {
            let (head, tail) = skeleton(l, title);
            head + &run.window.markup(l, first as f32 * BLOCK, (last + 1) as f32 * BLOCK) + tail
        }
    };
    Markup { strip: strip.into(), body: body.into() }
}

/// Returns the diagram's markup, written as part of the render with the page's other changes,
/// so the frame that shows a new run shows its arrows. It is written again only when the run
/// changes. A large run's items (in the page under `scroller`) are written for the blocks in
/// `view` with the run, so an edit or a link paints no more than it shows; the blocks around
/// them follow when the browser is next idle, or at once when the view moves to other blocks.
#[hook]
fn use_markup(run: &RunRef, view: Option<(u32, u32)>, scroller: &NodeRef) -> Rc<Markup> {
    // The blocks whose items are in the page.
    let drawn = use_mut_ref(|| None);
    let markup = {
        let drawn = drawn.clone();
        use_memo(run.clone(), move |run| {
            *drawn.borrow_mut() = view;
            markup(run, view)
        })
    };
    let scroller = scroller.clone();
    use_effect_with((run.clone(), view), move |(run, view)| {
        let (wanted, now) = (view.map(around), *drawn.borrow());
        let draw = {
            let (run, drawn) = (run.clone(), drawn.clone());
            move || {
                let items = scroller.cast::<web_sys::Element>().and_then(|el| el.query_selector(".diagram-body g.items").ok().flatten());
                if let (Some(items), Some((first, last))) = (items, wanted) {
                    items.set_inner_html(&run.window.markup(&run.layout, first as f32 * BLOCK, (last + 1) as f32 * BLOCK));
                    *drawn.borrow_mut() = wanted;
                }
            }
        };
        let later = if now == wanted {
            None
        } else if now == *view {
            // The run was just written, with the blocks in view alone.
            Some(browser::when_idle(draw))
        } else {
            draw();
            None
        };
        move || drop(later)
    });
    markup
}

/// Draws the cursor's overlay: a veil over the future, the cursor line, the current event's
/// items drawn again on top, and the items of the `evidence` events marked, even in the future. Its text is small and the same size at any trace length, so a step
/// costs the same however long the run is.
fn overlay(layout: &Layout, window: &Window, cursor: Option<usize>, evidence: &[usize]) -> Html {
    let (w, h) = (Px(layout.width), Px(layout.height));
    let y = cursor.map_or(TOP - 26.0, |c| layout.rows[c]);
    let veil = y + 14.0;
    let mut s = format!(
        r#"<svg class="lockstep-diagram overlay" viewBox="0 0 {w} {h}" aria-hidden="true"><rect class="veil" x="0" y="{}" width="{w}" height="{}"/>"#,
        Px(veil),
        Px((layout.height - veil).max(0.0))
    );
    // A label across the veil's edge is not cut in two: one of what has happened is shown
    // whole; one of what is still to come, or of what goes on (a span's label may tell how it
    // ends: a lock gone stale), is veiled whole.
    for (item, (x0, y0, x1, y1)) in window.labelled_across(layout, veil) {
        match cursor {
            Some(c) if item.events.1 <= c => label_item_svg(&mut s, item),
            _ => {
                let _ = write!(
                    s,
                    r#"<rect class="veil veil--patch" x="{}" y="{}" width="{}" height="{}"/>"#,
                    Px(x0 - 3.0),
                    Px(y0 - 2.0),
                    Px(x1 - x0 + 6.0),
                    Px(y1 - y0 + 4.0)
                );
            }
        }
    }
    if let Some(c) = cursor {
        // The cursor line runs from the time axis across, leaving every label it meets clear.
        for (x0, x1) in window.line_around_labels(layout, y, (LEFT, layout.width), 4.0) {
            let _ = write!(s, r#"<line class="cursor-line" x1="{}" y1="{y}" x2="{}" y2="{y}"/>"#, Px(x0), Px(x1), y = Px(y));
        }
        s.push_str(r#"<g class="current">"#);
        for item in layout.items.iter().filter(|i| i.events.0 == c || i.events.1 == c) {
            // Its label, set bold, goes on a patch of paper so the regular text under it is hidden.
            if let Some((x0, y0, x1, y1)) = item.label.as_ref().map(|l| l.bbox()) {
                let pad = (x1 - x0) * 0.06 + 3.0;
                let _ = write!(
                    s,
                    r#"<rect class="label-bg" x="{}" y="{}" width="{}" height="{}"/>"#,
                    Px(x0 - pad),
                    Px(y0 - 1.0),
                    Px(x1 - x0 + 2.0 * pad),
                    Px(y1 - y0 + 3.0)
                );
            }
            item_svg(&mut s, item);
        }
        s.push_str("</g>");
    }
    if !evidence.is_empty() {
        s.push_str(r#"<g class="evidence">"#);
        for item in layout.items.iter().filter(|i| evidence.contains(&i.events.0) || evidence.contains(&i.events.1)) {
            item_svg(&mut s, item);
        }
        s.push_str("</g>");
    }
    s.push_str("</svg>");
    Html::from_html_unchecked(s.into())
}

/// Returns how many pixels a diagram unit takes, as drawn: the stack's width over the diagram's.
fn scale(scroller: &web_sys::Element, width: f32) -> f64 {
    let drawn = scroller.first_element_child().map_or(scroller.client_width(), |stack| stack.client_width());
    (f64::from(drawn) / f64::from(width)).max(0.01)
}

/// The most a diagram unit is drawn at, when the box is wide (at zoom 1).
const MAX_SCALE: f64 = 1.6;

/// The diagram with its overlay, scrolled to keep the cursor in view. (A click on an item opens
/// its event: each item names its events in `data-events`, and the page's click handler reads them.)
#[component]
pub fn DiagramView(props: &DiagramViewProps) -> Html {
    let scroller = use_node_ref();
    let layout = &props.run.layout;
    let whole = layout.items.len() <= DRAW_WHOLE_UP_TO;
    // At first, the blocks a window's height can show (a unit is drawn at least MIN_SCALE px).
    let view = use_state_eq(|| {
        let height = gloo::utils::window().inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(f64::from(BLOCK));
        in_view(0.0, (height / fit::MIN_SCALE) as f32)
    });
    let markup = use_markup(&props.run, (!whole).then_some(*view), &scroller);
    let onscroll = {
        let (scroller, view, width) = (scroller.clone(), view.setter(), layout.width);
        Callback::from(move |_: Event| {
            if let Some(el) = scroller.cast::<web_sys::Element>() {
                let s = scale(&el, width);
                let top = f64::from(el.scroll_top()) / s;
                view.set(in_view(top as f32, (top + f64::from(el.client_height()) / s) as f32));
            }
        })
    };
    {
        let scroller = scroller.clone();
        let y = props.cursor.map_or(0.0, |c| layout.rows[c]);
        let x = props.cursor.and_then(|c| layout.lanes.get(props.run.trace.events[c].node.0)).map(|l| l.x);
        let width = layout.width;
        use_effect_with((props.run.clone(), props.cursor, props.zoom.to_bits()), move |_| {
            let pending = browser::in_next_frame(move || {
                if let Some(el) = scroller.cast::<web_sys::Element>() {
                    let s = scale(&el, width);
                    browser::keep_in_view(&el, f64::from(y) * s, x.map(|x| f64::from(x) * s));
                }
            });
            move || drop(pending)
        });
    }
    // The main diagram measures its box when it first shows and when the window changes size.
    {
        let (scroller, on_room) = (scroller.clone(), props.on_room.clone());
        use_effect_with(on_room.is_some(), move |_| {
            let measure = move || {
                if let (Some(el), Some(on_room)) = (scroller.cast::<web_sys::Element>(), &on_room) {
                    if fit::measured(el.client_width()) {
                        on_room.emit(fit::room());
                    }
                }
            };
            measure();
            let resize = EventListener::new(&gloo::utils::window(), "resize", move |_| measure());
            move || drop(resize)
        });
    }
    let z = props.zoom;
    let stack = format!(
        "width: {}%; --min-width: {}px; max-width: {}px; --strip-height: {}%",
        Px((100.0 * z) as f32),
        Px((f64::from(layout.width) * fit::MIN_SCALE * z) as f32),
        Px((f64::from(layout.width) * MAX_SCALE * z) as f32),
        Px(HEADS_BOTTOM / layout.width * 100.0)
    );
    html! {
        <div class="diagram-scroll" ref={scroller} data-testid="diagram" {onscroll}>
            <div class="diagram-stack" style={stack}>
                { Html::from_html_unchecked(markup.strip.clone()) }
                <div class="diagram-body">{ Html::from_html_unchecked(markup.body.clone()) }</div>
                { overlay(layout, &props.run.window, props.cursor, &props.evidence) }
                if let Some(layer) = props.layer.clone() {
                    { Html::from_html_unchecked(layer) }
                }
            </div>
        </div>
    }
}
