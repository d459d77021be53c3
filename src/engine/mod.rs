//! The protocol engine: pure, deterministic, sans-IO, and free of words.
//!
//! A run is a function of (spec, seed) → trace. Nodes are state machines that handle a delivered
//! message or a fired timer at their *local* time and write commands; the simulator alone
//! interprets them. Lock designs plug in through [`protocol::Protocol`]; the engine never names
//! one. Nothing here names a UI crate, a wall clock or a hash map.
//!
//! Layers, bottom up: `ids`, `time`, `clock`, `rng`; `msg` and `event`; `policy`, `actor`, `fault`, `spec` and `protocol`;
//! the node kinds `client` and `resource`, `network` and `queue`; `fingerprint` and `sim`; then `holdings`, `checker` and
//! `metrics` reading the finished events, and `trace` putting a run together.

pub mod actor;
pub mod checker;
pub mod client;
pub mod clock;
mod copy;
pub mod error;
pub mod event;
pub mod fault;
pub mod fingerprint;
pub mod holdings;
pub mod ids;
pub mod metrics;
pub mod msg;
pub mod network;
pub mod policy;
pub mod protocol;
pub mod queue;
pub mod resource;
pub mod rng;
pub mod sim;
pub mod spec;
pub mod time;
pub mod trace;

pub use checker::{Finding, FindingKind, Found, Verdict};
pub use error::RunError;
pub use event::{Event, EventKind};
pub use ids::{NodeId, NodeKind};
pub use metrics::Metrics;
pub use spec::Spec;
pub use time::{LocalMillis, Millis};
pub use trace::{check_run, checked, run, run_to_limit, Checked, Trace};
