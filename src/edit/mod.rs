//! Editing a scenario: every change is an action on the typed scenario, a field addressed by the
//! field path that errors use and read from what a person typed by the same readers as a file,
//! so an edit is checked like a file. Undo and redo, share links and the comparison of outcomes
//! live here too. Pure, tested natively; the page only maps input to these actions and draws.

pub mod change;
pub mod handles;
pub mod history;
pub mod input;
pub mod link;
pub mod outcome;
pub mod prose;
pub mod start;
pub mod switch;
pub mod variant;

pub use change::{apply, Edit};
pub use history::History;
