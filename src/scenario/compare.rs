//! One fault schedule, every design: the comparison table.
//!
//! Each cell runs the same two-client story (A takes the lock and works, B wants it too) under
//! one schedule against one design, and sorts the result into safe, unsafe or stalls. Scenarios
//! are built here as ordinary [`Scenario`] values and validated like any file, so every cell can
//! also be opened as a diagram (id `compare-<schedule>-<design>`).

use super::format::{ClockSpec, Fault, Network, Participant, Scenario};
use super::validate::{compile, ScenarioError};
use crate::engine::msg::{ms, ReleaseMode};
use crate::engine::spec::{AcquirePolicy, LockDesign, RenewFailure, RenewPolicy, ResourceMode, Spec, Step, ZkWatch};
use crate::engine::trace::EventKind;
use crate::engine::{self, Trace};

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

/// A design under test: a lock service and how the resource treats writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Design {
    pub id: &'static str,
    /// A row heading.
    pub title: &'static str,
    /// Where the fencing token comes from, or why there is none.
    pub token: &'static str,
    /// How the resource judges writes; `None` when the data lives in the lock service.
    resource: Option<ResourceMode>,
    kind: Kind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Lease,
    Redis { incr_token: bool },
    Redlock,
    Zookeeper,
    Etcd { data_in_etcd: bool },
    Postgres { same_database: bool, timeout: bool },
}

impl Kind {
    fn lock(self) -> LockDesign {
        match self {
            Kind::Lease => LockDesign::Lease { ttl_ms: TTL_MS, first_token: 33 },
            Kind::Redis { incr_token } => LockDesign::Redis { ttl_ms: TTL_MS, incr_token, replication_lag_ms: 0 },
            Kind::Redlock => LockDesign::Redlock { ttl_ms: TTL_MS, retry_count: 30, retry_delay_ms: 200, instance_timeout_ms: 50 },
            Kind::Zookeeper => LockDesign::Zookeeper { tick_time_ms: 100, session_timeout_ms: TTL_MS, watch: ZkWatch::Predecessor },
            Kind::Etcd { data_in_etcd } => LockDesign::Etcd { ttl_ms: TTL_MS, first_revision: 33, data_in_etcd },
            Kind::Postgres { same_database, timeout } => LockDesign::Postgres {
                session_timeout_ms: timeout.then_some(TTL_MS),
                same_database,
                transaction_level: false,
            },
        }
    }

    /// Says whether expiry reads a clock that an NTP step moves. Redis expires keys by wall
    /// clock, and so does the generic lease; etcd, ZooKeeper and PostgreSQL time sessions with
    /// elapsed-time timers.
    fn wall_clock_expiry(self) -> bool {
        matches!(self, Kind::Lease | Kind::Redis { .. } | Kind::Redlock)
    }

    fn lock_nodes(self) -> usize {
        if self == Kind::Redlock {
            5
        } else {
            1
        }
    }

    fn service_name(self) -> &'static str {
        match self {
            Kind::Lease => "Lock service",
            Kind::Redis { .. } => "Redis",
            Kind::Redlock => "Redis",
            Kind::Zookeeper => "ZooKeeper",
            Kind::Etcd { .. } => "etcd",
            Kind::Postgres { .. } => "PostgreSQL",
        }
    }
}

/// The designs, in row order.
pub const DESIGNS: [Design; 13] = [
    Design { id: "lease", title: "Lease, resource checks nothing", token: "lease generation, unchecked", resource: Some(ResourceMode::Unfenced), kind: Kind::Lease },
    Design { id: "lease-fenced", title: "Lease + fencing token", token: "lease generation", resource: Some(ResourceMode::Fenced), kind: Kind::Lease },
    Design { id: "redis", title: "Redis SET NX PX", token: "none (random value)", resource: Some(ResourceMode::Unfenced), kind: Kind::Redis { incr_token: false } },
    Design { id: "redis-incr", title: "Redis + INCR token", token: "INCR counter", resource: Some(ResourceMode::Fenced), kind: Kind::Redis { incr_token: true } },
    Design { id: "redlock", title: "Redlock, 5 masters", token: "none (random value)", resource: Some(ResourceMode::Unfenced), kind: Kind::Redlock },
    Design { id: "zookeeper", title: "ZooKeeper recipe", token: "czxid, unchecked", resource: Some(ResourceMode::Unfenced), kind: Kind::Zookeeper },
    Design { id: "zookeeper-fenced", title: "ZooKeeper + czxid check", token: "czxid of the lock znode", resource: Some(ResourceMode::Fenced), kind: Kind::Zookeeper },
    Design { id: "etcd", title: "etcd mutex", token: "create revision, unchecked", resource: Some(ResourceMode::Unfenced), kind: Kind::Etcd { data_in_etcd: false } },
    Design { id: "etcd-fenced", title: "etcd + revision check", token: "create revision", resource: Some(ResourceMode::Fenced), kind: Kind::Etcd { data_in_etcd: false } },
    Design { id: "etcd-txn", title: "etcd, data in etcd (txn guard)", token: "create revision, compared in the txn", resource: None, kind: Kind::Etcd { data_in_etcd: true } },
    Design { id: "pg-same", title: "PostgreSQL, rows in the same database", token: "none: the session guards the commit", resource: None, kind: Kind::Postgres { same_database: true, timeout: true } },
    Design { id: "pg-external", title: "PostgreSQL, external resource", token: "none", resource: Some(ResourceMode::Unfenced), kind: Kind::Postgres { same_database: false, timeout: true } },
    Design { id: "pg-no-timeout", title: "PostgreSQL, no session timeout", token: "none: the session guards the commit", resource: None, kind: Kind::Postgres { same_database: true, timeout: false } },
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

/// One schedule run against one design.
#[derive(Clone, Debug)]
pub struct Cell {
    pub schedule: Schedule,
    pub design: Design,
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
        id(self.schedule.id, self.design.id)
    }
}

/// Returns the scenario id of a cell.
pub fn id(schedule: &str, design: &str) -> String {
    format!("compare-{schedule}-{design}")
}

fn find<T: Copy>(all: &[T], key: fn(&T) -> &'static str, what: &str, wanted: &str) -> Result<T, ScenarioError> {
    all.iter().copied().find(|t| key(t) == wanted).ok_or_else(|| {
        let known: Vec<&str> = all.iter().map(key).collect();
        ScenarioError { path: String::new(), problem: format!("no {what} named {wanted:?} ({what}s: {})", known.join(", ")) }
    })
}

/// Finds a schedule by id, naming the known ones if there is none.
pub fn schedule(id: &str) -> Result<Schedule, ScenarioError> {
    find(&SCHEDULES, |s| s.id, "schedule", id)
}

/// Finds a design by id, naming the known ones if there is none.
pub fn design(id: &str) -> Result<Design, ScenarioError> {
    find(&DESIGNS, |d| d.id, "design", id)
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
pub fn scenario(schedule: Schedule, design: Design) -> Result<(Scenario, Spec), ScenarioError> {
    let kind = design.kind;
    let work_ms = match schedule.id {
        "partition" => 10_500,
        "clock-jump" => 300,
        _ => 100,
    };
    // Redlock's renewal is not modelled; every other design renews or keeps its session alive.
    let renew = kind != Kind::Redlock;
    let locks: Vec<String> = match kind.lock_nodes() {
        1 => vec!["L".into()],
        n => (1..=n).map(|i| format!("M{i}")).collect(),
    };
    let mut participants = vec![client("A", 0, work_ms, renew)];
    for (i, id) in locks.iter().enumerate() {
        let name = if locks.len() > 1 { format!("{} {}", kind.service_name(), i + 1) } else { kind.service_name().into() };
        participants.push(Participant::LockService { id: id.clone(), name, clock: ClockSpec::default() });
    }
    if let Some(mode) = design.resource {
        participants.push(Participant::Resource { id: "R".into(), name: "Resource".into(), clock: ClockSpec::default(), mode });
    }
    participants.push(client("B", 20, 50, renew));
    let faults = match schedule.id {
        "pause" => vec![Fault::Pause { at_ms: 80, node: "A".into(), for_ms: 2 * TTL_MS as i64 }],
        "partition" => vec![Fault::Partition { at_ms: 50, from: vec!["A".into()], to: locks.clone(), two_way: true, for_ms: 10_000 }],
        // Redlock's clock jump hits one master of five; timers that measure elapsed time ignore it.
        _ if kind.wall_clock_expiry() => vec![Fault::ClockJump { at_ms: 50, node: locks[0].clone(), by_ms: 2 * TTL_MS as i64 }],
        _ => Vec::new(),
    };
    let mut intro = format!("{} Design: {} (fencing token: {}).", schedule.about, design.title, design.token);
    if schedule.id == "clock-jump" && !kind.wall_clock_expiry() {
        intro.push_str(&format!(" {} times sessions with an elapsed-time timer, so the jump does not move any expiry and is left out of this run.", kind.service_name()));
    }
    let scenario = Scenario {
        version: super::validate::VERSION,
        id: id(schedule.id, design.id),
        title: format!("{} · {}", schedule.title, design.title),
        topic: "Compare designs".into(),
        intro,
        takeaway: String::new(),
        guarantees: None,
        seed: 1,
        lock: kind.lock(),
        participants,
        network: Network::default(),
        faults,
        limits: Default::default(),
    };
    let spec = compile(&scenario)?;
    Ok((scenario, spec))
}

/// Runs the cell with scenario id `compare-<schedule>-<design>`.
pub fn cell_by_id(id: &str) -> Result<(Cell, Scenario, Trace), String> {
    let rest = id.strip_prefix("compare-").unwrap_or(id);
    for s in SCHEDULES {
        if let Some(d) = rest.strip_prefix(s.id).and_then(|r| r.strip_prefix('-')) {
            return cell(s, design(d).map_err(|e| e.to_string())?);
        }
    }
    let known: Vec<&str> = SCHEDULES.iter().map(|s| s.id).collect();
    Err(format!("no comparison named {id:?}: expected compare-<schedule>-<design>, with a schedule among {}", known.join(", ")))
}

/// Sorts a finished run into an outcome, with a sentence saying why.
pub fn judge(trace: &Trace) -> (Outcome, String) {
    let v = &trace.verdict;
    if let Some(f) = v.findings.iter().find(|f| f.kind.is_violation()) {
        return (Outcome::Unsafe, format!("{} at {}.", f.text, ms(f.at_ms)));
    }
    let b = trace.participants.iter().position(|p| p.key == "B");
    let b_got_lock = trace.events.iter().find(|e| Some(e.node.0) == b && matches!(e.kind, EventKind::BeliefStart { .. })).map(|e| e.at_ms);
    let fault_end = trace.events.iter().find_map(|e| match e.kind {
        EventKind::PauseStart { until_ms } => Some(until_ms),
        EventKind::PartitionStart { until_ms, .. } => Some(until_ms),
        _ => None,
    });
    match (b_got_lock, fault_end) {
        (None, _) => return (Outcome::Stalls, "Client B never got the lock.".into()),
        (Some(t), Some(end)) if t >= end => {
            let text = format!("Client B got the lock only at {}, after A came back at {}: everyone waited for A.", ms(t), ms(end));
            return (Outcome::Stalls, text);
        }
        _ => {}
    }
    let rejected = trace.events.iter().find_map(|e| match &e.kind {
        EventKind::WriteRejected { writer, reason, .. } => Some(format!("{}'s late write was refused ({reason})", trace.name(*writer))),
        _ => None,
    });
    let text = match rejected {
        Some(r) => format!("{r}."),
        None => format!("Client B got the lock at {} and no stale write reached the data.", ms(b_got_lock.unwrap_or(0))),
    };
    (Outcome::Safe, text)
}

/// Runs one cell.
pub fn cell(schedule: Schedule, design: Design) -> Result<(Cell, Scenario, Trace), String> {
    let (mut scenario, spec) = scenario(schedule, design).map_err(|e| e.to_string())?;
    let trace = engine::run(&spec).map_err(|e| e.to_string())?;
    let (outcome, mut detail) = judge(&trace);
    let unaffected = schedule.id == "clock-jump" && !design.kind.wall_clock_expiry();
    if unaffected {
        detail = format!("{} times sessions by elapsed time, so the jump moves no expiry. {detail}", design.kind.service_name());
    }
    scenario.takeaway = format!("{}: {detail}", capitalized(outcome.label()));
    Ok((Cell { schedule, design, outcome, detail, unaffected }, scenario, trace))
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

/// Runs every design against every schedule: rows are designs, columns schedules.
pub fn table() -> Result<Vec<Vec<Cell>>, String> {
    DESIGNS.iter().map(|&d| SCHEDULES.iter().map(|&s| cell(s, d).map(|c| c.0)).collect()).collect()
}

/// Renders the table as fixed-width text, for the command line.
pub fn to_text(rows: &[Vec<Cell>]) -> String {
    let design_w = DESIGNS.iter().map(|d| d.title.len()).max().unwrap_or(0);
    let token_w = DESIGNS.iter().map(|d| d.token.len()).max().unwrap_or(0);
    let col_w = SCHEDULES.iter().map(|s| s.title.chars().count()).max().unwrap_or(0);
    let mut out = format!("{:<design_w$}  {:<token_w$}", "design", "fencing token");
    for s in SCHEDULES {
        out.push_str(&format!("  {:<col_w$}", s.title));
    }
    out = out.trim_end().to_string() + "\n";
    for row in rows {
        let Some(first) = row.first() else { continue };
        let mut line = format!("{:<design_w$}  {:<token_w$}", first.design.title, first.design.token);
        for c in row {
            line.push_str(&format!("  {:<col_w$}", c.outcome.label()));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push('\n');
    for row in rows {
        for c in row {
            out.push_str(&format!("{} · {}: {} — {}\n", c.schedule.id, c.design.id, c.outcome.label(), c.detail));
        }
    }
    out
}
