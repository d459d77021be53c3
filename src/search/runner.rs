//! The search itself: the base run, the systematic pass, random schedules, and the write-up of
//! a failure once it is shrunk.

use super::fault::{Added, Class};
use super::judge::{self, Failure, Liveness};
use super::shrink;
use super::space::{self, Bounds};
use crate::engine::rng::Rng;
use crate::engine::sim::{simulate_forked, Reuse};
use crate::engine::spec::{RunLimits, Spec};
use crate::engine::time::Millis;
use crate::engine::{self, checker, EventKind, Finding, NodeId, NodeKind, Trace};
use crate::error::ScenarioError;
use crate::limits::{
    MAX_DRIFT_PPM, MAX_SEARCH_BUDGET, MAX_SEARCH_FAULTS, MAX_SEARCH_SPAN_MS, MIN_DRIFT_PPM, SEARCH_DRIFT_PPM, SEARCH_EVENTS_PER_BASE_EVENT,
    SEARCH_EXTRA_TIME_MS, SEARCH_MIN_EVENTS,
};
use crate::present::number::{capital, group_u, ms};
use crate::present::phrases::what_a_step_moves;
use crate::present::Words;
use crate::scenario::format::Scenario;
use crate::scenario::validate::{add_node_faults, compile};
use std::cell::RefCell;
use std::rc::Rc;

/// One of `of` shares of every batch of schedules, the `index`th: what one of several threads
/// or workers judges. A share is every `of`th schedule from the `index`th, so each gets a like
/// mix of the batch (the systematic pass's single faults run faster than random schedules).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Share {
    pub index: usize,
    pub of: usize,
}

impl Share {
    /// The whole batch.
    pub const ALL: Share = Share { index: 0, of: 1 };

    /// The places in a batch of `len` schedules this share holds, in order.
    pub fn places(self, len: usize) -> impl Iterator<Item = usize> {
        (self.index.min(len)..len).step_by(self.of.max(1))
    }
}

/// A failing schedule, shrunk.
#[derive(Clone, Debug)]
pub struct Shrunk {
    /// The faults added to the scenario, after shrinking.
    pub added: Vec<Added>,
    /// The faults as first found.
    pub first: Vec<Added>,
    pub failure: Failure,
    /// What went wrong, in a sentence, and when.
    pub sentence: String,
    /// The harm the checker found in the shrunk run (its kind, the operations involved and the
    /// versions), for a safety failure.
    pub harm: Option<Finding>,
    /// The scenario with the shrunk faults added: an ordinary scenario to open, run and share.
    pub scenario: Scenario,
    /// Schedules run before the first failure (counting it), and runs spent shrinking.
    pub runs_to_first: usize,
    pub shrink_runs: usize,
}

/// Where a search stands.
#[derive(Clone, Debug)]
pub enum State {
    Searching,
    Found(Box<Shrunk>),
    /// The budget is spent and nothing failed.
    Exhausted,
}

/// A search in progress.
pub struct Search {
    base: Scenario,
    /// The base scenario compiled once, within the search's limits: each schedule adds its
    /// faults to a copy.
    spec: Spec,
    /// Each participant's role, and its node, in the spec's order.
    roles: Vec<NodeKind>,
    nodes: Vec<NodeId>,
    /// What each schedule's run uses again: the run's lists and the base run's states it goes
    /// on from, the checker's maps, and the spec it copies its faults into.
    reuse: RefCell<(Reuse, checker::Maps, Option<Spec>)>,
    bounds: Bounds,
    grid: Vec<Added>,
    /// How many grid faults the systematic pass tries: at most half the budget.
    systematic: usize,
    targets: space::Targets,
    horizon_ms: u64,
    /// Each schedule's run stops here: well past the base run, short of a run that never ends.
    limits: RunLimits,
    rng: Rng,
    tried: usize,
    state: State,
}

impl Search {
    /// Prepares a search of `base` within `bounds`; the base run itself is the first schedule.
    pub fn new(base: &Scenario, bounds: Bounds) -> Result<Search, ScenarioError> {
        check_bounds(&bounds)?;
        let mut spec = compile(base)?;
        let trace = engine::run(&spec)?;
        let targets = space::Targets::of(base, &trace);
        let grid = space::grid(&bounds, &targets, &space::times(&trace));
        let systematic = if bounds.systematic { grid.len().min(bounds.budget / 2) } else { 0 };
        let end_ms = trace.events.last().map_or(Millis::ZERO, |e| e.at_ms);
        let max_events = (trace.events.len() * SEARCH_EVENTS_PER_BASE_EVENT).max(SEARCH_MIN_EVENTS);
        let limits = RunLimits { max_events, max_time_ms: end_ms + Millis::from_ms(SEARCH_EXTRA_TIME_MS) };
        spec.limits.max_events = spec.limits.max_events.min(limits.max_events);
        spec.limits.max_time_ms = spec.limits.max_time_ms.min(limits.max_time_ms);
        let rng = Rng::derive(bounds.seed, "search");
        let mut search = Search {
            base: base.clone(),
            roles: spec.nodes.iter().map(|n| n.role.kind()).collect(),
            nodes: (0..spec.nodes.len()).map(NodeId).collect(),
            reuse: RefCell::default(),
            spec,
            bounds,
            grid,
            systematic,
            targets,
            horizon_ms: end_ms.as_ms() + 1_000,
            limits,
            rng,
            tried: 0,
            state: State::Searching,
        };
        // Each schedule's run goes on from the base run's state before its first fault.
        let base = search.spec_with(&[]).ok_or_else(|| ScenarioError::new("", "the scenario has no valid base run"))?;
        search.reuse.get_mut().0.fork_from(&base)?;
        Ok(search)
    }

    /// Runs up to `n` more schedules (and shrinks a failure as soon as one is found); returns
    /// where the search stands.
    pub fn step(&mut self, n: usize) -> &State {
        self.step_share(n, Share::ALL)
    }

    /// Draws the next schedules in the search's order: `n`, or fewer where the budget ends, and
    /// none once the search has ended. They count as run once [`Search::settle`] takes them.
    pub fn draw(&mut self, n: usize) -> Vec<Vec<Added>> {
        if !matches!(self.state, State::Searching) {
            return Vec::new();
        }
        let n = n.min(self.budget().saturating_sub(self.tried));
        (0..n).map(|j| self.next(self.tried + j)).collect()
    }

    /// The first of `schedules` at `places` (in order) that fails, by its place, and how. Each
    /// is judged on its own, so a search of the same scenario and bounds on another thread
    /// gives the same answer for any of them.
    pub fn first_failing(&self, schedules: &[Vec<Added>], places: impl IntoIterator<Item = usize>) -> Option<(usize, Failure)> {
        places.into_iter().find_map(|i| self.run(&schedules[i]).map(|(failure, _)| (i, failure)))
    }

    /// Counts drawn schedules as run, up to and including the first that failed (which is then
    /// shrunk); returns where the search stands.
    pub fn settle(&mut self, drawn: &[Vec<Added>], failing: Option<(usize, Failure)>) -> &State {
        match failing {
            Some((i, failure)) if i < drawn.len() => {
                self.tried += i + 1;
                let schedule = drawn[i].clone();
                let found = format!("The search found this among {} schedules and shrank it.", self.tried);
                self.state = State::Found(Box::new(self.write_up(schedule, failure, &found)));
            }
            _ => {
                self.tried += drawn.len();
                if self.tried >= self.budget() && matches!(self.state, State::Searching) {
                    self.state = State::Exhausted;
                }
            }
        }
        &self.state
    }

    /// How many schedules the search runs at most (the base run at least).
    fn budget(&self) -> usize {
        self.bounds.budget.max(1)
    }

    /// Runs this share of the next `n` schedules in the search's own order and judges each,
    /// without stopping at a failure or shrinking one; returns how many it judged and how many
    /// failed. (For measuring how fast schedules run.)
    pub fn sample(&mut self, n: usize, share: Share) -> (usize, usize) {
        let drawn = self.draw(n);
        let failed = self.count_failing(&drawn, share.places(drawn.len()));
        let judged = share.places(drawn.len()).count();
        self.settle(&drawn, None);
        (judged, failed)
    }

    /// Runs the next `n` schedules, judging only this share of them, and returns where the
    /// search stands: the other shares are judged elsewhere (another worker), and a failure
    /// found here is the first of this share, not necessarily of the batch.
    pub fn step_share(&mut self, n: usize, share: Share) -> &State {
        let drawn = self.draw(n);
        let failing = self.first_failing(&drawn, share.places(drawn.len()));
        self.settle(&drawn, failing)
    }

    /// How many of `schedules` at `places` fail.
    pub fn count_failing(&self, schedules: &[Vec<Added>], places: impl IntoIterator<Item = usize>) -> usize {
        places.into_iter().filter(|&i| self.run(&schedules[i]).is_some()).count()
    }

    /// Schedule `i` in the search's order: the base run, then the grid, then random schedules
    /// (drawn in order: `i` counts up by one from call to call).
    fn next(&mut self, i: usize) -> Vec<Added> {
        match i {
            0 => Vec::new(),
            i if i <= self.systematic => {
                // Spread the systematic pass over the whole grid when the budget cannot cover it.
                let stride = self.grid.len() as f64 / self.systematic as f64;
                vec![self.grid[((i - 1) as f64 * stride) as usize].clone()]
            }
            _ => space::random(&mut self.rng, &self.bounds, &self.targets, self.horizon_ms),
        }
    }

    /// Runs the base scenario with `added` faults and judges it.
    fn run(&self, added: &[Added]) -> Option<(Failure, u64)> {
        let (reuse, maps, spec) = &mut *self.reuse.borrow_mut();
        let spec = spec.get_or_insert_with(|| self.spec.clone());
        spec.clone_from(&self.spec);
        self.add_to(spec, added)?;
        let run = engine::checked(spec, simulate_forked(spec, reuse).ok()?, maps);
        // Still going at the limits: stopped by one, or with events at the horizon (its timers
        // past it are dropped, so it may end quietly there).
        let horizon = self.limits.max_time_ms.saturating_sub(Millis::from_ms(1_000));
        let unfinished = run.stopped.is_some() || run.events.last().is_some_and(|e| e.at_ms >= horizon);
        let judged = judge::judge(&run.events, &run.verdict.findings, &self.roles, self.bounds.stall_ms, unfinished);
        reuse.give_back(run.events);
        judged
    }

    fn with(&self, added: &[Added]) -> Scenario {
        let mut s = self.base.clone();
        for f in added {
            f.apply(&mut s);
        }
        s
    }

    /// The base scenario's spec with `added` faults, within the search's limits, if the faults
    /// make a valid scenario.
    pub fn spec_with(&self, added: &[Added]) -> Option<Spec> {
        let mut spec = self.spec.clone();
        self.add_to(&mut spec, added)?;
        Some(spec)
    }

    /// Adds `added` faults to a spec made by [`Search::spec_with`], if they make a valid
    /// scenario (`None`, with the spec left part way, if not).
    pub fn add_to(&self, spec: &mut Spec, added: &[Added]) -> Option<()> {
        let place = |id: &str| self.base.participants.iter().position(|p| p.id() == id);
        let mut faults = Vec::new();
        for f in added {
            f.push_faults(&self.nodes, place, &mut faults)?;
            if let Some((node, ppm)) = f.drift() {
                (MIN_DRIFT_PPM..=MAX_DRIFT_PPM).contains(&ppm).then_some(())?;
                Rc::make_mut(&mut spec.nodes)[place(node)?].clock.drift_ppm = ppm;
            }
        }
        add_node_faults(spec, faults).ok()
    }

    /// The run of the base scenario with `added` faults, if the faults make a valid scenario.
    fn trace(&self, added: &[Added]) -> Option<Trace> {
        engine::run_to_limit(&self.spec_with(added)?).ok().map(|(trace, _)| trace)
    }

    /// Shrinks a failing schedule and writes it up as a scenario whose story ends with `found`,
    /// a sentence saying how it was found.
    pub fn write_up(&self, first: Vec<Added>, failure: Failure, found: &str) -> Shrunk {
        let (added, shrink_runs) = shrink::shrink(&first, |c| self.run(c).map(|f| f.0) == Some(failure));
        let mut scenario = self.with(&added);
        let trace = self.trace(&added).expect("the shrunk schedule ran while shrinking");
        let sentence = self.describe_failure(&trace, &scenario, failure);
        let harm = match failure {
            Failure::Safety(kind) => trace.verdict.of(kind).next().cloned(),
            Failure::Liveness(_) => None,
        };
        let faults: Vec<String> = added.iter().map(|f| f.describe(&self.base)).collect();
        let cause = if faults.is_empty() { "Without any added fault".to_string() } else { capital(&join(&faults)) };
        scenario.id = format!("found-{}", self.base.id);
        scenario.title = format!("A failure found in: {}", self.base.title);
        scenario.intro = format!("{cause}: {sentence} {found}");
        Shrunk { added, first, failure, sentence, harm, scenario, runs_to_first: self.tried, shrink_runs }
    }

    /// Says what failed in the run, in a sentence.
    fn describe_failure(&self, trace: &Trace, s: &Scenario, failure: Failure) -> String {
        let words = Words::new(trace, &*s.lock.design);
        match failure {
            Failure::Safety(kind) => trace
                .verdict
                .findings
                .iter()
                .find(|f| f.kind() == kind)
                .map_or_else(String::new, |f| format!("{} at {}.", capital(&words.finding(f)), ms(f.at_ms))),
            Failure::Liveness(Liveness::Stalled) => match judge::stalled(&trace.events, &self.roles, self.bounds.stall_ms) {
                Some(st) => format!(
                    "{} waited more than {} for the lock, until {}, while {}, which held it, was {}.",
                    trace.participants[st.waiter].name,
                    ms(self.bounds.stall_ms),
                    ms(Millis::from_ms(st.at_ms)),
                    trace.participants[st.holder].name,
                    st.why
                ),
                None => format!("a client waited more than {} for the lock.", ms(self.bounds.stall_ms)),
            },
            Failure::Liveness(Liveness::Unfinished) => {
                let done: Vec<bool> = (0..trace.participants.len())
                    .map(|i| trace.events.iter().any(|e| e.node.0 == i && matches!(e.kind, EventKind::Done)))
                    .collect();
                let stuck: Vec<String> = trace
                    .participants
                    .iter()
                    .enumerate()
                    .filter(|&(i, p)| p.role == NodeKind::Client && !done[i])
                    .map(|(_, p)| p.name.clone())
                    .collect();
                format!(
                    "the run was still going after {} events or at {} of simulated time ({} past the end of the run without faults): {} never finished.",
                    group_u(self.limits.max_events as u64),
                    ms(self.limits.max_time_ms),
                    ms(Millis::from_ms(SEARCH_EXTRA_TIME_MS)),
                    join(&stuck)
                )
            }
        }
    }

    /// Where faults can go in this scenario.
    pub fn targets(&self) -> &space::Targets {
        &self.targets
    }

    /// When the scenario's run without added faults ends.
    pub fn end_ms(&self) -> u64 {
        self.horizon_ms - 1_000
    }

    /// The scenario searched.
    pub fn scenario(&self) -> &Scenario {
        &self.base
    }

    /// How many schedules have run.
    pub fn tried(&self) -> usize {
        self.tried
    }

    /// The bounds searched.
    pub fn bounds(&self) -> &Bounds {
        &self.bounds
    }

    /// Says exactly what was searched, and what the search did not exercise.
    pub fn searched(&self) -> String {
        let b = &self.bounds;
        let sizes: Vec<String> = b
            .classes
            .iter()
            .map(|&c| match c {
                Class::ClockJump => format!(
                    "clock jumps up to ±{} (of every node's wall clock: {})",
                    ms(b.jump_ms),
                    what_a_step_moves(self.targets.service_clock)
                ),
                Class::Drift => format!("clock drift up to ±{}%", b.drift_ppm / 10_000),
                _ => format!("{} up to {}", c.plural(), ms(b.limit(c))),
            })
            .collect();
        let skipped: Vec<String> = Class::ALL.iter().filter(|c| !b.classes.contains(c)).map(|c| c.plural()).collect();
        let mut text = format!(
            "No failure among {} schedules of up to {} fault{}: {} (a client waiting more than {} for the lock counts as a failure).",
            group_u(self.tried as u64),
            b.max_faults,
            if b.max_faults == 1 { "" } else { "s" },
            join(&sizes),
            ms(b.stall_ms)
        );
        if !skipped.is_empty() {
            text.push_str(&format!(" Not searched: {}.", join(&skipped.iter().map(|s| s.to_string()).collect::<Vec<_>>())));
        }
        if let Some(g) = &self.base.guarantees {
            text.push_str(&format!(
                " The search adds faults to this scenario's clients and servers; it does not change its stated assumptions: {}",
                g.assumes
            ));
        }
        text
    }
}

/// Refuses bounds a search cannot use, naming the field.
fn check_bounds(b: &Bounds) -> Result<(), ScenarioError> {
    let bad = |field: &str, problem: String| Err(ScenarioError::new(field, problem));
    if b.classes.is_empty() {
        return bad("faults", "name at least one kind of fault".into());
    }
    if !(1..=MAX_SEARCH_FAULTS).contains(&b.max_faults) {
        return bad("max_faults", format!("must be between 1 and {MAX_SEARCH_FAULTS}, got {}", b.max_faults));
    }
    if !(1..=MAX_SEARCH_BUDGET).contains(&b.budget) {
        return bad("budget", format!("must be between 1 and {}, got {}", group_u(MAX_SEARCH_BUDGET as u64), b.budget));
    }
    for (field, v) in [
        ("pause_ms", b.pause_ms),
        ("partition_ms", b.partition_ms),
        ("crash_ms", b.crash_ms),
        ("delay_ms", b.delay_ms),
        ("jump_ms", b.jump_ms),
    ] {
        if !(1..=MAX_SEARCH_SPAN_MS).contains(&v) {
            return bad(field, format!("must be between 1 and {} ms, got {v}", group_u(MAX_SEARCH_SPAN_MS)));
        }
    }
    if !SEARCH_DRIFT_PPM.contains(&b.drift_ppm) {
        let (lo, hi) = (group_u(*SEARCH_DRIFT_PPM.start()), group_u(*SEARCH_DRIFT_PPM.end()));
        return bad("drift_ppm", format!("must be between {lo} and {hi}, got {}", b.drift_ppm));
    }
    if !(1..=MAX_SEARCH_SPAN_MS).contains(&b.stall_ms) {
        return bad("stall_ms", format!("must be between 1 and {} ms, got {}", group_u(MAX_SEARCH_SPAN_MS), b.stall_ms));
    }
    Ok(())
}

/// Joins phrases with commas and a final "and".
fn join(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
