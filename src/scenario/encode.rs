//! The writer of the scenario format, beside its reader ([`super::decode`]): a scenario written
//! as its document (for runs that come from no file, such as the comparison table's cells and the
//! failure search's finds); reading the document gives the same scenario.

use super::field::{Field, FieldKind, FieldValue};
use super::format::{ClockSpec, Fault, Participant, Probability, Scenario};
use super::json::Value;
use super::steps;
use super::tags::Tagged;
use crate::design::ParamValue;
use crate::engine::spec::Step;

fn text(s: &str) -> Value {
    Value::String(s.to_string())
}

fn number(n: impl ToString) -> Value {
    Value::Number(n.to_string())
}

fn object(members: Vec<(&str, Value)>) -> Value {
    Value::Object(members.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn ids(ids: &[String]) -> Value {
    Value::Array(ids.iter().map(|id| text(id)).collect())
}

/// A probability as the shortest decimal that reads back as the same number.
fn probability(p: Probability) -> Value {
    Value::Number(p.text())
}

fn clock(c: &ClockSpec) -> Value {
    object(vec![("offset_ms", number(c.offset_ms)), ("drift_ppm", number(c.drift_ppm))])
}

/// A declared field's value as the file writes it.
fn field(v: FieldValue) -> Value {
    match v {
        FieldValue::Ms(n) => number(n),
        FieldValue::Id(id) => text(&id),
        FieldValue::Ids(list) => ids(&list),
        FieldValue::Flag(b) => Value::Bool(b),
        FieldValue::Text(t) => text(&t),
        FieldValue::Release(mode) => text(mode.tag()),
    }
}

/// A fault or step: its tag, then each declared field with its value.
fn tagged(tag: (&str, &str), fields: &[Field], values: Vec<FieldValue>) -> Value {
    let mut members = vec![(tag.0, text(tag.1))];
    // A write to the scenario's only resource names none.
    let named = |(f, v): &(&Field, FieldValue)| !(f.kind == FieldKind::Resource && *v == FieldValue::Id(String::new()));
    members.extend(fields.iter().zip(values).filter(named).map(|(f, v)| (f.name, field(v))));
    object(members)
}

/// Returns a script step as the file writes it.
pub fn step(s: &Step) -> Value {
    let kind = steps::kind_of(s);
    tagged(("step", kind.tag), kind.fields, steps::values_of(s))
}

fn participant(p: &Participant) -> Value {
    let head = |role: &str| vec![("role", text(role)), ("id", text(p.id())), ("name", text(p.name())), ("clock", clock(p.clock()))];
    object(match p {
        Participant::Client { start_ms, script, acquire, renew, .. } => {
            let mut fields = head("client");
            fields.push(("start_ms", number(start_ms)));
            fields.push(("script", Value::Array(script.iter().map(step).collect())));
            let policy = [("retry_ms", acquire.retry_ms), ("jitter_ms", acquire.jitter_ms), ("timeout_ms", acquire.timeout_ms)];
            let mut policy: Vec<(&str, Value)> = policy.iter().map(|(k, v)| (*k, number(v))).collect();
            policy.push(("max_attempts", number(acquire.max_attempts)));
            fields.push(("acquire", object(policy)));
            if let Some(r) = renew {
                let on_failure = text(r.on_failure.tag());
                fields.push(("renew", object(vec![("every_ms", number(r.every_ms)), ("on_failure", on_failure)])));
            }
            fields
        }
        Participant::LockService { .. } => head("lock_service"),
        Participant::Resource { mode, .. } => {
            let mut fields = head("resource");
            fields.push(("mode", text(mode.tag())));
            fields
        }
    })
}

/// Returns a fault as the file writes it.
pub fn fault(f: &Fault<String>) -> Value {
    let kind = f.decl();
    tagged(("fault", kind.tag), kind.fields, f.values())
}

/// Returns the document that reads as `s`.
pub fn scenario(s: &Scenario) -> Value {
    let mut lock = vec![("design", text(s.lock.kind.tag()))];
    for (name, v) in s.lock.values.iter() {
        match v {
            ParamValue::Number(n) => lock.push((name, number(n))),
            ParamValue::Flag(b) => lock.push((name, Value::Bool(b))),
            ParamValue::Choice(c) => lock.push((name, text(c))),
            ParamValue::Absent => {}
        }
    }
    let net = &s.network;
    let links = net.links.iter().map(|l| {
        let mut fields = vec![("from", text(&l.from)), ("to", text(&l.to))];
        if let Some(lat) = l.latency_ms {
            fields.push(("latency_ms", object(vec![("min_ms", number(lat.min_ms)), ("max_ms", number(lat.max_ms))])));
        }
        if let Some(loss) = l.loss {
            fields.push(("loss", probability(loss)));
        }
        object(fields)
    });
    let mut doc = vec![
        ("version", number(s.version)),
        ("id", text(&s.id)),
        ("title", text(&s.title)),
        ("topic", text(&s.topic)),
        ("intro", text(&s.intro)),
        ("takeaway", text(&s.takeaway)),
    ];
    if let Some(g) = &s.guarantees {
        let fields =
            vec![("lock", text(g.lock.tag())), ("safety", text(&g.safety)), ("liveness", text(&g.liveness)), ("assumes", text(&g.assumes))];
        doc.push(("guarantees", object(fields)));
    }
    doc.extend([
        ("seed", number(s.seed)),
        ("lock", object(lock)),
        ("participants", Value::Array(s.participants.iter().map(participant).collect())),
        (
            "network",
            object(vec![
                ("latency_ms", object(vec![("min_ms", number(net.latency_ms.min_ms)), ("max_ms", number(net.latency_ms.max_ms))])),
                ("loss", probability(net.loss)),
                ("links", Value::Array(links.collect())),
            ]),
        ),
        ("faults", Value::Array(s.faults.iter().map(fault).collect())),
        ("limits", object(vec![("max_events", number(s.limits.max_events)), ("max_time_ms", number(s.limits.max_time_ms))])),
    ]);
    object(doc)
}
