//! One fault schedule, every design: the comparison table.
//!
//! Each cell runs the same two-client story (A takes the lock and works, B wants it too) under
//! one schedule against one row, and sorts the result into safe, unsafe or stalls. The rows come
//! from the designs themselves ([`crate::design::Kind::rows`]). Scenarios are built here as
//! ordinary [`Scenario`] values and validated like any file, so every cell can also be opened as a
//! diagram (id `compare-<schedule>-<row>`).

use super::format::{ClockSpec, Fault, LockChoice, Network, Participant, Scenario};
use super::validate::compile;
use crate::design::{Row, REGISTRY};
use crate::engine::event::EventKind;
use crate::engine::msg::ReleaseMode;
use crate::engine::spec::{AcquirePolicy, RenewFailure, RenewPolicy, Spec, Step};
use crate::engine::{self, Trace};
use crate::error::{quote, unknown, ScenarioError};
use crate::present::number::{capital, ms};
use crate::present::Words;

/// The lease length every design gets, so the schedules mean the same thing to each.
pub const TTL_MS: u64 = 1_000;

/// A fault schedule, applied to each design in turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub id: &'static str,
    /// A column heading.
    pub title: &'static str,
    pub about: &'static str,
}

/// The schedules, in column order.
pub const SCHEDULES: [Schedule; 3] = [
    Schedule {
        id: "pause",
        title: "Holder pauses 2 × TTL",
        about: "Client A takes the lock and, at 80 ms, while it works, stops for 2,000 ms (twice the TTL): a GC pause. Client B wants the lock from 20 ms on.",
    },
    Schedule {
        id: "partition",
        title: "Holder cut off for 10 s",
        about: "Client A takes the lock and works for 10.5 s. From 50 ms on, the network between A and the lock service is cut for 10 s, so A's renewals and keep-alives are lost; A can still reach the resource. Client B wants the lock from 20 ms on.",
    },
    Schedule {
        id: "clock-jump",
        title: "Lock service's clock jumps",
        about: "Client A takes the lock and works for 300 ms. At 50 ms the lock service's wall clock jumps 2,000 ms forward (an NTP step). Client B wants the lock from 20 ms on.",
    },
];

/// How a cell came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Safe,
    /// A stale write was accepted or an update was lost.
    Unsafe,
    /// Safe, but B could not get the lock until A came back (or never).
    Stalls,
}

impl Outcome {
    /// Returns the word shown in the table.
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Safe => "safe",
            Outcome::Unsafe => "unsafe",
            Outcome::Stalls => "stalls",
        }
    }
}

/// What "safe" means in the table: safe under the column's schedule, not under every schedule.
pub const SAFE_MEANS: &str = "Safe means safe under that column's schedule. A fenced resource still accepts a stale write that arrives before the new holder's first write (the lesson \u{201c}Fencing: a stale write before the new holder\u{2019}s first\u{201d}); Find a failure on a cell searches other schedules.";

/// Returns every row of the table, in the registry's order.
pub fn rows() -> Vec<Row> {
    REGISTRY.iter().flat_map(|k| k.rows(TTL_MS)).collect()
}

/// One schedule run against one row.
#[derive(Clone, Debug)]
pub struct Cell {
    pub schedule: Schedule,
    pub row: Row,
    pub outcome: Outcome,
    /// One sentence on why.
    pub detail: String,
    /// Whether the schedule's fault does not touch this design at all (a wall-clock jump
    /// against timers that measure elapsed time).
    pub unaffected: bool,
}

impl Cell {
    /// Returns the id under which the cell opens as a diagram.
    pub fn id(&self) -> String {
        id(self.schedule.id, self.row.id)
    }
}

/// Returns the scenario id of a cell.
pub fn id(schedule: &str, row: &str) -> String {
    format!("compare-{schedule}-{row}")
}

/// Finds a schedule by id, naming the known ones if there is none.
pub fn schedule(id: &str) -> Result<Schedule, ScenarioError> {
    SCHEDULES
        .iter()
        .copied()
        .find(|s| s.id == id)
        .ok_or_else(|| unknown("schedule", id, &SCHEDULES.iter().map(|s| s.id).collect::<Vec<_>>()))
}

/// Finds a row by id, naming the known ones if there is none.
pub fn row(id: &str) -> Result<Row, ScenarioError> {
    let all = rows();
    match all.iter().find(|r| r.id == id) {
        Some(r) => Ok(r.clone()),
        None => Err(unknown("design", id, &all.iter().map(|r| r.id).collect::<Vec<_>>())),
    }
}

fn client(id: &str, start_ms: i64, work_ms: u64, renew: bool) -> Participant {
    let release = Step::Release { mode: ReleaseMode::Safe };
    Participant::Client {
        id: id.into(),
        name: format!("Client {id}"),
        clock: ClockSpec::default(),
        start_ms,
        script: vec![Step::Acquire, Step::Work { ms: work_ms }, Step::Write { value: id.into() }, release],
        acquire: AcquirePolicy { retry_ms: 100, jitter_ms: 0, max_attempts: 1_000, timeout_ms: 500 },
        renew: renew.then_some(RenewPolicy { every_ms: TTL_MS / 3, on_failure: RenewFailure::CarryOn }),
    }
}

/// Builds the scenario for one cell.
pub fn scenario(schedule: Schedule, row: &Row) -> Result<(Scenario, Spec), ScenarioError> {
    let work_ms = match schedule.id {
        "partition" => 10_500,
        "clock-jump" => 300,
        _ => 100,
    };
    // Clients renew through their script wherever the design lets them.
    let renew = row.design.script_renewal().is_ok();
    let locks: Vec<String> = match row.services {
        1 => vec!["L".into()],
        n => (1..=n).map(|i| format!("M{i}")).collect(),
    };
    let mut participants = vec![client("A", 0, work_ms, renew)];
    for (i, id) in locks.iter().enumerate() {
        let name = if locks.len() > 1 { format!("{} {}", row.service_name, i + 1) } else { row.service_name.into() };
        participants.push(Participant::LockService { id: id.clone(), name, clock: ClockSpec::default() });
    }
    if let Some(mode) = row.resource {
        participants.push(Participant::Resource { id: "R".into(), name: "Resource".into(), clock: ClockSpec::default(), mode });
    }
    participants.push(client("B", 20, 50, renew));
    let faults = match schedule.id {
        "pause" => vec![Fault::Pause { at_ms: 80, node: "A".into(), for_ms: 2 * TTL_MS as i64 }],
        "partition" => vec![Fault::Partition { at_ms: 50, from: vec!["A".into()], to: locks.clone(), two_way: true, for_ms: 10_000 }],
        // Redlock's clock jump hits one master of five; timers that measure elapsed time ignore it.
        _ if !row.elapsed_timers => vec![Fault::ClockJump { at_ms: 50, node: locks[0].clone(), by_ms: 2 * TTL_MS as i64 }],
        _ => Vec::new(),
    };
    let mut intro = format!("{} Design: {} (fencing token: {}).", schedule.about, row.title, row.token);
    if schedule.id == "clock-jump" && row.elapsed_timers {
        intro.push_str(" This design times its leases and sessions with elapsed-time timers, so the jump does not move any expiry and is left out of this run.");
    }
    let design = row.design.clone();
    let lock = LockChoice { kind: design.kind(), values: design.values().clone(), design };
    let scenario = Scenario {
        version: super::validate::VERSION,
        id: id(schedule.id, row.id),
        title: format!("{} · {}", schedule.title, row.title),
        topic: "Compare designs".into(),
        intro,
        takeaway: String::new(),
        guarantees: None,
        seed: 1,
        lock,
        participants,
        network: Network::default(),
        faults,
        limits: Default::default(),
    };
    let spec = compile(&scenario)?;
    Ok((scenario, spec))
}

/// Runs the cell with scenario id `compare-<schedule>-<row>`.
pub fn cell_by_id(id: &str) -> Result<(Cell, Scenario, Trace), ScenarioError> {
    let rest = id.strip_prefix("compare-").unwrap_or(id);
    for s in SCHEDULES {
        if let Some(r) = rest.strip_prefix(s.id).and_then(|r| r.strip_prefix('-')) {
            return cell(s, &row(r)?);
        }
    }
    let known: Vec<&str> = SCHEDULES.iter().map(|s| s.id).collect();
    Err(ScenarioError::new(
        "",
        format!(
            "there is no comparison named {}: expected compare-<schedule>-<design>, with a schedule among {}",
            quote(id),
            known.join(", ")
        ),
    ))
}

/// Sorts a finished run into an outcome, with a sentence saying why.
pub fn judge(words: &Words) -> (Outcome, String) {
    let trace = words.trace();
    if let Some(f) = trace.verdict.findings.iter().find(|f| f.kind().is_violation()) {
        return (Outcome::Unsafe, format!("{} at {}.", capital(&words.finding(f)), ms(f.at_ms)));
    }
    let held = words.vocabulary().held();
    let b = trace.participants.iter().position(|p| p.key == "B");
    let b_got_lock = trace.events.iter().find(|e| Some(e.node.0) == b && matches!(e.kind, EventKind::BeliefStart { .. })).map(|e| e.at_ms);
    let fault_end = trace.events.iter().find_map(|e| match e.kind {
        EventKind::PauseStart { until_ms } | EventKind::PartitionStart { until_ms, .. } => Some(until_ms),
        _ => None,
    });
    match (b_got_lock, fault_end) {
        (None, _) => return (Outcome::Stalls, format!("Client B never got {held}.")),
        (Some(t), Some(end)) if t >= end => {
            let text = format!("Client B got {held} only at {}, after A came back at {}: everyone waited for A.", ms(t), ms(end));
            return (Outcome::Stalls, text);
        }
        _ => {}
    }
    let rejected = trace.events.iter().find_map(|e| match &e.kind {
        EventKind::WriteRejected { writer, reason, .. } => {
            Some(format!("{}'s late write was refused ({})", trace.name(*writer), words.rejection(reason)))
        }
        _ => None,
    });
    let text = match rejected {
        Some(r) => format!("{r}."),
        None => format!("Client B got {held} at {} and no stale write reached the data.", ms(b_got_lock.unwrap_or(0))),
    };
    (Outcome::Safe, text)
}

/// Runs one cell.
pub fn cell(schedule: Schedule, row: &Row) -> Result<(Cell, Scenario, Trace), ScenarioError> {
    let (mut scenario, spec) = scenario(schedule, row)?;
    let trace = engine::run(&spec)?;
    let words = Words::new(&trace, &*row.design);
    let (outcome, mut detail) = judge(&words);
    let unaffected = schedule.id == "clock-jump" && row.elapsed_timers;
    if unaffected {
        detail = format!("This design measures expiry by elapsed time, so the jump moves no expiry. {detail}");
    } else if schedule.id == "clock-jump" && row.services > 1 && outcome == Outcome::Safe {
        // Safe only because the schedule is mild for a quorum: the lesson shows where it is not.
        detail = format!(
            "Only one of the {} {} masters jumps and nothing is partitioned, so the others still hold A's key and B wins no majority; with a partition as well (the lesson “Redlock: a clock jump on one master”) the jump does break it. {detail}",
            row.services, row.service_name
        );
    }
    scenario.takeaway = format!("{}: {detail}", capital(outcome.label()));
    Ok((Cell { schedule, row: row.clone(), outcome, detail, unaffected }, scenario, trace))
}

/// Runs every row against every schedule: rows of the table, columns schedules.
pub fn table() -> Result<Vec<Vec<Cell>>, ScenarioError> {
    rows().iter().map(|r| SCHEDULES.iter().map(|&s| cell(s, r).map(|c| c.0)).collect()).collect()
}

/// Renders the table as fixed-width text, for the command line.
pub fn to_text(rows: &[Vec<Cell>]) -> String {
    let firsts: Vec<&Row> = rows.iter().filter_map(|r| r.first()).map(|c| &c.row).collect();
    let design_w = firsts.iter().map(|r| r.title.chars().count()).max().unwrap_or(0);
    let token_w = firsts.iter().map(|r| r.token.chars().count()).max().unwrap_or(0);
    let col_w = SCHEDULES.iter().map(|s| s.title.chars().count()).max().unwrap_or(0);
    let pad = |s: &str, w: usize| format!("{s}{}", " ".repeat(w.saturating_sub(s.chars().count())));
    let mut out = format!("{}  {}", pad("design", design_w), pad("fencing token", token_w));
    for s in SCHEDULES {
        out.push_str(&format!("  {}", pad(s.title, col_w)));
    }
    out = out.trim_end().to_string() + "\n";
    for row in rows {
        let Some(first) = row.first() else { continue };
        let mut line = format!("{}  {}", pad(first.row.title, design_w), pad(first.row.token, token_w));
        for c in row {
            line.push_str(&format!("  {}", pad(c.outcome.label(), col_w)));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str(&format!("\n{SAFE_MEANS}\n\n"));
    for row in rows {
        for c in row {
            out.push_str(&format!("{} · {}: {} — {}\n", c.schedule.id, c.row.id, c.outcome.label(), c.detail));
        }
    }
    out
}
