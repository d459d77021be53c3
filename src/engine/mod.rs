//! The protocol engine: pure, deterministic, sans-IO.
//!
//! A run is a function of (spec, seed) → trace. Nodes are state machines that handle a delivered
//! message or a fired timer at their *local* time and write commands; the simulator alone
//! interprets them. Nothing here names a UI crate, a wall clock or a hash map.

pub mod actor;
pub mod checker;
pub mod client;
pub mod clock;
pub mod error;
pub mod holdings;
pub mod ids;
pub mod lock;
pub mod metrics;
pub mod msg;
pub mod narrate;
pub mod network;
pub mod redlock;
pub mod resource;
pub mod rng;
pub mod sim;
pub mod spec;
pub mod trace;

pub use checker::{Finding, FindingKind, Verdict};
pub use error::RunError;
pub use ids::NodeId;
pub use metrics::Metrics;
pub use sim::run;
pub use spec::Spec;
pub use trace::{Event, EventKind, Trace};
