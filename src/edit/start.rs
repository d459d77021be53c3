//! Where edits start: the faults, clients and steps new ones start as, and a scenario without a
//! participant.

use crate::engine::msg::ReleaseMode;
use crate::engine::spec::{AcquirePolicy, Step};
use crate::scenario::faults::{fault_decl, Hits};
use crate::scenario::field::{FieldKind, FieldValue};
use crate::scenario::format::{ClockSpec, Fault, Participant, Scenario};
use crate::scenario::steps::{self, step_kind};

/// Returns a new fault of the kind tagged `tag` for `scenario` at `at_ms` (the page uses the
/// cursor's time, so a run forks from where it is, or the time clicked on the diagram), its other
/// fields at their starting values: on participant `on` if given, else on whom its kind targets
/// (the first client, or the first lock service). A fault on a link goes from `on` or the first
/// client to the first participant of the other sort (a client's goes to a service or the
/// resource, anyone else's to the first client). `None` for an unknown tag or a scenario without
/// such a participant.
pub fn fault(tag: &str, scenario: &Scenario, at_ms: u64, on: Option<&str>) -> Option<Fault<String>> {
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
    Some(Fault::from_values(kind, values))
}

/// Returns a new script step of the kind tagged `tag` with its field at its starting value (a
/// release gives the lock back in `mode`); `None` for an unknown tag.
pub fn step(tag: &str, mode: ReleaseMode) -> Option<Step> {
    let kind = step_kind(tag)?;
    let values = kind.fields.iter().map(|f| f.start().unwrap_or(FieldValue::Release(mode))).collect();
    Some(steps::from_values(kind, values))
}

/// Returns a new client for `scenario`: the first free one-letter id, starting at `at_ms`, with
/// the first client's script.
pub fn client(scenario: &Scenario, at_ms: u64) -> Participant {
    let taken = |id: &str| scenario.participants.iter().any(|p| p.id() == id);
    let id = ('A'..='Z').map(String::from).find(|id| !taken(id)).unwrap_or_else(|| format!("C{}", scenario.participants.len()));
    let script = scenario.participants.iter().find_map(|p| match p {
        Participant::Client { script, .. } => Some(script.clone()),
        _ => None,
    });
    Participant::Client {
        name: crate::present::generated::client(&id),
        id,
        clock: ClockSpec::default(),
        start_ms: i64::try_from(at_ms).unwrap_or(i64::MAX),
        script: script.unwrap_or_default(),
        acquire: AcquirePolicy::default(),
        renew: None,
    }
}

/// Returns `scenario` without participant `i` and without what names it in the faults: a fault
/// on it goes, and a partition loses it from its sides (and goes if a side is left empty).
pub fn without_participant(scenario: &Scenario, i: usize) -> Option<Scenario> {
    let mut s = scenario.clone();
    let id = s.participants.get(i)?.id().to_string();
    s.participants.remove(i);
    s.faults.retain_mut(|fault| keeps(fault, &id));
    Some(s)
}

/// Takes `id` out of a fault's sides; returns whether the fault still names anyone.
fn keeps(fault: &mut Fault<String>, id: &str) -> bool {
    if let Fault::Partition { from, to, .. } = fault {
        from.retain(|x| x != id);
        to.retain(|x| x != id);
        return !from.is_empty() && !to.is_empty();
    }
    fault.try_map(|_, _, named| if named == id { Err(()) } else { Ok(()) }).is_ok()
}
