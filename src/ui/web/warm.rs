//! Warming the page's WebAssembly up. The browser compiles a function the first time it is
//! called and optimizes it once it has run a while (on another thread); a long run opened
//! while its code is still new (a stress link, an edited scenario of a thousand events) took
//! about half as long again as the same run opened a second time. So once the first run is on
//! screen and the page has been idle a moment, the app runs, lays out and writes the markup of
//! a long run into text it throws away, once per page.

use super::{browser, diagram_view, event_log, fit};
use crate::ui::route::Target;
use crate::ui::shell::run::{load, Load};
use std::cell::Cell;

/// The long run's length: enough for the browser to optimize what a long run spends its time in
/// (a run of 300 events was not).
const EVENTS: u64 = 1_000;

/// How long after the first run is shown the warm-up waits for the page to be idle: a link
/// followed at once is not kept waiting behind it.
const AFTER_MS: u32 = 500;

thread_local! {
    static ASKED: Cell<bool> = const { Cell::new(false) };
}

/// Warms the page up once, soon after the first run is shown, when the browser is idle. An
/// embedded page is left cold: it shows one run, and opens any other in a page of its own.
pub fn soon() {
    let embedded = gloo::utils::document().document_element().is_some_and(|root| root.has_attribute("data-embed"));
    if embedded || ASKED.with(|a| a.replace(true)) {
        return;
    }
    // Once a page: what it asks for is never cancelled.
    gloo::timers::callback::Timeout::new(AFTER_MS, || std::mem::forget(browser::when_idle(warm_up))).forget();
}

/// Opens a long run as a link would, and writes its diagram's and event log's first blocks.
fn warm_up() {
    if let Ok(Load::Ready(run)) = load(&Target::Stress(EVENTS), fit::room()) {
        let written = diagram_view::markup(&run, Some((0, 1))).body.len() + event_log::rows(&run, 0, 64).len();
        // (Kept, so that the compiler leaves the work in.)
        std::hint::black_box(written);
    }
}
