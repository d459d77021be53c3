//! Why a run stopped without a trace. Turned into words by `crate::error`.

use super::time::Millis;

/// A run that could not finish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// More events than `limits.max_events`.
    EventLimit { limit: usize },
    /// Simulated time went past `limits.max_time_ms`.
    TimeLimit { limit_ms: Millis },
    /// The spec lacks a resource, or a lock service its design needs.
    MissingRole,
}
