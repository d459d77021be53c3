//! Where edits start: a document with every field the editor shows written out (so each edit
//! sets a field that exists), the faults, clients and steps new ones start as, and values read
//! from what a person typed.

use crate::edit::doc::get;
use crate::scenario::format::{Participant, Scenario};
use crate::scenario::json::{self, Value};

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

/// The kinds of fault a user can add, with their names in the format.
pub const FAULTS: [(&str, &str); 7] = [
    ("pause", "pause"),
    ("crash", "crash"),
    ("restart", "restart"),
    ("promote", "promotion"),
    ("clock_jump", "clock jump"),
    ("partition", "partition"),
    ("delay", "delay"),
];

/// Returns a new fault of `kind` for `scenario` at `at_ms` (the page uses the cursor's time, so a
/// run forks from where it is, or the time clicked on the diagram): on participant `on` if given,
/// else on its first client (a pause, a partition or delay from it) or its first lock service (a
/// crash, restart, promotion or clock jump). A partition or delay goes from a client to the first
/// participant that is not one, and from any other participant to the first client. `None` for a kind
/// not in [`FAULTS`] or a scenario without such a participant.
pub fn fault(kind: &str, scenario: &Scenario, at_ms: u64, on: Option<&str>) -> Option<Value> {
    let first = |f: &dyn Fn(&Participant) -> bool| scenario.participants.iter().find(|p| f(p)).map(|p| Value::String(p.id().to_string()));
    let on = on.map(|id| Value::String(id.into()));
    let is_client = |p: &Participant| matches!(p, Participant::Client { .. });
    let client = on.clone().or_else(|| first(&is_client));
    let service = on.clone().or_else(|| first(&|p| matches!(p, Participant::LockService { .. }))).or_else(|| client.clone());
    let from_client = scenario.participants.iter().any(|p| is_client(p) && Some(Value::String(p.id().into())) == client);
    let target = first(&|p| is_client(p) != from_client);
    let head = |node: Option<Value>| Some(vec![("fault", Value::String(kind.into())), ("at_ms", number(at_ms)), ("node", node?)]);
    let fields = match kind {
        "pause" => [head(client)?, vec![("for_ms", number(1_500))]].concat(),
        "crash" | "promote" => head(service)?,
        "restart" => [head(service)?, vec![("keep_state", Value::Bool(false))]].concat(),
        "clock_jump" => [head(service)?, vec![("by_ms", number(2_000))]].concat(),
        "partition" | "delay" => {
            let (from, to) = (client?, target?);
            let mut f = vec![("fault", Value::String(kind.into())), ("at_ms", number(at_ms))];
            if kind == "partition" {
                f.extend([("from", Value::Array(vec![from])), ("to", Value::Array(vec![to])), ("two_way", Value::Bool(true))]);
            } else {
                f.extend([("from", from), ("to", to), ("extra_ms", number(1_000))]);
            }
            f.push(("for_ms", number(1_000)));
            f
        }
        _ => return None,
    };
    Some(object(&fields))
}

/// The steps a client's script may have, by their names in the format.
pub const STEPS: [&str; 6] = ["acquire", "work", "read", "check", "write", "release"];

/// Returns a new script step of `kind` with its field at a starting value (a release gives the
/// lock back in `mode`); `None` for a kind not in [`STEPS`].
pub fn step(kind: &str, mode: &str) -> Option<Value> {
    let name = ("step", Value::String(kind.into()));
    Some(match kind {
        "acquire" | "read" => object(&[name]),
        "work" => object(&[name, ("ms", number(100))]),
        "check" => object(&[name, ("margin_ms", number(200))]),
        "write" => object(&[name, ("value", Value::String("X".into()))]),
        "release" => object(&[name, ("mode", Value::String(mode.into()))]),
        _ => return None,
    })
}

/// Returns a new client for `scenario` (whose document is `doc`): the first free one-letter id,
/// starting at `at_ms`, with the first client's script.
pub fn client(doc: &Value, scenario: &Scenario, at_ms: u64) -> Value {
    let taken = |id: &str| scenario.participants.iter().any(|p| p.id() == id);
    let id = ('A'..='Z').map(String::from).find(|id| !taken(id)).unwrap_or_else(|| format!("C{}", scenario.participants.len()));
    let first = scenario.participants.iter().position(|p| matches!(p, Participant::Client { .. }));
    let script = first.and_then(|i| get(doc, &format!("participants[{i}].script")).cloned()).unwrap_or(Value::Array(Vec::new()));
    let name = Value::String(format!("Client {id}"));
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

/// Reads what a person typed into a field as a document value. `kind` says how: `number` (an
/// empty field is `None`, so the default applies; text that is not a JSON number stays text, for
/// the reader to refuse by name), `flag` (`true` or not), `list` (comma-separated ids), or
/// `step:<release mode>` (a new script step of that name, see [`step`]), or
/// anything else for text as typed.
pub fn typed(kind: &str, text: &str) -> Option<Value> {
    let trimmed = text.trim();
    if let Some(mode) = kind.strip_prefix("step:") {
        return step(trimmed, mode);
    }
    Some(match kind {
        "number" if trimmed.is_empty() => return None,
        "number" => match json::parse(trimmed) {
            Ok(number @ Value::Number(_)) => number,
            _ => Value::String(trimmed.to_string()),
        },
        "flag" => Value::Bool(trimmed == "true"),
        "list" => Value::Array(trimmed.split(',').map(str::trim).filter(|id| !id.is_empty()).map(|id| Value::String(id.into())).collect()),
        _ => Value::String(text.to_string()),
    })
}
