//! The failure search's Web Worker: it answers each request the page posts (a scenario and
//! bounds, as JSON text) with the search's reports, or a verification's, so the page stays
//! responsive while it runs.
//! The page cancels a search by ending the worker.

#[cfg(target_arch = "wasm32")]
fn main() {
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let post = scope.clone();
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        let Some(request) = e.data().as_string() else { return };
        let post = |report: String| {
            let _ = post.post_message(&JsValue::from_str(&report));
        };
        match lockstep::search::wire::verifies(&request) {
            true => lockstep::verify::wire::serve(&request, post),
            false => lockstep::search::wire::serve(&request, post),
        }
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    // The page waits for this before it posts its request: a message sent while the module
    // was still loading would find no one listening.
    let _ = scope.post_message(&JsValue::from_str(lockstep::search::wire::READY));
}

/// Natively there is no page to serve: the command line searches with `lockstep search`.
#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    eprintln!("lockstep-search-worker runs in a browser's Web Worker; natively, use `lockstep search`");
    std::process::ExitCode::from(2)
}
