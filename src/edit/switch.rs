//! Switching a scenario to another lock design while keeping its clients, resource and faults
//! where they still make sense, and saying what changed when they do not; and a blank scenario
//! for any design.

use super::start::without_participant;
use crate::design::{self, Design, Kind, ParamKind, ParamValue, Row, Values};
use crate::engine::spec::{ResourceMode, Step};
use crate::error::ScenarioError;
use crate::scenario::format::{ClockSpec, LockChoice, Participant, Scenario};
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

/// Returns `scenario` switched to the design tagged `tag`, and a sentence for each thing that
/// had to change; or why it cannot run that way.
pub fn switch(scenario: &Scenario, tag: &str) -> Result<(Scenario, Vec<String>), ScenarioError> {
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
    let mut s = scenario.clone();
    s.lock = LockChoice::new(kind, Values::new(kind.params(), &given)?)?;
    if s.guarantees.take().is_some() {
        notes.push(format!("The lesson's own statement of guarantees is dropped; {}'s apply.", kind.title()));
    }
    let fit = Fit { kind, design: &*design, typical };
    fit.services(&mut s, &mut notes);
    fit.resources(&mut s, &mut notes);
    clients(&mut s, &*design, &mut notes);
    validate::compile(&s)?;
    Ok((s, notes))
}

/// Values for a design's parameters, by name.
type Given = Vec<(&'static str, ParamValue)>;

/// Returns the design `kind` builds from the `old` design's values carried over, and the values
/// given; or, if those do not fit together, the `typical` row's design and values.
fn built(kind: &dyn Kind, old: &Values, typical: Option<&Row>) -> Result<(Rc<dyn Design>, Given), ScenarioError> {
    let mut given = Given::new();
    for p in kind.params() {
        if let Some(v) = carried(p, old, typical.map(|t| t.design.values())) {
            given.push((p.name, v));
        }
    }
    // Values carried over may not fit together in the new design; its own choice always does.
    match (kind.build(&Values::new(kind.params(), &given)?), typical) {
        (Ok(design), _) => Ok((design, given)),
        (Err(_), Some(typical)) => Ok((typical.design.clone(), typical.design.values().iter().collect())),
        (Err(e), None) => Err(e),
    }
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
    fn services(&self, scenario: &mut Scenario, notes: &mut Vec<String>) {
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
            *scenario = without_participant(scenario, i).unwrap_or_else(|| scenario.clone());
        }
        for n in services.len()..wanted {
            let id =
                (1..).map(|k| format!("L{}", n + k)).find(|id| !scenario.participants.iter().any(|p| p.id() == id)).unwrap_or_default();
            let name = format!("Lock service {}", n + 1);
            scenario.participants.push(Participant::LockService { id, name, clock: ClockSpec::default() });
            notes.push(format!("Lock service {} is added: {} runs on {}.", n + 1, kind.title(), design.services().what));
        }
    }

    /// Puts the protected data where the design keeps it: in the lock service, or one resource.
    fn resources(&self, scenario: &mut Scenario, notes: &mut Vec<String>) {
        let resources: Vec<usize> =
            scenario.participants.iter().enumerate().filter(|(_, p)| matches!(p, Participant::Resource { .. })).map(|(i, _)| i).collect();
        if self.design.data_in_service() {
            for &i in resources.iter().rev() {
                notes.push(format!(
                    "{} is removed: with {}, the data lives in the lock service.",
                    scenario.participants[i].name(),
                    self.kind.title()
                ));
                *scenario = without_participant(scenario, i).unwrap_or_else(|| scenario.clone());
            }
        } else if resources.is_empty() {
            let (id, name) = ("R".to_string(), "Protected resource".to_string());
            scenario.participants.push(Participant::Resource { id, name, clock: ClockSpec::default(), mode: ResourceMode::Unfenced });
            notes.push("A protected resource is added; it checks nothing (unfenced) until you change it.".into());
        }
    }
}

/// Fits the clients' scripts to the design: releases in a mode it offers, no lock steps without
/// a lock, no renewal where it has none.
fn clients(s: &mut Scenario, design: &dyn Design, notes: &mut Vec<String>) {
    let modes = design.release_modes();
    for p in &mut s.participants {
        let Participant::Client { name, script, renew, .. } = p else { continue };
        if let (Some(_), Err(why)) = (&renew, design.script_renewal()) {
            *renew = None;
            notes.push(format!("{name} no longer renews: {why}."));
        }
        let before = script.len();
        if modes.is_empty() {
            script.retain(|step| !matches!(step, Step::Acquire | Step::Release { .. }));
        }
        if script.len() < before {
            notes.push(format!("{name}'s script loses its acquire and release: there is no lock."));
        }
        for step in script.iter_mut() {
            if let (Step::Release { mode }, Some(first)) = (step, modes.first()) {
                if !modes.contains(mode) {
                    notes.push(format!(
                        "{name} now releases with `{}`: {} has no `{}` release.",
                        first.tag(),
                        design.kind().title(),
                        mode.tag()
                    ));
                    *mode = *first;
                }
            }
        }
    }
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
pub fn blank(tag: &str) -> Result<(Scenario, Vec<String>), ScenarioError> {
    switch(&validate::parse(BLANK)?, tag)
}
