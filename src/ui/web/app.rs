//! The app shell: state and actions in one reducer, the URL hash, the keyboard, the playback
//! timer (the app's only real timer), and the page layout.

use super::browser;
use super::compare_table::CompareTable;
use super::controls::Controls;
use super::diagram_view::DiagramView;
use super::event_log::EventLog;
use super::guarantees::Guarantees;
use super::inspector::Inspector;
use super::legend::legend;
use super::narration::{Narration, VerdictBadge};
use super::picker::Picker;
use super::questions::Questions;
use super::run::{load, RunRef};
use crate::diagram::mermaid;
use crate::diagram::svg;
use crate::scenario::compare::{self, Cell};
use crate::scenario::lessons;
use crate::ui::player::{Action, Player};
use crate::ui::route::{self, Route, Target};
use gloo::events::{EventListener, EventListenerOptions};
use gloo::timers::callback::Interval;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Everything on screen that changes.
pub struct AppState {
    pub run: RunRef,
    pub player: Player,
    /// The comparison table, when it is on screen in place of the run.
    pub table: Option<Rc<Vec<Vec<Cell>>>>,
    /// A message about something the user asked for that could not be done as asked.
    pub notice: Option<String>,
}

/// What can happen to the app.
pub enum Msg {
    Player(Action),
    Open(Target, u64),
    /// The hash changed under us (a pasted link, the back button).
    Hash(String),
    Dismiss,
}

fn first_lesson() -> Target {
    Target::Lesson(lessons::all()[0].id().to_string())
}

impl AppState {
    /// Opens a target at a step; a step past the last shows the last, with a notice.
    fn open(target: Target, step: u64) -> AppState {
        if target == Target::Table {
            return AppState::open(first_lesson(), 0).with_table();
        }
        let (run, mut notice) = match load(&target) {
            Ok(run) => (run, None),
            Err(e) => (load(&first_lesson()).expect("the first lesson loads"), Some(format!("{e}. Showing the first lesson instead."))),
        };
        let steps = run.trace.events.len();
        let (step, past_end) = route::clamp(step, steps);
        notice = notice.or(past_end);
        AppState { player: Player::new(steps).apply(Action::Load { steps, step }), run, table: None, notice }
    }

    /// Shows the comparison table over the current run.
    fn with_table(self) -> AppState {
        match compare::table() {
            Ok(rows) => AppState { table: Some(Rc::new(rows)), ..self },
            Err(e) => AppState { notice: Some(format!("The comparison could not run: {e}.")), ..self },
        }
    }

    /// Returns the URL hash for what is on screen.
    fn hash(&self) -> String {
        let target = if self.table.is_some() { Target::Table } else { self.run.target.clone() };
        route::format(&Route { target, step: self.player.step as u64 })
    }

    fn from_hash(hash: &str) -> AppState {
        match route::parse(hash) {
            Ok(Some(Route { target, step })) => AppState::open(target, step),
            Ok(None) => AppState::open(first_lesson(), 0),
            Err(e) => AppState { notice: Some(format!("Could not read the link: {e}.")), ..AppState::open(first_lesson(), 0) },
        }
    }
}

impl Reducible for AppState {
    type Action = Msg;

    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        Rc::new(match msg {
            // The keyboard does not drive a run hidden behind the table.
            Msg::Player(_) if self.table.is_some() => return self,
            Msg::Player(action) => {
                let player = self.player.apply(action);
                if player == self.player {
                    return self;
                }
                AppState { run: self.run.clone(), player, table: self.table.clone(), notice: self.notice.clone() }
            }
            Msg::Open(Target::Table, _) => AppState { run: self.run.clone(), player: self.player, table: None, notice: None }.with_table(),
            Msg::Open(target, step) => AppState::open(target, step),
            Msg::Hash(hash) => {
                if hash == self.hash() {
                    return self;
                }
                AppState::from_hash(&hash)
            }
            Msg::Dismiss => AppState { run: self.run.clone(), player: self.player, table: self.table.clone(), notice: None },
        })
    }
}

/// The whole page.
#[component]
pub fn App() -> Html {
    let state = use_reducer(|| AppState::from_hash(&browser::hash()));
    let lessons = use_memo((), |_| lessons::all());
    let theme = use_state(browser::initial_theme);

    // Keep the hash in step with what is shown.
    {
        use_effect_with(state.hash(), |hash| browser::replace_hash(hash));
    }
    // Follow links pasted into the address bar.
    {
        let dispatch = state.dispatcher();
        use_effect_with((), move |_| {
            let listener = EventListener::new(&gloo::utils::window(), "hashchange", move |_| dispatch.dispatch(Msg::Hash(browser::hash())));
            move || drop(listener)
        });
    }
    // The keyboard: space, arrows, Home and End.
    {
        let dispatch = state.dispatcher();
        use_effect_with((), move |_| {
            let options = EventListenerOptions::enable_prevent_default();
            let listener = EventListener::new_with_options(&gloo::utils::document(), "keydown", options, move |e| {
                let e: &KeyboardEvent = e.unchecked_ref();
                if e.ctrl_key() || e.meta_key() || e.alt_key() {
                    return;
                }
                let tag = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).map(|el| el.tag_name()).unwrap_or_default();
                let action = match e.key().as_str() {
                    " " if tag != "BUTTON" && tag != "SELECT" && tag != "INPUT" => Action::TogglePlay,
                    "ArrowRight" if tag != "INPUT" => Action::Forward,
                    "ArrowLeft" if tag != "INPUT" => Action::Back,
                    "Home" => Action::ToStart,
                    "End" => Action::ToEnd,
                    _ => return,
                };
                e.prevent_default();
                dispatch.dispatch(Msg::Player(action));
            });
            move || drop(listener)
        });
    }
    // Playback: the only real timer in the app.
    {
        let dispatch = state.dispatcher();
        let (playing, speed) = (state.player.playing, state.player.speed);
        use_effect_with((playing, speed), move |_| {
            let timer = playing.then(|| Interval::new(speed.interval_ms(), move || dispatch.dispatch(Msg::Player(Action::Tick))));
            move || drop(timer)
        });
    }
    {
        use_effect_with(*theme, |theme| browser::apply_theme(theme));
    }

    // Callbacks keep their identity across renders, so components whose other props did not
    // change are not rendered again on every step.
    let on_action = {
        let dispatch = state.dispatcher();
        use_callback((), move |a: Action, _| dispatch.dispatch(Msg::Player(a)))
    };
    let on_select = {
        let dispatch = state.dispatcher();
        use_callback((), move |t: Target, _| dispatch.dispatch(Msg::Open(t, 0)))
    };
    let on_theme = {
        let theme = theme.clone();
        Callback::from(move |_| theme.set(if *theme == "dark" { "light" } else { "dark" }))
    };
    let run = state.run.clone();
    let on_export_svg = {
        let run = run.clone();
        Callback::from(move |_| {
            let text = svg::render(&run.layout, &run.scenario.title, true);
            browser::download(&format!("lockstep-{}.svg", run.scenario.id), "image/svg+xml", &text);
        })
    };
    let on_export_mermaid = {
        let run = run.clone();
        Callback::from(move |_| {
            browser::download(&format!("lockstep-{}.mmd", run.scenario.id), "text/plain", &mermaid::render(&run.words()));
        })
    };
    let on_export_json = {
        let run = run.clone();
        Callback::from(move |_| {
            if let Some(source) = run.source {
                browser::download(&format!("{}.json", run.scenario.id), "application/json", source);
            }
        })
    };
    let on_dismiss = {
        let dispatch = state.dispatcher();
        use_callback((), move |_: MouseEvent, _| dispatch.dispatch(Msg::Dismiss))
    };
    let cursor = state.player.cursor();
    let s = &run.scenario;
    let is_cell = matches!(run.target, Target::Compare { .. });
    // A cell of the comparison belongs to the table's entry in the picker.
    let current = if state.table.is_some() || is_cell { Target::Table } else { run.target.clone() };
    let to_table = {
        let on_select = on_select.clone();
        Callback::from(move |_| on_select.emit(Target::Table))
    };

    html! {
        <div class={classes!("app", state.table.is_some().then_some("app--table"))}>
            <header class="topbar">
                <div class="brand">
                    <span class="brand-mark" aria-hidden="true">{"⟂"}</span>
                    <span class="brand-name">{"Lockstep"}</span>
                    <span class="brand-tag">{"distributed locks and fencing tokens, step by step"}</span>
                </div>
                <div class="topbar-actions">
                  if state.table.is_none() {
                    <button class="btn btn--ghost" onclick={on_export_svg} data-testid="export-svg" title="Download this diagram as an SVG file">{"Export SVG"}</button>
                    <button class="btn btn--ghost" onclick={on_export_mermaid} data-testid="export-mermaid" title="Download the run as Mermaid sequenceDiagram text">{"Export Mermaid"}</button>
                    if run.source.is_some() {
                        <button class="btn btn--ghost" onclick={on_export_json} data-testid="export-json" title="Download this lesson's scenario file">{"Scenario JSON"}</button>
                    }
                  }
                    <button class="btn btn--ghost" onclick={on_theme} data-testid="theme" aria-label="Switch between light and dark theme">
                        { if *theme == "dark" { "☀ Light" } else { "☾ Dark" } }
                    </button>
                </div>
            </header>
            if let Some(notice) = state.notice.clone() {
                <div class="notice" role="alert" data-testid="notice">
                    <span>{notice}</span>
                    <button class="btn btn--ghost" onclick={on_dismiss} aria-label="Dismiss this message">{"✕"}</button>
                </div>
            }
            <nav class="sidebar" aria-label="Lessons">
                <Picker lessons={lessons.clone()} current={current} on_select={on_select.clone()} />
                <Questions on_select={on_select.clone()} />
            </nav>
          if let Some(rows) = state.table.clone() {
            <main class="stage" aria-labelledby="lesson-title">
                <CompareTable rows={rows} on_select={on_select} />
            </main>
          } else {
            <main class="stage" aria-labelledby="lesson-title">
                <div class="lesson-head">
                    <div>
                        if is_cell {
                            <button class="eyebrow back-link" onclick={to_table} data-testid="back-to-table">{"← Compare designs"}</button>
                        } else {
                            <p class="eyebrow">{&s.topic}</p>
                        }
                        <h1 id="lesson-title" data-testid="lesson-title">{&s.title}</h1>
                    </div>
                    <VerdictBadge run={run.clone()} cursor={cursor} />
                </div>
                <DiagramView run={run.clone()} cursor={cursor} on_seek={on_action.clone()} />
                <Controls run={run.clone()} player={state.player} on_action={on_action.clone()} />
            </main>
            <aside class="panel" aria-label="Narration and state">
                <Narration run={run.clone()} cursor={cursor} />
                <Inspector run={run.clone()} cursor={cursor} />
                <Guarantees run={run.clone()} />
                { legend() }
            </aside>
            <section class="log-area" aria-label="Event log">
                <EventLog run={run} cursor={cursor} on_seek={on_action} />
            </section>
          }
        </div>
    }
}
