//! The page's side of the failure search: it starts the search's Web Worker (loaded only now),
//! posts it the request once the worker says it listens, writes its progress into its card and
//! hands its other reports to the app, and ends it when dropped (cancel).

use crate::search::wire::{self, Report};
use crate::ui::panels::progress_text;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use yew::Callback;

/// A search running in its worker.
pub struct SearchWorker {
    worker: web_sys::Worker,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
}

impl SearchWorker {
    /// Starts a worker for `request`; its reports go to `on_report`. `from_editor` says the page
    /// is the editor's, one folder below the worker's files.
    pub fn start(request: &str, from_editor: bool, on_report: Callback<Report>) -> Result<SearchWorker, String> {
        let url = if from_editor { "../lockstep-search-worker_loader.js" } else { "lockstep-search-worker_loader.js" };
        let worker = web_sys::Worker::new(url).map_err(|_| "this browser cannot start the search's worker".to_string())?;
        let (to_worker, request) = (worker.clone(), request.to_string());
        let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            let Some(text) = e.data().as_string() else { return };
            match wire::decode(&text) {
                _ if text == wire::READY => {
                    let _ = to_worker.post_message(&JsValue::from_str(&request));
                }
                // Progress is written straight into the card, so the page is not drawn again
                // for each report and stays quick to answer keys.
                Some(Report::Progress { tried, budget }) => show_progress(tried, budget),
                Some(report) => on_report.emit(report),
                None => {}
            }
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        Ok(SearchWorker { worker, _on_message: on_message })
    }
}

impl Drop for SearchWorker {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// Writes the count and the bar of the card's progress.
fn show_progress(tried: usize, budget: usize) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    if let Ok(Some(count)) = document.query_selector("[data-testid=find-progress]") {
        count.set_text_content(Some(&progress_text(tried, budget)));
    }
    if let Ok(Some(bar)) = document.query_selector(".finder progress") {
        let _ = bar.set_attribute("value", &tried.to_string());
    }
}
