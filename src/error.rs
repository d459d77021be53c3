//! The one error type for scenario problems: a field path and what is wrong there. Decoding,
//! validation, the designs' parameters, a run that hits a limit and the command line all speak it.

use crate::engine::spec::Limits;
use crate::engine::RunError;
use crate::present::number::{group_u, ms};
use std::fmt;

/// A problem with a scenario, at a field path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// Where the problem is, like `participants[1].script[0]`; empty for the whole file.
    pub path: String,
    pub problem: String,
}

impl ScenarioError {
    /// Builds an error at `path`.
    pub fn new(path: impl Into<String>, problem: impl Into<String>) -> Self {
        ScenarioError { path: path.into(), problem: problem.into() }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.problem)
        } else {
            write!(f, "{}: {}", self.path, self.problem)
        }
    }
}

impl std::error::Error for ScenarioError {}

impl From<RunError> for ScenarioError {
    fn from(e: RunError) -> Self {
        match e {
            RunError::EventLimit { limit } => {
                let advice = if limit < Limits::MAX_EVENTS {
                    "shorten the scripts or raise the limit"
                } else {
                    "the most a run may have; shorten the scripts"
                };
                ScenarioError::new("limits.max_events", format!("the run passed {} events: {advice}", group_u(limit as u64)))
            }
            RunError::TimeLimit { limit_ms } => {
                let advice = if limit_ms < Limits::MAX_TIME_MS {
                    "is a client retrying or renewing forever?"
                } else {
                    "the most a run may last; is a client retrying or renewing forever?"
                };
                ScenarioError::new("limits.max_time_ms", format!("the run went past {} of simulated time: {advice}", ms(limit_ms)))
            }
            RunError::MissingRole => {
                ScenarioError::new("participants", "a run needs one resource, and a lock_service unless the lock design is none")
            }
        }
    }
}
