//! The narration's band under the run (on a narrow, tall screen: a laptop's or a projector's
//! 1024 × 768, a phone): as tall as the run's tallest narration needs, so the diagram takes the
//! rest of the screen, and as tall at every step, so the playback's buttons above it stay put.

use crate::scenario::lessons::Entry;
use crate::ui::shell::RunRef;
use gloo::events::EventListener;
use std::cell::Cell;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Sizes the band for `run` (whose story ends by pointing to `next`) when it opens and whenever
/// the window changes size (presenter mode dispatches a resize too).
#[hook]
pub fn use_story_band(run: Option<RunRef>, next: Option<&'static Entry>) {
    use_effect_with((run, next.map(|e| e.id)), move |(run, _)| {
        let run = run.clone();
        // What the band was last sized for: a phone's browser says the window changed size as
        // its address bar slides away, which changes no line of the narration.
        let sized = Cell::new(None);
        let size = move || size(run.as_ref(), next, &sized);
        size();
        let resize = EventListener::new(&gloo::utils::window(), "resize", move |_| size());
        move || drop(resize)
    });
}

/// The space under the narration in the band (see `.panel > .narration` in the style sheet).
const BELOW_PX: i32 = 12;

/// What the narration's lines depend on: whether it is in a band, its width in whole pixels
/// (rounded down: a probe a fraction narrower wraps its lines no later than the band does, so the
/// band is never short of its text), and whether presenter mode enlarges its type.
type Shape = (bool, i64, bool);

/// Measures each text the narration can show for `run` as the page would show it, and sets the
/// tallest (the setup's apart) on the page as `--story` and `--story-setup`; the style sheet
/// keeps the band within its most (`--band`). Where the narration is not in a band (beside the
/// run), or the run is long, the band's most stands. Nothing is measured again while the
/// narration's shape stays what `sized` says it was.
fn size(run: Option<&RunRef>, next: Option<&Entry>, sized: &Cell<Option<Shape>>) {
    let document = gloo::utils::document();
    let find = |selector: &str| document.query_selector(selector).ok().flatten();
    let (Some(app), Some(narration)) = (find(".app"), find("[data-testid=narration]")) else { return };
    // In the band the side panel lets its cards into the page's column (`display: contents`)
    // and has no box of its own.
    let panel = narration.parent_element();
    let banded = panel.as_ref().is_some_and(|p| p.client_width() == 0);
    // (In whole pixels, as a float's text would bring Rust's float formatting into the page.)
    let width = narration.get_bounding_client_rect().width().floor() as i64;
    let present = document.document_element().is_some_and(|root| root.has_attribute("data-present"));
    if sized.replace(Some((banded, width, present))) == Some((banded, width, present)) {
        return;
    }
    let (setup, steps) = match (run, banded) {
        (Some(run), true) => run.narrations(next),
        _ => Default::default(),
    };
    let (Some(panel), false) = (panel, steps.is_empty()) else {
        let _ = app.remove_attribute("style");
        return;
    };
    // Every text is put in the page before any is measured, so the page is laid out once.
    let probe = |text: &String| {
        let probe = document.create_element("section").ok()?;
        probe.set_class_name("card narration");
        let style = format!("position: absolute; visibility: hidden; left: 0; top: 0; height: auto; width: {width}px");
        probe.set_attribute("style", &style).ok()?;
        probe.set_inner_html(text);
        panel.append_child(&probe).ok()?;
        Some(probe)
    };
    let (setup, steps): (Vec<web_sys::Element>, Vec<web_sys::Element>) =
        (setup.iter().filter_map(probe).collect(), steps.iter().filter_map(probe).collect());
    let height = |probe: &web_sys::Element| probe.dyn_ref::<web_sys::HtmlElement>().map_or(0, |p| p.offset_height());
    let tallest = |probes: &[web_sys::Element]| probes.iter().map(height).max().unwrap_or(0) + BELOW_PX;
    let (setup_px, steps_px) = (tallest(&setup), tallest(&steps));
    for probe in setup.iter().chain(&steps) {
        probe.remove();
    }
    let _ = app.set_attribute("style", &format!("--story: {steps_px}px; --story-setup: {setup_px}px"));
}
