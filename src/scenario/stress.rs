//! A generated contention scenario of about a chosen size: two to ten clients with renewals taking
//! turns on one fenced lease. Used by the benchmarks and the `#/stress/N` page.

use super::format::{ClockSpec, Limits, LockChoice, Network, Participant};
use super::validate::{compile, ScenarioError, VERSION};
use super::Scenario;
use crate::design::{self, Kind, ParamValue, Values};
use crate::engine::msg::ReleaseMode;
use crate::engine::spec::{AcquirePolicy, Latency, RenewFailure, RenewPolicy, ResourceMode, Spec, Step};
use crate::limits::{MAX_EVENTS, MAX_STRESS_EVENTS, MAX_TIME_MS};
use crate::present::generated;

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
    let client = |i: u64| Participant::Client {
        id: format!("C{i}"),
        name: generated::client(&i.to_string()),
        clock: ClockSpec::default(),
        start_ms: i as i64 * 10,
        script: vec![
            Step::Acquire,
            Step::Work { ms: hold_ms },
            Step::Write { value: format!("c{i}").into(), to: None },
            Step::Release { mode: ReleaseMode::Safe },
        ],
        acquire: AcquirePolicy { retry_ms: 1_000, jitter_ms: 500, max_attempts: 10_000, timeout_ms: 500 },
        renew: Some(RenewPolicy { every_ms: 300, on_failure: RenewFailure::Abort }),
    };
    let lease = &design::lease::Lease;
    let values = Values::new(lease.params(), &[("ttl_ms", ParamValue::Number(1_000)), ("first_token", ParamValue::Number(1))])?;
    let mut participants = vec![
        Participant::LockService { id: "L".into(), name: generated::LOCK_SERVICE.into(), clock: ClockSpec::default() },
        Participant::Resource { id: "R".into(), name: generated::RESOURCE.into(), clock: ClockSpec::default(), mode: ResourceMode::Fenced },
    ];
    participants.extend((0..clients).map(client));
    let scenario = Scenario {
        version: VERSION,
        id: format!("stress-{events}"),
        title: generated::stress_title(clients as usize, events),
        topic: generated::STRESS_TOPIC.into(),
        intro: generated::STRESS_INTRO.into(),
        takeaway: String::new(),
        guarantees: None,
        seed: 1,
        lock: LockChoice::new(lease, values)?,
        participants,
        network: Network { latency_ms: Latency { min_ms: 1, max_ms: 10 }, ..Network::default() },
        faults: Vec::new(),
        limits: Limits { max_events: MAX_EVENTS as u64, max_time_ms: MAX_TIME_MS },
    };
    let spec = compile(&scenario)?;
    Ok((scenario, spec))
}
