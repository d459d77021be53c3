//! One fault schedule, every design: the comparison table.
//!
//! Each cell runs the same two-client story (A takes the lock and works, B wants it too) under
//! one schedule against one row, and sorts the result into safe, unsafe or stalls. The rows come
//! from the designs themselves ([`crate::design::Kind::rows`]). Scenarios are built here as
//! ordinary [`Scenario`] values and validated like any file, so every cell can also be opened as a
//! diagram (id `compare-<schedule>-<row>`).

use super::faults::{self, FaultDecl};
use super::format::{ClockSpec, Fault, LockChoice, Network, Participant, Scenario};
use super::validate::compile;
use crate::design::{Row, REGISTRY};
use crate::engine::event::EventKind;
use crate::engine::msg::ReleaseMode;
use crate::engine::spec::{AcquirePolicy, RenewFailure, RenewPolicy, Spec, Step};
use crate::engine::time::Millis;
use crate::engine::{self, Trace};
use crate::error::{quote, unknown, ScenarioError};
use crate::present::{generated, table, Words};

/// The lease length every design gets, so the schedules mean the same thing to each.
pub const TTL_MS: u64 = 1_000;

/// A fault schedule of the table, applied to each design in turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// The holder stops the world for twice the TTL.
    Pause,
    /// The holder is cut off from the lock service for 10 s, and carries on when its renewals fail.
    Partition,
    /// The same cut, and the holder stops as soon as a renewal fails.
    PartitionStop,
    /// The lock service's wall clock jumps forward.
    ClockJump,
}

impl Schedule {
    /// Every schedule, in column order.
    pub const ALL: [Schedule; 4] = [Schedule::Pause, Schedule::Partition, Schedule::PartitionStop, Schedule::ClockJump];

    /// Returns the kind of fault the schedule adds.
    pub fn fault(self) -> &'static FaultDecl {
        match self {
            Schedule::Pause => &faults::PAUSE,
            Schedule::Partition | Schedule::PartitionStop => &faults::PARTITION,
            Schedule::ClockJump => &faults::CLOCK_JUMP,
        }
    }

    /// Returns the schedule's id in links and cell ids: its fault's tag, and for the holder that
    /// stops on a failed renewal, that tag with `_stop`.
    pub fn id(self) -> &'static str {
        match self {
            Schedule::PartitionStop => "partition_stop",
            _ => self.fault().tag,
        }
    }

    /// What the holder's client does when a renewal fails.
    fn on_failure(self) -> RenewFailure {
        match self {
            Schedule::PartitionStop => RenewFailure::Abort,
            _ => RenewFailure::CarryOn,
        }
    }

    /// Returns the column heading.
    pub fn title(self) -> &'static str {
        match self {
            Schedule::Pause => "Holder pauses 2 × TTL",
            Schedule::Partition => "Holder cut off for 10 s, carries on",
            Schedule::PartitionStop => "Holder cut off for 10 s, stops",
            Schedule::ClockJump => "Lock service's clock jumps",
        }
    }

    /// Tells the schedule's story.
    pub fn about(self) -> &'static str {
        match self {
            Schedule::Pause => "Client A takes the lock and, at 80 ms, while it works, stops for 2,000 ms (twice the TTL): a GC pause. Client B wants the lock from 20 ms on.",
            Schedule::Partition => "Client A takes the lock and works for 10.5 s. From 50 ms on, the network between A and the lock service is cut for 10 s, so A's renewals and keep-alives are lost; A can still reach the resource. A's client carries on when a renewal fails, as many do by default; client-go stops at its renew deadline whatever it is told. Client B wants the lock from 20 ms on.",
            Schedule::PartitionStop => "The same cut, but A's client stops as soon as a renewal fails or goes unanswered: etcd's Session.Done(), ZooKeeper's safe mode on Disconnected, a Redis client that aborts. A client that renews nothing (Redlock's, here) has nothing to notice. Client B wants the lock from 20 ms on.",
            Schedule::ClockJump => "Client A takes the lock and works for 300 ms. At 50 ms the lock service's wall clock jumps 2,000 ms forward (an NTP step). Client B wants the lock from 20 ms on.",
        }
    }

    /// Finds a schedule by its id (links written before the ids were the faults' tags spelled
    /// the clock jump `clock-jump`, and still open).
    pub fn named(id: &str) -> Option<Schedule> {
        Schedule::ALL.into_iter().find(|s| s.id() == id || (*s == Schedule::ClockJump && id == "clock-jump"))
    }

    /// How long client A works.
    fn work_ms(self) -> u64 {
        match self {
            Schedule::Pause => 100,
            Schedule::Partition | Schedule::PartitionStop => 10_500,
            Schedule::ClockJump => 300,
        }
    }

    /// The faults the schedule adds for a row whose lock services are `locks`.
    fn faults(self, locks: &[String]) -> Vec<Fault<String>> {
        match self {
            Schedule::Pause => vec![Fault::Pause { at_ms: 80, node: "A".into(), for_ms: 2 * TTL_MS as i64 }],
            Schedule::Partition | Schedule::PartitionStop => {
                vec![Fault::Partition { at_ms: 50, from: vec!["A".into()], to: locks.to_vec(), two_way: true, for_ms: 10_000 }]
            }
            // Redlock's clock jump hits one master of five. It steps the wall clock: a design
            // whose service times by elapsed time runs it too, and nothing moves.
            Schedule::ClockJump => vec![Fault::ClockJump { at_ms: 50, node: locks[0].clone(), by_ms: 2 * TTL_MS as i64 }],
        }
    }

    /// Says whether the schedule's fault moves nothing in a row's design (a step of the wall
    /// clock of a service that times by elapsed time).
    fn moves_nothing_in(self, row: &Row) -> bool {
        self == Schedule::ClockJump && row.elapsed_timers()
    }
}

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

pub use crate::present::table::SAFE_MEANS;

/// Returns every row of the table, in the registry's order.
pub fn rows() -> Vec<Row> {
    let mut rows = Vec::new();
    for kind in REGISTRY {
        rows.extend(kind.rows(TTL_MS));
    }
    rows
}

/// One schedule run against one row.
#[derive(Clone, Debug)]
pub struct Cell {
    pub schedule: Schedule,
    pub row: Row,
    pub outcome: Outcome,
    /// One sentence on why.
    pub detail: String,
    /// Whether the schedule's fault moves nothing in this design (a wall-clock jump against
    /// timers that measure elapsed time).
    pub unaffected: bool,
}

impl Cell {
    /// Returns the id under which the cell opens as a diagram.
    pub fn id(&self) -> String {
        id(self.schedule.id(), self.row.id)
    }
}

/// Returns the scenario id of a cell.
pub fn id(schedule: &str, row: &str) -> String {
    format!("compare-{schedule}-{row}")
}

/// Finds a schedule by id, naming the known ones if there is none.
pub fn schedule(id: &str) -> Result<Schedule, ScenarioError> {
    Schedule::named(id).ok_or_else(|| unknown("schedule", id, &Schedule::ALL.map(Schedule::id)))
}

/// Finds a row by id, naming the known ones if there is none.
pub fn row(id: &str) -> Result<Row, ScenarioError> {
    let all = rows();
    match all.iter().find(|r| r.id == id) {
        Some(r) => Ok(r.clone()),
        None => Err(unknown("design", id, &all.iter().map(|r| r.id).collect::<Vec<_>>())),
    }
}

fn client(id: &str, start_ms: i64, work_ms: u64, renew: Option<RenewFailure>) -> Participant {
    let release = Step::Release { mode: ReleaseMode::Safe };
    Participant::Client {
        id: id.into(),
        name: generated::client(id),
        clock: ClockSpec::default(),
        start_ms,
        script: vec![Step::Acquire, Step::Work { ms: work_ms }, Step::Write { value: id.into(), to: None }, release],
        acquire: AcquirePolicy { retry_ms: 100, jitter_ms: 0, max_attempts: 1_000, timeout_ms: 500 },
        renew: renew.map(|on_failure| RenewPolicy { every_ms: TTL_MS / 3, on_failure }),
    }
}

/// Builds the scenario for one cell.
pub fn scenario(schedule: Schedule, row: &Row) -> Result<(Scenario, Spec), ScenarioError> {
    let work_ms = schedule.work_ms();
    // Clients renew through their script wherever the design lets them.
    let renew = row.design.script_renewal().is_ok().then_some(schedule.on_failure());
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
        participants.push(Participant::Resource { id: "R".into(), name: generated::RESOURCE.into(), clock: ClockSpec::default(), mode });
    }
    participants.push(client("B", 20, 50, renew));
    let faults = schedule.faults(&locks);
    let intro = table::intro(schedule.about(), row.title, row.token, schedule.moves_nothing_in(row));
    let design = row.design.clone();
    let lock = LockChoice { kind: design.kind(), values: design.values().clone(), design };
    let scenario = Scenario {
        version: super::validate::VERSION,
        id: id(schedule.id(), row.id),
        title: table::title(schedule.title(), row.title),
        topic: generated::COMPARE_TOPIC.into(),
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
    for (schedule, r) in rest.match_indices('-').map(|(i, _)| (&rest[..i], &rest[i + 1..])) {
        if let Some(s) = Schedule::named(schedule) {
            return cell(s, &row(r)?);
        }
    }
    let known = Schedule::ALL.map(Schedule::id).join(", ");
    Err(ScenarioError::new(
        "",
        format!("there is no comparison named {}: expected compare-<schedule>-<design>, with a schedule among {known}", quote(id)),
    ))
}

/// Sorts a finished run into an outcome, with a sentence saying why.
pub fn judge(words: &Words) -> (Outcome, String) {
    let trace = words.trace();
    if let Some(f) = trace.verdict.findings.iter().find(|f| f.kind().is_harm()) {
        return (Outcome::Unsafe, table::violated(&words.finding(f), f.at_ms));
    }
    let held = words.vocabulary().held();
    let b = trace.participants.iter().position(|p| p.key == "B");
    let b_got_lock = trace.events.iter().find(|e| Some(e.node.0) == b && matches!(e.kind, EventKind::BeliefStart { .. })).map(|e| e.at_ms);
    let fault_end = trace.events.iter().find_map(|e| match e.kind {
        EventKind::PauseStart { until_ms } | EventKind::PartitionStart { until_ms, .. } => Some(until_ms),
        _ => None,
    });
    match (b_got_lock, fault_end) {
        (None, _) => return (Outcome::Stalls, table::never_held(held)),
        (Some(t), Some(end)) if t >= end => return (Outcome::Stalls, table::held_late(held, t, end)),
        _ => {}
    }
    let rejected = trace.events.iter().find_map(|e| match &e.kind {
        EventKind::WriteRejected { writer, reason, .. } => Some(table::refused(trace.name(*writer), &words.rejection(reason))),
        _ => None,
    });
    (Outcome::Safe, rejected.unwrap_or_else(|| table::held_safely(held, b_got_lock.unwrap_or(Millis::ZERO))))
}

/// Runs one cell.
pub fn cell(schedule: Schedule, row: &Row) -> Result<(Cell, Scenario, Trace), ScenarioError> {
    let (mut scenario, spec) = scenario(schedule, row)?;
    let trace = engine::run(&spec)?;
    let words = Words::new(&trace, &*row.design);
    let (outcome, mut detail) = judge(&words);
    let unaffected = schedule.moves_nothing_in(row);
    if unaffected {
        detail = table::jump_ignored(&detail, row.design.expires());
    } else if schedule == Schedule::ClockJump && outcome == Outcome::Safe {
        // Safe only because the schedule is mild for a quorum: the lesson shows where it is not.
        if let Some(why) = row.design.one_clock_jumped(row.services) {
            detail = format!("{why} {detail}");
        }
    }
    scenario.takeaway = table::takeaway(outcome.label(), &detail);
    Ok((Cell { schedule, row: row.clone(), outcome, detail, unaffected }, scenario, trace))
}

/// Runs every row against every schedule: rows of the table, columns schedules.
pub fn table() -> Result<Vec<Vec<Cell>>, ScenarioError> {
    let mut table = Vec::new();
    for r in rows() {
        let mut cells = Vec::with_capacity(Schedule::ALL.len());
        for s in Schedule::ALL {
            cells.push(cell(s, &r)?.0);
        }
        table.push(cells);
    }
    Ok(table)
}

/// Renders the table as fixed-width text, for the command line.
pub fn to_text(rows: &[Vec<Cell>]) -> String {
    let lines: Vec<(&str, &str, Vec<&str>)> = rows
        .iter()
        .filter_map(|r| Some((r.first()?.row.title, r.first()?.row.token, r.iter().map(|c| c.outcome.label()).collect())))
        .collect();
    let cells: Vec<String> =
        rows.iter().flatten().map(|c| table::cell_line(c.schedule.id(), c.row.id, c.outcome.label(), &c.detail)).collect();
    table::text(&Schedule::ALL.map(Schedule::title), &lines, &cells)
}
