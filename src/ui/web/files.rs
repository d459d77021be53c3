//! Files a person hands the page: read as text (no larger than the readers take), and picked
//! with a file field of the player's (`data-pick`: a progress file, a course), which becomes an
//! action naming what was picked.

use crate::limits::MAX_FILE_BYTES;
use crate::ui::shell::{Action, Picked};
use gloo::events::EventListener;
use wasm_bindgen::JsCast;
use yew::Callback;

/// Reads a file as text, refusing one larger than the readers take.
pub fn read(file: &web_sys::File, done: impl FnOnce(Result<String, String>) + 'static) {
    if file.size() > MAX_FILE_BYTES as f64 {
        return done(Err(format!("“{}” is larger than the {MAX_FILE_BYTES} bytes (1 MiB) a file may be", file.name())));
    }
    let Ok(reader) = web_sys::FileReader::new() else { return done(Err("this browser cannot read files".into())) };
    if reader.read_as_text(file).is_err() {
        return done(Err(format!("“{}” could not be read", file.name())));
    }
    let result = reader.clone();
    EventListener::once(&reader, "loadend", move |_| {
        done(result.result().ok().and_then(|r| r.as_string()).ok_or_else(|| "the file could not be read as text".to_string()))
    })
    .forget();
}

/// Turns a file picked with a field marked `data-pick` into [`Action::Picked`]; returns the
/// listener, which stops when dropped.
pub fn on_picked(dispatch: &Callback<Action>) -> EventListener {
    let dispatch = dispatch.clone();
    EventListener::new(&gloo::utils::document(), "change", move |e| {
        let Some(input) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        let Some(what) = input.get_attribute("data-pick").and_then(|p| Picked::named(&p)) else { return };
        if let Some(file) = input.files().and_then(|f| f.get(0)) {
            let dispatch = dispatch.clone();
            read(&file, move |text| dispatch.emit(Action::Picked(what, text)));
        }
        input.set_value("");
    })
}
