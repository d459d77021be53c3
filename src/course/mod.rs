//! Courses: an ordered path through lessons, comparison cells and edited scenarios, each stop
//! with a teacher's title and notes, for a class or an evening's study. Pure: the format, its
//! reader and writer, the shipped courses, and a course's share link.

pub mod built_in;
pub mod format;

pub use built_in::{built_in, BuiltIn, BUILT_IN};
pub use format::{Asking, Course, Open, Stop};
