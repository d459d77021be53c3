//! The course builder's fields: a change to one marked `data-draft` (its path in the course,
//! `course`, `stops[2].notes`, …; or `add`, a lesson to add, and `copy`, a shipped course to
//! start from) becomes an action.

use crate::ui::shell::{Action, DraftEdit};
use gloo::events::EventListener;
use wasm_bindgen::{JsCast, JsValue};
use yew::Callback;

/// Listens for changes to the builder's fields; returns the listener, which stops when dropped.
pub fn listen(dispatch: &Callback<Action>) -> EventListener {
    let dispatch = dispatch.clone();
    EventListener::new(&gloo::utils::document(), "change", move |e| {
        let Some(el) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
        let Some(path) = el.get_attribute("data-draft") else { return };
        let checkbox = el.get_attribute("type").as_deref() == Some("checkbox");
        let value = js_sys::Reflect::get(&el, &JsValue::from_str(if checkbox { "checked" } else { "value" })).ok();
        let Some(text) = value.and_then(|v| v.as_string().or_else(|| v.as_bool().map(|b| b.to_string()))) else { return };
        let edit = match path.as_str() {
            "add" if !text.is_empty() => DraftEdit::AddLesson(text),
            "copy" if !text.is_empty() => DraftEdit::Copy(text),
            "add" | "copy" => return,
            _ => DraftEdit::Field { path, text },
        };
        dispatch.emit(Action::Draft(edit));
    })
}
