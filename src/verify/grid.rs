//! The schedules a verification covers: up to `max_faults` faults of the chosen kinds, each
//! starting on a grid of `grid_ms` before the horizon, each size a whole number of grid steps
//! (a drift rate a whole number of `drift_step_ppm`), up to the largest of its kind.
//!
//! A pause, a partition or a crash is tried at its longest only (a crash at the longest that
//! restarts within the run's limit), and the exploration ends it early at each later instant on
//! the grid instead ([`Choices::lengths`]): that covers every length, and until it ends, the
//! states of that fault at every length are one.

use crate::error::ScenarioError;
use crate::limits::{MAX_SEARCH_SPAN_MS, MAX_VERIFY_CHOICES, MAX_VERIFY_FAULTS, MAX_VERIFY_STATES, SEARCH_DRIFT_PPM};
use crate::present::number::{group_u, ms};
use crate::search::space::Targets;
use crate::search::{Added, Class};

/// How many steps the grid splits the run without faults into when no grid is given.
pub const AUTO_STEPS: u64 = 10;

/// The bounds of a verification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// The kinds of fault.
    pub classes: Vec<Class>,
    /// The most faults one schedule adds (1 to 4).
    pub max_faults: usize,
    /// The grid: every start, length and jump is a whole number of these; `None`: the run
    /// without faults split into [`AUTO_STEPS`], rounded up to 50 ms.
    pub grid_ms: Option<u64>,
    /// Faults start before this instant; `None`: at the end of the run without faults, rounded
    /// up to the grid.
    pub horizon_ms: Option<u64>,
    /// The longest pause, partition, crash and message delay; `None`: the horizon.
    pub longest_ms: Option<u64>,
    /// The largest clock jump either way.
    pub jump_ms: u64,
    /// The largest drift either way, and the step between rates, in millionths.
    pub drift_ppm: u64,
    pub drift_step_ppm: u64,
    /// The most distinct states the verification keeps; past it, it stops and says so.
    pub max_states: usize,
}

impl Default for Grid {
    fn default() -> Self {
        Grid {
            classes: vec![Class::Pause, Class::Partition, Class::Crash],
            max_faults: 2,
            grid_ms: None,
            horizon_ms: None,
            longest_ms: None,
            jump_ms: 1_000,
            drift_ppm: 500_000,
            drift_step_ppm: 100_000,
            max_states: 4_000_000,
        }
    }
}

impl Grid {
    /// Refuses bounds a verification cannot use, naming the field.
    pub fn check(&self) -> Result<(), ScenarioError> {
        let bad = |field: &str, problem: String| Err(ScenarioError::new(field, problem));
        if self.classes.is_empty() {
            return bad("faults", "name at least one kind of fault".into());
        }
        if !(1..=MAX_VERIFY_FAULTS).contains(&self.max_faults) {
            return bad("max_faults", format!("must be between 1 and {MAX_VERIFY_FAULTS}, got {}", self.max_faults));
        }
        let span = |field: &str, v: u64| match (1..=MAX_SEARCH_SPAN_MS).contains(&v) {
            true => Ok(()),
            false => bad(field, format!("must be between 1 and {} ms, got {v}", group_u(MAX_SEARCH_SPAN_MS))),
        };
        if let Some(g) = self.grid_ms {
            span("grid_ms", g)?;
        }
        span("jump_ms", self.jump_ms)?;
        if let Some(h) = self.horizon_ms {
            span("horizon_ms", h)?;
        }
        if let Some(l) = self.longest_ms {
            span("longest_ms", l)?;
        }
        for (field, v) in [("drift_ppm", self.drift_ppm), ("drift_step_ppm", self.drift_step_ppm)] {
            if !SEARCH_DRIFT_PPM.contains(&v) {
                let (lo, hi) = (group_u(*SEARCH_DRIFT_PPM.start()), group_u(*SEARCH_DRIFT_PPM.end()));
                return bad(field, format!("must be between {lo} and {hi}, got {v}"));
            }
        }
        if !(1..=MAX_VERIFY_STATES).contains(&self.max_states) {
            return bad("max_states", format!("must be between 1 and {}, got {}", group_u(MAX_VERIFY_STATES as u64), self.max_states));
        }
        Ok(())
    }
}

/// The grid laid over one scenario: every fault that can start at an instant, and how many
/// schedules that makes.
pub struct Choices {
    /// Faults with their start left at 0, to be moved to each instant, in the order tried.
    timed: Vec<Added>,
    /// Drifts, which are there from the start.
    drifts: Vec<Added>,
    /// How many lengths a pause, partition or crash may have: each is in `timed` at its longest.
    pub lengths: u64,
    pub grid_ms: u64,
    pub horizon_ms: u64,
    pub max_faults: usize,
}

impl Choices {
    /// Lays `grid` over a scenario whose run without faults ends at `end_ms`, hitting `targets`.
    pub fn new(grid: &Grid, targets: &Targets, end_ms: u64) -> Result<Choices, ScenarioError> {
        grid.check()?;
        let g = grid.grid_ms.unwrap_or_else(|| end_ms.div_ceil(AUTO_STEPS * 50).max(1) * 50);
        let horizon_ms = grid.horizon_ms.unwrap_or(end_ms.div_ceil(g).max(1) * g);
        let longest = grid.longest_ms.unwrap_or(horizon_ms);
        let steps = |limit: u64| (1..=limit / g).map(move |k| k * g);
        let mut timed = Vec::new();
        let mut drifts = Vec::new();
        for &class in &grid.classes {
            match class {
                Class::Drift => {
                    let rates = (1..=grid.drift_ppm / grid.drift_step_ppm).map(|k| (k * grid.drift_step_ppm) as i64);
                    for ppm in rates.flat_map(|r| [r, -r]) {
                        drifts.extend(targets.nodes(class).into_iter().map(|n| Added::Drift { node: n.clone(), ppm }));
                    }
                }
                Class::DelayMessage => {
                    for m in steps(longest) {
                        let links = targets.links.iter();
                        timed.extend(links.map(|(from, to)| Added::DelayMessage { at_ms: 0, from: from.clone(), to: to.clone(), ms: m }));
                    }
                }
                Class::ClockJump => {
                    for m in steps(grid.jump_ms).flat_map(|m| [m as i64, -(m as i64)]) {
                        timed.extend(targets.nodes(class).into_iter().flat_map(|n| crate::search::space::one(class, 0, n, m)));
                    }
                }
                Class::Pause | Class::Partition | Class::Crash => {
                    if let Some(m) = steps(longest).next_back() {
                        timed.extend(targets.nodes(class).into_iter().flat_map(|n| crate::search::space::one(class, 0, n, m as i64)));
                    }
                }
            }
        }
        let lengths = longest / g;
        let choices = Choices { timed, drifts, lengths, grid_ms: g, horizon_ms, max_faults: grid.max_faults };
        let count = choices.count();
        if count > MAX_VERIFY_CHOICES as u128 {
            return Err(ScenarioError::new(
                "grid_ms",
                format!(
                    "the grid has {} single faults (a {} grid within {}), more than {} can be verified: choose a coarser grid, a shorter horizon, shorter faults or fewer kinds",
                    group_u(count as u64),
                    ms(g),
                    ms(horizon_ms),
                    group_u(MAX_VERIFY_CHOICES as u64)
                ),
            ));
        }
        Ok(choices)
    }

    /// The grid's instants: every start before the horizon.
    pub fn instants(&self) -> u64 {
        self.horizon_ms.div_ceil(self.grid_ms)
    }

    /// How many faults can start at instant `t` (a pause, partition or crash at its longest).
    pub fn at(&self, t: u64) -> usize {
        match t {
            0 => self.timed.len() + self.drifts.len(),
            t if t < self.horizon_ms => self.timed.len(),
            _ => 0,
        }
    }

    /// The `j`th fault that can start at instant `t` (drifts first, at 0).
    pub fn get(&self, t: u64, j: usize) -> Added {
        match t {
            0 if j < self.drifts.len() => self.drifts[j].clone(),
            0 => self.timed[j - self.drifts.len()].clone(),
            t => self.timed[j].at(t),
        }
    }

    /// `f` as the exploration adds it at instant `t` of a run limited to `max_time_ms`: a crash at
    /// the longest that restarts within that limit (none, at zero length, if no restart fits),
    /// any other fault as it is.
    pub fn planned(&self, f: Added, t: u64, max_time_ms: u64) -> Added {
        match f {
            Added::Crash { ms, .. } => f.sized(ms.min(max_time_ms.saturating_sub(t) / self.grid_ms * self.grid_ms) as i64),
            f => f,
        }
    }

    /// Every single fault on the grid, pauses, partitions and crashes of every length, in the
    /// order tried.
    pub fn singles(&self) -> impl Iterator<Item = Added> + '_ {
        let at = move |t: u64| (0..self.at(t)).map(move |j| self.get(t, j));
        let lengths = |f: Added| match f {
            f if ends_early(&f) => (1..=self.lengths).map(|k| f.sized((k * self.grid_ms) as i64)).collect(),
            f => vec![f],
        };
        (0..self.instants()).flat_map(move |i| at(i * self.grid_ms)).flat_map(lengths)
    }

    /// How many single faults the grid has.
    pub fn count(&self) -> u128 {
        let longest = self.timed.iter().filter(|f| ends_early(f)).count() as u128;
        let timed = self.timed.len() as u128 + longest * u128::from(self.lengths.max(1) - 1);
        timed * u128::from(self.instants()) + self.drifts.len() as u128
    }

    /// How many schedules the grid has: every set of up to `max_faults` of its single faults.
    pub fn schedules(&self) -> u128 {
        let n = self.count();
        let mut total: u128 = 1;
        let mut choose: u128 = 1;
        for k in 1..=self.max_faults as u128 {
            if k > n {
                break;
            }
            choose = choose.saturating_mul(n - k + 1) / k;
            total = total.saturating_add(choose);
        }
        total
    }
}

/// Whether a fault is tried at its longest and ended early by the exploration: a pause, a
/// partition or a crash.
pub fn ends_early(f: &Added) -> bool {
    matches!(f, Added::Pause { .. } | Added::Partition { .. } | Added::Crash { .. })
}
