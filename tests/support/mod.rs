//! Helpers shared by the integration tests: run a lesson and summarise its writes and findings.

#![allow(dead_code)]

use lockstep::design::Design;
use lockstep::engine::event::EventKind;
use lockstep::engine::{self, FindingKind, Trace};
use lockstep::present::Words;
use lockstep::scenario::lessons;
use std::ops::Deref;
use std::rc::Rc;

/// A finished run and the design it ran, so it can be put in words.
pub struct Ran {
    pub trace: Trace,
    pub design: Rc<dyn Design>,
}

impl Ran {
    /// Returns the run's words.
    pub fn words(&self) -> Words<'_> {
        Words::new(&self.trace, &*self.design)
    }

    /// Returns the narration of every event, in order.
    pub fn narration(&self) -> Vec<String> {
        (0..self.trace.events.len()).map(|i| self.words().narrate(i)).collect()
    }
}

impl Deref for Ran {
    type Target = Trace;
    fn deref(&self) -> &Trace {
        &self.trace
    }
}

/// Runs a preset lesson by id.
pub fn run_lesson(id: &str) -> Ran {
    let lesson = lessons::find(id).expect("lesson exists");
    Ran { trace: engine::run(&lesson.spec).expect("lesson runs"), design: lesson.scenario.lock.design }
}

/// Runs scenario JSON.
pub fn run_json(json: &str) -> Ran {
    let (scenario, spec) = lockstep::scenario::load(json).expect("scenario is valid");
    Ran { trace: engine::run(&spec).expect("scenario runs"), design: scenario.lock.design }
}

/// One write as the resource judged it: (true ms, writer, token, value, Ok(version) or Err(reason)).
pub type Write = (u64, String, u64, String, Result<u64, String>);

/// Lists every write the resource judged, in order, with rejections in the design's words.
pub fn writes(ran: &Ran) -> Vec<Write> {
    let words = ran.words();
    ran.events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::WriteAccepted { writer, token, value, version } => {
                Some((e.at_ms.as_ms(), ran.name(*writer).to_string(), *token, value.to_string(), Ok(*version)))
            }
            EventKind::WriteRejected { writer, token, value, reason } => {
                Some((e.at_ms.as_ms(), ran.name(*writer).to_string(), *token, value.to_string(), Err(words.rejection(reason))))
            }
            _ => None,
        })
        .collect()
}

/// Lists the findings as (kind, true ms).
pub fn findings(trace: &Trace) -> Vec<(FindingKind, u64)> {
    trace.verdict.findings.iter().map(|f| (f.kind(), f.at_ms.as_ms())).collect()
}

/// Lists lock grants as (true ms, holder, token).
pub fn grants(trace: &Trace) -> Vec<(u64, String, u64)> {
    grants_named(trace).into_iter().map(|(at, who, token)| (at, who.to_string(), token)).collect()
}

/// Lists lock endings as (true ms, token, how).
pub fn lease_ends(trace: &Trace) -> Vec<(u64, u64, String)> {
    trace
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::LockEnded { token, how, .. } => Some((e.at_ms.as_ms(), *token, format!("{how:?}"))),
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
            EventKind::LockGranted { token, holder, .. } => Some((e.at_ms.as_ms(), trace.name(*holder), *token)),
            _ => None,
        })
        .collect()
}

/// The digest of the 1,000-event stress run's text trace (seeded latency, jitter and retries),
/// the same natively and in the browser; update it when the engine's behaviour changes on purpose.
pub const STRESS_1000_DIGEST: u64 = 637_554_474_239_293_073;

/// FNV-1a over a trace's text: a fixed fingerprint to compare runs across platforms.
pub fn digest(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// Runs the 1,000-event stress scenario and returns the digest of its text trace.
pub fn stress_1000_digest() -> u64 {
    let (scenario, spec) = lockstep::scenario::stress::stress(1_000).unwrap();
    let trace = engine::run(&spec).unwrap();
    digest(&Words::new(&trace, &*scenario.lock.design).to_text())
}
