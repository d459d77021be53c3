//! The preset lessons, in teaching order: an index of ids, topics and titles built from the
//! lesson files, and the files themselves where the build embeds them (the command line and the
//! tests; the web app fetches a lesson's file when it is opened).

use super::format::Scenario;
use super::validate::{load, ScenarioError};
use crate::engine::spec::Spec;
use crate::error::unknown;

/// A lesson as the picker lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub id: &'static str,
    pub topic: &'static str,
    pub title: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/lessons.rs"));

/// Returns every lesson's entry, in teaching order.
pub fn index() -> &'static [Entry] {
    INDEX
}

/// Returns the lesson after `id` in teaching order, if there is one.
pub fn next(id: &str) -> Option<&'static Entry> {
    let all = index();
    all.iter().position(|e| e.id == id).and_then(|i| all.get(i + 1))
}

/// Finds a lesson's entry by id, suggesting the closest ids if there is none.
pub fn entry(id: &str) -> Result<&'static Entry, ScenarioError> {
    INDEX.iter().find(|e| e.id == id).ok_or_else(|| unknown("lesson", id, &INDEX.iter().map(|e| e.id).collect::<Vec<_>>()))
}

/// Returns a lesson's file if this build embeds the lessons.
pub fn embedded(id: &str) -> Option<&'static str> {
    #[cfg(feature = "embedded-lessons")]
    return INDEX.iter().position(|e| e.id == id).map(|i| SOURCES[i]);
    #[cfg(not(feature = "embedded-lessons"))]
    {
        let _ = id;
        None
    }
}

/// Reads a lesson's file, fetched or embedded, checking that it is the lesson asked for.
pub fn read(entry: &Entry, source: &str) -> Result<(Scenario, Spec), ScenarioError> {
    let (scenario, spec) = load(source)?;
    if scenario.id != entry.id {
        return Err(ScenarioError::new("id", format!("the file for lesson {} says it is {}", entry.id, scenario.id)));
    }
    Ok((scenario, spec))
}

/// A preset lesson, built in: its parsed scenario, the spec to run, and its JSON source.
#[derive(Clone, Debug)]
pub struct Lesson {
    pub scenario: Scenario,
    pub spec: Spec,
    pub source: &'static str,
}

impl Lesson {
    /// Returns the lesson's stable id.
    pub fn id(&self) -> &str {
        &self.scenario.id
    }
}

/// Loads every lesson. Each is a shipped file checked by the tests, so an error here is a bug.
#[cfg(feature = "embedded-lessons")]
pub fn all() -> Vec<Lesson> {
    SOURCES
        .iter()
        .map(|source| {
            let (scenario, spec) = load(source).unwrap_or_else(|e| panic!("a lesson file is invalid: {e}"));
            Lesson { scenario, spec, source }
        })
        .collect()
}

/// Finds a lesson by id, suggesting the closest ids if there is none.
#[cfg(feature = "embedded-lessons")]
pub fn find(id: &str) -> Result<Lesson, ScenarioError> {
    let e = entry(id)?;
    let source = embedded(id).expect("every entry is embedded");
    let (scenario, spec) = read(e, source)?;
    Ok(Lesson { scenario, spec, source })
}
