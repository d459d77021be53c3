//! The changes the editor makes to a typed scenario: a field set from what a person typed, a
//! fault, client or script step added, a step replaced, or something removed. Each gives a new
//! scenario, which validation then checks like a file; nothing is written out and read again.

use super::start::without_participant;
use crate::engine::spec::Step;
use crate::error::ScenarioError;
use crate::scenario::format::{Fault, Participant, Scenario};
use crate::scenario::json::Value;
use crate::scenario::set::{self, element, segments, Seg};
use crate::scenario::steps;

/// One change to a scenario.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// Sets the field at `path` (as errors name it: `faults[2].for_ms`) to `value`, as typed
    /// (see [`super::input::Input::value`]); `None` gives the field its default.
    Set { path: String, value: Option<Value> },
    /// Adds a fault at the end of the schedule.
    AddFault(Fault<String>),
    /// Adds a participant at the end.
    AddParticipant(Participant),
    /// Adds a step at the end of client `client`'s script (`client` counts participants).
    AddStep { client: usize, step: Step },
    /// Replaces the script step at `path` (`participants[0].script[1]`) with a new one of
    /// another kind.
    ReplaceStep { path: String, step: Step },
    /// Removes the fault, script step or participant at `path` (`faults[2]`,
    /// `participants[0].script[1]`, `participants[3]`); a participant goes with what names it
    /// in the faults.
    Remove { path: String },
}

impl Edit {
    /// Returns the field path of what the edit changes.
    pub fn path(&self) -> String {
        match self {
            Edit::Set { path, .. } | Edit::ReplaceStep { path, .. } | Edit::Remove { path } => path.clone(),
            Edit::AddFault(_) => "faults".into(),
            Edit::AddParticipant(_) => "participants".into(),
            Edit::AddStep { client, .. } => format!("participants[{client}].script"),
        }
    }
}

/// Returns the script of participant `i` of `s`, if it is a client.
fn script(s: &mut Scenario, i: usize) -> Option<&mut Vec<Step>> {
    match s.participants.get_mut(i) {
        Some(Participant::Client { script, .. }) => Some(script),
        _ => None,
    }
}

/// Applies an edit, returning the new scenario; the original is untouched.
pub fn apply(s: &Scenario, edit: &Edit) -> Result<Scenario, ScenarioError> {
    let path = edit.path();
    let mut s = s.clone();
    let no_script = || ScenarioError::new(&path, "is not a client's script");
    match edit {
        Edit::Set { path, value } => return set::set(&s, path, value.as_ref()),
        Edit::AddFault(fault) => s.faults.push(fault.clone()),
        Edit::AddParticipant(p) => s.participants.push(p.clone()),
        Edit::AddStep { client, step } => script(&mut s, *client).ok_or_else(no_script)?.push(step.clone()),
        Edit::ReplaceStep { step, .. } => match segments(&path)?.as_slice() {
            [Seg::Field("participants"), Seg::Index(i), Seg::Field("script"), Seg::Index(j)] => {
                let steps = script(&mut s, *i).ok_or_else(no_script)?;
                let j = element(&path, *j, steps.len())?;
                // The kind it already is keeps the step as it is.
                if steps::kind_of(&steps[j]).tag != steps::kind_of(step).tag {
                    steps[j] = step.clone();
                }
            }
            _ => return Err(ScenarioError::new(&path, "is not a script step")),
        },
        Edit::Remove { .. } => match segments(&path)?.as_slice() {
            [Seg::Field("participants"), Seg::Index(i), Seg::Field("script"), Seg::Index(j)] => {
                let steps = script(&mut s, *i).ok_or_else(no_script)?;
                steps.remove(element(&path, *j, steps.len())?);
            }
            [Seg::Field("faults"), Seg::Index(i)] => drop(s.faults.remove(element(&path, *i, s.faults.len())?)),
            [Seg::Field("participants"), Seg::Index(i)] => {
                return without_participant(&s, element(&path, *i, s.participants.len())?).ok_or_else(no_script)
            }
            _ => return Err(ScenarioError::new(&path, "cannot be removed")),
        },
    }
    Ok(s)
}
