//! A generated contention scenario of about a chosen size: two to ten clients with renewals taking
//! turns on one fenced lease. Used by the benchmarks and the `#/stress/N` page.

use super::validate::{load, ScenarioError};
use super::Scenario;
use crate::engine::spec::Spec;
use crate::present::number::group_u;

/// The largest stress run the page offers.
pub const MAX_STRESS_EVENTS: u64 = 200_000;

/// Builds the stress scenario sized for roughly `events` trace events (100 ..= 200,000).
///
/// The hold time is found by running the engine twice and interpolating, since retries and
/// renewals make the event count an affine function of it.
pub fn stress(events: u64) -> Result<(Scenario, Spec), ScenarioError> {
    if !(100..=MAX_STRESS_EVENTS).contains(&events) {
        return Err(ScenarioError {
            path: "stress".into(),
            problem: format!("size must be between 100 and {MAX_STRESS_EVENTS} events, got {events}"),
        });
    }
    let clients = (events / 1_000).clamp(2, 10);
    let count = |hold_ms: u64| -> Result<u64, ScenarioError> {
        let (_, spec) = build(events, clients, hold_ms)?;
        Ok(crate::engine::run(&spec).map_or(0, |t| t.events.len() as u64))
    };
    let probe_ms = 10_000;
    let (base, probe) = (count(0)?, count(probe_ms)?);
    let hold_ms = events.saturating_sub(base) * probe_ms / probe.saturating_sub(base).max(1);
    build(events, clients, hold_ms)
}

fn build(events: u64, clients: u64, hold_ms: u64) -> Result<(Scenario, Spec), ScenarioError> {
    let clients: Vec<String> = (0..clients)
        .map(|i| {
            format!(
                r#"{{ "role": "client", "id": "C{i}", "name": "Client {i}", "start_ms": {start},
                  "acquire": {{ "retry_ms": 1000, "jitter_ms": 500, "max_attempts": 10000, "timeout_ms": 500 }},
                  "renew": {{ "every_ms": 300, "on_failure": "abort" }},
                  "script": [ {{ "step": "acquire" }}, {{ "step": "work", "ms": {hold_ms} }},
                              {{ "step": "write", "value": "c{i}" }}, {{ "step": "release", "mode": "safe" }} ] }}"#,
                start = i * 10
            )
        })
        .collect();
    let about = group_u(events);
    let json = format!(
        r#"{{ "version": 1, "id": "stress-{events}", "title": "{n} clients contending (about {about} events)",
             "topic": "Stress", "intro": "Clients take turns on one lease, renewing every 300 ms while they hold it; the others retry.",
             "seed": 1, "lock": {{ "design": "lease", "ttl_ms": 1000, "first_token": 1 }},
             "network": {{ "latency_ms": {{ "min_ms": 1, "max_ms": 10 }} }},
             "limits": {{ "max_events": 1000000, "max_time_ms": 604800000 }},
             "participants": [ {{ "role": "lock_service", "id": "L", "name": "Lock service" }},
                               {{ "role": "resource", "id": "R", "name": "Resource", "mode": "fenced" }},
                               {clients} ] }}"#,
        n = clients.len(),
        clients = clients.join(",")
    );
    load(&json)
}
