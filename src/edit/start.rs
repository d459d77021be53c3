//! Where edits start: a document with every field the editor shows written out (so each edit
//! sets a field that exists), the faults, clients and steps new ones start as, and values read
//! from what a person typed.

use crate::edit::doc::get;
use crate::engine::msg::ReleaseMode;
use crate::scenario::encode;
use crate::scenario::faults::{fault_decl, Hits};
use crate::scenario::field::{FieldKind, FieldValue};
use crate::scenario::format::{Fault, Participant, Scenario};
use crate::scenario::json::Value;
use crate::scenario::steps::{self, step_kind};

fn number(n: impl ToString) -> Value {
    Value::Number(n.to_string())
}

fn object(members: &[(&str, Value)]) -> Value {
    Value::Object(members.iter().map(|(k, v)| (k.to_string(), v.clone())).collect())
}

/// Adds a field an object lacks.
fn ensure(members: &mut Vec<(String, Value)>, name: &str, value: impl FnOnce() -> Value) {
    if !members.iter().any(|(k, _)| k == name) {
        members.push((name.to_string(), value()));
    }
}

/// Returns `doc` (the document of `scenario`) with its network, loss and every participant's
/// clock written out at the values they take by default.
pub fn editable(doc: &Value, scenario: &Scenario) -> Value {
    let mut doc = doc.clone();
    let Value::Object(top) = &mut doc else { return doc };
    let net = &scenario.network;
    let latency = || object(&[("min_ms", number(net.latency_ms.min_ms)), ("max_ms", number(net.latency_ms.max_ms))]);
    ensure(top, "network", || object(&[]));
    for (k, v) in top.iter_mut() {
        match (k.as_str(), v) {
            ("network", Value::Object(members)) => {
                ensure(members, "latency_ms", latency);
                ensure(members, "loss", || number(0));
            }
            ("participants", Value::Array(items)) => {
                for (item, p) in items.iter_mut().zip(&scenario.participants) {
                    if let Value::Object(members) = item {
                        let clock = p.clock();
                        ensure(members, "clock", || {
                            object(&[("offset_ms", number(clock.offset_ms)), ("drift_ppm", number(clock.drift_ppm))])
                        });
                    }
                }
            }
            _ => {}
        }
    }
    doc
}

/// Returns a new fault of the kind tagged `tag` for `scenario` at `at_ms` (the page uses the
/// cursor's time, so a run forks from where it is, or the time clicked on the diagram), its other
/// fields at their starting values: on participant `on` if given, else on whom its kind targets
/// (the first client, or the first lock service). A fault on a link goes from `on` or the first
/// client to the first participant of the other sort (a client's goes to a service or the
/// resource, anyone else's to the first client). `None` for an unknown tag or a scenario without
/// such a participant.
pub fn fault(tag: &str, scenario: &Scenario, at_ms: u64, on: Option<&str>) -> Option<Value> {
    let kind = fault_decl(tag)?;
    let first = |f: &dyn Fn(&Participant) -> bool| scenario.participants.iter().find(|p| f(p)).map(|p| p.id().to_string());
    let is_client = |p: &Participant| matches!(p, Participant::Client { .. });
    let client = on.map(str::to_string).or_else(|| first(&is_client));
    let service = on.map(str::to_string).or_else(|| first(&|p| matches!(p, Participant::LockService { .. }))).or_else(|| client.clone());
    let from_client = scenario.participants.iter().any(|p| is_client(p) && Some(p.id()) == client.as_deref());
    let other_end = first(&|p| is_client(p) != from_client);
    let node = match kind.hits {
        Hits::Service => service,
        Hits::Client | Hits::Link => client.clone(),
    };
    let mut values = vec![FieldValue::Ms(at_ms as i64)];
    for f in &kind.fields[1..] {
        let id = |id: &Option<String>, many: bool| {
            let id = id.clone()?;
            Some(if many { FieldValue::Ids(vec![id]) } else { FieldValue::Id(id) })
        };
        values.push(match f.kind {
            FieldKind::Node => id(&node, false)?,
            FieldKind::From { many } => id(&client, many)?,
            FieldKind::To { many } => id(&other_end, many)?,
            _ => f.start()?,
        });
    }
    Some(encode::fault(&Fault::from_values(kind, values)))
}

/// Returns a new script step of the kind tagged `tag` with its field at its starting value (a
/// release gives the lock back in `mode`); `None` for an unknown tag.
pub fn step(tag: &str, mode: ReleaseMode) -> Option<Value> {
    let kind = step_kind(tag)?;
    let values = kind.fields.iter().map(|f| f.start().unwrap_or(FieldValue::Release(mode))).collect();
    Some(encode::step(&steps::from_values(kind, values)))
}

/// Returns a new client for `scenario` (whose document is `doc`): the first free one-letter id,
/// starting at `at_ms`, with the first client's script.
pub fn client(doc: &Value, scenario: &Scenario, at_ms: u64) -> Value {
    let taken = |id: &str| scenario.participants.iter().any(|p| p.id() == id);
    let id = ('A'..='Z').map(String::from).find(|id| !taken(id)).unwrap_or_else(|| format!("C{}", scenario.participants.len()));
    let first = scenario.participants.iter().position(|p| matches!(p, Participant::Client { .. }));
    let script = first.and_then(|i| get(doc, &format!("participants[{i}].script")).cloned()).unwrap_or(Value::Array(Vec::new()));
    let name = Value::String(crate::present::generated::client(&id));
    object(&[
        ("role", Value::String("client".into())),
        ("id", Value::String(id)),
        ("name", name),
        ("start_ms", number(at_ms)),
        ("script", script),
    ])
}

/// Returns `doc` without participant `i` and without what names it in the faults: a fault on it
/// goes, and a partition or delay loses it from its sides (and goes if a side is left empty).
pub fn without_participant(doc: &Value, scenario: &Scenario, i: usize) -> Option<Value> {
    let id = Value::String(scenario.participants.get(i)?.id().to_string());
    let mut doc = crate::edit::apply(doc, &crate::edit::Edit::Remove { path: format!("participants[{i}]") }).ok()?;
    if let Value::Object(top) = &mut doc {
        for (k, v) in top.iter_mut() {
            if let ("faults", Value::Array(faults)) = (k.as_str(), v) {
                faults.retain_mut(|fault| keeps(fault, &id));
            }
        }
    }
    Some(doc)
}

/// Takes `id` out of a fault's sides; returns whether the fault still names anyone.
fn keeps(fault: &mut Value, id: &Value) -> bool {
    let Value::Object(fields) = fault else { return true };
    fields.iter_mut().all(|(k, v)| match (k.as_str(), v) {
        ("node" | "from" | "to", name @ Value::String(_)) => name != id,
        ("from" | "to", Value::Array(ids)) => {
            ids.retain(|x| x != id);
            !ids.is_empty()
        }
        _ => true,
    })
}
