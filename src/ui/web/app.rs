//! The app component: the pure shell's state in a reducer, the page's input (clicks, keys, the
//! address, the editor's fields and files) turned into actions, and the effects each action asks
//! for run once the page is drawn. The playback timer is the app's only real timer.

use super::effects;
use super::view::{marks, page, Callbacks};
use super::{band, browser, fit, storage, warm};
use crate::ui::panels::ROUTE_ATTRIBUTE;
use crate::ui::player::{Playback, Speed};
use crate::ui::route::{self, Route};
use crate::ui::shell::{binding, reduce, Action, AppState, Effect, Env, Page};
use gloo::events::{EventListener, EventListenerOptions};
use gloo::timers::callback::{Interval, Timeout};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[cfg(editing)]
use super::editor_input::use_layer;

/// The player's page has no layer of fault handles over the diagram.
#[cfg(not(editing))]
#[hook]
fn use_layer(_state: &AppState, _dispatch: &Callback<Action>) {}

/// A link longer than this is written to the address bar once changes pause.
const LONG_LINK: usize = 200;

/// How long stepping must pause before the step is written to the address bar.
const STEP_ADDRESS_MS: u32 = 120;

/// The shell's state, and the effects its actions asked for, waiting to be run.
#[derive(Clone)]
struct Model {
    state: AppState,
    effects: Rc<RefCell<Vec<Effect>>>,
}

impl Reducible for Model {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let (state, effects) = reduce(&self.state, action);
        let asked = !effects.is_empty();
        self.effects.borrow_mut().extend(effects);
        match state {
            Some(state) => Rc::new(Model { state, effects: self.effects.clone() }),
            // Drawn again, so that the effects run.
            None if asked => Rc::new((*self).clone()),
            None => self,
        }
    }
}

/// The page's first state: what the address names, with the effects that takes.
fn first() -> Model {
    let page = match () {
        _ if cfg!(feature = "editor") => Page::Editor,
        _ if browser::query_has("notes") => Page::Notes,
        _ => Page::Player,
    };
    let env = Env { page, room: fit::room(), preferences: storage::preferences() };
    let (progress, notice) = storage::progress();
    // A page opened to present (`?present`, a course's shared link) starts in presenter mode.
    let presenting = page == Page::Player && browser::query_has("present");
    let empty = AppState { progress: Rc::new(progress), draft: Rc::new(storage::draft()), presenting, ..AppState::empty(env) };
    // The page of notes shows what the course's page keeps, and opens nothing itself.
    if page == Page::Notes {
        return Model { state: empty, effects: Rc::default() };
    }
    let (state, effects) = reduce(&empty, Action::Hash(browser::hash()));
    let state = state.unwrap_or(empty);
    Model { state: AppState { notice: notice.or(state.notice.clone()), ..state }, effects: Rc::new(RefCell::new(effects)) }
}

/// Reads a click as an action: a link (`data-route`), a command (`data-action`), an event-log
/// row's step (`data-step`), a diagram item's events (`data-events`, the first and last), or a
/// click outside the lesson menu.
fn clicked(e: &MouseEvent) -> Option<Action> {
    let attribute = |name: &str| browser::clicked_attribute(e, &format!("[{name}]"), name);
    if let Some(link) = attribute(ROUTE_ATTRIBUTE) {
        return route::parse(&link).ok().flatten().map(|Route { target, .. }| Action::Open(target, 0));
    }
    if let Some(name) = attribute("data-action") {
        return binding::clicked(&name);
    }
    if let Some(step) = attribute("data-step").and_then(|s| s.parse().ok()) {
        return Some(Action::Play(Playback::Seek(step)));
    }
    if let Some(last) = attribute("data-events").and_then(|d| d.split(' ').nth(1)?.parse::<usize>().ok()) {
        return Some(Action::Play(Playback::Seek(last + 1)));
    }
    browser::clicked_attribute(e, ".sidebar", "class").is_none().then_some(Action::Elsewhere)
}

/// Reads a key pressed outside a field and without Ctrl, Alt or Meta as an action. A clicker's
/// PageDown and PageUp go on with the story even from a list just chosen from (which keeps the
/// focus), never changing its choice.
fn pressed(e: &KeyboardEvent) -> Option<Action> {
    let clicker = matches!(e.key().as_str(), "PageDown" | "PageUp");
    if e.ctrl_key() || e.meta_key() || e.alt_key() || browser::in_text_field(e) || browser::in_field(e) && !clicker {
        return None;
    }
    binding::pressed(&e.key())
}

/// The whole page.
#[component]
pub fn App() -> Html {
    let model = use_reducer(first);
    let dispatch = {
        let d = model.dispatcher();
        use_callback((), move |action: Action, _| d.dispatch(action))
    };
    use_queued_effects(&model.effects, &dispatch);
    let state = &model.state;
    use_address(state.hash());
    use_page_input(&dispatch);
    use_layer(state, &dispatch);
    use_playback(state.player.playing, state.player.speed, &dispatch);
    band::use_story_band(state.run.clone(), state.next_lesson());
    use_effect_with(state.run.is_some(), |&shown| {
        if shown {
            warm::soon();
        }
    });
    // The lesson list is written once; mark what this device has done with each lesson in it,
    // and what is on screen.
    use_effect_with(state.progress.clone(), |p| browser::mark_progress(&p.visited, &p.finished));
    use_effect_with(route::format(&Route { target: state.current(), step: 0 }), |link| browser::mark_current(link));
    let (callbacks, on_click) = use_controls(&dispatch);
    if state.env.page == Page::Notes {
        return Html::from_html_unchecked(crate::ui::panels::notes_page(&state.progress).into());
    }
    let marks = marks(state);
    html! {
        <div class="app" data-view={marks.view} data-asking={marks.asking} data-predicting={marks.predicting} data-setup={marks.setup} data-wide={marks.wide} onclick={on_click}>
            { page(state, &callbacks) }
        </div>
    }
}

/// Runs the effects the last actions asked for, once the page is drawn.
#[hook]
fn use_queued_effects(queue: &Rc<RefCell<Vec<Effect>>>, dispatch: &Callback<Action>) {
    let search = use_mut_ref(|| None);
    let (queue, dispatch) = (queue.clone(), dispatch.clone());
    use_effect(move || {
        let asked: Vec<Effect> = queue.borrow_mut().drain(..).collect();
        for effect in asked {
            effects::run(effect, &dispatch, &search);
        }
    });
}

/// Keeps the address's hash in step with what is shown. Another page is written at once (Back
/// returns to the one before); another step of the same page once the stepping pauses, and a
/// long link (an edited scenario's) once the edits pause: the browser takes milliseconds to
/// store each address, more than a step may spend within its frame. A write that waits is
/// dropped if the address moves meanwhile (a link followed, an address typed): that address wins.
#[hook]
fn use_address(hash: String) {
    // The address waiting to be written, and the one it replaces.
    let pending = use_mut_ref(|| None::<(String, String)>);
    use_effect_with(hash, move |hash| {
        let now = browser::hash();
        let unmoved = |(from, hash): (String, String)| (browser::hash() == from).then_some(hash);
        let later = if route::is_new_page(&now, hash) {
            // The page left keeps the step it was left at, for Back to return to.
            if let Some(last) = pending.borrow_mut().take().and_then(unmoved) {
                browser::show_hash(&last);
            }
            browser::show_hash(hash);
            None
        } else {
            *pending.borrow_mut() = Some((now, hash.clone()));
            let ms = if hash.len() > LONG_LINK { 300 } else { STEP_ADDRESS_MS };
            Some(Timeout::new(ms, move || {
                if let Some(hash) = pending.borrow_mut().take().and_then(unmoved) {
                    browser::show_hash(&hash);
                }
            }))
        };
        move || drop(later)
    });
}

/// Listens to the address, the keyboard, and (on the editor's page) the editor's fields and
/// files.
#[hook]
fn use_page_input(dispatch: &Callback<Action>) {
    let dispatch = dispatch.clone();
    use_effect_with((), move |_| {
        // A link followed, an address typed, Back and Forward: the browser says so at once with
        // `popstate`, and again a task later with `hashchange`, which then changes nothing.
        // (Writing the address, as the app does, says neither.)
        let hash = ["popstate", "hashchange"].map(|name| {
            let on_hash = dispatch.clone();
            EventListener::new(&gloo::utils::window(), name, move |_| on_hash.emit(Action::Hash(browser::hash())))
        });
        let options = EventListenerOptions::enable_prevent_default();
        let on_key = dispatch.clone();
        let keys =
            EventListener::new_with_options(&gloo::utils::document(), "keydown", options, move |e| keydown(e.unchecked_ref(), &on_key));
        #[cfg(editing)]
        let editor = super::editor_input::listen(&dispatch);
        #[cfg(not(editing))]
        let editor = ();
        let ended = dispatch.clone();
        let fullscreen = super::screen::on_fullscreen_exit(move || ended.emit(Action::Present(Some(false))));
        let picked = (super::files::on_picked(&dispatch), super::draft_input::listen(&dispatch));
        let kept = storage::on_kept(&dispatch);
        // A window resized past the menu's screens closes the menu, so the page is not left inert.
        let resize = EventListener::new(&gloo::utils::window(), "resize", |_| browser::menu(Some(false)));
        move || drop((hash, keys, editor, fullscreen, picked, kept, resize))
    });
}

/// Handles a key pressed anywhere on the page.
fn keydown(e: &KeyboardEvent, on_key: &Callback<Action>) {
    // The open lesson menu keeps Tab, and every key but Escape scrolls or presses in it.
    if browser::menu_open() {
        match e.key().as_str() {
            "Escape" => on_key.emit(Action::Menu(Some(false))),
            "Tab" if browser::wrap_tab(e.shift_key()) => e.prevent_default(),
            _ => {}
        }
        return;
    }
    #[cfg(editing)]
    if let Some(action) = super::editor_input::history_key(e) {
        e.prevent_default();
        return on_key.emit(action);
    }
    #[cfg(editing)]
    if let Some(gesture) = super::gestures::key(e) {
        e.prevent_default();
        return super::editor_input::handle_key(on_key, gesture);
    }
    // Escape leaves presenter mode (a browser in full screen may keep the key to itself, and
    // leave full screen, which ends presenter mode too).
    if e.key() == "Escape" && super::screen::in_present() && !super::screen::popover_open() {
        return on_key.emit(Action::Present(Some(false)));
    }
    if let Some(action) = pressed(e) {
        // Space plays or pauses wherever the focus is, never pressing the button clicked
        // last; Escape still closes whatever the browser opened (a menu, full screen).
        if e.key() != "Escape" {
            e.prevent_default();
        }
        on_key.emit(action);
    }
}

/// Ticks the playback while it plays, at its speed.
#[hook]
fn use_playback(playing: bool, speed: Speed, dispatch: &Callback<Action>) {
    let dispatch = dispatch.clone();
    use_effect_with((playing, speed), move |_| {
        let timer = playing.then(|| Interval::new(speed.interval_ms(), move || dispatch.emit(Action::Play(Playback::Tick))));
        move || drop(timer)
    });
}

/// Returns the controls' callbacks and the page's click handler. They keep their identity
/// across renders, so components skip work.
#[hook]
fn use_controls(dispatch: &Callback<Action>) -> (Callbacks, Callback<MouseEvent>) {
    let on_play = {
        let dispatch = dispatch.clone();
        use_callback((), move |playback, _| dispatch.emit(Action::Play(playback)))
    };
    let on_room = {
        let dispatch = dispatch.clone();
        use_callback((), move |room, _| dispatch.emit(Action::Refit(room)))
    };
    let on_click = {
        let dispatch = dispatch.clone();
        use_callback((), move |e: MouseEvent, _| {
            if let Some(action) = clicked(&e) {
                dispatch.emit(action);
            }
        })
    };
    (Callbacks { on_play, on_room }, on_click)
}
