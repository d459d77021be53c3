//! The page's side of the failure search: it starts a pool of the search's Web Workers (loaded
//! only now), one per core the browser reports, posts each the worker's module and then its
//! share of the request once it says it listens, writes their merged progress into its card and
//! hands the search's last report to the app, and ends them all when dropped (cancel).
//!
//! The module is compiled once for the page and posted to every worker it starts: workers of one
//! module share the code the browser compiles and optimizes for any of them, so a pool warms up
//! together and a later search starts with code already optimized.

use crate::limits::MAX_SEARCH_WORKERS;
use crate::search::pool::Merge;
use crate::search::wire::{self, Report};
use crate::search::Share;
use crate::ui::panels::{progress_text, proving_text};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use yew::Callback;

/// A search running in its pool of workers.
pub struct SearchWorker {
    workers: Vec<web_sys::Worker>,
    /// Their message handlers, kept alive while they run.
    listeners: Vec<Closure<dyn FnMut(web_sys::MessageEvent)>>,
}

impl SearchWorker {
    /// Starts the pool for `request`; the search's last report goes to `on_report`.
    /// `from_editor` says the page is the editor's, one folder below the worker's files.
    pub fn start(request: &str, from_editor: bool, on_report: Callback<Report>) -> Result<SearchWorker, String> {
        let folder = if from_editor { "../" } else { "" };
        let url = format!("{folder}lockstep-search-worker_loader.js");
        // A verification explores one run's states in one worker.
        let of = if wire::verifies(request) { 1 } else { cores() };
        let merge = Rc::new(RefCell::new(Merge::new(of)));
        // Built as it starts, so a worker that cannot start ends (drops) those already started.
        let mut pool = SearchWorker { workers: Vec::with_capacity(of), listeners: Vec::with_capacity(of) };
        for index in 0..of {
            let worker = web_sys::Worker::new(&url).map_err(|_| "this browser cannot start the search's worker".to_string())?;
            let (to_worker, request) = (worker.clone(), wire::for_share(request, Share { index, of }));
            let (merge, on_report) = (merge.clone(), on_report.clone());
            let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
                let Some(text) = e.data().as_string() else { return };
                if text == wire::READY {
                    let _ = to_worker.post_message(&JsValue::from_str(&request));
                    return;
                }
                let Some(report) = wire::decode(&text) else { return };
                match merge.borrow_mut().take(index, report) {
                    // Progress is written straight into the card, so the page is not drawn
                    // again for each report and stays quick to answer keys.
                    Some(Report::Progress { tried, budget }) => show_progress(&progress_text(tried, budget), tried),
                    Some(Report::Proving { states, permille }) => show_progress(&proving_text(states), permille),
                    Some(report) => on_report.emit(report),
                    None => {}
                }
            });
            worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            send_module(&worker, folder);
            pool.workers.push(worker);
            pool.listeners.push(on_message);
        }
        Ok(pool)
    }
}

impl Drop for SearchWorker {
    fn drop(&mut self) {
        for worker in &self.workers {
            worker.terminate();
        }
    }
}

/// The worker's module, as far as the page has it.
enum Module {
    Unasked,
    /// Being compiled, with the workers waiting for it.
    Compiling(Vec<web_sys::Worker>),
    /// Compiled, or, where it could not be, the URL its workers load it from themselves.
    Ready(JsValue),
}

thread_local! {
    static MODULE: RefCell<Module> = const { RefCell::new(Module::Unasked) };
}

/// Posts `worker` the worker's module once it is compiled, compiling it (from the files in
/// `folder`) for the first worker the page starts.
fn send_module(worker: &web_sys::Worker, folder: &str) {
    let first = MODULE.with(|m| {
        let mut module = m.borrow_mut();
        match &mut *module {
            Module::Ready(compiled) => {
                let _ = worker.post_message(compiled);
                false
            }
            Module::Compiling(waiting) => {
                waiting.push(worker.clone());
                false
            }
            Module::Unasked => {
                *module = Module::Compiling(vec![worker.clone()]);
                true
            }
        }
    });
    if first {
        compile(folder);
    }
}

/// Compiles the worker's module from the files in `folder`. Compiled or not, every worker
/// waiting is then posted what there is: a worker posted no module loads the file itself.
fn compile(folder: &str) {
    let url = format!("{folder}lockstep-search-worker_bg.wasm");
    let Some(window) = web_sys::window() else { return ready(JsValue::from_str(&url)) };
    let compiled = js_sys::WebAssembly::compile_streaming(&window.fetch_with_str(&url));
    // Called once a page, so kept for good.
    let done = Closure::<dyn FnMut(JsValue)>::new(ready);
    let failed = Closure::<dyn FnMut(JsValue)>::new(move |_| ready(JsValue::from_str(&url)));
    let _ = compiled.then2(&done, &failed);
    done.forget();
    failed.forget();
}

/// Keeps `module` for every later worker and posts it to those waiting.
fn ready(module: JsValue) {
    let waiting = MODULE.with(|m| std::mem::replace(&mut *m.borrow_mut(), Module::Ready(module.clone())));
    if let Module::Compiling(workers) = waiting {
        for worker in workers {
            let _ = worker.post_message(&module);
        }
    }
}

/// How many workers the search shares its schedules among: the cores the browser reports, at
/// least one and at most `MAX_SEARCH_WORKERS`.
fn cores() -> usize {
    let reported = web_sys::window().map_or(1.0, |w| w.navigator().hardware_concurrency());
    (reported as usize).clamp(1, MAX_SEARCH_WORKERS)
}

/// Writes the count and the bar of the card's progress.
fn show_progress(text: &str, value: usize) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    if let Ok(Some(count)) = document.query_selector("[data-testid=find-progress]") {
        count.set_text_content(Some(text));
    }
    if let Ok(Some(bar)) = document.query_selector(".finder progress") {
        let _ = bar.set_attribute("value", &value.to_string());
    }
}
