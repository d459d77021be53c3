//! Everything on screen that changes, and what can be read off it: the URL hash, the prediction
//! asked, the entry the lesson list marks. Changed only by [`super::reduce`].

use super::edited::Editing;
use super::preferences::Preferences;
use super::run::RunRef;
use crate::course::{Asking, Course};
use crate::diagram::layout::Room;
use crate::present::{Asks, Prediction};
use crate::scenario::compare::Cell;
use crate::scenario::lessons::{self, Entry};
use crate::search::wire::Report;
use crate::ui::course::Taking;
use crate::ui::drill::Drill;
use crate::ui::panels::Ask;
use crate::ui::player::Player;
use crate::ui::progress::Record;
use crate::ui::route::{self, Route, Target};
use std::rc::Rc;

/// The diagram's zoom levels: 1 fits the width with text at least 14 px.
pub const ZOOMS: [f64; 7] = [0.5, 0.63, 0.8, 1.0, 1.25, 1.6, 2.0];
/// The zoom that fits the width.
pub const FIT: usize = 3;

/// Which page the app is: the player, the editor's page (`edit/`), or a course's notes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    Player,
    Editor,
    /// The page of a course's notes, for a second screen (`?notes`).
    Notes,
}

/// What the page tells the app: which page it is, how wide the diagram may be, and what the
/// browser keeps between visits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Env {
    pub page: Page,
    pub room: Room,
    pub preferences: Preferences,
}

/// The failure search: its latest report, and whether its worker still runs.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchState {
    pub report: Report,
    pub running: bool,
}

/// The comparison table verified cell by cell, row by row and each schedule in turn: what each
/// cell's verification said so far (`Proven`, or `Failed`), and whether it goes on.
#[derive(Clone, Debug, PartialEq)]
pub struct TableProofs {
    pub said: Vec<Report>,
    pub running: bool,
}

/// A page that takes the place of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// The front page: the courses, and where the last visit stopped.
    Home,
    /// The course builder.
    Builder,
}

/// Everything on screen that changes.
#[derive(Clone)]
pub struct AppState {
    pub env: Env,
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
    /// The questions answered in this run: the question (its place in the run's predictions)
    /// and the choice made, or `None` where the answer was revealed without one.
    pub answers: Rc<Vec<(usize, Option<usize>)>>,
    /// The diagram's zoom, an index into [`ZOOMS`].
    pub zoom: usize,
    /// The interview drill, while one is on.
    pub drill: Option<Drill>,
    pub finding: Option<SearchState>,
    /// The comparison table's verification, once one has started.
    pub proving: Option<Rc<TableProofs>>,
    /// What verifications proved this session, by the run's link (at step 0).
    pub proofs: Rc<Vec<(String, Report)>>,
    /// The kinds of fault to verify the lesson on its way for, once it arrives.
    pub prove_next: Option<String>,
    /// The page shown in place of the run, if one is.
    pub view: Option<View>,
    /// The course being taken, whose stop is on screen.
    pub course: Option<Taking>,
    /// What the learner has done, as kept on this device.
    pub progress: Rc<Record>,
    /// The course being made, as kept on this device.
    pub draft: Rc<Course>,
    /// Whether the page presents to a room: full screen, large type, the run told as a story.
    pub presenting: bool,
    /// An answer about the run's end, to score when the end is shown: whether it was right.
    pub deferred: Option<bool>,
}

/// The first lesson, shown when nothing else can be.
pub fn first_lesson() -> Target {
    Target::Lesson(lessons::index()[0].id.to_string())
}

impl AppState {
    /// Nothing on screen yet.
    pub fn empty(env: Env) -> AppState {
        AppState {
            env,
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
            proving: None,
            proofs: Rc::default(),
            prove_next: None,
            view: None,
            course: None,
            progress: Rc::default(),
            draft: Rc::new(Course::untitled()),
            presenting: false,
            deferred: None,
        }
    }

    /// Says whether nothing is on screen or on its way (the page has just opened).
    pub fn is_blank(&self) -> bool {
        self.run.is_none() && self.pending.is_none() && self.table.is_none() && self.view.is_none()
    }

    /// Returns the URL hash for what is on screen, or on its way.
    pub fn hash(&self) -> String {
        match (self.view, &self.course, &self.pending) {
            (Some(View::Home), ..) => return String::new(),
            (Some(View::Builder), ..) => return route::format(&Route { target: Target::Builder, step: 0 }),
            (None, Some(course), Some((_, step))) => return course.link(*step),
            (None, Some(course), None) => return course.link(self.player.step as u64),
            _ => {}
        }
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

    /// The link that names the run on screen for its proof, whatever its step.
    pub fn proof_key(&self) -> Option<String> {
        self.run.as_ref().map(|run| route::format(&Route { target: run.target.clone(), step: 0 }))
    }

    /// What a verification of the run on screen proved this session, if one finished.
    pub fn proof(&self) -> Option<&Report> {
        let key = self.proof_key()?;
        self.proofs.iter().find(|(k, _)| *k == key).map(|(_, r)| r)
    }

    /// Says whether the run on screen is a cell of the comparison.
    pub fn is_cell(&self) -> bool {
        self.run.as_ref().is_some_and(|r| matches!(r.target, Target::Compare { .. }))
    }

    /// Returns what the lesson list marks as on screen: a cell belongs to the table's entry, an
    /// edited run to the one it was edited from.
    pub fn current(&self) -> Target {
        match (self.view, &self.course) {
            (Some(View::Home), _) => return Target::Home,
            (Some(View::Builder), _) => return Target::Builder,
            (None, Some(c)) => return Target::Course { course: c.reference.to_string(), stop: 0 },
            _ => {}
        }
        match (&self.pending, &self.run) {
            _ if self.table.is_some() || self.is_cell() => Target::Table,
            (Some((entry, _)), _) => Target::Lesson(entry.id.to_string()),
            (None, Some(_)) if self.editing.is_some() => self.editing.as_ref().map_or_else(first_lesson, |e| e.original().target.clone()),
            (None, Some(run)) => run.target.clone(),
            (None, None) => first_lesson(),
        }
    }

    /// Says whether predictions are asked: in a drill always; in a course where its stop asks
    /// them and they are on; elsewhere where they are on; never in a run being edited.
    pub fn asking(&self) -> bool {
        let on = self.env.preferences.predicting && self.course.as_ref().is_none_or(|c| c.stop().predict != Asking::None);
        self.editing.is_none() && (self.drill.is_some() || on)
    }

    /// Says whether the question at place `i` of the run's predictions has been answered.
    pub fn answered(&self, i: usize) -> bool {
        self.answers.iter().any(|a| a.0 == i)
    }

    /// Says whether the question at place `i` is still to ask: not answered yet, and asked
    /// where it is (a course's stop may ask only some of its run's questions).
    pub fn to_ask(&self, i: usize) -> bool {
        !self.answered(i) && self.course.as_ref().is_none_or(|c| c.stop().predict.asks(i))
    }

    /// Returns the question asked now and its place, if any: predictions are asked, and the next
    /// event is one a question not yet answered stops before.
    pub fn question(&self) -> Option<(usize, &Prediction)> {
        let run = self.run.as_ref().filter(|_| self.asking())?;
        run.predictions.iter().enumerate().find(|(i, p)| p.event == self.player.step && self.to_ask(*i))
    }

    /// What the narration asks or tells about a prediction at the cursor.
    pub fn ask(&self) -> Ask<'_> {
        if let Some((_, p)) = self.question() {
            return Ask::Question(p);
        }
        let Some(run) = self.run.as_ref().filter(|r| self.editing.is_none() && !r.predictions.is_empty()) else { return Ask::Nothing };
        // In a drill predictions are always asked, so there is nothing to switch.
        let Some(c) = self.player.cursor() else {
            return if self.drill.is_some() { Ask::Nothing } else { Ask::Offer(self.env.preferences.predicting) };
        };
        // At the end, the answer about the end; elsewhere the last question answered about this
        // event, a question about the end only noted.
        let end = c + 1 == run.trace.events.len();
        let answered = |data: bool| {
            self.answers.iter().rev().find_map(|&(i, chosen)| {
                run.predictions
                    .get(i)
                    .filter(|p| (p.asks == Asks::Data) == data && (data && end || !data && p.event == c))
                    .map(|p| (p, chosen))
            })
        };
        let noted = self
            .answers
            .iter()
            .rev()
            .find_map(|&(i, chosen)| run.predictions.get(i).filter(|p| p.asks == Asks::Data && p.event == c).map(|p| (p, chosen)));
        match (answered(true), answered(false), noted) {
            (Some((prediction, chosen)), ..) | (None, Some((prediction, chosen)), _) => {
                Ask::Answered { prediction, chosen, score: self.env.preferences.score }
            }
            (None, None, Some((prediction, chosen))) => Ask::Noted { prediction, chosen },
            _ => Ask::Nothing,
        }
    }

    /// The events the diagram marks as an answer's evidence: those of the question answered at
    /// the cursor that have happened, and the event at the cursor where it is evidence of any
    /// answer given (a question about a later moment is shown its answer as the run gets there).
    pub fn evidence(&self) -> Vec<usize> {
        let (Some(run), Some(c)) = (&self.run, self.player.cursor()) else { return Vec::new() };
        let mut marked: Vec<usize> = match self.ask() {
            Ask::Answered { prediction, .. } => prediction.evidence.iter().copied().filter(|&e| e <= c).collect(),
            _ => Vec::new(),
        };
        let answered = self.answers.iter().filter_map(|&(i, _)| run.predictions.get(i));
        if !marked.contains(&c) && answered.into_iter().any(|p| p.evidence.contains(&c)) {
            marked.push(c);
        }
        marked
    }

    /// Returns the lesson after the one on screen, outside a drill or a course (which have
    /// their own order) and an edit.
    pub fn next_lesson(&self) -> Option<&'static Entry> {
        match (&self.run, &self.drill, &self.editing) {
            (Some(run), None, None) if self.course.is_none() => match &run.target {
                Target::Lesson(id) => lessons::next(id),
                _ => None,
            },
            _ => None,
        }
    }

    /// Returns the simulated time at the cursor.
    pub fn now_ms(&self) -> u64 {
        match (&self.run, self.player.cursor()) {
            (Some(run), Some(c)) => run.trace.events[c].at_ms.as_ms(),
            _ => 0,
        }
    }
}
