//! The courses Lockstep ships: a class, an evening before an interview, and a deep path through
//! each family of locks. Each is a course file like any a teacher writes, read with the same
//! reader (tests check that each reads, and that each stop opens where a story starts or at one
//! of its key moments).

use super::format::{parse, Course};

/// A course shipped with Lockstep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuiltIn {
    /// The id its links use (`#/course/<id>/…`).
    pub id: &'static str,
    /// The course file's text.
    pub source: &'static str,
}

/// Every shipped course; the first is the one a newcomer is offered first.
pub const BUILT_IN: &[BuiltIn] = &[
    BuiltIn { id: "class", source: include_str!("courses/class.json") },
    BuiltIn { id: "interview", source: include_str!("courses/interview.json") },
    BuiltIn { id: "redis", source: include_str!("courses/redis.json") },
    BuiltIn { id: "consensus", source: include_str!("courses/consensus.json") },
    BuiltIn { id: "databases", source: include_str!("courses/databases.json") },
    BuiltIn { id: "alternatives", source: include_str!("courses/alternatives.json") },
];

impl BuiltIn {
    /// Reads the course. Its file is shipped and tested, so an error is a bug, reported as such.
    pub fn course(&self) -> Result<Course, String> {
        parse(self.source).map_err(|e| format!("the shipped course {} is invalid: {e}", self.id))
    }
}

/// Finds a shipped course by its id.
pub fn built_in(id: &str) -> Option<&'static BuiltIn> {
    BUILT_IN.iter().find(|b| b.id == id)
}
