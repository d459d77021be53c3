//! Why a run stopped without a trace.

use super::msg::group;
use std::fmt;

/// A run that could not finish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    EventLimit { limit: usize },
    TimeLimit { limit_ms: u64 },
    MissingRole,
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::EventLimit { limit } => write!(
                f,
                "the run passed {} events (limits.max_events): shorten the scripts or raise the limit",
                group(*limit as i64)
            ),
            RunError::TimeLimit { limit_ms } => write!(
                f,
                "the run went past {} ms of simulated time (limits.max_time_ms): is a client retrying or renewing forever?",
                group(*limit_ms as i64)
            ),
            RunError::MissingRole => write!(f, "a run needs one resource, and a lock_service unless the lock design is none"),
        }
    }
}

impl std::error::Error for RunError {}
