//! The page's modes: presenter mode (the root's `data-present`, full screen where the browser
//! lets it) and the popovers over the page (the list of keys).

use wasm_bindgen::{JsCast, JsValue};

fn window() -> web_sys::Window {
    gloo::utils::window()
}

/// Starts or ends presenter mode: the page's root gets `data-present` (the style sheet hides
/// the side panels and enlarges the type) and fills the screen where the browser lets it.
pub fn present(on: bool) {
    let Some(document) = window().document() else { return };
    let Some(root) = document.document_element() else { return };
    if on {
        let _ = root.set_attribute("data-present", "");
        if document.fullscreen_element().is_none() {
            let _ = root.request_fullscreen();
        }
    } else {
        let _ = root.remove_attribute("data-present");
        if document.fullscreen_element().is_some() {
            document.exit_fullscreen();
        }
        // A page opened to present (`?present`) is an ordinary page once it leaves.
        let location = window().location();
        if location.search().is_ok_and(|q| q.contains("present")) {
            let url = format!("{}{}", location.pathname().unwrap_or_default(), location.hash().unwrap_or_default());
            if let Ok(history) = window().history() {
                let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
            }
        }
    }
    // The button pressed keeps no focus, so a clicker's or a keyboard's Enter cannot press it
    // again and leave the mode by accident.
    if let Some(active) = document.active_element().and_then(|a| a.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = active.blur();
    }
    // The diagram's box changed width: it measures itself again on a resize.
    if let Ok(resize) = web_sys::Event::new("resize") {
        let _ = window().dispatch_event(&resize);
    }
}

/// Shows the popover with this id if it is hidden, or hides it.
pub fn toggle_popover(id: &str) {
    let Some(el) = window().document().and_then(|d| d.get_element_by_id(id)) else { return };
    let toggle = js_sys::Reflect::get(&el, &JsValue::from_str("togglePopover")).ok().and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    if let Some(toggle) = toggle {
        let _ = toggle.call0(&el);
    }
}

/// Says whether a popover (the list of keys, the exports) is open: Escape closes it first.
pub fn popover_open() -> bool {
    gloo::utils::document().query_selector(":popover-open").ok().flatten().is_some()
}

/// Says whether the page is in presenter mode.
pub fn in_present() -> bool {
    gloo::utils::document().document_element().is_some_and(|r| r.has_attribute("data-present"))
}

/// Tells `ended` when the browser leaves full screen (Escape), which ends presenter mode;
/// returns the listener.
pub fn on_fullscreen_exit(ended: impl Fn() + 'static) -> gloo::events::EventListener {
    gloo::events::EventListener::new(&gloo::utils::document(), "fullscreenchange", move |_| {
        if gloo::utils::document().fullscreen_element().is_none() {
            ended();
        }
    })
}
