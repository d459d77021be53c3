//! A scenario value written back as its document, for runs that come from no file (the cells of
//! the comparison table): reading the document gives the same scenario.

use crate::design::{LockKind, Value as ParamValue};
use crate::engine::spec::{RenewFailure, Step};
use crate::scenario::format::{ClockSpec, Fault, Participant, Probability, Scenario, RESOURCE_MODES};
use crate::scenario::json::Value;

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

fn step(s: &Step) -> Value {
    let kind = |k: &str| ("step", text(k));
    object(match s {
        Step::Acquire => vec![kind("acquire")],
        Step::Work { ms } => vec![kind("work"), ("ms", number(ms))],
        Step::Read => vec![kind("read")],
        Step::Check { margin_ms } => vec![kind("check"), ("margin_ms", number(margin_ms))],
        Step::Write { value } => vec![kind("write"), ("value", text(value))],
        Step::Release { mode } => vec![kind("release"), ("mode", text(mode.tag()))],
    })
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
                let on_failure = text(if r.on_failure == RenewFailure::Abort { "abort" } else { "carry_on" });
                fields.push(("renew", object(vec![("every_ms", number(r.every_ms)), ("on_failure", on_failure)])));
            }
            fields
        }
        Participant::LockService { .. } => head("lock_service"),
        Participant::Resource { mode, .. } => {
            let mut fields = head("resource");
            fields.push(("mode", text(RESOURCE_MODES.iter().find(|(_, m)| m == mode).map_or("unfenced", |(n, _)| n))));
            fields
        }
    })
}

fn fault(f: &Fault) -> Value {
    let head = |kind: &str, at_ms: &i64| vec![("fault", text(kind)), ("at_ms", number(at_ms))];
    object(match f {
        Fault::Pause { at_ms, node, for_ms } => [head("pause", at_ms), vec![("node", text(node)), ("for_ms", number(for_ms))]].concat(),
        Fault::Crash { at_ms, node } => [head("crash", at_ms), vec![("node", text(node))]].concat(),
        Fault::Restart { at_ms, node, keep_state } => {
            [head("restart", at_ms), vec![("node", text(node)), ("keep_state", Value::Bool(*keep_state))]].concat()
        }
        Fault::Promote { at_ms, node } => [head("promote", at_ms), vec![("node", text(node))]].concat(),
        Fault::ClockJump { at_ms, node, by_ms } => {
            [head("clock_jump", at_ms), vec![("node", text(node)), ("by_ms", number(by_ms))]].concat()
        }
        Fault::Partition { at_ms, from, to, two_way, for_ms } => [
            head("partition", at_ms),
            vec![("from", ids(from)), ("to", ids(to)), ("two_way", Value::Bool(*two_way)), ("for_ms", number(for_ms))],
        ]
        .concat(),
        Fault::Delay { at_ms, from, to, extra_ms, for_ms } => {
            [head("delay", at_ms), vec![("from", text(from)), ("to", text(to)), ("extra_ms", number(extra_ms)), ("for_ms", number(for_ms))]]
                .concat()
        }
        Fault::DropMessage { at_ms, from, to } => [head("drop_message", at_ms), vec![("from", text(from)), ("to", text(to))]].concat(),
        Fault::DelayMessage { at_ms, from, to, extra_ms } => {
            [head("delay_message", at_ms), vec![("from", text(from)), ("to", text(to)), ("extra_ms", number(extra_ms))]].concat()
        }
    })
}

/// Returns the document that reads as `s`.
pub fn written(s: &Scenario) -> Value {
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
        let kind = match g.lock {
            LockKind::Efficiency => "efficiency",
            LockKind::Correctness => "correctness",
            LockKind::None => "none",
        };
        let fields =
            vec![("lock", text(kind)), ("safety", text(&g.safety)), ("liveness", text(&g.liveness)), ("assumes", text(&g.assumes))];
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
