//! The page's panels as HTML text: the top bar and the run's heading, the lesson picker, the
//! scenario editor's form, the state inspector, the narration, the guarantees and metrics, the
//! legend, the comparison table, the interview questions and the failure search's card. Pure functions of
//! a run, tested natively; the page places their text inside its own elements. Every name and sentence goes through [`Escaped`], so text from
//! a scenario file shows as text, never as markup.
//!
//! (Written as text rather than as Yew elements because each element a Yew view builds costs
//! several hundred bytes of WebAssembly; these panels hold most of the page's elements.)

mod builder;
mod chrome;
mod compare;
mod courses;
mod guarantees;
mod handle_layer;
pub mod legend;
mod narration;
mod picker;
mod questions;
mod scenario_form;
mod search_card;
mod state;

pub use builder::builder;
pub use chrome::{lesson_head, top, verdict_text, From};
pub use compare::compare_table;
pub use courses::{course_card, home, menu_paths, notes_page, stop_title};
pub use guarantees::guarantees;
pub use handle_layer::{handles, KEYS_HELP};
pub use narration::{narration, verdict, Ask};
pub use picker::{picker, CURRENT_CLASS};
pub use questions::{drill_card, questions};
pub use scenario_form::{editor, EditorState, EDIT_ATTRIBUTE};
pub use search_card::{finder_card, progress_text, proving_text};
pub use state::state;

pub use crate::diagram::svg::Escaped;

pub use crate::ui::route::ROUTE_ATTRIBUTE;
