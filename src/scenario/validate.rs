//! Parsing and validation: a scenario file becomes an engine [`Spec`] or an error that names the
//! field path and the problem, such as `faults[2].at_ms: must be ≥ 0`.

use super::format::{Fault, Participant, Scenario};
use super::{decode, json};
use crate::engine::clock::{Clock, ClockJump, MAX_DRIFT_PPM};
use crate::engine::ids::NodeId;
use crate::engine::msg::ReleaseMode;
use crate::engine::spec::{self, ClientSpec, FaultKind, LinkSpec, LockDesign, NetworkSpec, NodeSpec, Role, Spec, Step};
use std::fmt;

/// The scenario format version this build reads.
pub const VERSION: u32 = 1;
pub const MAX_PARTICIPANTS: usize = 16;
pub const MAX_STEPS: usize = 64;
pub const MAX_FAULTS: usize = 256;
pub const MAX_NAME_CHARS: usize = 32;
/// The longest any single duration in a scenario may be: one day.
pub const MAX_SPAN_MS: i64 = 86_400_000;
pub const MAX_EVENTS_CAP: u64 = 1_000_000;
pub const MAX_TIME_CAP_MS: u64 = 7 * 86_400_000;

/// A problem with a scenario, at a field path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// Where the problem is, like `participants[1].script[0]`; empty for the whole file.
    pub path: String,
    pub problem: String,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.problem)
        } else {
            write!(f, "{}: {}", self.path, self.problem)
        }
    }
}

impl std::error::Error for ScenarioError {}

fn err<T>(path: impl Into<String>, problem: impl Into<String>) -> Result<T, ScenarioError> {
    Err(ScenarioError { path: path.into(), problem: problem.into() })
}

/// Reads scenario JSON, naming the path of any field that does not fit the format.
pub fn parse(text: &str) -> Result<Scenario, ScenarioError> {
    let value = json::parse(text).map_err(|problem| ScenarioError { path: String::new(), problem })?;
    decode::scenario(&value)
}

/// Parses and validates scenario JSON into a runnable spec.
pub fn load(json: &str) -> Result<(Scenario, Spec), ScenarioError> {
    let scenario = parse(json)?;
    let spec = compile(&scenario)?;
    Ok((scenario, spec))
}

fn non_negative(path: &str, v: i64) -> Result<u64, ScenarioError> {
    if v < 0 {
        return err(path, "must be ≥ 0");
    }
    if v > MAX_SPAN_MS {
        return err(path, format!("must be ≤ {MAX_SPAN_MS} (one day)"));
    }
    Ok(v as u64)
}

fn within(path: &str, v: u64, lo: u64, hi: u64) -> Result<u64, ScenarioError> {
    if v < lo || v > hi {
        return err(path, format!("must be between {lo} and {hi}, got {v}"));
    }
    Ok(v)
}

fn probability(path: &str, p: f64) -> Result<f64, ScenarioError> {
    if !(0.0..=1.0).contains(&p) {
        return err(path, format!("must be a probability between 0 and 1, got {p}"));
    }
    Ok(p)
}

/// Resolves participant ids to node ids.
struct Ids<'a>(Vec<&'a str>);

impl Ids<'_> {
    fn get(&self, path: &str, id: &str) -> Result<NodeId, ScenarioError> {
        match self.0.iter().position(|k| *k == id) {
            Some(i) => Ok(NodeId(i)),
            None => err(path, format!("no participant has id {id:?} (ids: {})", self.0.join(", "))),
        }
    }

    fn all(&self, path: &str, ids: &[String]) -> Result<Vec<NodeId>, ScenarioError> {
        if ids.is_empty() {
            return err(path, "must name at least one participant");
        }
        ids.iter().enumerate().map(|(i, id)| self.get(&format!("{path}[{i}]"), id)).collect()
    }
}

/// Validates a parsed scenario and builds its spec.
pub fn compile(s: &Scenario) -> Result<Spec, ScenarioError> {
    if s.version != VERSION {
        return err("version", format!("unsupported version {} (this build reads version {VERSION})", s.version));
    }
    let lock = compile_lock(&s.lock)?;
    let n = s.participants.len();
    if n == 0 || n > MAX_PARTICIPANTS {
        return err("participants", format!("must list 1 to {MAX_PARTICIPANTS} participants, got {n}"));
    }
    let ids = Ids(s.participants.iter().map(|p| p.id()).collect());
    for (i, p) in s.participants.iter().enumerate() {
        let path = format!("participants[{i}]");
        if p.id().is_empty() || p.id().len() > MAX_NAME_CHARS {
            return err(format!("{path}.id"), format!("must be 1 to {MAX_NAME_CHARS} characters"));
        }
        if ids.0[..i].contains(&p.id()) {
            return err(format!("{path}.id"), format!("{:?} is used twice", p.id()));
        }
        if p.name().trim().is_empty() || p.name().chars().count() > MAX_NAME_CHARS {
            return err(format!("{path}.name"), format!("must be 1 to {MAX_NAME_CHARS} characters"));
        }
    }
    let count = |f: fn(&Participant) -> bool| s.participants.iter().filter(|p| f(p)).count();
    let locks = count(|p| matches!(p, Participant::LockService { .. }));
    let resources = count(|p| matches!(p, Participant::Resource { .. }));
    let clients = count(|p| matches!(p, Participant::Client { .. }));
    match s.lock {
        LockDesign::Redlock { .. } if locks == 0 => {
            return err("participants", "redlock needs at least one lock_service (a Redis master), found 0");
        }
        LockDesign::Redlock { .. } => {
            if let Some(i) = s.participants.iter().position(|p| matches!(p, Participant::Client { renew: Some(_), .. })) {
                return err(format!("participants[{i}].renew"), "renewal is not modelled for redlock");
            }
        }
        LockDesign::Redis { .. } if locks > 2 => {
            return err("participants", format!("redis runs on one primary and at most one replica, found {locks} lock_service nodes"));
        }
        LockDesign::Redis { .. } => {}
        LockDesign::None if locks > 0 => {
            return err("participants", format!("with lock design none there is no lock service, found {locks} lock_service nodes"));
        }
        LockDesign::None => {
            for (i, p) in s.participants.iter().enumerate() {
                let Participant::Client { script, renew, .. } = p else { continue };
                if renew.is_some() {
                    return err(format!("participants[{i}].renew"), "there is no lock to renew (lock design none)");
                }
                if let Some(j) = script.iter().position(|st| matches!(st, Step::Acquire | Step::Release { .. })) {
                    return err(format!("participants[{i}].script[{j}]"), "there is no lock to acquire or release (lock design none)");
                }
            }
        }
        _ if locks != 1 => {
            return err("participants", format!("this lock design runs on exactly one lock_service, found {locks}"));
        }
        _ => {}
    }
    let in_lock_service = s.lock.data_in_lock_service();
    if in_lock_service && resources != 0 {
        return err("participants", "the protected data lives in the lock service here (same_database or data_in_etcd): list no separate resource");
    }
    if !in_lock_service && resources != 1 {
        return err("participants", format!("a scenario protects exactly one resource, found {resources}"));
    }
    if clients == 0 {
        return err("participants", "needs at least one client");
    }
    let mut nodes = s
        .participants
        .iter()
        .enumerate()
        .map(|(i, p)| compile_participant(&format!("participants[{i}]"), p, &s.lock))
        .collect::<Result<Vec<_>, _>>()?;
    let limits = spec::Limits {
        max_events: within("limits.max_events", s.limits.max_events, 1, MAX_EVENTS_CAP)? as usize,
        max_time_ms: within("limits.max_time_ms", s.limits.max_time_ms, 1, MAX_TIME_CAP_MS)?,
    };
    let network = compile_network(s, &ids)?;
    if s.faults.len() > MAX_FAULTS {
        return err("faults", format!("at most {MAX_FAULTS} faults, got {}", s.faults.len()));
    }
    let mut faults = Vec::with_capacity(s.faults.len());
    for (i, f) in s.faults.iter().enumerate() {
        let path = format!("faults[{i}]");
        let at_ms = non_negative(&format!("{path}.at_ms"), f.at_ms())?;
        if at_ms > limits.max_time_ms {
            return err(format!("{path}.at_ms"), "is after limits.max_time_ms");
        }
        let kind = compile_fault(&path, f, &ids)?;
        if let FaultKind::ClockJump { node, by_ms } = kind {
            nodes[node.0].clock.jumps.push(ClockJump { at_ms, by_ms });
            nodes[node.0].clock.jumps.sort_by_key(|j| j.at_ms);
        }
        faults.push(spec::Fault { at_ms, kind });
    }
    Ok(Spec { seed: s.seed, nodes, lock, network, faults, limits })
}

fn compile_lock(design: &LockDesign) -> Result<LockDesign, ScenarioError> {
    match design {
        LockDesign::None => {}
        LockDesign::Lease { ttl_ms, first_token } => {
            within("lock.ttl_ms", *ttl_ms, 1, 3_600_000)?;
            within("lock.first_token", *first_token, 1, u64::from(u32::MAX))?;
        }
        LockDesign::Redis { ttl_ms, replication_lag_ms, .. } => {
            within("lock.ttl_ms", *ttl_ms, 1, 3_600_000)?;
            within("lock.replication_lag_ms", *replication_lag_ms, 0, 60_000)?;
        }
        LockDesign::Postgres { session_timeout_ms, .. } => {
            if let Some(t) = session_timeout_ms {
                within("lock.session_timeout_ms", *t, 1, 3_600_000)?;
            }
        }
        LockDesign::Etcd { ttl_ms, first_revision, .. } => {
            within("lock.ttl_ms", *ttl_ms, 1, 3_600_000)?;
            within("lock.first_revision", *first_revision, 1, u64::from(u32::MAX))?;
        }
        LockDesign::Zookeeper { tick_time_ms, session_timeout_ms, .. } => {
            within("lock.tick_time_ms", *tick_time_ms, 1, 60_000)?;
            within("lock.session_timeout_ms", *session_timeout_ms, 2 * tick_time_ms, 20 * tick_time_ms)?;
        }
        LockDesign::Redlock { ttl_ms, retry_count, retry_delay_ms, instance_timeout_ms } => {
            within("lock.ttl_ms", *ttl_ms, 1, 3_600_000)?;
            within("lock.retry_count", u64::from(*retry_count), 1, 100)?;
            within("lock.retry_delay_ms", *retry_delay_ms, 0, 60_000)?;
            if *instance_timeout_ms == 0 || *instance_timeout_ms >= *ttl_ms {
                return err("lock.instance_timeout_ms", "must be at least 1 and much smaller than ttl_ms");
            }
        }
    }
    Ok(design.clone())
}

fn compile_participant(path: &str, p: &Participant, design: &LockDesign) -> Result<NodeSpec, ScenarioError> {
    let c = p.clock();
    if c.drift_ppm.abs() > MAX_DRIFT_PPM {
        return err(format!("{path}.clock.drift_ppm"), format!("must be within ±{MAX_DRIFT_PPM}"));
    }
    if c.offset_ms.abs() > MAX_SPAN_MS {
        return err(format!("{path}.clock.offset_ms"), format!("must be within ±{MAX_SPAN_MS}"));
    }
    let role = match p {
        Participant::Client { start_ms, script, acquire, renew, .. } => {
            let start_ms = non_negative(&format!("{path}.start_ms"), *start_ms)?;
            if script.is_empty() || script.len() > MAX_STEPS {
                return err(format!("{path}.script"), format!("must have 1 to {MAX_STEPS} steps, got {}", script.len()));
            }
            for (i, step) in script.iter().enumerate() {
                let at = format!("{path}.script[{i}]");
                match step {
                    Step::Work { ms } => {
                        within(&format!("{at}.ms"), *ms, 0, MAX_SPAN_MS as u64)?;
                    }
                    Step::Write { value } if value.is_empty() || value.chars().count() > MAX_NAME_CHARS => {
                        return err(format!("{at}.value"), format!("must be 1 to {MAX_NAME_CHARS} characters"));
                    }
                    Step::Release { mode: ReleaseMode::Commit } if !matches!(design, LockDesign::Postgres { .. }) => {
                        return err(format!("{at}.mode"), "commit ends a PostgreSQL transaction: use it only with the postgres design");
                    }
                    _ => {}
                }
            }
            within(&format!("{path}.acquire.max_attempts"), u64::from(acquire.max_attempts), 1, 10_000)?;
            within(&format!("{path}.acquire.timeout_ms"), acquire.timeout_ms, 1, MAX_SPAN_MS as u64)?;
            within(&format!("{path}.acquire.retry_ms"), acquire.retry_ms, 0, MAX_SPAN_MS as u64)?;
            within(&format!("{path}.acquire.jitter_ms"), acquire.jitter_ms, 0, MAX_SPAN_MS as u64)?;
            if let Some(r) = renew {
                within(&format!("{path}.renew.every_ms"), r.every_ms, 1, MAX_SPAN_MS as u64)?;
            }
            Role::Client(ClientSpec { start_ms, script: script.clone(), acquire: *acquire, renew: *renew })
        }
        Participant::LockService { .. } => Role::LockService,
        Participant::Resource { mode, .. } => Role::Resource(*mode),
    };
    Ok(NodeSpec {
        key: p.id().to_string(),
        name: p.name().trim().to_string(),
        clock: Clock::new(c.offset_ms, c.drift_ppm, Vec::new()),
        role,
    })
}

fn compile_link(path: &str, latency: spec::Latency, loss: f64) -> Result<LinkSpec, ScenarioError> {
    within(&format!("{path}.latency_ms.max_ms"), latency.max_ms, 0, 600_000)?;
    if latency.min_ms > latency.max_ms {
        return err(format!("{path}.latency_ms.min_ms"), "must be ≤ max_ms");
    }
    Ok(LinkSpec { latency, loss: probability(&format!("{path}.loss"), loss)? })
}

fn compile_network(s: &Scenario, ids: &Ids) -> Result<NetworkSpec, ScenarioError> {
    let net = &s.network;
    let default = compile_link("network", net.latency_ms, net.loss)?;
    let mut links = Vec::new();
    for (i, l) in net.links.iter().enumerate() {
        let path = format!("network.links[{i}]");
        let from = ids.get(&format!("{path}.from"), &l.from)?;
        let to = ids.get(&format!("{path}.to"), &l.to)?;
        let link = compile_link(&path, l.latency_ms.unwrap_or(default.latency), l.loss.unwrap_or(default.loss))?;
        links.push((from, to, link));
    }
    Ok(NetworkSpec { default, links })
}

fn compile_fault(path: &str, f: &Fault, ids: &Ids) -> Result<FaultKind, ScenarioError> {
    let node = |id: &str| ids.get(&format!("{path}.node"), id);
    let span = |field: &str, v: i64| non_negative(&format!("{path}.{field}"), v);
    Ok(match f {
        Fault::Pause { node: id, for_ms, .. } => FaultKind::Pause { node: node(id)?, for_ms: span("for_ms", *for_ms)? },
        Fault::Crash { node: id, .. } => FaultKind::Crash { node: node(id)? },
        Fault::Restart { node: id, keep_state, .. } => FaultKind::Restart { node: node(id)?, keep_state: *keep_state },
        Fault::Promote { node: id, .. } => FaultKind::Promote { node: node(id)? },
        Fault::ClockJump { node: id, by_ms, .. } => {
            if by_ms.abs() > MAX_SPAN_MS {
                return err(format!("{path}.by_ms"), format!("must be within ±{MAX_SPAN_MS}"));
            }
            FaultKind::ClockJump { node: node(id)?, by_ms: *by_ms }
        }
        Fault::Partition { from, to, two_way, for_ms, .. } => FaultKind::Partition {
            from: ids.all(&format!("{path}.from"), from)?,
            to: ids.all(&format!("{path}.to"), to)?,
            two_way: *two_way,
            for_ms: span("for_ms", *for_ms)?,
        },
        Fault::Delay { from, to, extra_ms, for_ms, .. } => FaultKind::Delay {
            from: ids.get(&format!("{path}.from"), from)?,
            to: ids.get(&format!("{path}.to"), to)?,
            extra_ms: span("extra_ms", *extra_ms)?,
            for_ms: span("for_ms", *for_ms)?,
        },
    })
}
