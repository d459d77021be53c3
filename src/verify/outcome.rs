//! Where a verification stands, and how much it has done.

use crate::search::Shrunk;

/// Where a verification stands.
#[derive(Clone, Debug)]
pub enum Proof {
    Running,
    /// Every schedule on the grid is safe.
    Safe,
    /// A schedule on the grid is unsafe: the first found, shrunk.
    Unsafe(Box<Shrunk>),
    /// The table of explored states filled before the end: the grid is too large to verify.
    TooLarge,
}

/// How much a verification has done.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Distinct states explored: at grid instants, and where runs go on to their end.
    pub states: usize,
    /// Runs taken to their end and judged.
    pub runs: usize,
    /// Branches made (a state copied and a fault added).
    pub branches: usize,
}
