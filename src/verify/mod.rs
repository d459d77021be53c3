//! Verification: every fault schedule within stated bounds, checked, not sampled.
//!
//! A schedule adds up to `max_faults` faults of the chosen kinds, each starting at a multiple of
//! the grid `grid_ms` before the horizon, each length, delay or jump a whole number of grid steps
//! and each drift a whole number of rate steps ([`grid`]). The verification is a model checker
//! over those schedules ([`explore`]): it runs the scenario once, stopping at each grid instant;
//! there it copies the run's whole state once for every fault that may start then, adds that
//! fault to the copy, and goes on depth first. A state it reaches again at the same instant, with
//! no more faults left to add, it skips: its future was explored already ([`visited`]). So is a
//! run about to go on to its end from a state another run went on from: its verdict is known.
//! Natively, several threads may explore side by side, sharing that table ([`shared`]), with the
//! answer one thread gives (`threads`).
//!
//! Why the verdict holds for every schedule on the grid:
//! - Each branch is the run from the start of its schedule, event for event: a fault added to a
//!   copy takes the place in the queue's order that a run from the start gives it, and clocks it
//!   changes retime the timers set on them (`engine::sim::branch`, tested against runs from the
//!   start on every lesson). A pause, a partition or a crash starts planned at its longest;
//!   ended early, it ends in the place in the queue's order that one that long takes.
//! - Every set of up to `max_faults` grid faults is a path: at each instant the exploration tries
//!   every fault there in a fixed order, each followed by the later ones at that instant, then
//!   ends each pause, partition or crash that may end there (one of each length is one that
//!   began at its longest and ended then), and then goes on with none.
//! - A state is skipped only when its fingerprint matches one explored at the same instant with
//!   as many faults left or more. The fingerprint covers every node's state, clock, timers and
//!   held messages, what is due and in which order, the network, which faults may still end
//!   early and when each would end otherwise, how many events and queue
//!   entries the run has had (its limits count them), and everything in its events so far that
//!   the checker's verdict reads ([`crate::engine::checker::feed`]). Equal states with equal
//!   histories go on alike, so the skipped futures have the verdicts of those explored. A
//!   fingerprint collision could skip a state wrongly; [`visited`] bounds the chance of one.
//! - Each finished run is judged by the same checker as every run: harm to the data (a lost
//!   update, a write out of token order, an effect done twice) is a failure. Its verdict
//!   depends on its events only through what the checker reads of them, so a run whose
//!   fingerprint of that matches one already judged takes that verdict without being checked
//!   again (the fenced lease race's 65,540 runs have 45 such fingerprints). A collision there
//!   is bounded as the states' are ([`visited`]).
//!
//! What it does not cover: faults between grid instants or of other sizes, more faults, faults
//! after the horizon, kinds not chosen, and other seeds (a seed fixes each link's latency and
//! every random draw). Liveness (a client kept waiting) is the search's to find: a verification
//! proves safety.

pub mod explore;
pub mod grid;
mod open;
pub mod outcome;
pub mod report;
pub mod shared;
pub mod threads;
pub mod visited;
pub mod wire;

pub use explore::Verify;
pub use grid::{Choices, Grid};
pub use outcome::{Counts, Proof};
