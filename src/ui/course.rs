//! A course being taken: which course, how its links name it, and which stop is on. Plain
//! state, tested natively; the page opens each stop's run.

use crate::course::{built_in, format, Course, Stop};
use crate::error::{unknown, ScenarioError};
use crate::ui::route::{self, Route, Target};
use std::rc::Rc;

/// Where a course stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Taking {
    pub course: Rc<Course>,
    /// How links name the course: a shipped course's id, or the course packed as link text.
    pub reference: Rc<str>,
    /// The stop on now, by its place in the course.
    pub at: usize,
}

impl Taking {
    /// Starts the course a link names (a shipped course's id, or a packed course) at its stop
    /// `at` (clamped to its last).
    pub fn named(reference: &str, at: usize) -> Result<Taking, ScenarioError> {
        let course = match built_in(reference) {
            Some(b) => b.course().map_err(|e| ScenarioError::new("", e))?,
            None if reference.starts_with(crate::edit::link::VERSION) => format::from_link(reference)?,
            None => return Err(unknown("course", reference, &crate::course::BUILT_IN.iter().map(|b| b.id).collect::<Vec<_>>())),
        };
        let at = at.min(course.stops.len() - 1);
        Ok(Taking { course: Rc::new(course), reference: reference.into(), at })
    }

    /// Returns the stop on now.
    pub fn stop(&self) -> &Stop {
        &self.course.stops[self.at]
    }

    /// Returns the course at its next stop, if there is one.
    pub fn next(&self) -> Option<Taking> {
        (self.at + 1 < self.course.stops.len()).then(|| Taking { at: self.at + 1, ..self.clone() })
    }

    /// Returns the course at its stop before, if there is one.
    pub fn previous(&self) -> Option<Taking> {
        self.at.checked_sub(1).map(|at| Taking { at, ..self.clone() })
    }

    /// Returns the minutes the stops after this one take.
    pub fn minutes_left(&self) -> u32 {
        self.course.stops[self.at + 1..].iter().map(|s| s.minutes).sum()
    }

    /// Returns the link to the course at its stop on now, at `step` of its run.
    pub fn link(&self, step: u64) -> String {
        route::format(&Route { target: Target::Course { course: self.reference.to_string(), stop: self.at }, step })
    }
}
