//! Words for people, built from typed events and a design's [`Vocabulary`]: the narration, the
//! text trace, arrow and mark labels, the story's beats and the questions asked before an outcome, findings, the verdict, the metrics, inspector sentences
//! and export notes. Pure: it names no UI crate.

pub mod beats;
pub mod findings;
pub mod generated;
pub mod labels;
pub mod narration;
pub mod number;
pub mod phrases;
pub mod predictions;
pub mod quoted;
pub mod table;
pub mod trace_json;
pub mod vocabulary;
pub mod words;

pub use beats::Beat;
pub use predictions::{Asks, Prediction};
pub use vocabulary::{Names, Vocabulary};
pub use words::Words;
