//! Editing a scenario: every change is an action on the scenario's JSON document, addressed by
//! the field paths that errors use, so an edit is checked by the same reader and validation as a
//! file. Undo and redo, share links and the comparison of outcomes live here too. Pure, tested
//! natively; the page only maps input to these actions and draws.

pub mod doc;
pub mod handles;
pub mod history;
pub mod input;
pub mod link;
pub mod outcome;
pub mod prose;
pub mod start;
pub mod switch;
pub mod variant;

pub use doc::{apply, Edit};
pub use history::History;
