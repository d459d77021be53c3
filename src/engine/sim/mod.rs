//! The simulator: `world` holds a run's state and steps it, `faults` starts each fault,
//! `fork` lets a run go on from a base run's state, `branch` lets a verification copy a run part way and add faults to each copy,
//! and `run` runs a spec.

mod branch;
mod faults;
mod fork;
mod run;
mod world;

pub use branch::Branch;
pub use run::{simulate, simulate_forked, Reuse};
pub use world::Simulated;
