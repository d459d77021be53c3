//! Opening what a link names: a lesson (at once, or once its file arrives), a comparison cell,
//! the table, an edited scenario, a course at one of its stops, the front page or the course
//! builder; following the address's hash; and the drill's next lesson.

use super::edited::Editing;
use super::run::{self, fetched, load, Load, RunRef};
use super::state::{first_lesson, AppState, View, FIT};
use crate::course::Open;
use crate::scenario::compare;
use crate::scenario::lessons;
use crate::ui::course::Taking;
use crate::ui::drill::Drill;
use crate::ui::player::{Playback, Player};
use crate::ui::route::{self, Route, Target};
use std::rc::Rc;

impl AppState {
    /// Opens a target at a step, over what is on screen until a lesson's file arrives.
    pub fn open(&self, target: Target, step: u64) -> AppState {
        match target {
            Target::Table => return AppState { notice: None, ..self.open(first_lesson(), 0) }.with_table(),
            Target::Home | Target::Builder => {
                let view = Some(if target == Target::Home { View::Home } else { View::Builder });
                return AppState { view, table: None, pending: None, course: None, drill: None, ..self.clone() };
            }
            Target::Course { course, stop } => {
                return match Taking::named(&course, stop) {
                    // A stop's link to its setup opens the stop where the course says.
                    Ok(taking) => self.take(taking, step),
                    Err(e) => AppState { notice: Some(format!("Could not open the course: {e}.")), ..self.open(Target::Home, 0) },
                };
            }
            _ => {}
        }
        if let Target::Edited(link) = &target {
            return match Editing::from_link(link, self.env.room) {
                Ok((editing, run)) => AppState { editing: Some(Rc::new(editing)), ..self.show_only(run, step) },
                Err(e) => AppState { notice: Some(format!("Could not open the edited scenario: {e}.")), ..self.open(first_lesson(), 0) },
            };
        }
        match load(&target, self.env.room) {
            Ok(Load::Ready(run)) => AppState { zoom: self.zoom, drill: self.drill, ..self.show(run, step) },
            Ok(Load::Fetch(entry)) => AppState { table: None, notice: None, pending: Some((entry, step)), ..self.clone() },
            // The first lesson is always in the index; if even it cannot run, say so and show nothing.
            Err(e) if target == first_lesson() => AppState { notice: Some(format!("{e}.")), ..AppState::empty(self.env) },
            Err(e) => AppState { notice: Some(format!("{e}. Showing the first lesson instead.")), ..self.open(first_lesson(), 0) },
        }
    }

    /// Shows a run at a step; a step past the last shows the last, with a notice. On the
    /// editor's page, a lesson or a comparison cell opens for editing.
    pub fn show(&self, run: RunRef, step: u64) -> AppState {
        let shown = self.show_only(run, step);
        #[cfg(editing)]
        if self.env.page == super::state::Page::Editor && shown.run.as_ref().is_some_and(super::run::editable) {
            return shown.start_editing();
        }
        shown
    }

    /// Shows a run at a step, as it is.
    pub fn show_only(&self, run: RunRef, step: u64) -> AppState {
        // Presented to a room, a run is told on its story's axis.
        let run = if self.presenting { run.fitted(run.room, true) } else { run };
        let steps = run.trace.events.len();
        let (step, notice) = route::clamp(step, steps);
        AppState {
            player: Player::new(steps).apply(Playback::Load { steps, step }),
            run: Some(run),
            notice,
            zoom: FIT,
            // What was proved, and the table's verification, belong to the session, and what the
            // learner has done to the device.
            proofs: self.proofs.clone(),
            proving: self.proving.clone(),
            progress: self.progress.clone(),
            draft: self.draft.clone(),
            presenting: self.presenting,
            // A search belongs to the run it was started on.
            ..AppState::empty(self.env)
        }
    }

    /// Shows a fetched lesson file, if it is the one awaited; a table or a notice that came
    /// with the request stays.
    pub fn arrived(&self, id: &str, file: Result<String, String>) -> AppState {
        let Some((entry, step)) = self.pending.filter(|p| p.0.id == id) else { return self.clone() };
        match file.and_then(|source| fetched(entry, source, self.env.room).map_err(|e| e.to_string())) {
            Ok(run) => {
                let shown = self.show(run, step);
                let notice = shown.notice.clone().or(self.notice.clone());
                let (prove_next, course) = (self.prove_next.clone(), self.course.clone());
                AppState { table: self.table.clone(), notice, zoom: self.zoom, drill: self.drill, prove_next, course, ..shown }
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
    pub fn with_table(self) -> AppState {
        match compare::table() {
            Ok(rows) => AppState { table: Some(Rc::new(rows)), ..self },
            Err(e) => AppState { notice: Some(format!("The comparison could not run: {e}.")), ..self },
        }
    }

    /// Opens what a link names.
    pub fn follow(&self, hash: &str) -> AppState {
        match route::parse(hash) {
            Ok(Some(Route { target, step })) => self.open(target, step),
            // The player's bare address is the front page; the editor's opens the first lesson.
            Ok(None) if self.env.page == super::state::Page::Editor => self.open(first_lesson(), 0),
            Ok(None) => self.open(Target::Home, 0),
            Err(e) => AppState { notice: Some(format!("Could not read the link: {e}.")), ..self.open(first_lesson(), 0) },
        }
    }

    /// Opens the stop a course is at, at `step` of its run (0: where the course opens it).
    pub fn take(&self, taking: Taking, step: u64) -> AppState {
        let stop = taking.stop();
        let step = if step == 0 { stop.step } else { step };
        let opened = match &stop.open {
            Open::Lesson(id) => self.open(Target::Lesson(id.clone()), step),
            Open::Cell(cell) => {
                let (schedule, design) = cell.split_once('/').unwrap_or((cell, ""));
                self.open(Target::Compare { schedule: schedule.into(), design: design.into() }, step)
            }
            Open::Edited(link) => match run::edited(link, self.env.room) {
                Ok(run) => self.show_only(run, step),
                Err(e) => AppState { notice: Some(format!("This stop's scenario could not run: {e}.")), ..self.clone() },
            },
        };
        AppState { course: Some(taking), view: None, drill: None, ..opened }
    }

    /// Goes to where the drill `d` stands: its lesson, opened at its start, or, once it is over,
    /// its score (and the best drill is kept).
    pub fn drill(&self, d: Drill) -> AppState {
        match d.lesson_id() {
            Some(id) => AppState { drill: Some(d), ..self.open(Target::Lesson(id.to_string()), 0) },
            None => {
                let env = super::state::Env { preferences: self.env.preferences.finished((d.right, d.answered)), ..self.env };
                AppState { drill: Some(d), env, ..self.clone() }
            }
        }
    }
}
