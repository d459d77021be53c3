//! Lockstep: distributed locks and fencing tokens, step by step.
//!
//! The crate is layered; each layer uses only those before it:
//!
//! - [`engine`]: a pure, deterministic simulator. Clients, lock services and a protected resource
//!   exchange messages over a faulty network, each reading its own clock. A run of a spec and seed
//!   always yields the same [`engine::Trace`] of typed events, checked for safety. It names no
//!   lock design and writes no words.
//! - [`present`]: words for people, built from typed events and a design's vocabulary.
//! - [`error`]: the one error type for scenario problems.
//! - [`design`]: one module per lock design (its parameters, service and client protocol,
//!   messages, guarantees, comparison rows and words), found through one registry.
//! - [`scenario`]: the versioned JSON format users write, its validation, the lessons and the
//!   comparison table.
//! - [`diagram`]: pure layout of a trace into lanes, arrows, spans and marks, and SVG and
//!   Mermaid text.
//! - [`edit`]: changes to a scenario as actions on the typed scenario, undo and redo, share
//!   links, and how an edit changed the outcome.
//! - [`course`]: courses, ordered paths through lessons, comparison cells and edited scenarios
//!   with a teacher's notes; the shipped ones, and their files and links.
//! - [`search`]: finding a failure: fault schedules added to a scenario, searched, judged and
//!   shrunk to the smallest story (pure).
//! - [`verify`]: proving a scenario safe for every fault schedule on a grid, or finding the first
//!   that is not, by exploring one run's states with branches at every grid instant.
//! - `ui` (browser only) is a thin Yew app over the rest.

pub mod course;
pub mod design;
pub mod diagram;
pub mod edit;
pub mod engine;
pub mod error;
pub mod limits;
pub mod present;
pub mod scenario;
pub mod search;
pub mod sort;
pub mod ui;
pub mod verify;
