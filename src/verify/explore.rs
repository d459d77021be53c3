//! The exploration: one run, stepped from grid instant to grid instant, copied at each instant
//! into a branch for every fault that can start there, depth first, skipping a state already
//! explored at the same instant with as many faults left, and a run to the end from a state
//! another run went on from.
//!
//! A pause, a partition or a crash starts planned at its longest; at each later instant before
//! that, a branch ends it early ([`Branch::end_early`]), which does not count as another fault.
//! So the states of such a fault still running are one for all its lengths, and every length is
//! tried.
//!
//! It explores in passes, allowing one more fault each time (none, then one, up to the most),
//! so the first failure found has the fewest faults. A state explored in an earlier pass is
//! skipped in a later one only if it now has no more faults left than it had then.

use super::grid::{Choices, Grid};
use super::open::Open;
use super::outcome::{Counts, Proof};
use super::shared::Shared;
use super::visited::Visit;
use crate::engine::checker::{self, Maps};
use crate::engine::fault::Fault;
use crate::engine::fingerprint::hash_set;
use crate::engine::fingerprint::Fingerprint;
use crate::engine::queue::QueueKeys;
use crate::engine::sim::Branch;
use crate::engine::{Event, FindingKind, Millis, Spec};
use crate::error::ScenarioError;
use crate::scenario::format::Scenario;
use crate::search::{Added, Bounds, Failure, Search};
use std::hash::Hasher;
use std::sync::Arc;

/// How often a run with no faults left to add has its state looked up, at the least: at an
/// instant when it has handled something since its last lookup, at every instant a multiple of
/// this, and at the last instant before the horizon, where runs go to their end. (Its run goes
/// on alike either way. Measured: a state that only grew older is seldom new, so looking it up
/// at every instant costs more on fine grids than the runs it saves.)
const TAIL_MS: u64 = 200;

/// A state on the path being explored: a run stopped at grid instant `t`.
struct Frame {
    branch: Branch,
    /// The base spec with the path's faults so far.
    spec: Spec,
    t: u64,
    /// The next fault to try at `t`, by its place among the choices there.
    next: usize,
    /// How many faults the path has added.
    used: usize,
    /// How many events the run had recorded at `t`.
    events: usize,
    /// How many it had recorded when its state was last looked up.
    looked: usize,
    /// The fault this frame added to its parent's, if any, with its place in the spec.
    added: Option<(usize, Added)>,
    /// The fault this frame ended early, by its place in the spec, and its length.
    ended: Option<(usize, u64)>,
    /// The pauses, partitions and crashes the path has started.
    open: Vec<Open>,
    /// What the checker has read so far.
    history: Fingerprint,
}

impl Frame {
    /// The fingerprint of the state at its instant, `events` events in: what the checker has
    /// read, the instant, and the run's whole state.
    fn state(&self, events: usize, keys: &mut QueueKeys) -> Fingerprint {
        let mut h = self.history.clone();
        h.write_u64(self.t);
        self.branch.fingerprint(&self.spec, &mut h, Millis::from_ms(self.t), events, keys);
        h
    }
}

/// A verification in progress.
pub struct Verify {
    search: Search,
    grid: Grid,
    /// The run before anything happened, and its spec: each pass starts from a copy.
    start: (Branch, Spec),
    /// The most faults a schedule adds in this pass.
    pass: usize,
    /// The last pass to explore.
    last: usize,
    /// How many of the start's branches this pass has met, and the next this explorer takes:
    /// explorers sharing tables split them ([`Shared::claim`]).
    met: usize,
    mine: usize,
    choices: Choices,
    /// Boxed, so a frame moves between the two as a pointer, not its whole state.
    #[expect(clippy::vec_box, reason = "measured: moving frames by value costs 4% more instructions")]
    stack: Vec<Box<Frame>>,
    /// Frames left, kept for their room.
    #[expect(clippy::vec_box, reason = "as `stack`")]
    free: Vec<Box<Frame>>,
    shared: Arc<Shared>,
    events: Vec<Event>,
    keys: QueueKeys,
    maps: Maps,
    quorum: usize,
    counts: Counts,
    /// Every kind of harm found, in the order first found (when collecting them all).
    harms: Vec<FindingKind>,
    collect: bool,
    first: Option<Vec<Added>>,
    proof: Proof,
}

impl Verify {
    /// Prepares a verification of `base` within `grid`; with `collect`, it goes on after a
    /// failure to find every kind of harm instead of stopping at the first.
    pub fn new(base: &Scenario, grid: Grid, collect: bool) -> Result<Verify, ScenarioError> {
        let shared = Arc::new(Shared::new(grid.max_states));
        let mut v = Verify::sharing(base, grid, collect, shared)?;
        v.start_pass(0);
        Ok(v)
    }

    /// Prepares an explorer of `base` within `grid` that shares `shared` with others; it
    /// explores nothing until a pass is started.
    pub(super) fn sharing(base: &Scenario, grid: Grid, collect: bool, shared: Arc<Shared>) -> Result<Verify, ScenarioError> {
        grid.check()?;
        let bounds = Bounds { classes: grid.classes.clone(), max_faults: grid.max_faults, budget: 1, ..Bounds::default() };
        let search = Search::new(base, bounds)?;
        let choices = Choices::new(&grid, search.targets(), search.end_ms())?;
        let spec = search.spec_with(&[]).ok_or_else(|| ScenarioError::new("", "the scenario has no valid base run"))?;
        if grid.max_faults * 2 > Branch::ROOM {
            return Err(ScenarioError::new("max_faults", format!("at most {} faults can be verified", Branch::ROOM / 2)));
        }
        let branch = Branch::start(&spec)?;
        let quorum = spec.lock.quorum(spec.locks.len());
        Ok(Verify {
            search,
            start: (branch, spec),
            pass: 0,
            last: choices.max_faults,
            met: 0,
            mine: 0,
            shared,
            grid,
            choices,
            stack: Vec::new(),
            free: Vec::new(),
            events: Vec::new(),
            keys: Vec::new(),
            maps: Maps::default(),
            quorum,
            counts: Counts::default(),
            harms: Vec::new(),
            collect,
            first: None,
            proof: Proof::Running,
        })
    }

    /// The run before anything happened, at the first instant.
    fn root(&self) -> Box<Frame> {
        let (branch, spec) = (self.start.0.clone(), self.start.1.clone());
        let history = Fingerprint::default();
        Box::new(Frame { branch, spec, t: 0, next: 0, used: 0, events: 0, looked: 0, added: None, ended: None, open: Vec::new(), history })
    }

    /// Explores up to `n` more steps (a branch made, or a state moved on to the next instant);
    /// returns where the verification stands.
    pub fn step(&mut self, n: usize) -> &Proof {
        for _ in 0..n {
            if !matches!(self.proof, Proof::Running) {
                break;
            }
            let Some(top) = self.stack.last() else {
                self.next_pass();
                continue;
            };
            let at = self.choices.at(top.t);
            if top.used < self.pass && top.next < at {
                self.branch();
            } else if top.next.max(at) < at + top.open.iter().filter(|p| p.endable(top.t)).count() {
                self.end_early(at);
            } else {
                self.advance();
            }
        }
        &self.proof
    }

    /// Runs to the end.
    pub fn run(&mut self) -> &Proof {
        while matches!(self.proof, Proof::Running) {
            self.step(usize::MAX);
        }
        &self.proof
    }

    /// Copies the top state and adds the next fault that can start at its instant.
    fn branch(&mut self) {
        let Some(top) = self.stack.last_mut() else { return };
        let (t, j) = (top.t, top.next);
        top.next += 1;
        // Explorers sharing tables split the start's branches between them.
        if self.stack.len() == 1 {
            self.met += 1;
            if self.met - 1 != self.mine {
                return;
            }
            self.mine = self.shared.claim(self.pass);
        }
        let mut frame = self.copy_top();
        let Some(top) = self.stack.last() else { return };
        // A fault the scenario cannot take (a restart past the run's limit) is no schedule.
        let added = self.choices.planned(self.choices.get(t, j), t, frame.spec.limits.max_time_ms.as_ms());
        let place = top.spec.faults.len();
        if added.magnitude() == 0 || self.search.add_to(&mut frame.spec, std::slice::from_ref(&added)).is_none() {
            return self.free.push(frame);
        }
        if let Some(open) = Open::of(&frame.spec, place, t) {
            frame.open.push(open);
        }
        self.events.truncate(top.events);
        frame.branch.add_faults(&frame.spec, &mut self.events, place);
        (frame.t, frame.next, frame.used, frame.events) = (t, j + 1, top.used + 1, self.events.len());
        frame.added = Some((place, added));
        self.counts.branches += 1;
        self.stack.push(frame);
    }

    /// Copies the top state and ends the next pause, partition or crash that may end at its
    /// instant; choices at an instant are numbered from `at`, after the faults that can start
    /// there.
    fn end_early(&mut self, at: usize) {
        let Some(top) = self.stack.last_mut() else { return };
        top.next = top.next.max(at);
        let (t, j) = (top.t, top.next);
        top.next += 1;
        let Some(&p) = top.open.iter().filter(|p| p.endable(t)).nth(j - at) else { return };
        let mut frame = self.copy_top();
        let Some(top) = self.stack.last() else { return };
        frame.branch.end_early(&frame.spec, p.fault, Millis::from_ms(p.planned), Millis::from_ms(t));
        match frame.spec.faults.get_mut(p.fault) {
            Some(Fault::Pause { for_ms, .. } | Fault::Partition { for_ms, .. }) => *for_ms = (t - p.start) as i64,
            Some(Fault::Restart { at_ms, .. }) => *at_ms = t as i64,
            _ => {}
        }
        if let Some(q) = frame.open.iter_mut().find(|q| q.fault == p.fault) {
            q.end = t;
        }
        (frame.t, frame.next, frame.used, frame.events) = (t, j + 1, top.used, top.events);
        frame.ended = Some((p.place, t - p.start));
        self.counts.branches += 1;
        self.stack.push(frame);
    }

    /// A copy of the top state, in a frame left by an earlier branch if there is one (reusing
    /// its room), to change and push.
    fn copy_top(&mut self) -> Box<Frame> {
        let top = self.stack.last().expect("a state to copy");
        let mut f = match self.free.pop() {
            Some(mut f) => {
                f.branch.clone_from(&top.branch);
                f.spec.clone_from(&top.spec);
                f.history.clone_from(&top.history);
                f.open.clone_from(&top.open);
                f.looked = top.looked;
                f
            }
            None => Box::new(Frame {
                branch: top.branch.clone(),
                spec: top.spec.clone(),
                history: top.history.clone(),
                open: top.open.clone(),
                added: None,
                ended: None,
                t: 0,
                next: 0,
                used: 0,
                events: 0,
                looked: top.looked,
            }),
        };
        (f.added, f.ended) = (None, None);
        f
    }

    /// Leaves the top state: its frame is kept for the next branch's copy.
    fn leave(&mut self) {
        if let Some(f) = self.stack.pop() {
            self.free.push(f);
        }
    }

    /// Moves the top state on to the next grid instant, or to its end after the last.
    fn advance(&mut self) {
        let Some(top) = self.stack.last_mut() else { return };
        self.events.truncate(top.events);
        let next_t = top.t + self.choices.grid_ms;
        let from = self.events.len();
        // Past the horizon no fault starts, but one planned to end later may still end early.
        if next_t >= self.choices.horizon_ms && !top.open.iter().any(|p| p.endable(next_t)) {
            return self.run_out();
        }
        if top.branch.run_until(&top.spec, &mut self.events, Millis::from_ms(next_t)).is_err() {
            // Stopped at a limit: judged on what happened until then.
            return self.judge();
        }
        for e in &self.events[from..] {
            checker::feed(e, &mut top.history);
        }
        (top.t, top.next, top.events) = (next_t, 0, self.events.len());
        // Once no more faults may be added, fewer states are looked up: see [`TAIL_MS`].
        let g = self.choices.grid_ms;
        let last = next_t + g >= self.choices.horizon_ms;
        let quiet = self.events.len() == top.looked && !(next_t / g).is_multiple_of((TAIL_MS / g).max(1));
        if top.used == self.pass && !last && quiet {
            return;
        }
        top.looked = self.events.len();
        let mut h = top.state(self.events.len(), &mut self.keys);
        // Which faults may still end early, and when each would end otherwise.
        hash_set(&mut h, top.open.iter().filter(|p| p.endable(next_t)).map(|p| (p.what, p.planned)));
        match self.shared.visited.visit(h.finish128(), self.pass - top.used) {
            Visit::New => self.counts.states += 1,
            // The start's own states are explored by every explorer sharing the tables.
            Visit::Seen if self.stack.len() == 1 => {}
            Visit::Seen => self.leave(),
            Visit::Full => self.proof = Proof::TooLarge,
        }
    }

    /// Runs the top state to its end, unless a state alike was run to its end before (a branch
    /// made at the last instant, or ending a fault there, often leaves a state another reached):
    /// it goes on alike, so its verdict is known. Such states are kept in the table too, apart
    /// from those at grid instants.
    fn run_out(&mut self) {
        let Some(top) = self.stack.last_mut() else { return };
        let mut h = top.state(self.events.len(), &mut self.keys);
        // Where a state at an instant's key has the count of faults that may end early, this
        // has a count no set has.
        h.write_u64(u64::MAX);
        match self.shared.visited.visit(h.finish128(), 0) {
            Visit::New => {}
            Visit::Seen => return self.leave(),
            Visit::Full => {
                self.proof = Proof::TooLarge;
                return;
            }
        }
        let _ = top.branch.run_out(&top.spec, &mut self.events);
        self.judge();
    }

    /// Judges the top state's finished run and leaves it.
    fn judge(&mut self) {
        self.counts.runs += 1;
        let Some(top) = self.stack.last() else { return };
        let mut h = top.history.clone();
        for e in &self.events[top.events..] {
            checker::feed(e, &mut h);
        }
        let harm = match self.shared.verdict(h.finish128()) {
            Some(harm) => harm,
            None => {
                let harm = checker::check(&self.events, self.quorum, &top.spec.once, &mut self.maps).first_harm().map(|f| f.kind());
                self.shared.keep(h.finish128(), harm);
                harm
            }
        };
        if let Some(kind) = harm {
            if self.first.is_none() {
                self.first = Some(self.path());
            }
            if !self.harms.contains(&kind) {
                self.harms.push(kind);
            }
            if !self.collect {
                return self.end();
            }
        }
        self.leave();
    }

    /// Starts the next pass, allowing one more fault, or ends after the last.
    fn next_pass(&mut self) {
        if self.pass >= self.last || (self.first.is_some() && !self.collect) {
            return self.end();
        }
        self.start_pass(self.pass + 1);
    }

    /// Starts pass `pass` at the first instant.
    fn start_pass(&mut self, pass: usize) {
        self.stack.clear();
        (self.pass, self.met, self.mine) = (pass, 0, self.shared.claim(pass));
        self.stack.push(self.root());
    }

    /// Explores pass `pass` alone, from its start: its share of it, with others sharing the
    /// tables. Ends safe if that share is.
    pub(super) fn explore_pass(&mut self, pass: usize) {
        self.last = pass;
        self.proof = Proof::Running;
        self.start_pass(pass);
    }

    /// Ends the verification as safe, counting the runs and branches other explorers made.
    pub(super) fn end_safe(&mut self, others: Counts) {
        self.stack.clear();
        self.counts.runs += others.runs;
        self.counts.branches += others.branches;
        self.proof = Proof::Safe;
    }

    /// Ends the verification: safe, or the first failure shrunk.
    fn end(&mut self) {
        self.stack.clear();
        self.proof = match (self.first.take(), self.harms.first()) {
            (Some(first), Some(&kind)) => {
                let found =
                    format!("Verification found this on a {} grid and shrank it.", crate::present::number::ms(self.choices.grid_ms));
                Proof::Unsafe(Box::new(self.search.write_up(first, Failure::Safety(kind), &found)))
            }
            _ => Proof::Safe,
        };
    }

    /// The faults the path to the top state added, in order, each as long as it ran.
    fn path(&self) -> Vec<Added> {
        let mut path: Vec<(usize, Added)> = self.stack.iter().filter_map(|f| f.added.clone()).collect();
        for (fault, length) in self.stack.iter().filter_map(|f| f.ended) {
            if let Some((_, added)) = path.iter_mut().find(|(place, _)| *place == fault) {
                *added = added.sized(length as i64);
            }
        }
        path.into_iter().map(|(_, added)| added).collect()
    }

    /// Where it stands.
    pub fn proof(&self) -> &Proof {
        &self.proof
    }

    /// How much it has done.
    pub fn counts(&self) -> Counts {
        Counts { states: self.shared.visited.len(), ..self.counts }
    }

    /// How many fingerprints it keeps: of the states explored and of the runs judged.
    pub fn fingerprints(&self) -> usize {
        self.shared.fingerprints()
    }

    /// Every kind of harm found so far, in the order first found.
    pub fn harms(&self) -> &[FindingKind] {
        &self.harms
    }

    /// The grid laid over the scenario.
    pub fn choices(&self) -> &Choices {
        &self.choices
    }

    /// The bounds verified.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The bytes the tables of explored states and of verdicts take.
    pub fn table_bytes(&self) -> usize {
        self.shared.bytes()
    }

    /// How far it is, from 0 to 1: within a pass, by the root's progress over the grid's
    /// instants; the passes with fewer faults, which take far less, count for a tenth.
    pub fn progress(&self) -> f64 {
        let Some(root) = self.stack.first() else {
            return if matches!(self.proof, Proof::Running) { 0.0 } else { 1.0 };
        };
        let at = self.choices.at(root.t).max(1);
        let within = root.next.min(at) as f64 / at as f64;
        let pass = ((root.t as f64 + within * self.choices.grid_ms as f64) / self.choices.horizon_ms as f64).min(1.0);
        let last = self.choices.max_faults;
        match self.pass < last {
            true => 0.1 * (self.pass as f64 + pass) / last as f64,
            false => 0.1 + 0.9 * pass,
        }
    }

    /// The search whose scenario, targets and runs this verification uses.
    pub fn search(&self) -> &Search {
        &self.search
    }
}
