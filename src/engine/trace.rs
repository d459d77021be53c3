//! A whole run: its participants, every event in order, and what the checker and the metrics
//! made of them.

use super::checker::{self, Verdict};
use super::clock::Clock;
use super::error::RunError;
use super::event::Event;
use super::ids::{NodeId, NodeKind};
use super::metrics::Metrics;
use super::sim::{simulate, Reuse, Simulated};
use super::spec::Spec;
use serde::Serialize;

/// One participant as the trace shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NodeInfo {
    pub key: String,
    pub name: String,
    pub role: NodeKind,
    pub clock: Clock,
}

/// A whole run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Trace {
    pub seed: u64,
    pub participants: Vec<NodeInfo>,
    /// How many lock-service nodes must hold a client's lock for it to hold the lock; 0 when
    /// there is no lock.
    pub quorum: usize,
    pub events: Vec<Event>,
    /// For each fault, the event it made, if any (see [`simulate`]).
    #[serde(skip)]
    pub fault_events: Vec<Option<usize>>,
    pub verdict: Verdict,
    pub metrics: Metrics,
}

impl Trace {
    /// Returns this run's event at the simulated time of event `c` of `other`'s events: as many
    /// events into that millisecond as `c` was (so a run that changed nothing keeps the step), or
    /// the last event before it. A run of no events gives 0.
    pub fn at_time_of(&self, other: &[Event], c: usize) -> usize {
        let (new, t) = (&self.events, other[c].at_ms);
        let into = c - other.partition_point(|e| e.at_ms < t);
        let (first, end) = (new.partition_point(|e| e.at_ms < t), new.partition_point(|e| e.at_ms <= t));
        (first + into).min(end.max(1) - 1)
    }

    /// Returns a participant's display name.
    pub fn name(&self, id: NodeId) -> &str {
        &self.participants[id.0].name
    }
}

/// Runs a spec to completion and returns its checked trace.
pub fn run(spec: &Spec) -> Result<Trace, RunError> {
    match run_to_limit(spec)? {
        (trace, None) => Ok(trace),
        (_, Some(limit)) => Err(limit),
    }
}

/// A run as the checker sees it: its events and verdict, without the participants' names or
/// the metrics (what a search judges a schedule by).
pub struct Checked {
    pub events: Vec<Event>,
    pub fault_events: Vec<Option<usize>>,
    pub verdict: Verdict,
    /// As [`Trace::quorum`].
    pub quorum: usize,
    /// The limit that stopped the run before it finished, if one did.
    pub stopped: Option<RunError>,
}

/// Runs a spec to completion, or until it passes one of its limits, and checks what happened;
/// the run's lists come from `reuse` (a search hands each run's events back for the next).
pub fn check_run(spec: &Spec, reuse: &mut Reuse) -> Result<Checked, RunError> {
    Ok(checked(spec, simulate(spec, reuse)?, &mut checker::Maps::default()))
}

/// Checks what a run of `spec` did, with the checker's maps in `maps`.
pub fn checked(spec: &Spec, run: Simulated, maps: &mut checker::Maps) -> Checked {
    let Simulated { events, fault_events, stopped } = run;
    let quorum = spec.lock.quorum(spec.locks.len());
    let verdict = checker::check(&events, quorum, &spec.once, maps);
    Checked { events, fault_events, verdict, quorum, stopped }
}

/// Runs a spec to completion, or until it passes one of its limits (then the limit comes back
/// with the checked trace of what happened until then).
pub fn run_to_limit(spec: &Spec) -> Result<(Trace, Option<RunError>), RunError> {
    let Checked { events, fault_events, verdict, quorum, stopped } = check_run(spec, &mut Reuse::default())?;
    let participants = spec
        .nodes
        .iter()
        .map(|n| NodeInfo { key: n.key.to_string(), name: n.name.to_string(), role: n.role.kind(), clock: n.clock.clone() })
        .collect();
    let metrics = Metrics::of(&events, &verdict);
    Ok((Trace { seed: spec.seed, participants, quorum, events, fault_events, verdict, metrics }, stopped))
}
