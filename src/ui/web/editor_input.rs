//! The editor's page's input, as actions: its fields (each names its field path), scenario files
//! opened, dropped or pasted, and gestures and keys on the layer of fault handles over the
//! diagram. The focus goes back where the user was once the page is written again.

use super::{browser, gestures};
use crate::edit::handles::Gesture;
use crate::edit::input::Input;
use crate::ui::panels::EDIT_ATTRIBUTE;
use crate::ui::shell::action::EditAction;
use crate::ui::shell::{Action, AppState};
use gloo::events::EventListener;
use yew::prelude::*;

/// Listens to the editor's fields and to scenario files; returns the listeners, which stop when
/// dropped.
pub fn listen(dispatch: &Callback<Action>) -> (EventListener, [EventListener; 4]) {
    let on_field = dispatch.clone();
    let fields = EventListener::new(&gloo::utils::document(), "change", move |e| {
        if let Some((path, kind, text)) = browser::fields::changed(e, EDIT_ATTRIBUTE) {
            let selector = format!("[{EDIT_ATTRIBUTE}=\"{path}\"]");
            // Two runs side by side are drawn at the top of the page: it goes there to show them.
            let beside = kind == Input::Beside && !text.is_empty();
            on_field.emit(Action::Edit(EditAction::Field { path, kind, text }));
            browser::fields::after_render(move || {
                browser::fields::refocus(&selector, !beside);
                if beside {
                    browser::to_top();
                }
            });
        }
    });
    let on_file = dispatch.clone();
    let files = browser::fields::on_scenario_file(move |file| on_file.emit(Action::Edit(EditAction::Open(file))));
    (fields, files)
}

/// Reads Ctrl+Z (⌘Z) as undo and Ctrl+Y or Ctrl+Shift+Z as redo of the scenario's changes,
/// outside a text field (where the browser undoes typing).
pub fn history_key(e: &KeyboardEvent) -> Option<Action> {
    if !(e.ctrl_key() || e.meta_key()) || e.alt_key() || browser::in_text_field(e) {
        return None;
    }
    match (e.key().to_ascii_lowercase().as_str(), e.shift_key()) {
        ("z", false) => Some(Action::Edit(EditAction::Undo)),
        ("z", true) | ("y", false) => Some(Action::Edit(EditAction::Redo)),
        _ => None,
    }
}

/// Does what a key on a focused fault handle asks, and gives the focus back to the handle
/// (written again with the run), or to its fields for Enter.
pub fn handle_key(dispatch: &Callback<Action>, gesture: Gesture) {
    let after = match gesture {
        Gesture::Select(i) => Some(format!("#fault-{i} input, #fault-{i} select")),
        _ => None,
    };
    dispatch.emit(Action::Edit(EditAction::Gesture(gesture)));
    if let Some(selector) = after {
        browser::fields::after_render(move || browser::fields::reveal(&selector, true));
    }
}

/// Keeps the layer over the diagram live while a scenario is edited: drags and clicks on it
/// become gestures, and a fault moved with the keys keeps the focus on its handle.
#[hook]
pub fn use_layer(state: &AppState, dispatch: &Callback<Action>) {
    let held = state.editing.as_ref().filter(|e| e.keys).and_then(|e| e.selected);
    use_effect(move || {
        if let Some(i) = held {
            browser::fields::refocus(&format!("[data-fault=\"{i}\"]"), true);
        }
    });
    let dispatch = dispatch.clone();
    let run = state.run.clone().filter(|_| state.editing.is_some());
    use_effect_with(run, move |run| {
        let listeners = run.clone().map(|run| {
            let scroll = gestures::scroll_together();
            let pointer = gestures::on_pointer(run, move |gesture| {
                let picked = match gesture {
                    Gesture::Select(i) => Some(i),
                    _ => None,
                };
                dispatch.emit(Action::Edit(EditAction::Gesture(gesture)));
                if let Some(i) = picked {
                    browser::fields::after_render(move || browser::fields::reveal(&format!("#fault-{i}"), false));
                }
            });
            (scroll, pointer)
        });
        move || drop(listeners)
    });
}
