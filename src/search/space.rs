//! Where faults can go: the bounds a user sets, the participants each kind of fault can hit,
//! the run's interesting times, and the systematic grid and seeded random schedules over them.

use super::fault::{Added, Class, Cut};
use crate::engine::clock::TimerClock;
use crate::engine::rng::Rng;
use crate::engine::{EventKind, Trace};
use crate::limits::MAX_SEARCH_TIMES;
use crate::scenario::format::{Participant, Scenario};
use crate::sort::heap_sort;

/// How far a search may go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The kinds of fault to add.
    pub classes: Vec<Class>,
    /// The most faults one schedule adds (1 to 4).
    pub max_faults: usize,
    /// The longest pause, partition, crash and message delay, in ms.
    pub pause_ms: u64,
    pub partition_ms: u64,
    pub crash_ms: u64,
    pub delay_ms: u64,
    /// The largest clock jump either way, in ms, and the largest drift, in millionths.
    pub jump_ms: u64,
    pub drift_ppm: u64,
    /// How many schedules to run at most.
    pub budget: usize,
    pub seed: u64,
    /// How long a client may wait for the lock before that counts as a liveness failure.
    pub stall_ms: u64,
    /// Whether the systematic pass runs before the random schedules (off: random alone).
    pub systematic: bool,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            classes: Class::ALL.to_vec(),
            max_faults: 2,
            pause_ms: 5_000,
            partition_ms: 10_000,
            crash_ms: 5_000,
            delay_ms: 2_000,
            jump_ms: 3_000,
            drift_ppm: 500_000,
            budget: 20_000,
            seed: 1,
            stall_ms: 3_000,
            systematic: true,
        }
    }
}

impl Bounds {
    /// The largest size of a class's faults (a jump or a drift either way).
    pub fn limit(&self, class: Class) -> u64 {
        match class {
            Class::Pause => self.pause_ms,
            Class::DelayMessage => self.delay_ms,
            Class::Partition => self.partition_ms,
            Class::Crash => self.crash_ms,
            Class::ClockJump => self.jump_ms,
            Class::Drift => self.drift_ppm,
        }
    }

    /// The smallest size worth trying: 1 ms, or 0.1% of drift.
    pub fn floor(class: Class) -> u64 {
        if class == Class::Drift {
            1_000
        } else {
            1
        }
    }
}

/// The participants faults can hit, by role, and the links messages took.
pub struct Targets {
    pub everyone: Vec<String>,
    pub services: Vec<String>,
    pub links: Vec<(String, String)>,
    /// The clock the lock service times its expiries by (the design says which): a jump of its
    /// wall clock moves them only if it is the wall clock.
    pub service_clock: TimerClock,
}

impl Targets {
    /// Reads the targets from a scenario and its base run.
    pub fn of(s: &Scenario, base: &Trace) -> Targets {
        // Clients first: a process pause is the classic story, then the servers, then the data.
        let rank = |p: &Participant| match p {
            Participant::Client { .. } => 0,
            Participant::LockService { .. } => 1,
            Participant::Resource { .. } => 2,
        };
        let everyone = (0..3).flat_map(|r| s.participants.iter().filter(move |p| rank(p) == r)).map(|p| p.id().to_string()).collect();
        let services = s.participants.iter().filter(|p| matches!(p, Participant::LockService { .. })).map(|p| p.id().to_string()).collect();
        let mut links: Vec<(String, String)> = base
            .events
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::Send { to, .. } => Some((base.participants[e.node.0].key.clone(), base.participants[to.0].key.clone())),
                _ => None,
            })
            .collect();
        heap_sort(&mut links, |a, b| a < b);
        links.dedup();
        Targets { everyone, services, links, service_clock: s.lock.design.service_clock() }
    }

    /// The nodes a class of fault can hit, the likeliest to matter first: clients for pauses
    /// and partitions, the lock service first for clock faults (its clock times the lease), the
    /// lock service alone for crashes. Clock faults hit every node, servers included: what a jump
    /// moves is the node's to say, by the clock its timers read.
    pub fn nodes(&self, class: Class) -> Vec<&String> {
        match class {
            Class::Crash => self.services.iter().collect(),
            Class::ClockJump | Class::Drift => {
                self.services.iter().chain(self.everyone.iter().filter(|n| !self.services.contains(n))).collect()
            }
            _ => self.everyone.iter().collect(),
        }
    }
}

/// The run's interesting times: each grant, expiry, send and delivery, and a millisecond
/// either side, spread evenly if there are too many; the moments just after a client comes to
/// hold the lock first (a fault there lands while it holds it), then the rest in order.
pub fn times(base: &Trace) -> Vec<u64> {
    let mut holding: Vec<u64> =
        base.events.iter().filter(|e| matches!(e.kind, EventKind::BeliefStart { .. })).map(|e| e.at_ms.as_ms() + 1).collect();
    holding.dedup();
    let mut rest = spread(base);
    rest.retain(|t| !holding.contains(t));
    holding.extend(rest);
    holding
}

/// Every grant, expiry, send and delivery time, a millisecond either side, at most
/// [`MAX_SEARCH_TIMES`] of them.
fn spread(base: &Trace) -> Vec<u64> {
    let mut t: Vec<u64> = base
        .events
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                EventKind::Send { .. }
                    | EventKind::Deliver { .. }
                    | EventKind::LockGranted { .. }
                    | EventKind::LockEnded { .. }
                    | EventKind::BeliefStart { .. }
            )
        })
        .map(|e| e.at_ms.as_ms())
        .flat_map(|t| [t.saturating_sub(1), t, t + 1])
        .collect();
    heap_sort(&mut t, |a, b| a < b);
    t.dedup();
    if t.len() > MAX_SEARCH_TIMES {
        let step = t.len() as f64 / MAX_SEARCH_TIMES as f64;
        t = (0..MAX_SEARCH_TIMES).map(|i| t[(i as f64 * step) as usize]).collect();
    }
    t
}

/// Sizes to try for a class, largest first: its limit, then round steps below it.
fn sizes(bounds: &Bounds, class: Class) -> Vec<i64> {
    let limit = bounds.limit(class);
    let steps: &[u64] = if class == Class::Drift {
        &[1_000_000, 500_000, 250_000, 100_000, 10_000]
    } else {
        &[10_000, 5_000, 3_000, 2_000, 1_500, 1_000, 500, 200, 100, 50, 10]
    };
    let mut out: Vec<u64> = std::iter::once(limit).chain(steps.iter().copied().filter(|&s| s < limit)).collect();
    out.dedup();
    let signed = matches!(class, Class::ClockJump | Class::Drift);
    out.iter().flat_map(|&m| if signed { vec![m as i64, -(m as i64)] } else { vec![m as i64] }).collect()
}

/// Every single fault on the grid: each class in turn, larger sizes first, on each target
/// (clients first), at each interesting time.
pub fn grid(bounds: &Bounds, targets: &Targets, times: &[u64]) -> Vec<Added> {
    let mut out = Vec::new();
    for &class in &bounds.classes {
        for m in sizes(bounds, class) {
            if class == Class::Drift {
                // Drift has no time: it is there from the start.
                out.extend(targets.everyone.iter().map(|n| Added::Drift { node: n.clone(), ppm: m }));
                continue;
            }
            if class == Class::DelayMessage {
                for (from, to) in &targets.links {
                    out.extend(times.iter().map(|&t| Added::DelayMessage { at_ms: t, from: from.clone(), to: to.clone(), ms: m as u64 }));
                }
                continue;
            }
            for node in targets.nodes(class) {
                for &t in times {
                    out.extend(one(class, t, node, m));
                }
            }
        }
    }
    out
}

/// The faults of a class at one time on one node (a partition in each of its three ways).
pub fn one(class: Class, at_ms: u64, node: &str, m: i64) -> Vec<Added> {
    let node = node.to_string();
    let ms = m.unsigned_abs();
    match class {
        Class::Pause => vec![Added::Pause { at_ms, node, ms }],
        Class::Partition => [Cut::Both, Cut::Outgoing, Cut::Incoming]
            .into_iter()
            .map(|cut| Added::Partition { at_ms, node: node.clone(), cut, ms })
            .collect(),
        Class::Crash => vec![Added::Crash { at_ms, node, ms }],
        Class::ClockJump => vec![Added::ClockJump { at_ms, node, ms: m }],
        Class::Drift => vec![Added::Drift { node, ppm: m }],
        Class::DelayMessage => Vec::new(),
    }
}

/// A seeded random schedule of one to `max_faults` faults anywhere in `[0, horizon_ms]`.
pub fn random(rng: &mut Rng, bounds: &Bounds, targets: &Targets, horizon_ms: u64) -> Vec<Added> {
    let n = rng.range_inclusive(1, bounds.max_faults.max(1) as u64) as usize;
    let pick = |rng: &mut Rng, len: usize| rng.range_inclusive(0, len.saturating_sub(1) as u64) as usize;
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let class = bounds.classes[pick(rng, bounds.classes.len())];
        let at_ms = rng.range_inclusive(0, horizon_ms);
        let size = rng.range_inclusive(Bounds::floor(class), bounds.limit(class).max(Bounds::floor(class))) as i64;
        let m = if matches!(class, Class::ClockJump | Class::Drift) && rng.chance(0.5) { -size } else { size };
        if class == Class::DelayMessage {
            if targets.links.is_empty() {
                return out;
            }
            let (from, to) = targets.links[pick(rng, targets.links.len())].clone();
            out.push(Added::DelayMessage { at_ms, from, to, ms: m as u64 });
            continue;
        }
        let nodes = targets.nodes(class);
        if nodes.is_empty() {
            return out;
        }
        let node = nodes[pick(rng, nodes.len())];
        let choices = one(class, at_ms, node, m);
        out.push(choices[pick(rng, choices.len())].clone());
    }
    out
}
