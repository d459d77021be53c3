//! From a JSON [`Value`] to the scenario format's types, naming the field path of every problem
//! (`participants[1].script[0].ms: invalid type: string "5", expected a whole number`).
//!
//! Unknown fields are errors; optional fields take the format's defaults.

use super::faults::{fault_decl, FAULTS};
use super::field::{Field, FieldKind, FieldValue};
use super::format::{decimal, ClockSpec, Fault, Limits, Link, LockChoice, Network, Participant, Probability, Scenario};
use super::json::Value;
use super::steps::{self, step_kind, STEPS};
use super::tags::Tagged;
use crate::design::{self, Guarantees, Param, ParamKind, ParamValue, Values};
use crate::engine::msg::ReleaseMode;
use crate::engine::spec::{AcquirePolicy, Latency, RenewPolicy, Step};
use crate::error::ScenarioError;

type Result<T> = std::result::Result<T, ScenarioError>;

fn err<T>(path: &str, problem: String) -> Result<T> {
    Err(problem_at(path, problem))
}

/// The error for a problem at a field path. (Not inlined: every reader shares it.)
#[cold]
#[inline(never)]
fn problem_at(path: &str, problem: String) -> ScenarioError {
    ScenarioError { path: path.to_string(), problem }
}

#[inline(never)]
fn join(path: &str, field: &str) -> String {
    if path.is_empty() {
        field.to_string()
    } else {
        format!("{path}.{field}")
    }
}

fn one_of(names: &[&str]) -> String {
    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}

fn invalid<T>(path: &str, v: &Value, expected: &str) -> Result<T> {
    Err(invalid_type(path, v, expected))
}

/// The error for a value of the wrong type. (Not inlined: every reader shares it.)
#[cold]
#[inline(never)]
fn invalid_type(path: &str, v: &Value, expected: &str) -> ScenarioError {
    ScenarioError::new(path, format!("invalid type: {}, expected {expected}", v.in_error()))
}

/// A type read from JSON at a field path.
pub trait FromJson: Sized {
    fn from_json(v: &Value, path: &str) -> Result<Self>;
}

/// Reads a whole scenario.
pub fn scenario(v: &Value) -> Result<Scenario> {
    Scenario::from_json(v, "")
}

impl FromJson for u64 {
    fn from_json(v: &Value, path: &str) -> Result<Self> {
        match v {
            Value::Number(n) => match n.parse::<u64>() {
                Ok(x) => Ok(x),
                Err(_) if n.starts_with('-') && n.parse::<i64>().is_ok() => {
                    err(path, format!("invalid value: {n}, expected a whole number ≥ 0"))
                }
                Err(_) => invalid(path, v, "a whole number"),
            },
            _ => invalid(path, v, "a whole number"),
        }
    }
}

impl FromJson for u32 {
    fn from_json(v: &Value, path: &str) -> Result<Self> {
        let n = u64::from_json(v, path)?;
        u32::try_from(n).or_else(|_| err(path, format!("invalid value: {n}, expected at most {}", u32::MAX)))
    }
}

impl FromJson for i64 {
    fn from_json(v: &Value, path: &str) -> Result<Self> {
        match v {
            Value::Number(n) => n.parse::<i64>().or_else(|_| invalid(path, v, "a whole number")),
            _ => invalid(path, v, "a whole number"),
        }
    }
}

impl FromJson for Probability {
    fn from_json(v: &Value, path: &str) -> Result<Self> {
        let Value::Number(n) = v else { return invalid(path, v, "a number") };
        match decimal(n) {
            Some(p) if (0.0..=1.0).contains(&p) => Ok(Probability(p)),
            Some(_) => err(path, format!("must be a probability between 0 and 1, got {n}")),
            None => err(path, format!("must be a probability written with at most 15 significant digits, got {n}")),
        }
    }
}

impl FromJson for bool {
    fn from_json(v: &Value, path: &str) -> Result<Self> {
        match v {
            Value::Bool(b) => Ok(*b),
            _ => invalid(path, v, "true or false"),
        }
    }
}

impl FromJson for String {
    fn from_json(v: &Value, path: &str) -> Result<Self> {
        match v {
            Value::String(s) => Ok(s.clone()),
            _ => invalid(path, v, "a string"),
        }
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(v: &Value, path: &str) -> Result<Self> {
        match v {
            Value::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    out.push(T::from_json(item, &format!("{path}[{i}]"))?);
                }
                Ok(out)
            }
            _ => invalid(path, v, "an array"),
        }
    }
}

/// An object being read: its members and its path.
pub(crate) struct Obj<'a> {
    path: &'a str,
    members: &'a [(String, Value)],
}

impl<'a> Obj<'a> {
    pub(crate) fn new(v: &'a Value, path: &'a str) -> Result<Self> {
        match v {
            Value::Object(members) => Ok(Obj { path, members }),
            _ => invalid(path, v, "an object"),
        }
    }

    /// Fails on the first member not among `known`.
    pub(crate) fn only(&self, known: &[&str]) -> Result<()> {
        match self.members.iter().find(|(k, _)| !known.contains(&k.as_str())) {
            Some((k, _)) => err(&join(self.path, k), format!("unknown field `{k}`, expected one of {}", one_of(known))),
            None => Ok(()),
        }
    }

    /// Returns the path of this object's field `name`.
    pub(crate) fn at(&self, name: &str) -> String {
        join(self.path, name)
    }

    pub(crate) fn get(&self, name: &str) -> Option<&'a Value> {
        self.members.iter().find(|(k, _)| k == name).map(|(_, v)| v).filter(|v| **v != Value::Null)
    }

    pub(crate) fn req<T: FromJson>(&self, name: &str) -> Result<T> {
        match self.get(name) {
            Some(v) => T::from_json(v, &join(self.path, name)),
            None => Err(self.missing(name)),
        }
    }

    pub(crate) fn opt<T: FromJson>(&self, name: &str) -> Result<Option<T>> {
        self.get(name).map(|v| T::from_json(v, &join(self.path, name))).transpose()
    }

    /// The error for a required field left out, or given as `null`. (Not inlined: every
    /// field's reader shares it.)
    #[inline(never)]
    fn missing(&self, name: &str) -> ScenarioError {
        if self.members.iter().any(|(k, v)| k == name && *v == Value::Null) {
            return ScenarioError::new(join(self.path, name), "is null, but it needs a value");
        }
        ScenarioError::new(self.path, format!("missing field `{name}`"))
    }

    pub(crate) fn or<T: FromJson>(&self, name: &str, default: T) -> Result<T> {
        Ok(self.opt(name)?.unwrap_or(default))
    }

    /// Reads the fields a fault's or step's kind declares (besides its tag, named `tag`), in
    /// order, each checked against its declaration; a field a file may leave out takes the value
    /// a new one starts with.
    fn fields(&self, tag: &str, fields: &[Field]) -> Result<Vec<FieldValue>> {
        let mut names = vec![tag];
        names.extend(fields.iter().map(|f| f.name));
        self.only(&names)?;
        let mut values = Vec::with_capacity(fields.len());
        for f in fields {
            let at = join(self.path, f.name);
            let value = match (self.get(f.name), f.kind) {
                (None, _) => match f.start().filter(|_| f.optional) {
                    Some(start) => start,
                    None => return Err(self.missing(f.name)),
                },
                (Some(v), _) => field_value(f, v, &at)?,
            };
            values.push(value);
        }
        Ok(values)
    }

    /// Reads the tag of an internally tagged enum, which must be one of `variants`.
    fn tag(&self, name: &str, variants: &[&str]) -> Result<&'a str> {
        let path = join(self.path, name);
        match self.get(name) {
            Some(Value::String(s)) if variants.contains(&s.as_str()) => Ok(s),
            Some(Value::String(s)) => err(&path, format!("unknown variant `{s}`, expected one of {}", one_of(variants))),
            Some(v) => invalid(&path, v, "a string"),
            None => err(self.path, format!("missing field `{name}`")),
        }
    }
}

/// Reads a string that names one of a unit enum's variants.
fn variant<T: Copy>(v: &Value, path: &str, table: &[(&str, T)]) -> Result<T> {
    let names: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
    match v {
        Value::String(s) => match table.iter().find(|(n, _)| n == s) {
            Some((_, t)) => Ok(*t),
            None => err(path, format!("unknown variant `{s}`, expected one of {}", one_of(&names))),
        },
        _ => invalid(path, v, "a string"),
    }
}

/// A unit enum is read by its table of names.
impl<T: Tagged> FromJson for T {
    fn from_json(v: &Value, path: &str) -> Result<Self> {
        variant(v, path, T::TAGS)
    }
}

impl FromJson for Scenario {
    fn from_json(v: &Value, path: &str) -> Result<Self> {
        let o = Obj::new(v, path)?;
        o.only(&[
            "version",
            "id",
            "title",
            "topic",
            "intro",
            "takeaway",
            "guarantees",
            "seed",
            "lock",
            "participants",
            "network",
            "faults",
            "limits",
        ])?;
        Ok(Scenario {
            version: o.req("version")?,
            id: o.or("id", String::new())?,
            title: o.or("title", String::new())?,
            topic: o.or("topic", String::new())?,
            intro: o.or("intro", String::new())?,
            takeaway: o.or("takeaway", String::new())?,
            guarantees: o.opt("guarantees")?,
            seed: o.or("seed", 0)?,
            lock: o.req("lock")?,
            participants: o.req("participants")?,
            network: o.or("network", Network::default())?,
            faults: o.or("faults", Vec::new())?,
            limits: o.or("limits", Limits::default())?,
        })
    }
}

/// Reads the value of a fault's or step's declared field, checked against its declaration.
pub(super) fn field_value(f: &Field, v: &Value, at: &str) -> Result<FieldValue> {
    let value = match f.kind {
        FieldKind::Ms { .. } => FieldValue::Ms(i64::from_json(v, at)?),
        FieldKind::Node | FieldKind::From { many: false } | FieldKind::To { many: false } | FieldKind::Resource => {
            FieldValue::Id(String::from_json(v, at)?)
        }
        FieldKind::From { many: true } | FieldKind::To { many: true } => FieldValue::Ids(Vec::from_json(v, at)?),
        FieldKind::Flag { .. } => FieldValue::Flag(bool::from_json(v, at)?),
        FieldKind::Text { .. } => FieldValue::Text(String::from_json(v, at)?),
        FieldKind::Release => FieldValue::Release(ReleaseMode::from_json(v, at)?),
    };
    f.check(at, value)
}

/// Reads the value of a design's declared parameter, checked against its range or options.
pub(super) fn param_value(p: &Param, v: &Value, at: &str) -> Result<ParamValue> {
    match p.kind {
        ParamKind::Number { .. } | ParamKind::Optional { .. } => p.check_number(u64::from_json(v, at)?),
        ParamKind::Flag { .. } => Ok(ParamValue::Flag(bool::from_json(v, at)?)),
        ParamKind::Choice { .. } => p.check_choice(&String::from_json(v, at)?),
    }
}

impl FromJson for Guarantees {
    fn from_json(v: &Value, path: &str) -> Result<Self> {
        let o = Obj::new(v, path)?;
        o.only(&["lock", "safety", "liveness", "assumes"])?;
        Ok(Guarantees { lock: o.req("lock")?, safety: o.req("safety")?, liveness: o.req("liveness")?, assumes: o.req("assumes")? })
    }
}

impl FromJson for LockChoice {
    /// Reads the design's tag, then each parameter the design declares, by its declared kind.
    fn from_json(v: &Value, path: &str) -> Result<Self> {
        let o = Obj::new(v, path)?;
        let tag_path = join(path, "design");
        let tag: String = match o.get("design") {
            Some(v) => String::from_json(v, &tag_path)?,
            None => return err(path, "missing field `design`".into()),
        };
        let kind = design::find(&tag).map_err(|e| ScenarioError::new(&tag_path, e.problem))?;
        let mut names = vec!["design"];
        for p in kind.params() {
            names.push(p.name);
            names.extend(p.formerly);
        }
        o.only(&names)?;
        let mut given = Vec::new();
        for p in kind.params() {
            // A field renamed since older files is read under its old name too, but not both.
            let old = p.formerly.and_then(|f| Some((f, o.get(f)?)));
            let (name, v) = match (o.get(p.name), old) {
                (Some(_), Some((f, _))) => return err(&join(path, f), format!("the old name of `{}`: give only `{}`", p.name, p.name)),
                (Some(v), None) => (p.name, v),
                (None, Some((f, v))) => (f, v),
                (None, None) => continue,
            };
            given.push((p.name, param_value(p, v, &join(path, name))?));
        }
        LockChoice::new(kind, Values::new(kind.params(), &given)?)
    }
}

impl FromJson for Participant {
    fn from_json(v: &Value, path: &str) -> Result<Self> {
        let o = Obj::new(v, path)?;
        let role = o.tag("role", &["client", "lock_service", "resource"])?;
        let clock = |o: &Obj| o.or("clock", ClockSpec::default());
        Ok(match role {
            "client" => {
                o.only(&["role", "id", "name", "clock", "start_ms", "script", "acquire", "renew"])?;
                Participant::Client {
                    id: o.req("id")?,
                    name: o.req("name")?,
                    clock: clock(&o)?,
                    start_ms: o.or("start_ms", 0)?,
                    script: o.req("script")?,
                    acquire: o.or("acquire", AcquirePolicy::default())?,
                    renew: o.opt("renew")?,
                }
            }
            "lock_service" => {
                o.only(&["role", "id", "name", "clock"])?;
                Participant::LockService { id: o.req("id")?, name: o.req("name")?, clock: clock(&o)? }
            }
            _ => {
                o.only(&["role", "id", "name", "clock", "mode"])?;
                Participant::Resource { id: o.req("id")?, name: o.req("name")?, clock: clock(&o)?, mode: o.req("mode")? }
            }
        })
    }
}

impl FromJson for ClockSpec {
    fn from_json(v: &Value, path: &str) -> Result<Self> {
        let o = Obj::new(v, path)?;
        o.only(&["offset_ms", "drift_ppm"])?;
        Ok(ClockSpec { offset_ms: o.or("offset_ms", 0)?, drift_ppm: o.or("drift_ppm", 0)? })
    }
}

impl FromJson for Step {
    fn from_json(v: &Value, path: &str) -> Result<Self> {
        let o = Obj::new(v, path)?;
        let tags: Vec<&str> = STEPS.iter().map(|k| k.tag).collect();
        let kind = step_kind(o.tag("step", &tags)?).expect("a declared tag");
        Ok(steps::from_values(kind, o.fields("step", kind.fields)?))
    }
}

impl FromJson for AcquirePolicy {
    fn from_json(v: &Value, path: &str) -> Result<Self> {
        let o = Obj::new(v, path)?;
        o.only(&["retry_ms", "jitter_ms", "max_attempts", "timeout_ms"])?;
        let d = AcquirePolicy::default();
        Ok(AcquirePolicy {
            retry_ms: o.or("retry_ms", d.retry_ms)?,
            jitter_ms: o.or("jitter_ms", d.jitter_ms)?,
            max_attempts: o.or("max_attempts", d.max_attempts)?,
            timeout_ms: o.or("timeout_ms", d.timeout_ms)?,
        })
    }
}

impl FromJson for RenewPolicy {
    fn from_json(v: &Value, path: &str) -> Result<Self> {
        let o = Obj::new(v, path)?;
        o.only(&["every_ms", "on_failure"])?;
        Ok(RenewPolicy { every_ms: o.req("every_ms")?, on_failure: o.req("on_failure")? })
    }
}

impl FromJson for Latency {
    fn from_json(v: &Value, path: &str) -> Result<Self> {
        let o = Obj::new(v, path)?;
        o.only(&["min_ms", "max_ms"])?;
        Ok(Latency { min_ms: o.req("min_ms")?, max_ms: o.req("max_ms")? })
    }
}

impl FromJson for Network {
    fn from_json(v: &Value, path: &str) -> Result<Self> {
        let o = Obj::new(v, path)?;
        o.only(&["latency_ms", "loss", "links"])?;
        let d = Network::default();
        Ok(Network { latency_ms: o.or("latency_ms", d.latency_ms)?, loss: o.or("loss", d.loss)?, links: o.or("links", Vec::new())? })
    }
}

impl FromJson for Link {
    fn from_json(v: &Value, path: &str) -> Result<Self> {
        let o = Obj::new(v, path)?;
        o.only(&["from", "to", "latency_ms", "loss"])?;
        Ok(Link { from: o.req("from")?, to: o.req("to")?, latency_ms: o.opt("latency_ms")?, loss: o.opt("loss")? })
    }
}

impl FromJson for Fault<String> {
    fn from_json(v: &Value, path: &str) -> Result<Self> {
        let o = Obj::new(v, path)?;
        let tags: Vec<&str> = FAULTS.iter().map(|k| k.tag).collect();
        let kind = fault_decl(o.tag("fault", &tags)?).expect("a declared tag");
        Ok(Fault::from_values(kind, o.fields("fault", kind.fields)?))
    }
}

impl FromJson for Limits {
    fn from_json(v: &Value, path: &str) -> Result<Self> {
        let o = Obj::new(v, path)?;
        o.only(&["max_events", "max_time_ms"])?;
        let d = Limits::default();
        Ok(Limits { max_events: o.or("max_events", d.max_events)?, max_time_ms: o.or("max_time_ms", d.max_time_ms)? })
    }
}

#[cfg(test)]
mod tests {
    use crate::scenario::format::decimal;

    #[test]
    fn decimals_read_as_the_standard_parser_reads_them() {
        for text in
            ["0", "1", "0.5", "0.05", "0.1", "0.3", "0.123456789012345", "1e-3", "5E-1", "12.5e-2", "0.000", "-0", "100e-2", "0.0000001"]
        {
            assert_eq!(decimal(text), Some(text.parse::<f64>().unwrap()), "{text}");
        }
        for text in ["", ".5", "0x1", "1e", "0.1234567890123456", "nan"] {
            assert_eq!(decimal(text), None, "{text}");
        }
        assert_eq!(decimal("1e400"), Some(f64::INFINITY));
        assert_eq!(decimal("0e400"), Some(0.0));
        assert!(decimal("1e-30").is_some_and(|p| p > 0.0 && p < 1e-29), "tiny numbers stay tiny");
        assert_eq!(decimal("1e-99999"), Some(0.0));
    }

    #[test]
    fn a_probability_writes_as_the_shortest_decimal_that_reads_back() {
        use crate::scenario::format::Probability;
        for text in ["0", "1", "0.5", "0.05", "0.1", "0.3", "0.123456789012345", "0.001", "0.000000000000001"] {
            let p = Probability(decimal(text).unwrap());
            assert_eq!(p.text(), text);
            assert_eq!(decimal(&p.text()), Some(p.0));
        }
        assert_eq!(Probability(decimal("5E-1").unwrap()).text(), "0.5");
    }
}
