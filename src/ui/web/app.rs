//! The app shell: state and actions in one reducer, the URL hash, the keyboard, the playback
//! timer (the app's only real timer), and the page layout.

use super::browser;
use super::controls::controls;
use super::diagram_view::DiagramView;
use super::editing::Editing;
use super::event_log::EventLog;
use super::finder::Finder;
#[cfg(feature = "editor")]
use super::gestures::{self, Gesture};
use super::panels::{compare_table, editor, guarantees, inspector, narration, sidebar, verdict_text};
use super::run::{fetched, load, Load, RunRef};
use crate::diagram::mermaid;
use crate::diagram::svg;
#[cfg(feature = "editor")]
use crate::edit::handles::{snap_step, Axis};
#[cfg(feature = "editor")]
use crate::edit::{start, Edit, History};
#[cfg(feature = "editor")]
use crate::engine::Event;
#[cfg(feature = "editor")]
use crate::error::ScenarioError;
use crate::present::Prediction;
use crate::scenario::compare::{self, Cell};
use crate::scenario::lessons::{self, Entry};
use crate::search::wire::{self, Report, Subject};
use crate::search::Bounds;
use crate::ui::drill::Drill;
use crate::ui::panels::finder_card;
#[cfg(feature = "editor")]
use crate::ui::panels::EDIT_ATTRIBUTE;
use crate::ui::panels::ROUTE_ATTRIBUTE;
use crate::ui::panels::{drill_card, Ask, Escaped};
use crate::ui::player::{gate, Action, Player};
use crate::ui::route::{self, Route, Target};
use gloo::events::{EventListener, EventListenerOptions};
use gloo::timers::callback::{Interval, Timeout};
use std::fmt::Write;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// A link longer than this is written to the address bar once changes pause.
const LONG_LINK: usize = 200;

/// Everything on screen that changes.
#[derive(Clone)]
pub struct AppState {
    /// The run on screen; `None` only until the first lesson's file has arrived.
    pub run: Option<RunRef>,
    pub player: Player,
    /// The comparison table, when it is on screen in place of the run.
    pub table: Option<Rc<Vec<Vec<Cell>>>>,
    /// A message about something the user asked for that could not be done as asked.
    pub notice: Option<String>,
    /// A lesson whose file is on its way, and the step to open it at.
    pub pending: Option<(&'static Entry, u64)>,
    /// The scenario being edited, when the run on screen is an edited one.
    pub editing: Option<Rc<Editing>>,
    /// The predictions answered in this run: the event asked about and the choice made.
    pub answers: Rc<Vec<(usize, usize)>>,
    /// The diagram's zoom, an index into [`ZOOMS`].
    pub zoom: usize,
    /// The interview drill, while one is on.
    pub drill: Option<Drill>,
    /// The failure search: its latest report, and its worker while it runs.
    pub finding: Option<(Report, Option<Rc<Finder>>)>,
}

/// The diagram's zoom levels: 1 fits the width with text at least 14 px.
pub const ZOOMS: [f64; 7] = [0.5, 0.63, 0.8, 1.0, 1.25, 1.6, 2.0];
const FIT: usize = 3;

/// What can happen to the app.
pub enum Msg {
    Player(Action),
    Open(Target, u64),
    /// A lesson's file arrived, or could not be fetched.
    Fetched(&'static str, Result<String, String>),
    /// The hash changed under us (a pasted link, the back button).
    Hash(String),
    /// Goes to the next story beat, or (false) the one before.
    Beat(bool),
    /// Answers the prediction asked, with the choice at this index.
    Answer(usize),
    /// Switches predictions on or off.
    Predict,
    /// Starts the interview drill at its first question.
    DrillStart,
    /// Goes on to the drill's next lesson.
    DrillNext,
    DrillLeave,
    /// Zooms the diagram in (1), out (-1), or back to fit the width (0).
    Zoom(i8),
    /// The diagram's box changed width: lay the run out again to fit.
    Refit,
    Dismiss,
    /// Something to tell the user.
    Notice(String),
    /// Looks for a failure of the run on screen (its worker reports to `Report`).
    Find(Callback<Report>),
    /// A report from the failure search.
    Report(Report),
    /// Cancels the failure search, or closes its card.
    FindClose,
    #[cfg(feature = "editor")]
    Edit(EditMsg),
}

/// What can happen to the scenario being edited.
#[cfg(feature = "editor")]
pub enum EditMsg {
    /// Starts editing the run on screen.
    Start,
    Apply(Edit),
    /// Adds a fault of this kind.
    AddFault(String),
    /// Switches to the design with this tag.
    Design(String),
    /// Starts a blank scenario for the design with this tag.
    New(String),
    /// Adds a client.
    AddClient,
    /// Removes a participant, by its place.
    RemoveParticipant(usize),
    /// Adds a step to a client's script, by the client's place.
    AddStep(usize),
    /// A scenario file's text, opened, dropped or pasted, or why it could not be read.
    Open(Result<String, String>),
    /// Something done to a fault, a message or a lifeline on the diagram.
    Gesture(Gesture),
    /// Chooses the kind of fault a click on a lifeline adds.
    Tool(String),
    /// Drops the message sent at this event, or delays it by some milliseconds.
    Message(usize, Option<u64>),
    /// Draws a variant beside the edited run: `original`, a resource mode, or none.
    Beside(String),
    Undo,
    Redo,
    Reset,
}

fn first_lesson() -> Target {
    Target::Lesson(lessons::index()[0].id.to_string())
}

impl AppState {
    /// Nothing on screen yet.
    fn empty() -> AppState {
        AppState {
            run: None,
            player: Player::new(0),
            table: None,
            notice: None,
            pending: None,
            editing: None,
            answers: Rc::default(),
            zoom: FIT,
            drill: None,
            finding: None,
        }
    }

    /// Opens a target at a step, over what is on screen until a lesson's file arrives.
    fn open(&self, target: Target, step: u64) -> AppState {
        if target == Target::Table {
            return AppState { notice: None, ..self.open(first_lesson(), 0) }.with_table();
        }
        if let Target::Edited(link) = &target {
            return match Editing::from_link(link) {
                Ok((editing, run)) => AppState { editing: Some(Rc::new(editing)), ..AppState::show_only(run, step) },
                Err(e) => AppState { notice: Some(format!("Could not open the edited scenario: {e}.")), ..self.open(first_lesson(), 0) },
            };
        }
        match load(&target) {
            Ok(Load::Ready(run)) => AppState { zoom: self.zoom, drill: self.drill, ..AppState::show(run, step) },
            Ok(Load::Fetch(entry)) => AppState { table: None, notice: None, pending: Some((entry, step)), ..self.clone() },
            // The first lesson is always in the index; if even it cannot run, say so and show nothing.
            Err(e) if target == first_lesson() => AppState { notice: Some(format!("{e}.")), ..AppState::empty() },
            Err(e) => AppState { notice: Some(format!("{e}. Showing the first lesson instead.")), ..self.open(first_lesson(), 0) },
        }
    }

    /// Shows a run at a step; a step past the last shows the last, with a notice. On the
    /// editor's page, a run from a file is opened for editing.
    fn show(run: RunRef, step: u64) -> AppState {
        let shown = AppState::show_only(run, step);
        #[cfg(feature = "editor")]
        if shown.run.as_ref().is_some_and(editable) {
            return shown.edit(EditMsg::Start);
        }
        shown
    }

    /// The failure search's request for what is on screen: the edited scenario, a lesson's
    /// file, or a comparison cell.
    fn search_request(&self) -> Option<String> {
        #[cfg(feature = "editor")]
        if let Some(e) = &self.editing {
            return Some(wire::request(Subject::File(&crate::edit::doc::write(e.history.now(), None)), &Bounds::default()));
        }
        let run = self.run.as_ref()?;
        let subject = match (&run.source, &run.target) {
            (Some(text), _) => wire::request(Subject::File(text), &Bounds::default()),
            (None, Target::Compare { schedule, design }) => {
                wire::request(Subject::Cell(&compare::id(schedule, design)), &Bounds::default())
            }
            _ => return None,
        };
        Some(subject)
    }

    /// Shows a run at a step, as it is.
    fn show_only(run: RunRef, step: u64) -> AppState {
        let steps = run.trace.events.len();
        let (step, notice) = route::clamp(step, steps);
        AppState {
            player: Player::new(steps).apply(Action::Load { steps, step }),
            run: Some(run),
            table: None,
            notice,
            pending: None,
            editing: None,
            answers: Rc::default(),
            zoom: FIT,
            drill: None,
            // A search belongs to the run it was started on.
            finding: None,
        }
    }

    /// Shows what an edit made: the new run at the same simulated time as the cursor, or, if the
    /// edit could not be made, the same run with the editor saying why.
    #[cfg(feature = "editor")]
    fn edited(&self, (editing, shown): (Editing, Option<RunRef>)) -> AppState {
        let editing = Some(Rc::new(editing));
        let Some(run) = shown else { return AppState { editing, ..self.clone() } };
        let steps = run.trace.events.len();
        let step = match (&self.run, self.player.cursor()) {
            (Some(old), Some(c)) => same_time(&old.trace.events, c, &run.trace.events) + 1,
            _ => 0,
        };
        AppState {
            player: self.player.apply(Action::Load { steps, step }),
            run: Some(run),
            editing,
            answers: Rc::default(),
            ..self.clone()
        }
    }

    /// Does what a gesture on the diagram asks: times are read off the diagram's axis and snap to
    /// 1, 10 or 100 ms by how many milliseconds a screen pixel spans there.
    #[cfg(feature = "editor")]
    fn gesture(&self, editing: &Editing, run: &RunRef, gesture: Gesture) -> AppState {
        let axis = Axis::new(&run.layout, &run.trace);
        let moved = |from: f32, to: f32, px_per_unit: f32| {
            // The snap follows the zoom where the pointer was let go.
            let ((t0, _), (t1, per_unit)) = (axis.ms(from), axis.ms(to));
            (t1 as i64 - t0 as i64, snap_step(per_unit / px_per_unit.max(0.01)))
        };
        let editing = &Editing { keys: false, ..editing.clone() };
        match gesture {
            Gesture::Drag { fault, grip, from, to, px_per_unit } => {
                let (delta, step) = moved(from, to, px_per_unit);
                self.edited(editing.nudge(run, fault, grip, delta, step))
            }
            Gesture::Nudge { fault, grip, delta_ms } => {
                let (moved, shown) = editing.nudge(run, fault, grip, delta_ms, delta_ms.unsigned_abs());
                self.edited((Editing { keys: true, ..moved }, shown))
            }
            Gesture::Delay { send, from, to, px_per_unit } => match moved(from, to, px_per_unit) {
                (delta, step) if delta > 0 => self.edited(editing.message(run, send, Some(delta as u64 / step * step.max(1)))),
                _ => self.clone(),
            },
            Gesture::Select(i) => AppState { editing: Some(Rc::new(editing.pick(Some(i)))), ..self.clone() },
            Gesture::Remove(i) => self.edited(editing.apply(&Edit::Remove { path: format!("faults[{i}]") })),
            Gesture::Add { lane, y } => match (&editing.tool, run.scenario.participants.get(lane)) {
                (Some(kind), Some(p)) => {
                    let at = axis.ms(y).0 / 10 * 10;
                    self.edited(editing.add_fault(kind, run, at, Some(p.id())))
                }
                _ => self.clone(),
            },
        }
    }

    /// The simulated time at the cursor.
    #[cfg(feature = "editor")]
    fn now_ms(&self) -> u64 {
        match (&self.run, self.player.cursor()) {
            (Some(run), Some(c)) => run.trace.events[c].at_ms,
            _ => 0,
        }
    }

    /// Applies a change to the scenario being edited.
    #[cfg(feature = "editor")]
    fn edit(&self, msg: EditMsg) -> AppState {
        let (Some(run), editing) = (&self.run, &self.editing) else { return self.clone() };
        // A file or a blank scenario starts editing afresh.
        let fresh = match &msg {
            EditMsg::Open(file) => Some(file.clone().map_err(|e| ScenarioError::new("", e)).and_then(|text| Editing::from_file(&text))),
            EditMsg::New(tag) => Some(Editing::blank(tag)),
            _ => None,
        };
        if let Some(fresh) = fresh {
            return match fresh {
                Ok((editing, shown)) => AppState { editing: Some(Rc::new(editing)), notice: None, ..AppState::show_only(shown, 0) },
                Err(e) => AppState { notice: Some(format!("That is not a scenario Lockstep can run: {e}.")), ..self.clone() },
            };
        }
        let Some(editing) = editing else {
            return match (msg, Editing::start(run)) {
                (EditMsg::Start, Ok((editing, shown))) => self.edited((editing, Some(shown))),
                (EditMsg::Start, Err(e)) => AppState { notice: Some(format!("This run cannot be edited: {e}.")), ..self.clone() },
                _ => self.clone(),
            };
        };
        // Only keys on a fault's handle keep the focus there; any other change lets it go.
        let editing = &Editing { keys: editing.keys && matches!(msg, EditMsg::Gesture(_)), ..(**editing).clone() };
        match msg {
            EditMsg::Start | EditMsg::Open(_) | EditMsg::New(_) => self.clone(),
            EditMsg::Apply(edit) => self.edited(editing.apply(&edit)),
            // A new fault or client starts at the cursor's time: the run forks from where it is.
            EditMsg::AddFault(kind) => self.edited(editing.add_fault(&kind, run, self.now_ms(), None)),
            EditMsg::Gesture(gesture) => self.gesture(editing, run, gesture),
            EditMsg::Tool(kind) => AppState { editing: Some(Rc::new(editing.choose_tool(&kind))), ..self.clone() },
            EditMsg::Message(send, extra_ms) => self.edited(editing.message(run, send, extra_ms)),
            EditMsg::Beside(which) => self.edited(editing.beside(&which)),
            EditMsg::AddClient => self.edited(editing.add_client(run, self.now_ms())),
            EditMsg::Design(tag) => self.edited(editing.switch_design(run, &tag)),
            EditMsg::RemoveParticipant(i) => self.edited(editing.remove_participant(run, i)),
            EditMsg::AddStep(i) => self.edited(editing.add_step(i)),
            EditMsg::Undo => self.edited(editing.step(History::undo)),
            EditMsg::Redo => self.edited(editing.step(History::redo)),
            EditMsg::Reset => self.edited(editing.step(|h| {
                h.reset();
                true
            })),
        }
    }

    /// Returns the prediction asked now, if any: predictions are on, the run is a lesson or
    /// comparison cell (not an edited one), and the next event is an outcome not yet predicted.
    fn question(&self) -> Option<&Prediction> {
        let run = self.run.as_ref().filter(|_| self.asking())?;
        run.predictions.iter().find(|p| p.event == self.player.step && !self.answers.iter().any(|a| a.0 == p.event))
    }

    /// Says whether predictions are asked: they are on, or a drill is; and the run is not an edited one.
    fn asking(&self) -> bool {
        self.editing.is_none() && (self.drill.is_some() || browser::predicting())
    }

    /// Goes to where the drill `d` stands: its lesson, opened at its start, or, once it is over,
    /// its score (and the best drill is kept).
    fn drill(&self, d: Drill) -> AppState {
        match d.lesson_id() {
            Some(id) => AppState { drill: Some(d), ..self.open(Target::Lesson(id.to_string()), 0) },
            None => {
                browser::drill_best(Some((d.right, d.answered)));
                AppState { drill: Some(d), ..self.clone() }
            }
        }
    }

    /// Moves the player as asked, stopping before an outcome still to be predicted.
    fn moved(&self, player: Player) -> Player {
        let Some(run) = self.run.as_ref().filter(|_| self.asking()) else { return player };
        let asks = run.predictions.iter().map(|p| p.event).filter(|e| !self.answers.iter().any(|a| a.0 == *e));
        match gate(self.player.step, player.step, asks) {
            Some(step) => Player { step, playing: false, ..player },
            None => player,
        }
    }

    /// Shows a fetched lesson file, if it is the one awaited.
    fn arrived(&self, id: &str, file: Result<String, String>) -> AppState {
        let Some((entry, step)) = self.pending.filter(|p| p.0.id == id) else { return self.clone() };
        match file.and_then(|source| fetched(entry, source).map_err(|e| e.to_string())) {
            // A table or a notice that came with the request stays.
            Ok(run) => {
                let shown = AppState::show(run, step);
                AppState {
                    table: self.table.clone(),
                    notice: shown.notice.clone().or(self.notice.clone()),
                    zoom: self.zoom,
                    drill: self.drill,
                    ..shown
                }
            }
            Err(e) => {
                let notice = Some(format!("The lesson “{}” could not be loaded: {e}.", entry.title));
                if self.run.is_none() && id != lessons::index()[0].id {
                    AppState { notice, ..self.open(first_lesson(), 0) }
                } else {
                    AppState { notice, pending: None, ..self.clone() }
                }
            }
        }
    }

    /// Shows the comparison table over the current run.
    fn with_table(self) -> AppState {
        match compare::table() {
            Ok(rows) => AppState { table: Some(Rc::new(rows)), ..self },
            Err(e) => AppState { notice: Some(format!("The comparison could not run: {e}.")), ..self },
        }
    }

    /// Returns the URL hash for what is on screen, or on its way.
    fn hash(&self) -> String {
        let (target, step) = match (&self.pending, &self.run) {
            _ if self.table.is_some() => (Target::Table, 0),
            (Some((entry, step)), _) => (Target::Lesson(entry.id.to_string()), *step),
            // A scenario too big for a link keeps the link of the run it was edited from, or
            // none when it came from a file or a blank.
            (None, Some(run)) => match (&run.target, &self.editing) {
                (Target::Edited(link), Some(editing)) if link.is_empty() => match &editing.original().target {
                    Target::Edited(_) => return String::new(),
                    target => (target.clone(), 0),
                },
                (target, _) => (target.clone(), self.player.step as u64),
            },
            (None, None) => return String::new(),
        };
        route::format(&Route { target, step })
    }

    /// Opens what a link names.
    fn follow(&self, hash: &str) -> AppState {
        match route::parse(hash) {
            Ok(Some(Route { target, step })) => self.open(target, step),
            Ok(None) => self.open(first_lesson(), 0),
            Err(e) => AppState { notice: Some(format!("Could not read the link: {e}.")), ..self.open(first_lesson(), 0) },
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
                let player = self.moved(self.player.apply(action));
                if player == self.player {
                    return self;
                }
                AppState { player, ..(*self).clone() }
            }
            Msg::Open(Target::Table, _) => AppState { table: None, notice: None, pending: None, ..(*self).clone() }.with_table(),
            Msg::Open(target, step) => self.open(target, step),
            Msg::Fetched(id, file) => self.arrived(id, file),
            Msg::Hash(hash) => {
                if hash == self.hash() {
                    return self;
                }
                self.follow(&hash)
            }
            Msg::Dismiss => AppState { notice: None, ..(*self).clone() },
            Msg::Beat(_) if self.table.is_some() => return self,
            Msg::Beat(forward) => match self.run.as_ref().and_then(|run| run.beat_step(self.player.step, forward)) {
                Some(step) => AppState { player: self.moved(self.player.apply(Action::Seek(step))), ..(*self).clone() },
                None => return self,
            },
            // The answer is kept and scored, and the outcome shown.
            Msg::Answer(choice) => match self.question() {
                Some(p) => {
                    let right = choice == p.answer;
                    browser::score(Some(right));
                    let answers = Rc::new([self.answers.as_slice(), &[(p.event, choice)]].concat());
                    let drill = self.drill.map(|d| d.scored(right));
                    AppState { player: self.player.apply(Action::Seek(p.event + 1)), answers, drill, ..(*self).clone() }
                }
                None => return self,
            },
            Msg::Predict => {
                browser::toggle_predicting();
                (*self).clone()
            }
            Msg::Notice(notice) => AppState { notice: Some(notice), ..(*self).clone() },
            Msg::DrillStart => {
                browser::menu(Some(false));
                self.drill(Drill::default())
            }
            Msg::DrillNext => self.drill(self.drill.unwrap_or_default().next()),
            Msg::DrillLeave => AppState { drill: None, ..(*self).clone() },
            Msg::Zoom(by) => {
                let zoom = if by == 0 { FIT } else { self.zoom.saturating_add_signed(isize::from(by)).min(ZOOMS.len() - 1) };
                AppState { zoom, ..(*self).clone() }
            }
            Msg::Find(on_report) => {
                let Some(request) = self.search_request() else {
                    return Rc::new(AppState {
                        notice: Some("Only a lesson, a comparison cell or an edited scenario can be searched.".into()),
                        ..(*self).clone()
                    });
                };
                match Finder::start(&request, cfg!(feature = "editor"), on_report) {
                    Ok(finder) => {
                        let progress = Report::Progress { tried: 0, budget: Bounds::default().budget };
                        AppState { finding: Some((progress, Some(Rc::new(finder)))), ..(*self).clone() }
                    }
                    Err(e) => AppState { notice: Some(e), ..(*self).clone() },
                }
            }
            // The worker is kept while it reports progress, and ended (dropped) once it is done.
            Msg::Report(report) => match &self.finding {
                Some((_, worker)) => {
                    let worker = matches!(report, Report::Progress { .. }).then(|| worker.clone()).flatten();
                    AppState { finding: Some((report, worker)), ..(*self).clone() }
                }
                None => return self,
            },
            Msg::FindClose => AppState { finding: None, ..(*self).clone() },
            Msg::Refit => match &self.run {
                Some(run) => AppState { run: Some(run.refitted()), ..(*self).clone() },
                None => return self,
            },
            #[cfg(feature = "editor")]
            Msg::Edit(msg) => self.edit(msg),
        })
    }
}

/// The whole page.
#[component]
pub fn App() -> Html {
    let state = use_reducer(|| AppState::empty().follow(&page_hash()));

    // Keep the hash in step with what is shown.
    {
        // A long link (an edited scenario's) is written once the edits pause: the browser takes
        // milliseconds to store each one, longer than the edit itself.
        use_effect_with(state.hash(), |hash| {
            let later = if hash.len() > LONG_LINK {
                let hash = hash.clone();
                Some(Timeout::new(300, move || browser::show_hash(&hash)))
            } else {
                browser::show_hash(hash);
                None
            };
            move || drop(later)
        });
    }
    // Follow links pasted into the address bar, the keyboard (space, arrows, Home, End and the
    // beats' keys), and
    // the editor's fields.
    {
        let dispatch = state.dispatcher();
        use_effect_with((), move |_| {
            let on_hash = dispatch.clone();
            let hash = EventListener::new(&gloo::utils::window(), "hashchange", move |_| on_hash.dispatch(Msg::Hash(page_hash())));
            let options = EventListenerOptions::enable_prevent_default();
            let on_key = dispatch.clone();
            let keys = EventListener::new_with_options(&gloo::utils::document(), "keydown", options, move |e| {
                let e: &KeyboardEvent = e.unchecked_ref();
                #[cfg(feature = "editor")]
                if let Some(gesture) = gestures::key(e) {
                    e.prevent_default();
                    return on_handle_key(&on_key, gesture);
                }
                if e.ctrl_key() || e.meta_key() || e.alt_key() {
                    return;
                }
                // Keys typed into a field or a menu stay there.
                let tag = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).map(|el| el.tag_name()).unwrap_or_default();
                if matches!(tag.as_str(), "INPUT" | "SELECT" | "TEXTAREA") {
                    return;
                }
                // Space plays or pauses wherever the focus is (outside a field), never pressing
                // the button that was clicked last.
                if e.key() == "Escape" {
                    return browser::menu(Some(false));
                }
                // F starts or ends presenter mode.
                if e.key() == "f" {
                    return browser::toggle_present();
                }
                // + and - zoom the diagram, 0 fits it to the width.
                if let key @ ("+" | "=" | "-" | "0") = e.key().as_str() {
                    return on_key.dispatch(Msg::Zoom(match key {
                        "0" => 0,
                        "-" => -1,
                        _ => 1,
                    }));
                }
                // 1 and 2 answer a prediction.
                if let key @ ("1" | "2") = e.key().as_str() {
                    return on_key.dispatch(Msg::Answer(usize::from(key == "2")));
                }
                // PageDown and PageUp (a presentation clicker's keys), or N and P, go from beat to beat.
                if let key @ ("PageDown" | "PageUp" | "n" | "p") = e.key().as_str() {
                    e.prevent_default();
                    return on_key.dispatch(Msg::Beat(matches!(key, "PageDown" | "n")));
                }
                let action = match e.key().as_str() {
                    " " => Action::TogglePlay,
                    "ArrowRight" => Action::Forward,
                    "ArrowLeft" => Action::Back,
                    "Home" => Action::ToStart,
                    "End" => Action::ToEnd,
                    _ => return,
                };
                e.prevent_default();
                on_key.dispatch(Msg::Player(action));
            });
            // Every field of the editor names its field path; a change becomes an edit, and the
            // field gets its focus back once the editor is written again.
            #[cfg(feature = "editor")]
            let on_file = dispatch.clone();
            #[cfg(feature = "editor")]
            let edit = EventListener::new(&gloo::utils::document(), "change", move |e| {
                if let Some((path, kind, text)) = browser::fields::changed(e, EDIT_ATTRIBUTE) {
                    let selector = format!("[{EDIT_ATTRIBUTE}=\"{path}\"]");
                    let edit = match kind.as_str() {
                        "design" => EditMsg::Design(text),
                        "new" => EditMsg::New(text),
                        "tool" => EditMsg::Tool(text),
                        "beside" => EditMsg::Beside(text),
                        _ => EditMsg::Apply(Edit::Set { value: start::typed(&kind, &text), path }),
                    };
                    dispatch.dispatch(Msg::Edit(edit));
                    browser::fields::after_render(move || browser::fields::refocus(&selector));
                }
            });
            // A scenario file opened with the editor's button, dropped on the page, or pasted.
            #[cfg(feature = "editor")]
            let files = browser::fields::on_scenario_file(move |file| on_file.dispatch(Msg::Edit(EditMsg::Open(file))));
            #[cfg(not(feature = "editor"))]
            let (edit, files) = (dispatch, ());
            let fullscreen = browser::on_fullscreen_exit();
            move || drop((hash, keys, edit, files, fullscreen))
        });
    }
    // A fault moved with the keys keeps the focus on its handle, which each run writes again.
    #[cfg(feature = "editor")]
    {
        let held = state.editing.as_ref().filter(|e| e.keys).and_then(|e| e.selected);
        use_effect(move || {
            if let Some(i) = held {
                browser::fields::refocus(&format!("[data-fault=\"{i}\"]"));
            }
        });
    }
    // Drags and clicks on the editor's layer over the diagram.
    #[cfg(feature = "editor")]
    {
        let dispatch = state.dispatcher();
        let run = state.run.clone().filter(|_| state.editing.is_some());
        use_effect_with(run, move |run| {
            let listeners = run.clone().map(|run| {
                let scroll = gestures::scroll_together();
                let pointer = gestures::on_pointer(run, move |gesture| {
                    let picked = match gesture {
                        Gesture::Select(i) => Some(i),
                        _ => None,
                    };
                    dispatch.dispatch(Msg::Edit(EditMsg::Gesture(gesture)));
                    if let Some(i) = picked {
                        browser::fields::after_render(move || browser::fields::reveal(&format!("#fault-{i}"), false));
                    }
                });
                (scroll, pointer)
            });
            move || drop(listeners)
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
    // A lesson's file, fetched when the lesson is opened (builds that embed lessons never wait).
    {
        let dispatch = state.dispatcher();
        use_effect_with(state.pending.map(|p| p.0.id), move |pending| {
            if let Some(id) = *pending {
                browser::fetch_text(&format!("lessons/{id}.json"), move |file| dispatch.dispatch(Msg::Fetched(id, file)));
            }
        });
    }

    // The scrubber and speed choice ask through this; it keeps its identity across renders.
    let on_action = {
        let dispatch = state.dispatcher();
        use_callback((), move |a: Action, _| dispatch.dispatch(Msg::Player(a)))
    };
    // The main diagram says when its box changed width.
    let on_room = {
        let dispatch = state.dispatcher();
        use_callback((), move |(), _| dispatch.dispatch(Msg::Refit))
    };
    // One handler for every click on the page that names what it does.
    let on_click = {
        let dispatch = state.dispatcher();
        use_callback(state.run.clone(), move |e: MouseEvent, run| clicked(&e, run.as_ref(), &dispatch))
    };
    let is_cell = state.run.as_ref().is_some_and(|r| matches!(r.target, Target::Compare { .. }));
    // A cell of the comparison belongs to the table's entry in the picker.
    let current = match (&state.pending, &state.run) {
        _ if state.table.is_some() || is_cell => Target::Table,
        (Some((entry, _)), _) => Target::Lesson(entry.id.to_string()),
        (None, Some(_)) if state.editing.is_some() => state.editing.as_ref().map_or_else(first_lesson, |e| e.original().target.clone()),
        (None, Some(run)) => run.target.clone(),
        (None, None) => first_lesson(),
    };
    // The picker is written once; mark what is on screen in it.
    use_effect_with(route::format(&Route { target: current, step: 0 }), |link| browser::mark_current(link));
    let exports = match (&state.run, &state.table) {
        (Some(run), None) => exports(run),
        _ => String::new(),
    };
    let stage = match (&state.table, &state.run) {
        (Some(rows), _) => compare_table(rows),
        (None, Some(run)) => stage(run, &state, is_cell, &on_action, &on_room),
        (None, None) => Html::from_html_unchecked(AttrValue::Static(if state.pending.is_some() {
            r#"<main class="stage" aria-busy="true"><p class="loading" data-testid="loading">Loading the lesson…</p></main>"#
        } else {
            r#"<main class="stage"><p class="loading" data-testid="loading">Nothing to show.</p></main>"#
        })),
    };

    let paired = state.editing.as_ref().is_some_and(|e| e.beside_run().is_some());
    let view = if state.table.is_some() {
        Some("table")
    } else if paired {
        Some("pair")
    } else {
        None
    };
    html! {
        <div class="app" data-view={view} data-asking={state.question().is_some().then_some("true")} onclick={on_click}>
            { Html::from_html_unchecked(top(&exports, state.notice.as_deref()).into()) }
            { stage }
            { sidebar() }
        </div>
    }
}

/// Does what a key on a focused fault handle asks, and gives the focus back to the handle
/// (written again with the run), or to its fields for Enter.
#[cfg(feature = "editor")]
fn on_handle_key(dispatch: &UseReducerDispatcher<AppState>, gesture: Gesture) {
    let after = match gesture {
        Gesture::Select(i) => Some(format!("#fault-{i} input, #fault-{i} select")),
        _ => None,
    };
    dispatch.dispatch(Msg::Edit(EditMsg::Gesture(gesture)));
    if let Some(selector) = after {
        browser::fields::after_render(move || browser::fields::reveal(&selector, true));
    }
}

/// Returns the event of `new` at the simulated time of event `c` of `old`: as many events into
/// that millisecond as `c` was (so an edit that changes nothing keeps the step), or the last
/// event before it.
#[cfg(feature = "editor")]
fn same_time(old: &[Event], c: usize, new: &[Event]) -> usize {
    let t = old[c].at_ms;
    let into = c - old.partition_point(|e| e.at_ms < t);
    let (first, end) = (new.partition_point(|e| e.at_ms < t), new.partition_point(|e| e.at_ms <= t));
    (first + into).min(end.max(1) - 1)
}

/// The run's diagram (with the editor's layer over it while editing), or, while a variant is
/// drawn beside it, both.
fn diagrams(run: &RunRef, cursor: Option<usize>, editing: Option<&Editing>, zoom: f64, on_room: &Callback<()>) -> Html {
    #[cfg(feature = "editor")]
    if let Some((title, other)) = editing.and_then(|e| e.beside_run()) {
        return pair(run, cursor, &title, &other, editing);
    }
    let layer = editing.map(|e| AttrValue::from(e.layer(run)));
    html! { <DiagramView run={run.clone()} {cursor} {layer} {zoom} on_room={on_room.clone()} /> }
}

/// The edited run beside a variant of it, on one time axis, each with its verdict; the variant's
/// cursor stays at the same simulated time as the run's, and at the run's end shows the
/// variant's end too, so both outcomes can be read.
#[cfg(feature = "editor")]
fn pair(run: &RunRef, cursor: Option<usize>, title: &str, other: &RunRef, editing: Option<&Editing>) -> Html {
    let events = &other.trace.events;
    let beside = match cursor {
        Some(c) if c + 1 == run.trace.events.len() => events.len().checked_sub(1),
        Some(c) => events.partition_point(|e| e.at_ms <= run.trace.events[c].at_ms).checked_sub(1),
        None => None,
    };
    html! {
           <div class="pair" data-testid="pair">
               <section class="pair-side" data-testid="pair-beside">
                   <div class="pair-head"><h2>{title}</h2>{ Html::from_html_unchecked(verdict_text(other, beside).into()) }</div>
                   <DiagramView run={other.clone()} cursor={beside} />
               </section>
               <section class="pair-side" data-testid="pair-edited">
                   <div class="pair-head">
                       <h2>{"Edited"}</h2>
    { Html::from_html_unchecked(verdict_text(run, cursor).into()) }
                       <button class="btn btn--small" data-action="beside:" data-testid="stop-beside">{"✕ One diagram"}</button>
                   </div>
                   <DiagramView run={run.clone()} cursor={cursor} layer={editing.map(|e| AttrValue::from(e.layer(run)))} />
               </section>
           </div>
       }
}

/// Whether a run can be edited: a lesson or a comparison cell (not the stress run).
fn editable(run: &RunRef) -> bool {
    run.source.is_some() || matches!(run.target, Target::Compare { .. })
}

/// Returns the location hash; a link to an edited scenario is handed to the editor's page.
fn page_hash() -> String {
    let hash = browser::hash();
    if !cfg!(feature = "editor") && hash.starts_with("#/edit/") {
        browser::open_editor();
    }
    hash
}

/// Does what a click names: a button's route (`data-route`) or action (`data-action`: a
/// playback button, the theme, dismissing the notice, an export), an event-log row's step
/// (`data-step`), or a diagram item's events (`data-events`, the first and last).
fn clicked(e: &MouseEvent, run: Option<&RunRef>, dispatch: &UseReducerDispatcher<AppState>) {
    let attribute = |name: &str| browser::clicked_attribute(e, &format!("[{name}]"), name);
    let msg = if let Some(link) = attribute(ROUTE_ATTRIBUTE) {
        browser::menu(Some(false));
        match route::parse(&link) {
            Ok(Some(Route { target, .. })) => Msg::Open(target, 0),
            _ => return,
        }
    } else if let Some(name) = attribute("data-action") {
        match (name.as_str(), run) {
            ("theme", _) => return browser::toggle_theme(),
            ("present", _) => return browser::toggle_present(),
            ("menu", _) => return browser::menu(None),
            ("embed", Some(run)) => {
                let (code, _) = browser::embed_code(&run.scenario.title);
                match browser::copy(&code) {
                    true => Msg::Notice(format!("The embed code is copied: paste it into a slide, a course page or a post. {code}")),
                    false => Msg::Notice(format!("Copy this into a slide, a course page or a post: {code}")),
                }
            }
            ("open-full", Some(run)) => return browser::open_tab(&browser::embed_code(&run.scenario.title).1),
            ("dismiss", _) => Msg::Dismiss,
            ("skip", _) => return browser::focus_on("[data-testid=play]"),
            ("next-beat", _) => Msg::Beat(true),
            ("predict", _) => Msg::Predict,
            (name, _) if name.starts_with("answer:") => match name["answer:".len()..].parse() {
                Ok(choice) => Msg::Answer(choice),
                Err(_) => return,
            },
            ("previous-beat", _) => Msg::Beat(false),
            ("find", Some(_)) => {
                let reports = dispatch.clone();
                Msg::Find(Callback::from(move |r| reports.dispatch(Msg::Report(r))))
            }
            ("find-cancel", _) => Msg::FindClose,
            ("drill-start", _) => Msg::DrillStart,
            ("drill-next", _) => Msg::DrillNext,
            ("drill-leave", _) => Msg::DrillLeave,
            ("zoom-in", _) => Msg::Zoom(1),
            ("zoom-out", _) => Msg::Zoom(-1),
            ("zoom-fit", _) => Msg::Zoom(0),
            #[cfg(feature = "editor")]
            ("edit", _) => Msg::Edit(EditMsg::Start),
            #[cfg(not(feature = "editor"))]
            ("edit", _) => return browser::open_editor(),
            #[cfg(feature = "editor")]
            ("undo", _) => Msg::Edit(EditMsg::Undo),
            #[cfg(feature = "editor")]
            ("redo", _) => Msg::Edit(EditMsg::Redo),
            #[cfg(feature = "editor")]
            ("reset", _) => Msg::Edit(EditMsg::Reset),
            #[cfg(feature = "editor")]
            ("copy-link", _) => match browser::fields::copy_location() {
                true => Msg::Notice("The link to this edited scenario is copied: it opens the same diagram at the same step.".into()),
                false => Msg::Notice("The link could not be copied here; copy it from the address bar.".into()),
            },
            #[cfg(feature = "editor")]
            (name, _) if name.starts_with("beside:") => Msg::Edit(EditMsg::Beside(name["beside:".len()..].to_string())),
            #[cfg(feature = "editor")]
            (name, _) if name.starts_with("drop-message:") || name.starts_with("delay-message:") => {
                let (what, send) = name.split_once(':').unwrap_or_default();
                match send.parse() {
                    Ok(send) => Msg::Edit(EditMsg::Message(send, (what == "delay-message").then_some(500))),
                    Err(_) => return,
                }
            }
            #[cfg(feature = "editor")]
            (name, _) if name.starts_with("add-fault:") => Msg::Edit(EditMsg::AddFault(name["add-fault:".len()..].to_string())),
            #[cfg(feature = "editor")]
            ("add-client", _) => Msg::Edit(EditMsg::AddClient),
            #[cfg(feature = "editor")]
            (name, _) if name.starts_with("remove-participant:") => match name["remove-participant:".len()..].parse() {
                Ok(i) => Msg::Edit(EditMsg::RemoveParticipant(i)),
                Err(_) => return,
            },
            #[cfg(feature = "editor")]
            (name, _) if name.starts_with("add-step:") => match name["add-step:".len()..].parse() {
                Ok(i) => Msg::Edit(EditMsg::AddStep(i)),
                Err(_) => return,
            },
            #[cfg(feature = "editor")]
            (name, _) if name.starts_with("remove:") => {
                Msg::Edit(EditMsg::Apply(Edit::Remove { path: name["remove:".len()..].to_string() }))
            }
            ("export-svg" | "export-mermaid" | "export-json", Some(run)) => return export(run, &name),
            (name, _) => match Action::named(name) {
                Some(action) => Msg::Player(action),
                None => return,
            },
        }
    } else if let Some(step) = attribute("data-step").and_then(|s| s.parse().ok()) {
        Msg::Player(Action::Seek(step))
    } else if let Some(last) = attribute("data-events").and_then(|d| d.split(' ').nth(1)?.parse::<usize>().ok()) {
        Msg::Player(Action::Seek(last + 1))
    } else {
        // A click outside the lesson menu closes it.
        if browser::clicked_attribute(e, ".sidebar", "class").is_none() {
            browser::menu(Some(false));
        }
        return;
    };
    dispatch.dispatch(msg);
}

/// Downloads the run as an SVG file, Mermaid text or its scenario file.
fn export(run: &RunRef, kind: &str) {
    let id = &run.scenario.id;
    match kind {
        "export-svg" => {
            browser::download(&format!("lockstep-{id}.svg"), "image/svg+xml", &svg::render(&run.layout, &run.scenario.title, true))
        }
        "export-mermaid" => browser::download(&format!("lockstep-{id}.mmd"), "text/plain", &mermaid::render(&run.words())),
        _ => {
            if let Some(source) = &run.source {
                browser::download(&format!("{id}.json"), "application/json", source);
            }
        }
    }
}

/// The name of the tool, in the top bar.
const BRAND: &str = r#"<div class="brand"><span class="brand-mark" aria-hidden="true">⟂</span><span class="brand-name">Lockstep</span><span class="brand-tag">distributed locks and fencing tokens, step by step</span></div>"#;

/// The presenter switch and the theme switch. The theme is the page's `data-theme`, set before
/// the first paint; the style sheet shows the labels that fit the page's state.
const THEME_BUTTON: &str = r#"<button class="btn btn--ghost" data-action="present" data-testid="present" title="Presenter mode: full screen, large type, no side panels (F; Escape leaves it)"><span class="present-on">▶ Present</span><span class="present-off">✕ Leave</span></button><button class="btn btn--ghost" data-action="theme" data-testid="theme" aria-label="Switch between light and dark theme"><span class="theme-to-light">☀ Light</span><span class="theme-to-dark">☾ Dark</span></button>"#;

/// The button that starts editing the run on screen.
const FIND_BUTTON: &str = r#"<button class="btn" data-action="find" data-testid="find" title="Search fault schedules for one that makes this scenario fail, in the background">Find a failure</button>"#;

const EDIT_BUTTON: &str = r#"<button class="btn" data-action="edit" data-testid="edit" title="Change this scenario's numbers and faults and watch the run change">What if…</button>"#;

/// The export buttons for a run (SVG, Mermaid, the scenario file when there is one), the embed
/// code, and, shown only when embedded, a link to the full page.
fn exports(run: &RunRef) -> String {
    const DIAGRAM: &str = concat!(
        r#"<button class="btn btn--ghost" data-action="export-svg" data-testid="export-svg" title="Download this diagram as an SVG file">Export SVG</button>"#,
        r#"<button class="btn btn--ghost" data-action="export-mermaid" data-testid="export-mermaid" title="Download the run as Mermaid sequenceDiagram text">Export Mermaid</button>"#
    );
    const SCENARIO: &str = r#"<button class="btn btn--ghost" data-action="export-json" data-testid="export-json" title="Download this lesson's scenario file">Scenario JSON</button>"#;
    const EMBED: &str = concat!(
        r#"<button class="btn btn--ghost" data-action="embed" data-testid="embed" title="Copy the code that shows this run, its playback and narration in a slide, course page or post">Embed</button>"#,
        r#"<button class="btn btn--ghost embed-open" data-action="open-full" data-testid="open-full" title="Open this run in Lockstep, with the lessons, the editor and the rest">Open in Lockstep ↗</button>"#
    );
    format!("{DIAGRAM}{}{EMBED}", if run.source.is_some() { SCENARIO } else { "" })
}

/// The top of the page as text: the skip link, the bar with the name, `exports` and the theme
/// switch, and the notice if there is one.
fn top(exports: &str, notice: Option<&str>) -> String {
    let mut s = format!(
        r#"<button class="skip-link" data-action="skip">Skip to playback</button><header class="topbar"><button class="btn btn--ghost menu-button" data-action="menu" data-testid="menu" title="The lessons, the comparison and the interview questions">☰ Lessons</button>{BRAND}<div class="topbar-actions">{exports}{THEME_BUTTON}</div></header>"#
    );
    if let Some(notice) = notice {
        let _ = write!(
            s,
            r#"<div class="notice" role="alert" data-testid="notice"><span>{}</span><button class="btn btn--ghost" data-action="dismiss" aria-label="Dismiss this message">✕</button></div>"#,
            Escaped(notice)
        );
    }
    s
}

/// What the narration asks or tells about a prediction at the cursor.
fn ask(state: &AppState) -> Ask<'_> {
    if let Some(p) = state.question() {
        return Ask::Question(p);
    }
    let Some(run) = state.run.as_ref().filter(|r| state.editing.is_none() && !r.predictions.is_empty()) else { return Ask::Nothing };
    // In a drill predictions are always asked, so there is nothing to switch.
    let Some(c) = state.player.cursor() else {
        return if state.drill.is_some() { Ask::Nothing } else { Ask::Offer(browser::predicting()) };
    };
    match (run.predictions.iter().find(|p| p.event == c), state.answers.iter().find(|a| a.0 == c)) {
        (Some(prediction), Some(&(_, chosen))) => Ask::Answered { prediction, chosen, score: browser::score(None) },
        _ => Ask::Nothing,
    }
}

/// The run's heading: where it comes from (its topic, or a link back to the table), its title,
/// the "What if…" button, and the verdict so far. (Written as text: each element a Yew view
/// builds costs several hundred bytes of WebAssembly.)
fn lesson_head(run: &RunRef, cursor: Option<usize>, is_cell: bool, edited: bool) -> String {
    let s = &run.scenario;
    let (eyebrow, title) = if edited { ("Edited · ", "What if: ") } else { ("", "") };
    let from = if is_cell {
        r##"<button class="eyebrow back-link" data-route="#/compare" data-testid="back-to-table">← Compare designs</button>"##.to_string()
    } else {
        format!(r#"<p class="eyebrow">{eyebrow}{}</p>"#, Escaped(&s.topic))
    };
    let edit = if !edited && editable(run) { EDIT_BUTTON } else { "" };
    let find = if run.source.is_some() || is_cell || edited { FIND_BUTTON } else { "" };
    format!(
        r#"<div class="lesson-head"><div>{from}<h1 id="lesson-title" data-testid="lesson-title">{title}{}</h1></div><div class="lesson-actions">{find}{edit}{}</div></div>"#,
        Escaped(&s.title),
        verdict_text(run, cursor)
    )
}

/// The run on screen: its diagram and controls, the narration and state beside it, and its log.
/// While another lesson's file is on its way, the run stays, marked busy.
fn stage(run: &RunRef, state: &AppState, is_cell: bool, on_action: &Callback<Action>, on_room: &Callback<()>) -> Html {
    let cursor = state.player.cursor();
    let editing = state.editing.as_deref();
    html! {
        <>
            <main class="stage" aria-labelledby="lesson-title" aria-busy={state.pending.is_some().then_some("true")}>
                { Html::from_html_unchecked(lesson_head(run, cursor, is_cell, editing.is_some()).into()) }
                { diagrams(run, cursor, editing, ZOOMS[state.zoom], on_room) }
                { controls(run, state.player, state.zoom, on_action) }
            </main>
            <aside class="panel" aria-label="Narration and state">
                if let Some(editing) = editing {
                    { editor(editing, run, cursor) }
                }
                if let Some((report, _)) = &state.finding {
                    { Html::from_html_unchecked(finder_card(report, !cfg!(feature = "editor")).into()) }
                }
                if let Some(d) = &state.drill {
                    { Html::from_html_unchecked(drill_card(d, state.player.step == state.player.steps, browser::drill_best(None)).into()) }
                }
                { narration(run, cursor, ask(state)) }
                { inspector(run, cursor) }
                { guarantees(run) }
                { Html::from_html_unchecked(AttrValue::Rc(run.legend.clone())) }
            </aside>
            <section class="log-area" aria-label="Event log">
                <EventLog run={run.clone()} {cursor} />
            </section>
        </>
    }
}
