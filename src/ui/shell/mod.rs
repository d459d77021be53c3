//! The app's state and actions, pure: a [`reduce`] from an [`Action`] and the [`AppState`] before
//! it to the state after it and the [`Effect`]s to run. Every click and key becomes an action
//! through one table ([`command`]); `ui::web` dispatches actions and runs effects, and nothing
//! else. Tested natively.

pub mod action;
pub mod binding;
pub mod draft;
pub mod edited;
#[cfg(editing)]
mod edits;
pub mod effect;
mod learning;
mod navigate;
pub mod preferences;
pub mod reducer;
pub mod run;
pub mod state;

pub use action::{Action, Copied, CourseMove, DraftEdit, DraftUse, Export, Picked};
pub use effect::Effect;
pub use preferences::Preferences;
pub use reducer::reduce;
pub use run::{Run, RunRef};
pub use state::{AppState, Env, Page, SearchState, TableProofs, View};
