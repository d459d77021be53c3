//! The scenario being edited on the page: its versions (see [`History`]), the run it started
//! from, its link, and the last edit that could not be made. Each change runs the new scenario.
//!
//! The editor is its own page (`edit/`, built with the `editor` feature), so the player's page
//! stays small: in the player's build (`cfg(editing)` is off) nothing is ever edited, and
//! [`Editing`] has no values. Native builds always have it, so it is tested natively.

use super::run::RunRef;
#[cfg(editing)]
use super::run::{finish, side_by_side};
#[cfg(editing)]
use crate::diagram::layout::Room;
#[cfg(editing)]
use crate::edit::{self, handles, link, outcome, start, switch, variant::Variant, Edit, History};
use crate::error::ScenarioError;
#[cfg(editing)]
use crate::{
    engine,
    scenario::format::{Fault, Scenario},
    scenario::{encode, format::Participant, tags::Tagged},
    scenario::{json, validate},
    ui::panels::{self, EditorState},
    ui::route::{self, Route, Target},
};
#[cfg(editing)]
use std::rc::Rc;

/// An edited scenario.
#[cfg(editing)]
#[derive(Clone)]
pub struct Editing {
    pub history: History,
    /// The run editing started from, to compare outcomes with.
    pub original: RunRef,
    /// The current scenario's link, or why it cannot have one.
    pub link: Result<String, ScenarioError>,
    /// The last edit that could not be made, and why.
    pub problem: Option<ScenarioError>,
    /// The field whose edit that was, if a field's edit made the problem.
    pub refused: Option<String>,
    /// What the last switch of design had to change besides.
    pub notes: Vec<String>,
    /// The field path of the last edit.
    pub touched: Option<String>,
    /// The fault picked on the diagram, whose numbers the editor shows first.
    pub selected: Option<usize>,
    /// The kind of fault a click on a lifeline adds, if one was chosen.
    pub tool: Option<String>,
    /// Whether the picked fault is being moved with the keys, so its handle keeps the focus.
    pub keys: bool,
    /// The variant drawn beside the edited run, if one is chosen.
    pub beside: Option<Beside>,
    /// The room the page gives the diagram, which every new run is laid out in.
    pub room: Room,
}

/// A variant drawn beside the edited run on the same time axis, and its run.
#[cfg(editing)]
#[derive(Clone)]
pub struct Beside {
    pub which: Variant,
    pub run: RunRef,
}

#[cfg(editing)]
impl Beside {
    /// Says what the variant is, as its column's title.
    pub fn title(&self) -> String {
        match self.which {
            Variant::Original => "The original".into(),
            Variant::Mode(mode) => format!("With the resource {}", mode.tag()),
        }
    }
}

/// Runs a scenario: what the page shows of it, laid out in `room`, or why it cannot run. Its
/// file (for downloads) is the scenario written out.
#[cfg(editing)]
fn run(scenario: &Scenario, link: &Result<String, ScenarioError>, room: Room) -> Result<RunRef, ScenarioError> {
    let spec = validate::compile(scenario)?;
    let trace = engine::run(&spec)?;
    let target = Target::Edited(link.clone().unwrap_or_default());
    let source = json::write(&encode::scenario(scenario), Some(2));
    Ok(finish(&target, scenario.clone(), Some(Rc::from(source)), trace, room))
}

/// The share link of a scenario, or why it cannot have one.
#[cfg(editing)]
fn link_of(scenario: &Scenario) -> Result<String, ScenarioError> {
    link::encode(&encode::scenario(scenario))
}

#[cfg(editing)]
impl Editing {
    /// Starts editing the run on screen.
    pub fn start(from: &RunRef) -> Result<(Editing, RunRef), ScenarioError> {
        Editing::open((*from.scenario).clone(), Some(from), from.room)
    }

    /// Opens an edited scenario from its link, laid out in `room`; it is its own original.
    pub fn from_link(text: &str, room: Room) -> Result<(Editing, RunRef), ScenarioError> {
        let (scenario, _) = validate::load_doc(&link::decode(text)?)?;
        Editing::open(scenario, None, room)
    }

    /// Opens a scenario file's text (opened, dropped or pasted); it is its own original. The
    /// error names the field that does not fit, as for any file.
    pub fn from_file(text: &str, room: Room) -> Result<(Editing, RunRef), ScenarioError> {
        Editing::open(validate::parse(text)?, None, room)
    }

    /// Starts a blank scenario for the design tagged `tag`; it is its own original.
    pub fn blank(tag: &str, room: Room) -> Result<(Editing, RunRef), ScenarioError> {
        let (scenario, _) = switch::blank(tag)?;
        Editing::open(scenario, None, room)
    }

    /// Starts editing `scenario`, comparing with `original` (or with itself).
    fn open(scenario: Scenario, original: Option<&RunRef>, room: Room) -> Result<(Editing, RunRef), ScenarioError> {
        let link = link_of(&scenario);
        let shown = run(&scenario, &link, room)?;
        let original = original.unwrap_or(&shown).clone();
        let editing = Editing {
            history: History::new(scenario),
            original,
            link,
            problem: None,
            refused: None,
            notes: Vec::new(),
            touched: None,
            selected: None,
            tool: None,
            keys: false,
            beside: None,
            room,
        };
        Ok((editing, shown))
    }

    /// Makes `scenario` the current one if it runs; otherwise notes why not.
    fn commit(&self, scenario: Result<Scenario, ScenarioError>) -> (Editing, Option<RunRef>) {
        match scenario {
            Ok(scenario) => {
                let (scenario, notes) = edit::prose::follow(self.history.now(), scenario);
                let mut history = self.history.clone();
                history.push(scenario);
                let (editing, shown) = self.settle(history);
                let notes = if shown.is_some() { notes } else { editing.notes };
                (Editing { notes, ..editing }, shown)
            }
            Err(problem) => (Editing { problem: Some(problem), refused: None, ..self.clone() }, None),
        }
    }

    /// Moves to `history` if its current scenario runs; otherwise keeps the history as it was
    /// and notes why not.
    fn settle(&self, history: History) -> (Editing, Option<RunRef>) {
        let link = link_of(history.now());
        let which = self.beside.as_ref().map(|b| b.which);
        match run(history.now(), &link, self.room).and_then(|shown| self.paired(which, history.now(), &link, shown)) {
            Ok((beside, shown)) => {
                (Editing { history, link, problem: None, refused: None, notes: Vec::new(), beside, ..self.clone() }, Some(shown))
            }
            Err(problem) => (Editing { problem: Some(problem), refused: None, ..self.clone() }, None),
        }
    }

    /// Returns the variant `which` of `scenario` (whose run is `shown`) and `shown`, laid out
    /// side by side; or `shown` alone when no variant is chosen.
    fn paired(
        &self,
        which: Option<Variant>,
        scenario: &Scenario,
        link: &Result<String, ScenarioError>,
        shown: RunRef,
    ) -> Result<(Option<Beside>, RunRef), ScenarioError> {
        let other = match which {
            None => return Ok((None, shown)),
            Some(Variant::Original) => self.original.clone(),
            Some(Variant::Mode(mode)) => {
                let Some(k) = shown.scenario.participants.iter().position(|p| matches!(p, Participant::Resource { .. })) else {
                    return Err(ScenarioError::new("participants", "there is no resource whose mode could change"));
                };
                let mut variant = scenario.clone();
                if let Participant::Resource { mode: m, .. } = &mut variant.participants[k] {
                    *m = mode;
                }
                run(&variant, link, self.room)?
            }
        };
        let (other, shown) = side_by_side(&other, &shown, self.room);
        Ok((which.map(|which| Beside { which, run: other }), shown))
    }

    /// Returns the title and run of the variant drawn beside the edited run, if one is chosen.
    pub fn beside_run(&self) -> Option<(String, RunRef)> {
        self.beside.as_ref().map(|b| (b.title(), b.run.clone()))
    }

    /// Draws the variant named `which` beside the edited run (none for an empty name).
    pub fn beside(&self, which: &str) -> (Editing, Option<RunRef>) {
        let which = match Variant::parse(which) {
            Some(variant) => Some(variant),
            None if which.is_empty() => None,
            None => {
                return (
                    Editing {
                        problem: Some(ScenarioError::new("beside", format!("no variant is called “{which}”"))),
                        refused: None,
                        ..self.clone()
                    },
                    None,
                )
            }
        };
        let beside = which.map(|which| Beside { which, run: self.original.clone() });
        Editing { beside, ..self.clone() }.settle(self.history.clone())
    }

    /// Switches to the design tagged `tag`, noting what else had to change.
    pub fn switch_design(&self, tag: &str) -> (Editing, Option<RunRef>) {
        match switch::switch(self.history.now(), tag) {
            Ok((scenario, notes)) => {
                let (editing, shown) = self.commit(Ok(scenario));
                (Editing { notes, ..editing }, shown)
            }
            Err(e) => self.commit(Err(e)),
        }
    }

    /// Applies an edit. (Removing a fault lets go of the one picked on the diagram.)
    pub fn apply(&self, edit: &Edit) -> (Editing, Option<RunRef>) {
        let (editing, shown) = self.commit(edit::apply(self.history.now(), edit));
        let path = edit.path();
        let selected = if matches!(edit, Edit::Remove { .. }) && path.starts_with("faults[") { None } else { editing.selected };
        let refused = editing.problem.as_ref().and(shown.is_none().then(|| path.clone()));
        (Editing { touched: Some(path), refused, selected, ..editing }, shown)
    }

    /// Applies several edits as one change (one step of undo), picking fault `selected`.
    fn apply_all(&self, edits: &[Edit], selected: usize) -> (Editing, Option<RunRef>) {
        let mut scenario = Ok(self.history.now().clone());
        for e in edits {
            scenario = scenario.and_then(|s| edit::apply(&s, e));
        }
        let (editing, shown) = self.commit(scenario);
        (Editing { selected: Some(selected), ..editing }, shown)
    }

    /// Adds a fault of `kind` (a name in [`start::FAULTS`]) at `at_ms`, on participant `on` or
    /// where [`start::fault`] puts it, and picks it.
    pub fn add_fault(&self, kind: &str, shown: &RunRef, at_ms: u64, on: Option<&str>) -> (Editing, Option<RunRef>) {
        match start::fault(kind, &shown.scenario, at_ms, on) {
            Some(fault) => {
                let (editing, shown) = self.insert_fault(fault);
                (Editing { tool: None, ..editing }, shown)
            }
            None => (
                Editing {
                    problem: Some(ScenarioError::new("faults", format!("no participant can take a {kind}"))),
                    refused: None,
                    ..self.clone()
                },
                None,
            ),
        }
    }

    /// Moves `grip` of fault `i` by `delta_ms`, snapped to `step` ms, and picks it.
    pub fn nudge(&self, shown: &RunRef, i: usize, grip: handles::Grip, delta_ms: i64, step: u64) -> (Editing, Option<RunRef>) {
        match handles::nudge(&shown.scenario, i, grip, delta_ms, step) {
            Some(edits) => self.apply_all(&edits, i),
            None => (self.pick(Some(i)), None),
        }
    }

    /// Drops the message sent at event `send`, or delays it by `extra_ms`.
    pub fn message(&self, shown: &RunRef, send: usize, extra_ms: Option<u64>) -> (Editing, Option<RunRef>) {
        let messages = handles::messages(&shown.scenario, &shown.trace, &shown.layout);
        match messages.iter().find(|m| m.send == send) {
            Some(m) => self.insert_fault(handles::message_fault(m, extra_ms)),
            None => (self.clone(), None),
        }
    }

    /// Adds a fault at the end of the schedule and picks it.
    fn insert_fault(&self, fault: Fault<String>) -> (Editing, Option<RunRef>) {
        let (editing, shown) = self.apply(&Edit::AddFault(fault));
        let selected = shown.as_ref().map(|s| s.scenario.faults.len() - 1).or(editing.selected);
        (Editing { selected, ..editing }, shown)
    }

    /// Picks fault `i` (or none), whose numbers the editor then shows first.
    pub fn pick(&self, i: Option<usize>) -> Editing {
        Editing { selected: i, ..self.clone() }
    }

    /// Chooses the kind of fault a click on a lifeline adds (none for an empty name).
    pub fn choose_tool(&self, kind: &str) -> Editing {
        Editing { tool: (!kind.is_empty()).then(|| kind.to_string()), ..self.clone() }
    }

    /// Adds a client at `at_ms` with the first client's script.
    pub fn add_client(&self, at_ms: u64) -> (Editing, Option<RunRef>) {
        self.apply(&Edit::AddParticipant(start::client(self.history.now(), at_ms)))
    }

    /// Removes participant `i` and what names it in the faults.
    pub fn remove_participant(&self, i: usize) -> (Editing, Option<RunRef>) {
        self.apply(&Edit::Remove { path: format!("participants[{i}]") })
    }

    /// Adds a step to client `i`'s script: work for 100 ms.
    pub fn add_step(&self, i: usize) -> (Editing, Option<RunRef>) {
        match start::step("work", crate::engine::msg::ReleaseMode::Safe) {
            Some(step) => self.apply(&Edit::AddStep { client: i, step }),
            None => (self.clone(), None),
        }
    }

    /// Returns the run editing started from.
    pub fn original(&self) -> &RunRef {
        &self.original
    }

    /// Returns the edited scenario, its runs laid out in `room` from now on.
    pub fn in_room(&self, room: Room) -> Editing {
        Editing { room, ..self.clone() }
    }

    /// Undoes, redoes or resets (`step` returns whether it moved).
    pub fn step(&self, step: impl FnOnce(&mut History) -> bool) -> (Editing, Option<RunRef>) {
        let mut history = self.history.clone();
        if !step(&mut history) {
            return (self.clone(), None);
        }
        self.settle(history)
    }

    /// The layer over the diagram of the run on screen: its faults' handles, its messages'
    /// targets and its lifelines' strips.
    pub fn layer(&self, shown: &RunRef) -> String {
        let faults = handles::handles(&shown.scenario, &shown.trace, &shown.layout);
        let messages = if shown.layout.items.len() <= MESSAGE_TARGETS_UP_TO {
            handles::messages(&shown.scenario, &shown.trace, &shown.layout)
        } else {
            Vec::new()
        };
        panels::handles(&shown.layout, &faults, &messages, self.selected, self.tool.as_deref())
    }

    /// The link of the Close button, on the player's page: the run editing started from, at the
    /// simulated time of `cursor` in the edited run `shown`; the player's first lesson for a
    /// scenario that came from a link, a file or a blank.
    pub fn close_link(&self, shown: &RunRef, cursor: Option<usize>) -> String {
        match &self.original.target {
            Target::Edited(_) => "../".to_string(),
            target => {
                let original = &self.original.trace;
                let step = cursor.filter(|_| !original.events.is_empty()).map_or(0, |c| original.at_time_of(&shown.trace.events, c) + 1);
                format!("../{}", route::format(&Route { target: target.clone(), step: step as u64 }))
            }
        }
    }

    /// The editor's text for the run on screen at `cursor`, in the parts of [`panels::editor`];
    /// its Close button opens `close` (the player's page).
    pub fn panel(&self, shown: &RunRef, close: &str, cursor: Option<usize>) -> [String; 5] {
        let change = outcome::change(&self.original.trace, &shown.words(), self.history.edited());
        let state = EditorState {
            outcome: &format!("Compared with the original: {change}."),
            problem: self.problem.as_ref(),
            refused: self.refused.as_deref(),
            link_problem: self.link.as_ref().err(),
            depth: self.history.depth(),
            edited: self.history.edited(),
            close,
            notes: &self.notes,
            touched: self.touched.as_deref(),
            selected: self.selected,
            tool: self.tool.as_deref(),
            message: cursor.and_then(|c| message_at(shown, c)),
            beside: self.beside.as_ref().map(|b| b.which),
        };
        panels::editor(&shown.scenario, &state)
    }
}

/// Runs with more drawn items than this offer no message targets on the diagram (there would
/// be thousands); their faults still have handles.
#[cfg(editing)]
const MESSAGE_TARGETS_UP_TO: usize = 400;

/// Returns the message sent or delivered at event `c` that a new fault could drop or delay: its
/// sending event, and it in words.
#[cfg(editing)]
fn message_at(shown: &RunRef, c: usize) -> Option<(usize, String)> {
    use crate::diagram::layout::Shape;
    let arrow = shown.layout.items.iter().find(|i| matches!(i.shape, Shape::Arrow { .. }) && (i.events.0 == c || i.events.1 == c))?;
    let m = handles::messages(&shown.scenario, &shown.trace, &shown.layout).into_iter().find(|m| m.send == arrow.events.0)?;
    let label = arrow.label.as_ref().map_or("", |l| l.text.as_str());
    Some((m.send, format!("{} → {}: {label}", m.from, m.to)))
}

/// The player's build: scenarios are edited on the editor's page, so there is never one here.
#[cfg(not(editing))]
pub enum Editing {}

#[cfg(not(editing))]
impl Editing {
    /// A link to an edited scenario opens on the editor's page, not here.
    pub fn from_link(_: &str, _: crate::diagram::layout::Room) -> Result<(Editing, RunRef), ScenarioError> {
        Err(ScenarioError::new("", "edited scenarios open on the editor's page"))
    }

    pub fn original(&self) -> &RunRef {
        match *self {}
    }

    pub fn close_link(&self, _: &RunRef, _: Option<usize>) -> String {
        match *self {}
    }

    pub fn panel(&self, _: &RunRef, _: &str, _: Option<usize>) -> [String; 5] {
        match *self {}
    }

    pub fn layer(&self, _: &RunRef) -> String {
        match *self {}
    }

    pub fn beside_run(&self) -> Option<(String, RunRef)> {
        match *self {}
    }

    pub fn in_room(&self, _: crate::diagram::layout::Room) -> Editing {
        match *self {}
    }
}
