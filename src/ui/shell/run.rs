//! A run on screen: the scenario's texts, its trace, and everything derived from it once, laid
//! out to the room the page gives the diagram.

use crate::design::Design;
use crate::diagram::inspect::{Snapshot, Timeline};
use crate::diagram::layout::{layout_on, Room, TimeAxis};
use crate::diagram::window::Window;
use crate::diagram::Layout;
use crate::engine::{self, Trace};
use crate::error::ScenarioError;
use crate::present::{Asks, Beat, Prediction, Words};
use crate::scenario::lessons::{self, Entry};
use crate::scenario::{compare, stress, Scenario};
use crate::ui::panels::legend;
use crate::ui::panels::{narration, Ask};
use crate::ui::route::Target;
use std::rc::Rc;

/// A lesson (or stress run) with its trace, layout and the history of its states. What does not
/// depend on the room is shared with the same run laid out again.
pub struct Run {
    pub target: Target,
    pub scenario: Rc<Scenario>,
    /// The scenario file's text, for download.
    pub source: Option<Rc<str>>,
    pub trace: Rc<Trace>,
    pub layout: Layout,
    /// The width the layout was fitted to.
    pub room: Room,
    /// Whether the layout tells the run as a story to a room (presenter mode): on an axis whose
    /// time between events is drawn shorter.
    pub story: bool,
    /// The layout's items by height, for drawing only what is near the view.
    pub window: Window,
    pub timeline: Rc<Timeline>,
    /// The story's key events, in order.
    pub beats: Rc<[Beat]>,
    /// The outcomes a learner is asked to predict (not in a stress run).
    pub predictions: Rc<[Prediction]>,
    /// The legend of the diagram's kinds of item, as text.
    pub legend: Rc<str>,
}

impl Run {
    /// Returns the step (events shown) of the next beat after `step`, or of the one before it.
    pub fn beat_step(&self, step: usize, forward: bool) -> Option<usize> {
        let steps = self.beats.iter().map(|b| b.event + 1);
        if forward {
            steps.into_iter().find(|&s| s > step)
        } else {
            steps.into_iter().rev().find(|&s| s < step)
        }
    }

    /// Returns the beat at event `i`, if it is one.
    pub fn beat_at(&self, i: usize) -> Option<&Beat> {
        self.beats.iter().find(|b| b.event == i)
    }

    /// Returns the run's lock design.
    pub fn design(&self) -> &dyn Design {
        &*self.scenario.lock.design
    }

    /// Returns the state of every node just after event `i`.
    pub fn state(&self, i: usize) -> Snapshot {
        self.timeline.at(&self.trace, i)
    }

    /// Returns the run in its design's words.
    pub fn words(&self) -> Words<'_> {
        Words::new(&self.trace, self.design())
    }

    /// Returns every text the narration can show as the run is stepped through, the setup's
    /// apart: with predictions offered on or off, each event, and each prediction asked and
    /// answered with each choice or revealed; `next` is the lesson after. The page sizes the narration's band to
    /// the tallest. A run of more than [`NARRATED_UP_TO`] events (a stress run) gives none.
    pub fn narrations(&self, next: Option<&Entry>) -> (Vec<String>, Vec<String>) {
        if self.trace.events.len() > NARRATED_UP_TO {
            return (Vec::new(), Vec::new());
        }
        let words = self.words();
        let text = |cursor: Option<usize>, ask: Ask| {
            narration(&self.scenario, &self.trace, &words, cursor, cursor.and_then(|c| self.beat_at(c)), ask, next)
        };
        let mut setup = vec![text(None, Ask::Offer(true)), text(None, Ask::Offer(false))];
        let mut steps: Vec<String> = (0..self.trace.events.len()).map(|c| text(Some(c), Ask::Nothing)).collect();
        for p in self.predictions.iter() {
            let asked = text(p.event.checked_sub(1), Ask::Question(p));
            if p.event == 0 { &mut setup } else { &mut steps }.push(asked);
            // The score at its widest; a question about the end is noted where it is asked and
            // answered at the end.
            let score = (99_999, 99_999);
            let chosen = || (0..p.choices.len()).map(Some).chain([None]);
            let answered_at = if p.asks == Asks::Data { self.trace.events.len() - 1 } else { p.event };
            steps.extend(chosen().map(|chosen| text(Some(answered_at), Ask::Answered { prediction: p, chosen, score })));
            if p.asks == Asks::Data {
                steps.extend(chosen().map(|chosen| text(Some(p.event), Ask::Noted { prediction: p, chosen })));
            }
        }
        (setup, steps)
    }
}

/// Runs with up to this many events (every lesson and comparison cell) have their narration's
/// band sized to its tallest text.
pub const NARRATED_UP_TO: usize = 400;

/// A shared run, compared by identity so components skip work when it has not changed.
#[derive(Clone)]
pub struct RunRef(pub Rc<Run>);

impl std::fmt::Debug for RunRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RunRef({})", self.scenario.id)
    }
}

impl PartialEq for RunRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl std::ops::Deref for RunRef {
    type Target = Run;
    fn deref(&self) -> &Run {
        &self.0
    }
}

/// Says whether a run can be edited: a lesson or a comparison cell (not the stress run).
pub fn editable(run: &RunRef) -> bool {
    run.source.is_some() || matches!(run.target, Target::Compare { .. })
}

/// What opening a target takes: nothing more, or first fetching a lesson's file.
pub enum Load {
    Ready(RunRef),
    Fetch(&'static Entry),
}

/// Runs a target laid out in `room`, or says why it cannot be shown, or that its lesson file
/// must be fetched.
pub fn load(target: &Target, room: Room) -> Result<Load, ScenarioError> {
    let (scenario, spec, source) = match target {
        Target::Lesson(id) => {
            let entry = lessons::entry(id)?;
            let Some(source) = lessons::embedded(id) else { return Ok(Load::Fetch(entry)) };
            let (scenario, spec) = lessons::read(entry, source)?;
            (scenario, spec, Some(Rc::from(source)))
        }
        Target::Stress(n) => {
            let (s, spec) = stress::stress(*n)?;
            (s, spec, None)
        }
        Target::Compare { schedule, design } => {
            let (_, scenario, trace) = compare::cell(compare::schedule(schedule)?, &compare::row(design)?)?;
            return Ok(Load::Ready(finish(target, scenario, None, trace, room)));
        }
        Target::Table | Target::Home | Target::Builder | Target::Course { .. } => {
            return Err(ScenarioError::new("", "a page of several runs is not a single run"))
        }
        Target::Edited(_) => return Err(ScenarioError::new("", "an edited scenario opens in the editor")),
    };
    let trace = engine::run(&spec)?;
    Ok(Load::Ready(finish(target, scenario, source, trace, room)))
}

/// Runs an edited scenario from its link, to be shown as it is (a course's stop), laid out in
/// `room`; its file is the link's document.
pub fn edited(link: &str, room: Room) -> Result<RunRef, ScenarioError> {
    let doc = crate::edit::link::decode(link)?;
    let (scenario, spec) = crate::scenario::validate::load_doc(&doc)?;
    let trace = engine::run(&spec)?;
    let source = crate::scenario::json::write(&doc, Some(2));
    Ok(finish(&Target::Edited(link.to_string()), scenario, Some(Rc::from(source)), trace, room))
}

/// Runs a lesson from its fetched file, laid out in `room`.
pub fn fetched(entry: &Entry, source: String, room: Room) -> Result<RunRef, ScenarioError> {
    let (scenario, spec) = lessons::read(entry, &source)?;
    let trace = engine::run(&spec)?;
    Ok(finish(&Target::Lesson(entry.id.to_string()), scenario, Some(Rc::from(source)), trace, room))
}

/// Derives everything the page shows from a finished run, laid out in `room`.
pub fn finish(target: &Target, scenario: Scenario, source: Option<Rc<str>>, trace: Trace, room: Room) -> RunRef {
    let words = Words::new(&trace, &*scenario.lock.design);
    let layout = layout_on(&words, &TimeAxis::of(&trace), room);
    let timeline = Rc::new(Timeline::new(&trace));
    let window = Window::new(&layout);
    let beats = words.beats().into();
    let predictions =
        if matches!(target, Target::Lesson(_) | Target::Compare { .. } | Target::Edited(_)) { words.predictions() } else { Vec::new() }
            .into();
    let legend = Rc::from(legend::legend(&layout));
    let (scenario, trace) = (Rc::new(scenario), Rc::new(trace));
    RunRef(Rc::new(Run {
        target: target.clone(),
        scenario,
        source,
        trace,
        layout,
        room,
        story: false,
        window,
        timeline,
        beats,
        predictions,
        legend,
    }))
}

impl RunRef {
    /// Returns the run laid out again on `axis` in `room` (`story`: an axis that tells it to a
    /// room); everything else stays.
    pub fn relaid(&self, axis: &TimeAxis, room: Room, story: bool) -> RunRef {
        let layout = layout_on(&self.words(), axis, room);
        let window = Window::new(&layout);
        let (scenario, trace, timeline) = (self.scenario.clone(), self.trace.clone(), self.timeline.clone());
        let (beats, predictions, legend) = (self.beats.clone(), self.predictions.clone(), self.legend.clone());
        let (target, source) = (self.target.clone(), self.source.clone());
        RunRef(Rc::new(Run { target, scenario, source, trace, layout, room, story, window, timeline, beats, predictions, legend }))
    }

    /// Returns the run fitted to `room`, told as a story to a room or not (`story`), or itself
    /// if it already is.
    pub fn fitted(&self, room: Room, story: bool) -> RunRef {
        if room == self.room && story == self.story {
            return self.clone();
        }
        let axis = if story { TimeAxis::story(&self.trace) } else { TimeAxis::of(&self.trace) };
        self.relaid(&axis, room, story)
    }
}

/// Returns two runs laid out on one time axis, each in half of `room`, to be drawn side by side:
/// the same simulated time is at the same height in both.
#[cfg(editing)]
pub fn side_by_side(a: &RunRef, b: &RunRef, room: Room) -> (RunRef, RunRef) {
    let axis = TimeAxis::shared(&a.trace, &b.trace);
    let half = match room {
        Room::Fit(units) => Room::Fit(units / 2.0 - 16.0),
        Room::Natural => Room::Natural,
    };
    (a.relaid(&axis, half, false), b.relaid(&axis, half, false))
}
