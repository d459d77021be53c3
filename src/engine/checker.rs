//! The checker: safety properties evaluated over a finished trace, recorded as data.
//!
//! - a write accepted from a client whose lock had already ended at the lock service;
//! - a lost update: an accepted write overwrote data written under a newer grant, or data changed
//!   since the writer read the version its write was based on;
//! - two clients believing they hold the lock at once (a hazard, even when fencing saves the data);
//! - a write rejected by the resource (the defence working).

use super::event::{Event, EventKind};
use super::holdings::{Change, Holdings};
use super::ids::{NodeId, NodeMap};
use super::msg::{Msg, Rejection};
use serde::Serialize;

/// What a finding says about the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    StaleWriteAccepted,
    LostUpdate,
    TwoHolders,
    StaleWriteRejected,
    /// The resource refused the write of the client that holds the lock (a stale holder's
    /// higher token got there first).
    HolderWriteRejected,
}

impl FindingKind {
    /// Says whether this finding makes the run unsafe.
    pub fn is_violation(self) -> bool {
        match self {
            FindingKind::StaleWriteAccepted | FindingKind::LostUpdate => true,
            FindingKind::TwoHolders | FindingKind::StaleWriteRejected | FindingKind::HolderWriteRejected => false,
        }
    }
}

/// Why an accepted write lost an update.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "cause", rename_all = "snake_case")]
pub enum LostCause {
    /// It overwrote data written under a newer grant of the lock (under token `newer`).
    OverwroteNewer { newer: u64 },
    /// It was based on version `read`, but the data had moved on to version `found` since.
    ChangedSinceRead { read: u64, found: u64 },
}

/// What a finding found, with who and which token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Found {
    /// `writer`'s write under `token` was accepted after its lock had ended.
    StaleWriteAccepted {
        writer: NodeId,
        token: u64,
    },
    LostUpdate {
        writer: NodeId,
        cause: LostCause,
    },
    /// `client` (under `token`) came to believe it holds the lock while `other` (under
    /// `other_token`) still did.
    TwoHolders {
        client: NodeId,
        token: u64,
        other: NodeId,
        other_token: u64,
    },
    StaleWriteRejected {
        writer: NodeId,
        token: u64,
        reason: Rejection,
    },
    /// `writer` held the lock under `token`, and the resource refused its write all the same.
    HolderWriteRejected {
        writer: NodeId,
        token: u64,
        reason: Rejection,
    },
}

/// One property result, tied to the event that proves it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Index of the proving event in the trace.
    pub event: usize,
    pub at_ms: u64,
    pub found: Found,
}

impl Finding {
    /// Returns what kind of finding this is.
    pub fn kind(&self) -> FindingKind {
        match self.found {
            Found::StaleWriteAccepted { .. } => FindingKind::StaleWriteAccepted,
            Found::LostUpdate { .. } => FindingKind::LostUpdate,
            Found::TwoHolders { .. } => FindingKind::TwoHolders,
            Found::StaleWriteRejected { .. } => FindingKind::StaleWriteRejected,
            Found::HolderWriteRejected { .. } => FindingKind::HolderWriteRejected,
        }
    }
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
        self.findings.iter().filter(move |f| f.kind() == kind)
    }
}

/// Evaluates every property over a trace. A client holds the lock while `quorum` lock-service
/// nodes hold it for the client. With `quorum` 0 there is no lock, so no write can be stale;
/// only lost updates and rejections are found.
///
/// Holders are ordered by when they gained the lock, so designs without a fencing token
/// (every token 0) are judged the same way as those with one.
pub fn check(events: &[Event], quorum: usize) -> Verdict {
    let mut holdings = Holdings::new(quorum);
    let mut latest_grant: NodeMap<u64> = NodeMap::default();
    let mut grants = 0u64;
    let mut believers: NodeMap<u64> = NodeMap::default();
    // The grant order and token under which the current data was written.
    let mut data: Option<(u64, u64)> = None;
    // The version each resource's write in progress was based on, if the writer read one.
    let mut based_on: NodeMap<Option<u64>> = NodeMap::default();
    let mut findings = Vec::new();
    let mut find = |i: usize, found: Found| findings.push(Finding { event: i, at_ms: events[i].at_ms, found });
    for (i, e) in events.iter().enumerate() {
        for change in holdings.apply(e) {
            if let Change::Gained { holder, .. } = change {
                grants += 1;
                latest_grant.insert(holder, grants);
            }
        }
        match &e.kind {
            EventKind::BeliefStart { token, .. } => {
                if let Some((other, &other_token)) = believers.iter().find(|(n, _)| *n != e.node) {
                    find(i, Found::TwoHolders { client: e.node, token: *token, other, other_token });
                }
                believers.insert(e.node, *token);
            }
            EventKind::BeliefEnd { .. } => {
                believers.remove(e.node);
            }
            EventKind::Deliver { msg: Msg::Write { expected_version, .. }, .. } => {
                based_on.insert(e.node, *expected_version);
            }
            EventKind::WriteAccepted { writer, token, version, .. } => {
                let writer = *writer;
                if quorum > 0 && holdings.token_of(writer) != Some(*token) {
                    find(i, Found::StaleWriteAccepted { writer, token: *token });
                }
                let order = latest_grant.get(writer).copied().unwrap_or(0);
                let read = based_on.remove(e.node).flatten();
                if let Some((_, newer)) = data.filter(|d| d.0 > order) {
                    find(i, Found::LostUpdate { writer, cause: LostCause::OverwroteNewer { newer } });
                } else if let Some(read) = read.filter(|r| r + 1 < *version) {
                    find(i, Found::LostUpdate { writer, cause: LostCause::ChangedSinceRead { read, found: version - 1 } });
                }
                data = Some((order, *token));
            }
            EventKind::WriteRejected { writer, token, reason, .. } => {
                let (writer, token, reason) = (*writer, *token, reason.clone());
                if quorum > 0 && holdings.token_of(writer) == Some(token) {
                    find(i, Found::HolderWriteRejected { writer, token, reason });
                } else {
                    find(i, Found::StaleWriteRejected { writer, token, reason });
                }
            }
            EventKind::Send { .. }
            | EventKind::Deliver { .. }
            | EventKind::Drop { .. }
            | EventKind::PauseStart { .. }
            | EventKind::PauseEnd
            | EventKind::Crash
            | EventKind::Restart { .. }
            | EventKind::ClockJump { .. }
            | EventKind::PartitionStart { .. }
            | EventKind::PartitionEnd { .. }
            | EventKind::LinkSlow { .. }
            | EventKind::LockGranted { .. }
            | EventKind::LockExtended { .. }
            | EventKind::LockEnded { .. }
            | EventKind::LockReplicated { .. }
            | EventKind::Promoted
            | EventKind::BeliefExtended { .. }
            | EventKind::RenewalFailed { .. }
            | EventKind::GaveUp { .. }
            | EventKind::LockChecked { .. }
            | EventKind::Done => {}
        }
    }
    let safe = !findings.iter().any(|f| f.kind().is_violation());
    Verdict { safe, findings }
}
