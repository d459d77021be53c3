//! The checker: safety properties evaluated over a finished trace, recorded as data.
//!
//! - a write accepted from a client whose lease had already ended at the lock service;
//! - a lost update: an accepted write overwrote data written under a newer lease, or data changed
//!   since the writer read the version its write was based on;
//! - two clients believing they hold the lock at once (a hazard, even when fencing saves the data);
//! - a write rejected by the resource (the defence working).

use super::holdings::{Change, Holdings};
use super::ids::NodeId;
use super::msg::{lease_name, ms, token_name, Msg};
use super::trace::{Event, EventKind};
use serde::Serialize;
use std::collections::BTreeMap;

/// What a finding says about the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    StaleWriteAccepted,
    LostUpdate,
    TwoHolders,
    StaleWriteRejected,
}

impl FindingKind {
    /// Says whether this finding makes the run unsafe.
    pub fn is_violation(self) -> bool {
        matches!(self, FindingKind::StaleWriteAccepted | FindingKind::LostUpdate)
    }

    /// Returns a short human label.
    pub fn label(self) -> &'static str {
        match self {
            FindingKind::StaleWriteAccepted => "stale write accepted",
            FindingKind::LostUpdate => "lost update",
            FindingKind::TwoHolders => "two holders",
            FindingKind::StaleWriteRejected => "write rejected",
        }
    }
}

/// One property result, tied to the event that proves it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub kind: FindingKind,
    /// Index of the proving event in the trace.
    pub event: usize,
    pub at_ms: u64,
    pub text: String,
}

/// The run's verdict and every finding behind it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub safe: bool,
    pub findings: Vec<Finding>,
}

impl Verdict {
    /// Returns the findings of one kind.
    pub fn of(&self, kind: FindingKind) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(move |f| f.kind == kind)
    }

    /// Renders the verdict as text lines for the trace's text form.
    pub fn to_text(&self) -> String {
        let mut out = format!("verdict: {}\n", if self.safe { "SAFE" } else { "UNSAFE" });
        for f in &self.findings {
            out.push_str(&format!("  [{}] #{} at {}: {}\n", f.kind.label(), f.event, ms(f.at_ms), f.text));
        }
        out
    }
}

/// Evaluates every property over a trace. `names` are the participants' display names; a client
/// holds the lock while `quorum` lock-service nodes hold its key. With `quorum` 0 there is no
/// lock, so no write can be stale; only lost updates and rejections are found.
///
/// Holders are ordered by when they gained the lock, so designs without a fencing token
/// (every token 0) are judged the same way as those with one.
pub fn check(events: &[Event], names: &[String], quorum: usize) -> Verdict {
    let mut holdings = Holdings::new(quorum);
    let mut latest_grant: BTreeMap<NodeId, u64> = BTreeMap::new();
    let mut grants = 0u64;
    let mut believers: BTreeMap<NodeId, u64> = BTreeMap::new();
    // The grant order and token under which the current data was written.
    let mut data: Option<(u64, u64)> = None;
    // The version each resource's write in progress was based on, if the writer read one.
    let mut based_on: BTreeMap<NodeId, Option<u64>> = BTreeMap::new();
    let mut findings = Vec::new();
    let mut find = |kind, i: usize, text: String| findings.push(Finding { kind, event: i, at_ms: events[i].at_ms, text });
    for (i, e) in events.iter().enumerate() {
        for change in holdings.apply(e) {
            if let Change::Gained { holder, .. } = change {
                grants += 1;
                latest_grant.insert(holder, grants);
            }
        }
        match &e.kind {
            EventKind::BeliefStart { token, .. } => {
                if let Some((other, their)) = believers.iter().find(|(n, _)| **n != e.node) {
                    let text = format!(
                        "{} ({}) and {} ({}) both believe they hold the lock",
                        names[e.node.0],
                        token_name(*token),
                        names[other.0],
                        token_name(*their)
                    );
                    find(FindingKind::TwoHolders, i, text);
                }
                believers.insert(e.node, *token);
            }
            EventKind::BeliefEnd { .. } => {
                believers.remove(&e.node);
            }
            EventKind::Deliver { msg: Msg::Write { expected_version, .. }, .. } => {
                based_on.insert(e.node, *expected_version);
            }
            EventKind::WriteAccepted { writer, token, version, .. } => {
                let who = &names[writer.0];
                if quorum > 0 && holdings.token_of(*writer) != Some(*token) {
                    find(FindingKind::StaleWriteAccepted, i, format!("{who}'s write ({}) was accepted after {} had ended", token_name(*token), lease_name(*token)));
                }
                let order = latest_grant.get(writer).copied().unwrap_or(0);
                let read = based_on.remove(&e.node).flatten();
                if let Some((_, newer)) = data.filter(|d| d.0 > order) {
                    find(FindingKind::LostUpdate, i, format!("{who}'s write overwrote data written under a newer lease ({})", token_name(newer)));
                } else if let Some(read) = read.filter(|r| r + 1 < *version) {
                    let text = format!("{who}'s write was based on version {read}, but the data had changed since (it was at version {}): that update is lost", version - 1);
                    find(FindingKind::LostUpdate, i, text);
                }
                data = Some((order, *token));
            }
            EventKind::WriteRejected { token, reason, .. } => {
                find(FindingKind::StaleWriteRejected, i, format!("the write ({}) was rejected: {reason}", token_name(*token)));
            }
            _ => {}
        }
    }
    let safe = !findings.iter().any(|f| f.kind.is_violation());
    Verdict { safe, findings }
}
