//! Helpers shared by the integration tests: run a lesson and summarise its writes and findings.

#![allow(dead_code)]

use lockstep::engine::{self, EventKind, FindingKind, Trace};
use lockstep::scenario::lessons;

/// Runs a preset lesson by id.
pub fn run_lesson(id: &str) -> Trace {
    let lesson = lessons::find(id).expect("lesson exists");
    engine::run(&lesson.spec).expect("lesson runs")
}

/// Runs scenario JSON.
pub fn run_json(json: &str) -> Trace {
    let (_, spec) = lockstep::scenario::load(json).expect("scenario is valid");
    engine::run(&spec).expect("scenario runs")
}

/// One write as the resource judged it: (true ms, writer, token, value, Ok(version) or Err(reason)).
pub type Write = (u64, String, u64, String, Result<u64, String>);

/// Lists every write the resource judged, in order.
pub fn writes(trace: &Trace) -> Vec<Write> {
    trace
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::WriteAccepted { writer, token, value, version } => {
                Some((e.at_ms, trace.name(*writer).to_string(), *token, value.clone(), Ok(*version)))
            }
            EventKind::WriteRejected { writer, token, value, reason } => {
                Some((e.at_ms, trace.name(*writer).to_string(), *token, value.clone(), Err(reason.clone())))
            }
            _ => None,
        })
        .collect()
}

/// Lists the findings as (kind, true ms).
pub fn findings(trace: &Trace) -> Vec<(FindingKind, u64)> {
    trace.verdict.findings.iter().map(|f| (f.kind, f.at_ms)).collect()
}

/// Lists lease grants as (true ms, holder, token).
pub fn grants(trace: &Trace) -> Vec<(u64, String, u64)> {
    trace
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::LeaseGranted { token, holder, .. } => Some((e.at_ms, trace.name(*holder).to_string(), *token)),
            _ => None,
        })
        .collect()
}

/// Lists lease endings as (true ms, token, how).
pub fn lease_ends(trace: &Trace) -> Vec<(u64, u64, String)> {
    trace
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::LeaseEnded { token, how, .. } => Some((e.at_ms, *token, format!("{how:?}"))),
            _ => None,
        })
        .collect()
}

/// An accepted write, as [`writes`] lists it.
pub fn ok(at: u64, who: &str, token: u64, value: &str, version: u64) -> Write {
    (at, who.into(), token, value.into(), Ok(version))
}

/// A rejected write, as [`writes`] lists it.
pub fn rejected(at: u64, who: &str, token: u64, value: &str, reason: &str) -> Write {
    (at, who.into(), token, value.into(), Err(reason.into()))
}

/// Lists (true ms, holder, token) for every grant, with the holder's name.
pub fn grants_named(trace: &Trace) -> Vec<(u64, &str, u64)> {
    trace
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::LeaseGranted { token, holder, .. } => Some((e.at_ms, trace.name(*holder), *token)),
            _ => None,
        })
        .collect()
}

/// The digest of the 1,000-event stress run's text trace (seeded latency, jitter and retries),
/// the same natively and in the browser; update it when the engine's behaviour changes on purpose.
pub const STRESS_1000_DIGEST: u64 = 14_151_993_470_775_420_572;

/// FNV-1a over a trace's text: a fixed fingerprint to compare runs across platforms.
pub fn digest(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// Runs the 1,000-event stress scenario and returns the digest of its text trace.
pub fn stress_1000_digest() -> u64 {
    let (_, spec) = lockstep::scenario::stress::stress(1_000).unwrap();
    digest(&engine::run(&spec).unwrap().to_text())
}
