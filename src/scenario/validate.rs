//! Parsing and validation: a scenario file becomes an engine [`Spec`] or an error that names the
//! field path and the problem, such as `faults[2].at_ms: must be ≥ 0`. What a lock design needs
//! (how many lock services, whether scripts renew, which releases) comes from the design itself.

use super::field::{Field, FieldValue};
use super::format::{Fault, Participant, Probability, Scenario};
use super::steps;
use super::tags::Tagged;
use super::{decode, json};
use crate::design::Design;
use crate::engine::clock::{Clock, ClockJump};
use crate::engine::fault::{span, Seen};
use crate::engine::ids::NodeId;
use crate::engine::spec::{self, ClientSpec, LinkSpec, NetworkSpec, NodeSpec, ResourceMode, Role, Spec, Step};
use crate::engine::time::{LocalMillis, Millis};
pub use crate::error::ScenarioError;
use crate::limits::{
    MAX_ACQUIRE_ATTEMPTS, MAX_DRIFT_PPM, MAX_EVENTS, MAX_FAULTS, MAX_LATENCY_MS, MAX_NAME_CHARS, MAX_PARTICIPANTS, MAX_RESOURCES,
    MAX_SPAN_MS, MAX_STEPS, MAX_TIME_MS, MIN_DRIFT_PPM,
};
use crate::present::quoted::Quoted;
use std::rc::Rc;

/// The scenario format version this build reads.
pub const VERSION: u32 = 1;

fn err<T>(path: impl Into<String>, problem: impl Into<String>) -> Result<T, ScenarioError> {
    Err(ScenarioError::new(path, problem))
}

/// The error for a problem with field `field` of the object at `path`. (Field paths are written
/// only for an error, and not inlined: every check shares it.)
#[cold]
#[inline(never)]
fn err_at(path: &str, field: &str, problem: String) -> ScenarioError {
    ScenarioError::new(if path.is_empty() { field.to_string() } else { format!("{path}.{field}") }, problem)
}

/// Reads scenario JSON, naming the path of any field that does not fit the format.
pub fn parse(text: &str) -> Result<Scenario, ScenarioError> {
    decode::scenario(&json::parse(text)?)
}

/// Reads and validates a scenario document (as the editor holds one) into a runnable spec.
/// (Never inlined: the reader is large, and the page reads files, lessons and edits with it.)
#[inline(never)]
pub fn load_doc(doc: &json::Value) -> Result<(Scenario, Spec), ScenarioError> {
    let scenario = decode::scenario(doc)?;
    let spec = compile(&scenario)?;
    Ok((scenario, spec))
}

/// Parses and validates scenario JSON into a runnable spec.
pub fn load(json: &str) -> Result<(Scenario, Spec), ScenarioError> {
    load_doc(&json::parse(json)?)
}

fn non_negative(path: &str, field: &str, v: i64) -> Result<u64, ScenarioError> {
    if v < 0 {
        return Err(err_at(path, field, "must be ≥ 0".into()));
    }
    if v > MAX_SPAN_MS {
        return Err(err_at(path, field, format!("must be ≤ {MAX_SPAN_MS} (one day)")));
    }
    Ok(v as u64)
}

fn within(path: &str, field: &str, v: u64, lo: u64, hi: u64) -> Result<u64, ScenarioError> {
    if v < lo || v > hi {
        return Err(err_at(path, field, format!("must be between {lo} and {hi}, got {v}")));
    }
    Ok(v)
}

/// Checks a time against the range its kind declares for the field `name` (a fault or step
/// made by the program rather than read from a file has not been checked yet).
fn within_declared(path: &str, fields: &[Field], name: &str, ms: i64) -> Result<u64, ScenarioError> {
    let problem = fields.iter().find(|f| f.name == name).and_then(|f| f.problem(&FieldValue::Ms(ms)));
    match problem {
        Some(problem) => Err(err_at(path, name, problem)),
        None => Ok(ms.unsigned_abs()),
    }
}

/// Resolves participant ids to node ids.
struct Ids<'a>(&'a [Participant]);

impl Ids<'_> {
    /// Resolves the id found at `at` (a field's path, made only for the message if no
    /// participant has the id).
    fn get(&self, id: &str, at: impl FnOnce() -> String) -> Result<NodeId, ScenarioError> {
        match self.0.iter().position(|p| p.id() == id) {
            Some(i) => Ok(NodeId(i)),
            None => {
                let all: Vec<&str> = self.0.iter().map(|p| p.id()).collect();
                err(at(), format!("no participant has id {} (ids: {})", Quoted(id), all.join(", ")))
            }
        }
    }
}

/// Validates a parsed scenario and builds its spec.
pub fn compile(s: &Scenario) -> Result<Spec, ScenarioError> {
    if s.version != VERSION {
        return err("version", format!("unsupported version {} (this build reads version {VERSION})", s.version));
    }
    let ids = check_ids(s)?;
    let design = s.lock.design.as_ref();
    check_roles(s)?;
    let resource_modes: Vec<(&str, ResourceMode)> = s
        .participants
        .iter()
        .filter_map(|p| match p {
            Participant::Resource { id, mode, .. } => Some((id.as_str(), *mode)),
            _ => None,
        })
        .collect();
    let mut nodes = Vec::with_capacity(s.participants.len());
    for (i, p) in s.participants.iter().enumerate() {
        nodes.push(compile_participant(&format!("participants[{i}]"), p, design, &resource_modes)?);
    }
    let limits = spec::RunLimits {
        max_events: within("limits", "max_events", s.limits.max_events, 1, MAX_EVENTS as u64)? as usize,
        max_time_ms: Millis::from_ms(within("limits", "max_time_ms", s.limits.max_time_ms, 1, MAX_TIME_MS)?),
    };
    let network = compile_network(s, &ids)?;
    let lock: std::rc::Rc<dyn crate::engine::protocol::Protocol> = s.lock.design.clone();
    let mut spec = Spec::new(s.seed, nodes, lock, network, limits);
    add_faults(&mut spec, s, &s.faults)?;
    Ok(spec)
}

/// Validates `faults`, written with the participant ids of `s`, and adds them to `s`'s compiled
/// spec after those it has.
pub fn add_faults(spec: &mut Spec, s: &Scenario, faults: &[Fault<String>]) -> Result<(), ScenarioError> {
    room_for(spec, faults.len())?;
    let ids = Ids(&s.participants);
    for f in faults {
        let fault = compile_fault(spec.faults.len(), f, &ids, spec.limits.max_time_ms)?;
        push_fault(spec, fault);
    }
    Ok(())
}

/// Validates `faults`, which name participants by their place in the spec, and adds them after
/// those it has: the failure search adds its schedules to a spec compiled once.
pub fn add_node_faults(spec: &mut Spec, faults: Vec<Fault<NodeId>>) -> Result<(), ScenarioError> {
    room_for(spec, faults.len())?;
    spec.faults.reserve(faults.len());
    for f in faults {
        let index = spec.faults.len();
        check_fault(index, &f, spec.limits.max_time_ms)?;
        // Mapped to nothing, only to check each node: a list of nothing takes no room.
        f.try_map(|field, _, node| match node.0 < spec.nodes.len() {
            true => Ok(()),
            false => err(format!("faults[{index}].{field}"), format!("names participant {}, of {}", node.0, spec.nodes.len())),
        })?;
        push_fault(spec, f);
    }
    Ok(())
}

/// Refuses `more` faults if the spec would then have more than a scenario may.
fn room_for(spec: &Spec, more: usize) -> Result<(), ScenarioError> {
    let total = spec.faults.len() + more;
    if total > MAX_FAULTS {
        return err("faults", format!("at most {MAX_FAULTS} faults, got {total}"));
    }
    Ok(())
}

/// Adds a checked fault to the spec; a clock jump also steps its node's clock.
fn push_fault(spec: &mut Spec, fault: Fault<NodeId>) {
    if let Fault::ClockJump { at_ms, node, by_ms } = fault {
        Rc::make_mut(&mut spec.nodes)[node.0].clock.add_jump(ClockJump { at_ms: span(at_ms), by_ms });
    }
    spec.faults.push(fault);
}

/// Checks how many participants there are and their ids and names; returns the ids in order.
fn check_ids(s: &Scenario) -> Result<Ids<'_>, ScenarioError> {
    let n = s.participants.len();
    if n == 0 || n > MAX_PARTICIPANTS {
        return err("participants", format!("must list 1 to {MAX_PARTICIPANTS} participants, got {n}"));
    }
    let ids = Ids(&s.participants);
    for (i, p) in s.participants.iter().enumerate() {
        let path = format!("participants[{i}]");
        let chars = p.id().chars().count();
        if chars == 0 || chars > MAX_NAME_CHARS {
            return err(format!("{path}.id"), format!("must be 1 to {MAX_NAME_CHARS} characters, got {chars}"));
        }
        if ids.0[..i].iter().any(|q| q.id() == p.id()) {
            return err(format!("{path}.id"), format!("{} is used twice", Quoted(p.id())));
        }
        if p.name().trim().is_empty() {
            return err(format!("{path}.name"), "is blank: give the participant a name to show");
        }
        let chars = p.name().chars().count();
        if chars > MAX_NAME_CHARS {
            return err(format!("{path}.name"), format!("must be 1 to {MAX_NAME_CHARS} characters, got {chars}"));
        }
    }
    Ok(ids)
}

/// Checks that the roles fit the design: its number of lock services, where the data lives,
/// how many resources, and at least one client.
fn check_roles(s: &Scenario) -> Result<(), ScenarioError> {
    let count = |f: fn(&Participant) -> bool| s.participants.iter().filter(|p| f(p)).count();
    let locks = count(|p| matches!(p, Participant::LockService { .. }));
    let resources = count(|p| matches!(p, Participant::Resource { .. }));
    let clients = count(|p| matches!(p, Participant::Client { .. }));
    let design = s.lock.design.as_ref();
    let services = design.services();
    if !services.count.contains(&locks) {
        let (tag, what) = (s.lock.kind.tag(), services.what);
        let problem = match (*services.count.start(), *services.count.end()) {
            (0, 0) => format!("the {tag} design has no lock service: list no lock_service participant, found {locks}"),
            (lo, hi) if lo == hi => format!("{tag} runs on exactly {lo} lock_service participant ({what}), found {locks}"),
            (lo, hi) => format!("{tag} runs on {lo} to {hi} lock_service participants ({what}), found {locks}"),
        };
        return err("participants", problem);
    }
    let in_lock_service = design.data_in_service();
    if in_lock_service && resources != 0 {
        let why = design.data_kept_by();
        return err("participants", format!("the protected data lives in the lock service here ({why}): list no separate resource"));
    }
    if !in_lock_service && !(1..=MAX_RESOURCES).contains(&resources) {
        return err("participants", format!("a scenario protects 1 to {MAX_RESOURCES} resources, found {resources}"));
    }
    if clients == 0 {
        return err("participants", "needs at least one client");
    }
    Ok(())
}

/// Checks where a write or compensation at `at` goes: a resource by its id, which it must name
/// where there are several; a compensation's must keep rows it can undo.
fn check_target(at: &str, to: Option<&String>, compensate: bool, resources: &[(&str, ResourceMode)]) -> Result<(), ScenarioError> {
    let ids = || resources.iter().map(|(id, _)| Quoted(id).to_string()).collect::<Vec<_>>().join(", ");
    let mode = match (to, resources) {
        (_, []) if compensate => return err(at, "there is no resource here to undo a write at: the data lives in the lock service"),
        (None, []) => return Ok(()),
        (Some(_), []) => return Err(err_at(at, "to", "the data lives in the lock service here: name no resource".into())),
        (None, [(_, mode)]) => *mode,
        (None, _) => return Err(err_at(at, "to", format!("say which resource this goes to: one of {}", ids()))),
        (Some(to), _) => match resources.iter().find(|(id, _)| id == to) {
            Some((_, mode)) => *mode,
            None => return Err(err_at(at, "to", format!("{} is not a resource: use one of {}", Quoted(to), ids()))),
        },
    };
    if compensate && !matches!(mode, ResourceMode::Unique | ResourceMode::Deduplicated) {
        return Err(err_at(at, "to", "a compensation removes a row: its resource must keep rows (mode unique or deduplicated)".into()));
    }
    Ok(())
}

fn compile_participant(
    path: &str,
    p: &Participant,
    design: &dyn Design,
    resources: &[(&str, ResourceMode)],
) -> Result<NodeSpec, ScenarioError> {
    let c = p.clock();
    if !(MIN_DRIFT_PPM..=MAX_DRIFT_PPM).contains(&c.drift_ppm) {
        return err(
            format!("{path}.clock.drift_ppm"),
            format!("must be between {MIN_DRIFT_PPM} (half speed) and {MAX_DRIFT_PPM} (double speed), got {}", c.drift_ppm),
        );
    }
    if c.offset_ms.unsigned_abs() > MAX_SPAN_MS as u64 {
        return err(format!("{path}.clock.offset_ms"), format!("must be within ±{MAX_SPAN_MS}"));
    }
    let role = match p {
        Participant::Client { start_ms, script, acquire, renew, .. } => {
            let start_ms = non_negative(path, "start_ms", *start_ms)?;
            if script.is_empty() || script.len() > MAX_STEPS {
                return err(format!("{path}.script"), format!("must have 1 to {MAX_STEPS} steps, got {}", script.len()));
            }
            let modes = design.release_modes();
            for (i, step) in script.iter().enumerate() {
                let at = format!("{path}.script[{i}]");
                match step {
                    Step::Acquire | Step::Release { .. } if modes.is_empty() => {
                        return err(at, format!("there is no lock to acquire or release (lock design {})", design.kind().tag()));
                    }
                    Step::Release { mode } if !modes.contains(mode) => {
                        let known: Vec<String> = modes.iter().map(|m| format!("`{}`", m.tag())).collect();
                        return err(
                            format!("{at}.mode"),
                            format!("{} has no `{}` release: use {}", design.kind().tag(), mode.tag(), known.join(" or ")),
                        );
                    }
                    Step::Work { ms } => {
                        within_declared(&at, steps::WORK.fields, "ms", *ms as i64)?;
                    }
                    Step::Check { margin_ms } => {
                        within_declared(&at, steps::CHECK.fields, "margin_ms", *margin_ms as i64)?;
                    }
                    Step::Write { value, to } | Step::Compensate { value, to } => {
                        if let Some(problem) = steps::WRITE.fields[0].problem(&FieldValue::Text(value.to_string())) {
                            return Err(err_at(&at, "value", problem));
                        }
                        check_target(&at, to.as_ref(), matches!(step, Step::Compensate { .. }), resources)?;
                    }
                    _ => {}
                }
            }
            if let (Some(_), Err(why)) = (renew, design.script_renewal()) {
                return err(format!("{path}.renew"), why);
            }
            within(path, "acquire.max_attempts", u64::from(acquire.max_attempts), 1, MAX_ACQUIRE_ATTEMPTS)?;
            within(path, "acquire.timeout_ms", acquire.timeout_ms, 1, MAX_SPAN_MS as u64)?;
            within(path, "acquire.retry_ms", acquire.retry_ms, 0, MAX_SPAN_MS as u64)?;
            within(path, "acquire.jitter_ms", acquire.jitter_ms, 0, MAX_SPAN_MS as u64)?;
            if let Some(r) = renew {
                within(path, "renew.every_ms", r.every_ms, 1, MAX_SPAN_MS as u64)?;
            }
            Role::Client(ClientSpec {
                start_ms: LocalMillis::perfect(Millis::from_ms(start_ms)),
                script: script.as_slice().into(),
                acquire: *acquire,
                renew: *renew,
            })
        }
        Participant::LockService { .. } => Role::LockService,
        Participant::Resource { mode, .. } => Role::Resource(*mode),
    };
    Ok(NodeSpec { key: p.id().into(), name: p.name().trim().into(), clock: Clock::new(c.offset_ms, c.drift_ppm, Vec::new()), role })
}

fn compile_link(path: &str, latency: spec::Latency, loss: Probability) -> Result<LinkSpec, ScenarioError> {
    within(path, "latency_ms.max_ms", latency.max_ms, 0, MAX_LATENCY_MS)?;
    if latency.min_ms > latency.max_ms {
        return err(format!("{path}.latency_ms.min_ms"), "must be ≤ max_ms");
    }
    Ok(LinkSpec { latency, loss: loss.0 })
}

fn compile_network(s: &Scenario, ids: &Ids) -> Result<NetworkSpec, ScenarioError> {
    let net = &s.network;
    let default = compile_link("network", net.latency_ms, net.loss)?;
    let mut links = Vec::new();
    for (i, l) in net.links.iter().enumerate() {
        let path = format!("network.links[{i}]");
        let from = ids.get(&l.from, || format!("{path}.from"))?;
        let to = ids.get(&l.to, || format!("{path}.to"))?;
        let link = compile_link(&path, l.latency_ms.unwrap_or(default.latency), l.loss.unwrap_or(Probability(default.loss)))?;
        links.push((from, to, link));
    }
    Ok(NetworkSpec { default, links })
}

/// Checks each time of fault `index` against its declared range and that each list names
/// someone, then names its participants by node id.
fn compile_fault(index: usize, f: &Fault<String>, ids: &Ids, max_time_ms: Millis) -> Result<Fault<NodeId>, ScenarioError> {
    check_fault(index, f, max_time_ms)?;
    let path = || format!("faults[{index}]");
    f.try_map(|field, at, id| match at {
        None => ids.get(id, || format!("{}.{field}", path())),
        Some(i) => ids.get(id, || format!("{}.{field}[{i}]", path())),
    })
}

/// Checks fault `index`'s times and lists against its kind's declaration and the run's limit.
fn check_fault<Id>(index: usize, f: &Fault<Id>, max_time_ms: Millis) -> Result<(), ScenarioError> {
    let path = || format!("faults[{index}]");
    let decl = f.decl();
    let mut problem = None;
    f.visit(|at, seen| {
        let Some(field) = decl.fields.get(at) else { return };
        let found = match seen {
            Seen::Time(ms) => field.problem(&FieldValue::Ms(ms)),
            Seen::List(len) => field.list_problem(len),
        };
        if problem.is_none() {
            problem = found.map(|p| err_at(&path(), field.name, p));
        }
    });
    if let Some(problem) = problem {
        return Err(problem);
    }
    if span(f.at_ms()) > max_time_ms {
        return err(format!("{}.at_ms", path()), "is after limits.max_time_ms");
    }
    Ok(())
}
