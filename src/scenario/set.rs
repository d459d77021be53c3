//! One field of a typed scenario set from a value as a person gave it, addressed by the field
//! path errors use (`faults[2].for_ms`, `participants[1].clock.drift_ppm`, `lock.ttl_ms`). The
//! value is read by the same readers as a file's field, so an edit is refused with the same
//! message; nothing else of the scenario is written or read again. `None` gives the field its
//! default, where it has one.

use super::decode::{field_value, param_value, FromJson};
use super::faults::FaultDecl;
use super::field::{Field, FieldValue};
use super::format::{Fault, LockChoice, Participant, Scenario};
use super::json::Value;
use super::steps;
use crate::design::{ParamKind, ParamValue, Values};
use crate::error::ScenarioError;

type Result<T> = std::result::Result<T, ScenarioError>;

/// One step of a field path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seg<'a> {
    Field(&'a str),
    Index(usize),
}

/// Splits `lock.ttl_ms` or `participants[1].script[0]` into its steps.
pub fn segments(path: &str) -> Result<Vec<Seg<'_>>> {
    let bad = || ScenarioError::new("", format!("{} is not a field path", crate::error::quote(path)));
    let mut out = Vec::new();
    for part in path.split('.') {
        let (field, mut rest) = part.split_once('[').map_or((part, ""), |(f, r)| (f, r));
        if !field.is_empty() {
            out.push(Seg::Field(field));
        } else if rest.is_empty() {
            return Err(bad());
        }
        while !rest.is_empty() {
            let (index, after) = rest.split_once(']').ok_or_else(bad)?;
            out.push(Seg::Index(index.parse().map_err(|_| bad())?));
            rest = after.strip_prefix('[').unwrap_or(after);
            if !after.is_empty() && !after.starts_with('[') {
                return Err(bad());
            }
        }
    }
    Ok(out)
}

/// The element `i` of a list of `len`, or the error that names the path and the list's length.
pub fn element(path: &str, i: usize, len: usize) -> Result<usize> {
    if i < len {
        return Ok(i);
    }
    Err(ScenarioError::new(path, format!("has no element {i}; the list has {len}")))
}

/// Reads a value for `path`, or the default a left-out field takes.
fn value<T: FromJson>(v: Option<&Value>, path: &str, default: impl FnOnce() -> Option<T>) -> Result<T> {
    match v {
        Some(v) => T::from_json(v, path),
        None => default().ok_or_else(|| ScenarioError::new(path, "needs a value")),
    }
}

/// Returns `s` with the field at `path` set to `v`.
pub fn set(s: &Scenario, path: &str, v: Option<&Value>) -> Result<Scenario> {
    let mut s = s.clone();
    let nothing = || ScenarioError::new(path, "is not a field the editor can change");
    match segments(path)?.as_slice() {
        [Seg::Field("seed")] => s.seed = value(v, path, || Some(1))?,
        [Seg::Field("title")] => s.title = value(v, path, || Some(String::new()))?,
        [Seg::Field("intro")] => s.intro = value(v, path, || Some(String::new()))?,
        [Seg::Field("takeaway")] => s.takeaway = value(v, path, || Some(String::new()))?,
        [Seg::Field("lock"), Seg::Field(name)] => s.lock = lock(&s.lock, name, v, path)?,
        [Seg::Field("network"), Seg::Field("loss")] => s.network.loss = value(v, path, || Some(super::format::Probability(0.0)))?,
        [Seg::Field("network"), Seg::Field("latency_ms"), Seg::Field(end)] => {
            let latency = &mut s.network.latency_ms;
            let start = super::format::Network::default().latency_ms;
            match *end {
                "min_ms" => latency.min_ms = value(v, path, || Some(start.min_ms))?,
                "max_ms" => latency.max_ms = value(v, path, || Some(start.max_ms))?,
                _ => return Err(nothing()),
            }
        }
        [Seg::Field("faults"), Seg::Index(i), Seg::Field(name)] => {
            let i = element(path, *i, s.faults.len())?;
            let fault = &mut s.faults[i];
            let decl: &FaultDecl = fault.decl();
            let values = declared(decl.fields, fault.values(), name, v, path)?;
            *fault = Fault::from_values(decl, values);
        }
        [Seg::Field("participants"), Seg::Index(i), rest @ ..] => {
            let i = element(path, *i, s.participants.len())?;
            let p = &mut s.participants[i];
            participant(p, rest, v, path)?;
        }
        _ => return Err(nothing()),
    }
    Ok(s)
}

/// Sets one field of a participant.
fn participant(p: &mut Participant, rest: &[Seg], v: Option<&Value>, path: &str) -> Result<()> {
    let zero = || Some(0);
    match (p, rest) {
        (
            Participant::Client { name, .. } | Participant::LockService { name, .. } | Participant::Resource { name, .. },
            [Seg::Field("name")],
        ) => *name = value(v, path, || Some(String::new()))?,
        (
            Participant::Client { clock, .. } | Participant::LockService { clock, .. } | Participant::Resource { clock, .. },
            [Seg::Field("clock"), Seg::Field("offset_ms")],
        ) => clock.offset_ms = value(v, path, zero)?,
        (
            Participant::Client { clock, .. } | Participant::LockService { clock, .. } | Participant::Resource { clock, .. },
            [Seg::Field("clock"), Seg::Field("drift_ppm")],
        ) => clock.drift_ppm = value(v, path, zero)?,
        (Participant::Client { start_ms, .. }, [Seg::Field("start_ms")]) => *start_ms = value(v, path, zero)?,
        (Participant::Resource { mode, .. }, [Seg::Field("mode")]) => *mode = value(v, path, || None)?,
        (Participant::Client { script, .. }, [Seg::Field("script"), Seg::Index(j), Seg::Field(name)]) => {
            let j = element(path, *j, script.len())?;
            let step = &mut script[j];
            let kind = steps::kind_of(step);
            *step = steps::from_values(kind, declared(kind.fields, steps::values_of(step), name, v, path)?);
        }
        _ => return Err(ScenarioError::new(path, "is not a field the editor can change")),
    }
    Ok(())
}

/// Returns `values` (one for each of `fields`) with field `name`'s set to `v`; a field a file may
/// leave out starts again when `v` is `None`.
fn declared(fields: &[Field], mut values: Vec<FieldValue>, name: &str, v: Option<&Value>, path: &str) -> Result<Vec<FieldValue>> {
    let at = fields.iter().position(|f| f.name == name).ok_or_else(|| ScenarioError::new(path, "is not a field of this kind"))?;
    let f = &fields[at];
    values[at] = match v {
        Some(v) => field_value(f, v, path)?,
        None => f.start().filter(|_| f.optional).ok_or_else(|| ScenarioError::new(path, "needs a value"))?,
    };
    Ok(values)
}

/// Returns the lock with its parameter `name` set to `v` (left out: its default, or none).
fn lock(choice: &LockChoice, name: &str, v: Option<&Value>, path: &str) -> Result<LockChoice> {
    let params = choice.kind.params();
    let p = params
        .iter()
        .find(|p| p.name == name)
        .ok_or_else(|| ScenarioError::new(path, format!("{} has no setting `{name}`", choice.kind.tag())))?;
    let new = match v {
        Some(v) => param_value(p, v, path)?,
        None if matches!(p.kind, ParamKind::Optional { .. }) => ParamValue::Absent,
        None => p.default().ok_or_else(|| ScenarioError::new(path, "needs a value"))?,
    };
    let given: Vec<(&str, ParamValue)> = choice.values.iter().map(|(n, old)| (n, if n == p.name { new } else { old })).collect();
    LockChoice::new(choice.kind, Values::new(params, &given)?)
}
