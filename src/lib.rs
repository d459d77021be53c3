//! Lockstep: distributed locks and fencing tokens, step by step.
//!
//! - [`engine`] is a pure, deterministic simulator: clients, lock services and a protected
//!   resource exchange messages over a faulty network, each reading its own clock. A run of a
//!   spec and seed always yields the same [`engine::Trace`], checked for safety.
//! - [`scenario`] is the versioned JSON format users write, its validation, and the lessons.
//! - `ui` (browser only) is a thin Yew app over the engine.

pub mod diagram;
pub mod engine;
pub mod scenario;
pub mod ui;
