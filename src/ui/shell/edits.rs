//! What a change to the scenario being edited does to the page: the edited run, shown at the
//! same simulated time as the cursor; or, if the change could not be made, the same run with
//! the editor saying why. Times read off the diagram snap to 1, 10 or 100 ms by how many
//! milliseconds a screen pixel spans there.

use super::action::EditAction;
use super::edited::Editing;
use super::run::{editable, RunRef};
use super::state::AppState;
use crate::edit::handles::{snap_step, Axis, Gesture};
use crate::edit::{input::Input, Edit, History};
use crate::error::ScenarioError;
use crate::scenario::faults::DELAY_MESSAGE;
use crate::ui::player::Playback;
use std::rc::Rc;

impl AppState {
    /// Starts editing the run on screen, or says why it cannot be edited.
    pub fn start_editing(&self) -> AppState {
        let Some(run) = self.run.as_ref().filter(|r| editable(r)) else { return self.clone() };
        match Editing::start(run) {
            Ok((editing, shown)) => self.edited((editing, Some(shown))),
            Err(e) => AppState { notice: Some(format!("This run cannot be edited: {e}.")), ..self.clone() },
        }
    }

    /// Applies a change to the scenario being edited.
    pub fn edit(&self, action: EditAction) -> AppState {
        // A file or a blank scenario starts editing afresh.
        let fresh = match &action {
            EditAction::Open(file) => {
                Some(file.clone().map_err(|e| ScenarioError::new("", e)).and_then(|text| Editing::from_file(&text, self.env.room)))
            }
            EditAction::Field { kind: Input::New, text, .. } => Some(Editing::blank(text, self.env.room)),
            _ => None,
        };
        if let Some(fresh) = fresh {
            return match fresh {
                Ok((editing, shown)) => AppState { editing: Some(Rc::new(editing)), notice: None, ..self.show_only(shown, 0) },
                Err(e) => AppState { notice: Some(format!("That is not a scenario Lockstep can run: {e}.")), ..self.clone() },
            };
        }
        let (Some(run), Some(editing)) = (&self.run, &self.editing) else { return self.clone() };
        // Only keys on a fault's handle keep the focus there; any other change lets it go.
        let editing = &Editing { keys: editing.keys && matches!(action, EditAction::Gesture(_)), ..(**editing).clone() };
        match action {
            EditAction::Open(_) | EditAction::CopyLink => self.clone(),
            EditAction::Apply(edit) => self.edited(editing.apply(&edit)),
            EditAction::Field { path, kind, text } => match kind {
                Input::Design => self.edited(editing.switch_design(&text)),
                Input::Tool => AppState { editing: Some(Rc::new(editing.choose_tool(&text))), ..self.clone() },
                Input::Beside => self.edited(editing.beside(&text)),
                _ => match kind.edit(path, &text) {
                    Some(edit) => self.edited(editing.apply(&edit)),
                    None => self.clone(),
                },
            },
            // A new fault or client starts at the cursor's time: the run forks from where it is.
            EditAction::AddFault(kind) => self.edited(editing.add_fault(&kind, run, self.now_ms(), None)),
            EditAction::Gesture(gesture) => self.gesture(editing, run, gesture),
            EditAction::Message(send, delayed) => {
                let extra_ms = delayed.then(|| DELAY_MESSAGE.start_ms("extra_ms"));
                self.edited(editing.message(run, send, extra_ms))
            }
            EditAction::Beside(which) => self.edited(editing.beside(&which)),
            EditAction::AddClient => self.edited(editing.add_client(self.now_ms())),
            EditAction::RemoveParticipant(i) => self.edited(editing.remove_participant(i)),
            EditAction::AddStep(i) => self.edited(editing.add_step(i)),
            EditAction::Undo => self.edited(editing.step(History::undo)),
            EditAction::Redo => self.edited(editing.step(History::redo)),
            EditAction::Reset => self.edited(editing.step(|h| {
                h.reset();
                true
            })),
        }
    }

    /// Shows what an edit made: the new run at the same simulated time as the cursor, or, if the
    /// edit could not be made, the same run with the editor saying why.
    fn edited(&self, (editing, shown): (Editing, Option<RunRef>)) -> AppState {
        let editing = Some(Rc::new(editing));
        let Some(run) = shown else { return AppState { editing, ..self.clone() } };
        let steps = run.trace.events.len();
        let step = match (&self.run, self.player.cursor()) {
            (Some(old), Some(c)) => run.trace.at_time_of(&old.trace.events, c) + 1,
            _ => 0,
        };
        AppState {
            player: self.player.apply(Playback::Load { steps, step }),
            run: Some(run),
            editing,
            answers: Rc::default(),
            ..self.clone()
        }
    }

    /// Does what a gesture on the diagram asks: times are read off the diagram's axis and snap
    /// to 1, 10 or 100 ms by how many milliseconds a screen pixel spans there.
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
}
