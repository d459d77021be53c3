//! Opening what a link names: a lesson (at once, or once its file arrives), a comparison cell,
//! the table, an edited scenario; following the address's hash; and the drill's next lesson.

use super::edited::Editing;
use super::effect::Effect;
use super::run::{fetched, load, Load, RunRef};
use super::state::{first_lesson, AppState, Page, FIT};
use crate::scenario::compare;
use crate::scenario::lessons;
use crate::ui::drill::Drill;
use crate::ui::player::{Playback, Player};
use crate::ui::route::{self, Route, Target};
use std::rc::Rc;

impl AppState {
    /// Opens a target at a step, over what is on screen until a lesson's file arrives (the file
    /// is fetched).
    pub fn open(&self, target: Target, step: u64) -> (AppState, Vec<Effect>) {
        if target == Target::Table {
            let (shown, effects) = self.open(first_lesson(), 0);
            return (AppState { notice: None, ..shown }.with_table(), effects);
        }
        if let Target::Edited(link) = &target {
            return match Editing::from_link(link, self.env.room) {
                Ok((editing, run)) => (AppState { editing: Some(Rc::new(editing)), ..self.show_only(run, step) }, Vec::new()),
                Err(e) => {
                    let (shown, effects) = self.open(first_lesson(), 0);
                    (AppState { notice: Some(format!("Could not open the edited scenario: {e}.")), ..shown }, effects)
                }
            };
        }
        match load(&target, self.env.room) {
            Ok(Load::Ready(run)) => (AppState { zoom: self.zoom, drill: self.drill, ..self.show(run, step) }, Vec::new()),
            Ok(Load::Fetch(entry)) => {
                (AppState { table: None, notice: None, pending: Some((entry, step)), ..self.clone() }, vec![Effect::Fetch(entry.id)])
            }
            // The first lesson is always in the index; if even it cannot run, say so and show nothing.
            Err(e) if target == first_lesson() => (AppState { notice: Some(format!("{e}.")), ..AppState::empty(self.env) }, Vec::new()),
            Err(e) => {
                let (shown, effects) = self.open(first_lesson(), 0);
                (AppState { notice: Some(format!("{e}. Showing the first lesson instead.")), ..shown }, effects)
            }
        }
    }

    /// Shows a run at a step; a step past the last shows the last, with a notice. On the
    /// editor's page, a lesson or a comparison cell opens for editing.
    pub fn show(&self, run: RunRef, step: u64) -> AppState {
        let shown = self.show_only(run, step);
        #[cfg(editing)]
        if self.env.page == Page::Editor && shown.run.as_ref().is_some_and(super::run::editable) {
            return shown.start_editing();
        }
        shown
    }

    /// Shows a run at a step, as it is.
    pub fn show_only(&self, run: RunRef, step: u64) -> AppState {
        let steps = run.trace.events.len();
        let (step, notice) = route::clamp(step, steps);
        AppState {
            player: Player::new(steps).apply(Playback::Load { steps, step }),
            run: Some(run),
            notice,
            zoom: FIT,
            // A search belongs to the run it was started on.
            ..AppState::empty(self.env)
        }
    }

    /// Shows a fetched lesson file, if it is the one awaited; a table or a notice that came
    /// with the request stays.
    pub fn arrived(&self, id: &str, file: Result<String, String>) -> (AppState, Vec<Effect>) {
        let Some((entry, step)) = self.pending.filter(|p| p.0.id == id) else { return (self.clone(), Vec::new()) };
        match file.and_then(|source| fetched(entry, source, self.env.room).map_err(|e| e.to_string())) {
            Ok(run) => {
                let shown = self.show(run, step);
                let notice = shown.notice.clone().or(self.notice.clone());
                (AppState { table: self.table.clone(), notice, zoom: self.zoom, drill: self.drill, ..shown }, Vec::new())
            }
            Err(e) => {
                let notice = Some(format!("The lesson “{}” could not be loaded: {e}.", entry.title));
                if self.run.is_none() && id != lessons::index()[0].id {
                    let (shown, effects) = self.open(first_lesson(), 0);
                    (AppState { notice, ..shown }, effects)
                } else {
                    (AppState { notice, pending: None, ..self.clone() }, Vec::new())
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

    /// Opens what a link names. On the player's page, an edited scenario's link is handed to
    /// the editor's page.
    pub fn follow(&self, hash: &str) -> (AppState, Vec<Effect>) {
        match route::parse(hash) {
            Ok(Some(Route { target: Target::Edited(_), .. })) if self.env.page == Page::Player => (self.clone(), vec![Effect::OpenEditor]),
            Ok(Some(Route { target, step })) => self.open(target, step),
            Ok(None) => self.open(first_lesson(), 0),
            Err(e) => {
                let (shown, effects) = self.open(first_lesson(), 0);
                (AppState { notice: Some(format!("Could not read the link: {e}.")), ..shown }, effects)
            }
        }
    }

    /// Goes to where the drill `d` stands: its lesson, opened at its start, or, once it is over,
    /// its score (and the best drill is kept).
    pub fn drill(&self, d: Drill) -> (AppState, Vec<Effect>) {
        match d.lesson_id() {
            Some(id) => {
                let (shown, effects) = self.open(Target::Lesson(id.to_string()), 0);
                (AppState { drill: Some(d), ..shown }, effects)
            }
            None => {
                let settings = self.env.settings.finished((d.right, d.answered));
                let env = super::state::Env { settings, ..self.env };
                (AppState { drill: Some(d), env, ..self.clone() }, vec![Effect::Keep(settings)])
            }
        }
    }
}
