//! Switching a scenario to another lock design while keeping its clients, resource and faults
//! where they still make sense, and saying what changed when they do not; and a blank scenario
//! for any design.

use super::doc::get;
use super::start::without_participant;
use crate::design::{self, Design, Kind, ParamKind, ParamValue, Row, Values};
use crate::error::ScenarioError;
use crate::scenario::format::{Participant, Scenario};
use crate::scenario::json::{self, Value};
use crate::scenario::tags::Tagged;
use crate::scenario::validate;
use std::rc::Rc;

/// The value a new design's parameter starts at: the old design's value under the same name if
/// it fits, else the design's own choice for its first comparison row (`typical`).
fn carried(p: &design::Param, old: &Values, typical: Option<&Values>) -> Option<ParamValue> {
    let same = old.iter().find(|(name, _)| *name == p.name).map(|(_, v)| v);
    let fits = |v: &ParamValue| match (p.kind, v) {
        (ParamKind::Number { min, max, .. } | ParamKind::Optional { min, max, .. }, ParamValue::Number(n)) => (min..=max).contains(n),
        (ParamKind::Flag { .. }, ParamValue::Flag(_)) => true,
        (ParamKind::Choice { options, .. }, ParamValue::Choice(c)) => options.iter().any(|(o, _)| o == c),
        _ => false,
    };
    let typical = typical.and_then(|t| t.iter().find(|(name, _)| *name == p.name).map(|(_, v)| v));
    same.filter(fits).or(typical).or_else(|| p.default())
}

fn text(s: &str) -> Value {
    Value::String(s.into())
}

/// Sets an object's field, adding it if missing.
fn put(members: &mut Vec<(String, Value)>, name: &str, value: Value) {
    match members.iter_mut().find(|(k, _)| k == name) {
        Some((_, v)) => *v = value,
        None => members.push((name.into(), value)),
    }
}

/// Returns `doc` (the document of `scenario`) switched to the design tagged `tag`, and a
/// sentence for each thing that had to change; or why it cannot run that way.
pub fn switch(doc: &Value, scenario: &Scenario, tag: &str) -> Result<(Value, Vec<String>), ScenarioError> {
    let kind = design::find(tag)?;
    let old = &scenario.lock.values;
    let ttl = old.iter().find_map(|(name, v)| match (name, v) {
        ("ttl_ms", ParamValue::Number(n)) => Some(n),
        _ => None,
    });
    // The design's first comparison row: its own choice of values and of how many nodes.
    let rows = kind.rows(ttl.unwrap_or(1_000));
    let typical = rows.first();
    let (design, given) = built(kind, old, typical)?;
    let mut notes = Vec::new();
    let mut doc = doc.clone();
    set_lock(&mut doc, tag, &given, kind, &mut notes);
    let mut scenario = scenario.clone();
    let fit = Fit { kind, design: &*design, typical };
    fit.services(&mut doc, &mut scenario, &mut notes)?;
    fit.resources(&mut doc, &mut scenario, &mut notes)?;
    clients(&mut doc, &scenario, &*design, &mut notes);
    validate::load_doc(&doc)?;
    Ok((doc, notes))
}

/// Values for a design's parameters, by name.
type Given = Vec<(&'static str, ParamValue)>;

/// Returns the design `kind` builds from the `old` design's values carried over, and the values
/// given; or, if those do not fit together, the `typical` row's design and values.
fn built(kind: &dyn Kind, old: &Values, typical: Option<&Row>) -> Result<(Rc<dyn Design>, Given), ScenarioError> {
    let given: Given = kind.params().iter().filter_map(|p| Some((p.name, carried(p, old, typical.map(|t| t.design.values()))?))).collect();
    // Values carried over may not fit together in the new design; its own choice always does.
    match (kind.build(&Values::new(kind.params(), &given)?), typical) {
        (Ok(design), _) => Ok((design, given)),
        (Err(_), Some(typical)) => Ok((typical.design.clone(), typical.design.values().iter().collect())),
        (Err(e), None) => Err(e),
    }
}

/// Sets the document's lock to the design tagged `tag` with the values `given`, and drops the
/// lesson's own statement of guarantees.
fn set_lock(doc: &mut Value, tag: &str, given: &[(&str, ParamValue)], kind: &dyn Kind, notes: &mut Vec<String>) {
    let mut lock = vec![("design".to_string(), text(tag))];
    for (name, v) in given {
        match v {
            ParamValue::Number(n) => lock.push((name.to_string(), Value::Number(n.to_string()))),
            ParamValue::Flag(b) => lock.push((name.to_string(), Value::Bool(*b))),
            ParamValue::Choice(c) => lock.push((name.to_string(), text(c))),
            ParamValue::Absent => {}
        }
    }
    if let Value::Object(top) = doc {
        put(top, "lock", Value::Object(lock));
        if let Some(at) = top.iter().position(|(k, _)| k == "guarantees") {
            top.remove(at);
            notes.push(format!("The lesson's own statement of guarantees is dropped; {}'s apply.", kind.title()));
        }
    }
}

/// Removes participant `i` from both the document and the scenario.
fn remove(doc: &mut Value, scenario: &mut Scenario, i: usize) -> Result<(), ScenarioError> {
    *doc = without_participant(doc, scenario, i).ok_or_else(|| ScenarioError::new("participants", "a participant could not be removed"))?;
    scenario.participants.remove(i);
    Ok(())
}

/// The design a scenario is switched to, to fit its lock services and resources to.
struct Fit<'a> {
    kind: &'a dyn Kind,
    design: &'a dyn Design,
    typical: Option<&'a Row>,
}

impl Fit<'_> {
    /// Keeps as many lock services as there are if the design runs on that many and at least as
    /// many as it typically does (Redlock: five masters); otherwise its typical number.
    fn services(&self, doc: &mut Value, scenario: &mut Scenario, notes: &mut Vec<String>) -> Result<(), ScenarioError> {
        let (kind, design) = (self.kind, self.design);
        let count = design.services().count;
        let services: Vec<usize> = scenario
            .participants
            .iter()
            .enumerate()
            .filter(|(_, p)| matches!(p, Participant::LockService { .. }))
            .map(|(i, _)| i)
            .collect();
        let usual = self.typical.map_or(*count.start(), |t| t.services);
        let wanted = if count.contains(&services.len()) && services.len() >= usual { services.len() } else { usual };
        for &i in services.iter().skip(wanted).rev() {
            notes.push(format!("{} is removed: {} runs on {}.", scenario.participants[i].name(), kind.title(), design.services().what));
            remove(doc, scenario, i)?;
        }
        for n in services.len()..wanted {
            let id =
                (1..).map(|k| format!("L{}", n + k)).find(|id| !scenario.participants.iter().any(|p| p.id() == id)).unwrap_or_default();
            let service = Value::Object(vec![
                ("role".into(), text("lock_service")),
                ("id".into(), text(&id)),
                ("name".into(), text(&format!("Lock service {}", n + 1))),
            ]);
            insert_participant(doc, service);
            notes.push(format!("Lock service {} is added: {} runs on {}.", n + 1, kind.title(), design.services().what));
        }
        Ok(())
    }

    /// Puts the protected data where the design keeps it: in the lock service, or one resource.
    fn resources(&self, doc: &mut Value, scenario: &mut Scenario, notes: &mut Vec<String>) -> Result<(), ScenarioError> {
        let resources: Vec<usize> =
            scenario.participants.iter().enumerate().filter(|(_, p)| matches!(p, Participant::Resource { .. })).map(|(i, _)| i).collect();
        if self.design.data_in_service() {
            for &i in resources.iter().rev() {
                notes.push(format!(
                    "{} is removed: with {}, the data lives in the lock service.",
                    scenario.participants[i].name(),
                    self.kind.title()
                ));
                remove(doc, scenario, i)?;
            }
        } else if resources.is_empty() {
            let resource = [("role", "resource"), ("id", "R"), ("name", "Protected resource"), ("mode", "unfenced")];
            insert_participant(doc, Value::Object(resource.iter().map(|(k, v)| (k.to_string(), text(v))).collect()));
            notes.push("A protected resource is added; it checks nothing (unfenced) until you change it.".into());
        }
        Ok(())
    }
}

fn insert_participant(doc: &mut Value, p: Value) {
    if let Value::Object(top) = doc {
        if let Some((_, Value::Array(items))) = top.iter_mut().find(|(k, _)| k == "participants") {
            items.push(p);
        }
    }
}

/// Fits the clients' scripts to the design: releases in a mode it offers, no lock steps without
/// a lock, no renewal where it has none.
fn clients(doc: &mut Value, scenario: &Scenario, design: &dyn Design, notes: &mut Vec<String>) {
    let modes = design.release_modes();
    let Some(Value::Array(items)) = get_mut(doc, "participants") else { return };
    for (item, p) in items.iter_mut().zip(&scenario.participants) {
        let (Participant::Client { name, .. }, Value::Object(members)) = (p, item) else { continue };
        if design.script_renewal().is_err() && members.iter().any(|(k, _)| k == "renew") {
            members.retain(|(k, _)| k != "renew");
            notes.push(format!("{name} no longer renews: {}.", design.script_renewal().err().unwrap_or_default()));
        }
        let Some((_, Value::Array(steps))) = members.iter_mut().find(|(k, _)| k == "script") else { continue };
        let before = steps.len();
        if modes.is_empty() {
            steps.retain(|s| !matches!(get(s, "step"), Some(Value::String(k)) if k == "acquire" || k == "release"));
        }
        if steps.len() < before {
            notes.push(format!("{name}'s script loses its acquire and release: there is no lock."));
        }
        for step in steps.iter_mut() {
            let Value::Object(fields) = step else { continue };
            let mode = fields.iter_mut().find(|(k, _)| k == "mode").map(|(_, v)| v);
            if let (Some(Value::String(m)), Some(first)) = (mode, modes.first()) {
                if !modes.iter().any(|x| x.tag() == m) {
                    notes.push(format!("{name} now releases with `{}`: {} has no `{m}` release.", first.tag(), design.kind().title()));
                    *m = first.tag().to_string();
                }
            }
        }
    }
}

/// Finds a top-level field of a document, to change it.
fn get_mut<'v>(doc: &'v mut Value, name: &str) -> Option<&'v mut Value> {
    let Value::Object(top) = doc else { return None };
    top.iter_mut().find(|(k, _)| k == name).map(|(_, v)| v)
}

/// The scenario a blank one starts from: two clients that each take the lock, write and release,
/// one lock service, an unchecked resource, no faults. [`blank`] fits it to a design.
const BLANK: &str = r#"{"version": 1, "id": "new", "title": "A new scenario", "topic": "Your scenario",
 "intro": "Two clients take turns with the lock and write to the resource. Change the numbers, add faults, and watch what happens.",
 "takeaway": "", "seed": 1, "lock": {"design": "lease", "ttl_ms": 1000, "first_token": 1},
 "participants": [
  {"role": "client", "id": "A", "name": "Client A", "script": [{"step": "acquire"}, {"step": "work", "ms": 100}, {"step": "write", "value": "A"}, {"step": "release", "mode": "safe"}]},
  {"role": "lock_service", "id": "L", "name": "Lock service"},
  {"role": "resource", "id": "R", "name": "Protected resource", "mode": "unfenced"},
  {"role": "client", "id": "B", "name": "Client B", "start_ms": 20, "script": [{"step": "acquire"}, {"step": "work", "ms": 100}, {"step": "write", "value": "B"}, {"step": "release", "mode": "safe"}]}
 ]}"#;

/// Returns a blank scenario for the design tagged `tag`, and what fitting it to the design
/// changed.
pub fn blank(tag: &str) -> Result<(Value, Vec<String>), ScenarioError> {
    let doc = json::parse(BLANK)?;
    let (scenario, _) = validate::load_doc(&doc)?;
    let (doc, notes) = switch(&doc, &scenario, tag)?;
    let (scenario, _) = validate::load_doc(&doc)?;
    Ok((super::start::editable(&doc, &scenario), notes))
}
