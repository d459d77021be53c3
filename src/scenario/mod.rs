//! Scenarios: the versioned JSON format (its reader, `decode`, and writer, `encode`, side by side,
//! with one table of names per enum in `tags`), its validation, and the preset lessons.
//!
//! Depends on the engine's spec types; never on the UI.

pub mod compare;
pub(crate) mod decode;
pub mod encode;
pub mod faults;
pub mod field;
pub mod format;
pub mod json;
pub mod lessons;
pub mod questions;
pub mod set;
pub mod steps;
pub mod stress;
pub mod tags;
pub mod validate;

pub use format::Scenario;
pub use lessons::Lesson;
pub use validate::{load, ScenarioError};
