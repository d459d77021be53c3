//! What the browser keeps for the site between visits (its local storage): the preferences, what
//! the learner has done, and the theme the page sets before its first paint.

use crate::course::{format, Course};
use crate::scenario::json;
use crate::ui::progress::Record;
use crate::ui::shell::Preferences;

/// Where the progress is kept.
const PROGRESS: &str = "lockstep-progress";
/// Where progress that could not be read is set aside, to be looked at rather than lost.
const SET_ASIDE: &str = "lockstep-progress-set-aside";
/// Where the course being made is kept, as a course file.
const DRAFT: &str = "lockstep-course-draft";

fn storage() -> Option<web_sys::Storage> {
    gloo::utils::window().local_storage().ok().flatten()
}

/// Reads a setting the browser keeps for this site.
fn setting(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// Keeps a setting for later visits (where the browser lets the site keep anything).
pub fn keep_setting(key: &str, value: &str) {
    if let Some(storage) = storage() {
        let _ = storage.set_item(key, value);
    }
}

/// Returns the preferences kept for this site: predictions are on unless switched off.
pub fn preferences() -> Preferences {
    let pair = |key: &str| {
        let v = setting(key)?;
        let (a, b) = v.split_once('/')?;
        Some((a.parse().ok()?, b.parse().ok()?))
    };
    let count = |key: &str| setting(key).and_then(|v| v.parse().ok()).unwrap_or(0u32);
    Preferences {
        predicting: setting("lockstep-predict").as_deref() != Some("off"),
        score: (count("lockstep-right"), count("lockstep-answered")),
        drill_best: pair("lockstep-drill-best"),
    }
}

/// Keeps the preferences for later visits.
pub fn keep(s: Preferences) {
    keep_setting("lockstep-predict", if s.predicting { "on" } else { "off" });
    keep_setting("lockstep-right", &s.score.0.to_string());
    keep_setting("lockstep-answered", &s.score.1.to_string());
    if let Some((right, answered)) = s.drill_best {
        keep_setting("lockstep-drill-best", &format!("{right}/{answered}"));
    }
}

/// Returns the progress kept on this device, and a notice if what was kept could not be read:
/// it is then set aside (kept under another name) and the visit starts afresh.
pub fn progress() -> (Record, Option<String>) {
    let Some(text) = setting(PROGRESS) else { return (Record::default(), None) };
    match Record::read(&text) {
        Ok(p) => (p, None),
        Err(e) => {
            keep_setting(SET_ASIDE, &text);
            if let Some(storage) = storage() {
                let _ = storage.remove_item(PROGRESS);
            }
            (
                Record::default(),
                Some(format!("Your progress kept on this device could not be read ({e}); it was set aside, and this visit starts afresh.")),
            )
        }
    }
}

/// Keeps the progress for later visits; says whether the browser kept it (it may be full, or
/// keep nothing for this site).
pub fn keep_progress(p: &Record) -> bool {
    storage().is_some_and(|s| s.set_item(PROGRESS, &p.write()).is_ok())
}

/// Forgets what this site kept of the learner: the progress, its score and settings (not the
/// theme, nor a course being made, which has its own way to start again).
pub fn clear() {
    if let Some(storage) = storage() {
        for key in [PROGRESS, SET_ASIDE, "lockstep-predict", "lockstep-right", "lockstep-answered", "lockstep-drill-best"] {
            let _ = storage.remove_item(key);
        }
    }
}

/// Returns the course being made, as kept on this device (a blank one if none is, or if what
/// is kept cannot be read, which stays where it is).
pub fn draft() -> Course {
    setting(DRAFT).and_then(|text| format::parse(&text).ok()).unwrap_or_else(Course::untitled)
}

/// Keeps the course being made; one with no stops is not a course file, and is forgotten.
pub fn keep_draft(c: &Course) {
    let Some(storage) = storage() else { return };
    let _ = if c.stops.is_empty() { storage.remove_item(DRAFT) } else { storage.set_item(DRAFT, &json::write(&format::write(c), Some(2))) };
}

/// Tells `dispatch` when another window of the site changes the progress kept on this device
/// (the page of notes follows the course's page so); returns the listener.
pub fn on_kept(dispatch: &yew::Callback<crate::ui::shell::Action>) -> gloo::events::EventListener {
    let dispatch = dispatch.clone();
    gloo::events::EventListener::new(&gloo::utils::window(), "storage", move |e| {
        let e: &web_sys::StorageEvent = wasm_bindgen::JsCast::unchecked_ref(e);
        if e.key().as_deref() == Some(PROGRESS) {
            dispatch.emit(crate::ui::shell::Action::Kept(std::rc::Rc::new(progress().0)));
        }
    })
}
