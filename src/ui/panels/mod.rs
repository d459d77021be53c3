//! The side panels as HTML text: the lesson picker, the scenario editor, the state inspector,
//! the narration, the guarantees and metrics, the comparison table, the interview questions and the
//! failure search's card. Pure functions of
//! a run, tested natively; the page places their text inside its own elements. Every name and sentence goes through [`Escaped`], so text from
//! a scenario file shows as text, never as markup.
//!
//! (Written as text rather than as Yew elements because each element a Yew view builds costs
//! several hundred bytes of WebAssembly; these panels hold most of the page's elements.)

mod compare;
mod editor;
mod finder;
mod guarantees;
mod handles;
mod narration;
mod picker;
mod questions;
mod state;

pub use compare::compare_table;
pub use editor::{editor, EditorState, EDIT_ATTRIBUTE};
pub use finder::{finder_card, progress_text};
pub use guarantees::guarantees;
pub use handles::{handles, KEYS_HELP};
pub use narration::{narration, verdict, Ask};
pub use picker::{picker, CURRENT_CLASS};
pub use questions::{drill_card, questions};
pub use state::state;

pub use crate::diagram::svg::Escaped;

pub use crate::ui::route::ROUTE_ATTRIBUTE;
