//! The simulator: `world` holds a run's state and steps it, `faults` starts each fault,
//! `fork` lets a run go on from a base run's state, and `run` runs a spec.

mod faults;
mod fork;
mod run;
mod world;

pub use run::{simulate, simulate_forked, Reuse};
pub use world::Simulated;
