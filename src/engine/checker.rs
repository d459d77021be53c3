//! The checker: what happened to the data, judged over a finished trace and recorded as data,
//! as Jepsen judges a history rather than who held a lock.
//!
//! Each accepted write is known for what it is: a blind write (its writer read nothing first), a
//! read-modify-write (based on the version its writer last read), a conditional write (the
//! resource compared the version itself), or an effect that must happen once (a resource keyed
//! by idempotency key or unique row). The model has no increments or appends.
//!
//! Harm, which makes a run unsafe:
//! - a lost update: a read-modify-write applied over a version its writer never read, erasing
//!   the accepted writes made since its read;
//! - a write out of order: applied after a write of a later holder (a higher fencing token; for
//!   a lock without one, a later grant), erasing it;
//! - an effect done twice: a resource that must apply each effect once applied one again.
//!
//! Findings that explain a run but harm nothing by themselves:
//! - a write accepted from a client whose lock had already ended at the lock service;
//! - two clients believing they hold the lock at once;
//! - a write rejected by the resource (the defence working), or a holder's write refused.
//!
//! Reads are judged through the writes based on them: in this model a read only matters to the
//! data when its writer writes what it read (a read-modify-write).

use super::event::{Event, EventKind};
use super::holdings::{Change, Holdings};
use super::ids::{NodeId, NodeMap};
use super::msg::{Msg, Rejection, WriteValue};
use super::time::Millis;
use serde::Serialize;
use std::hash::{Hash, Hasher};

/// What a finding says about the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    LostUpdate,
    OutOfOrder,
    DuplicateEffect,
    StaleWriteAccepted,
    TwoHolders,
    StaleWriteRejected,
    /// The resource refused the write of the client that holds the lock (a stale holder's
    /// higher token got there first).
    HolderWriteRejected,
}

impl FindingKind {
    /// Says whether this finding is harm to the data, which makes the run unsafe.
    pub fn is_harm(self) -> bool {
        match self {
            FindingKind::LostUpdate | FindingKind::OutOfOrder | FindingKind::DuplicateEffect => true,
            FindingKind::StaleWriteAccepted
            | FindingKind::TwoHolders
            | FindingKind::StaleWriteRejected
            | FindingKind::HolderWriteRejected => false,
        }
    }
}

/// What a finding found: who, which token, and for harm the operations involved (as indices of
/// their events in the trace) and the versions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Found {
    /// `writer`'s write was based on version `read`, but the data was at version `found` when
    /// it was applied: the accepted writes `erased` (events), made since the read, are lost.
    LostUpdate {
        writer: NodeId,
        read: u64,
        found: u64,
        erased: Vec<usize>,
    },
    /// `writer`'s write under `token` was applied after `newer_writer`'s (event `newer`) under
    /// `newer_token`, a later holder's, and erased it.
    OutOfOrder {
        writer: NodeId,
        token: u64,
        newer: usize,
        newer_writer: NodeId,
        newer_token: u64,
    },
    /// `writer`'s effect `value` was applied again, first at event `first`.
    DuplicateEffect {
        writer: NodeId,
        value: WriteValue,
        first: usize,
    },
    /// `writer`'s write under `token` was accepted after its lock had ended.
    StaleWriteAccepted {
        writer: NodeId,
        token: u64,
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
    pub at_ms: Millis,
    pub found: Found,
}

impl Found {
    /// Returns the events of the other operations a harm involved: the writes it erased, or the
    /// first time its effect was done; none for a finding that is not harm.
    pub fn involved(&self) -> Vec<usize> {
        match self {
            Found::LostUpdate { erased, .. } => erased.clone(),
            Found::OutOfOrder { newer, .. } => vec![*newer],
            Found::DuplicateEffect { first, .. } => vec![*first],
            _ => Vec::new(),
        }
    }
}

impl Finding {
    /// Returns what kind of finding this is.
    pub fn kind(&self) -> FindingKind {
        match self.found {
            Found::LostUpdate { .. } => FindingKind::LostUpdate,
            Found::OutOfOrder { .. } => FindingKind::OutOfOrder,
            Found::DuplicateEffect { .. } => FindingKind::DuplicateEffect,
            Found::StaleWriteAccepted { .. } => FindingKind::StaleWriteAccepted,
            Found::TwoHolders { .. } => FindingKind::TwoHolders,
            Found::StaleWriteRejected { .. } => FindingKind::StaleWriteRejected,
            Found::HolderWriteRejected { .. } => FindingKind::HolderWriteRejected,
        }
    }
}

/// The run's verdict and every finding behind it: safe unless a finding is harm.
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

    /// Returns the first harm found, if any.
    pub fn first_harm(&self) -> Option<&Finding> {
        self.findings.iter().find(|f| f.kind().is_harm())
    }
}

/// One accepted write, as the data keeps it.
#[derive(Clone, Debug)]
struct Applied {
    event: usize,
    writer: NodeId,
    token: u64,
    /// Where its writer's lock stands among holders: (token, grant order).
    rank: (u64, u64),
    /// The data's version once it was applied.
    version: u64,
}

/// Evaluates every property over a trace. A client holds the lock while `quorum` lock-service
/// nodes hold it for the client; with `quorum` 0 there is no lock, so no write can be stale or
/// out of order. `once[n]` says whether node `n` is a resource that must apply each effect once.
///
/// Holders rank by their token, then by when they gained the lock, so designs without a fencing
/// token (every token 0) are judged by the lock's own order.
///
/// The checker's maps are those of `maps`, emptied first and kept after: a search checks one run
/// after another without making them again.
pub fn check(events: &[Event], quorum: usize, once: &[bool], maps: &mut Maps) -> Verdict {
    let Maps { holdings, latest_grant, believers, history, effects, based_on } = std::mem::take(maps);
    let mut checker = Checker {
        quorum,
        once,
        holdings: holdings.emptied(quorum),
        latest_grant: latest_grant.emptied(),
        grants: 0,
        believers: believers.emptied(),
        history: history.lists_emptied(),
        effects: effects.lists_emptied(),
        based_on: based_on.emptied(),
        found: Findings { events, list: Vec::new() },
    };
    for (i, e) in events.iter().enumerate() {
        checker.read(i, e);
    }
    let Checker { holdings, latest_grant, believers, history, effects, based_on, found, .. } = checker;
    *maps = Maps { holdings, latest_grant, believers, history, effects, based_on };
    let findings = found.list;
    let safe = !findings.iter().any(|f| f.kind().is_harm());
    Verdict { safe, findings }
}

/// Feeds `h` what the verdict of a run reads of event `e`: whether a run is safe depends on its
/// events through this alone, in order. (Not on when they happened, a message's number or an
/// event's place in the trace, which only say where a finding shows.)
pub fn feed(e: &Event, h: &mut impl Hasher) {
    let n = e.node;
    match &e.kind {
        EventKind::LockGranted { holder, token, .. } | EventKind::LockReplicated { holder, token, .. } => (1u8, n, holder, token).hash(h),
        EventKind::LockEnded { holder, .. } => (2u8, n, holder).hash(h),
        EventKind::Promoted => (3u8, n).hash(h),
        EventKind::Deliver { msg: Msg::Write { expected_version, .. }, .. } => (4u8, n, expected_version).hash(h),
        EventKind::Restart { keep_state: false } => (5u8, n).hash(h),
        EventKind::WriteAccepted { writer, token, value, version } => (6u8, n, writer, token, value, version).hash(h),
        _ => {}
    }
}

/// The checker's maps between runs, kept for their room.
pub struct Maps {
    holdings: Holdings,
    latest_grant: NodeMap<u64>,
    believers: NodeMap<u64>,
    history: NodeMap<Vec<Applied>>,
    effects: NodeMap<Vec<(WriteValue, usize)>>,
    based_on: NodeMap<Option<u64>>,
}

impl Default for Maps {
    fn default() -> Self {
        Maps {
            holdings: Holdings::new(1),
            latest_grant: NodeMap::default(),
            believers: NodeMap::default(),
            history: NodeMap::default(),
            effects: NodeMap::default(),
            based_on: NodeMap::default(),
        }
    }
}

/// The findings so far, each placed at its event's time.
struct Findings<'a> {
    events: &'a [Event],
    list: Vec<Finding>,
}

impl Findings<'_> {
    /// Records what was found at event `i`.
    fn add(&mut self, i: usize, found: Found) {
        self.list.push(Finding { event: i, at_ms: self.events[i].at_ms, found });
    }
}

/// What the checker knows part way through a trace.
struct Checker<'a> {
    quorum: usize,
    once: &'a [bool],
    holdings: Holdings,
    /// By holder: the number of the grant that gave it the lock last.
    latest_grant: NodeMap<u64>,
    grants: u64,
    /// The clients believing they hold the lock, and under which token.
    believers: NodeMap<u64>,
    /// By data node: the writes it has accepted, in order, since it last started afresh.
    history: NodeMap<Vec<Applied>>,
    /// By resource that applies each effect once: the effects it applied, and where. An effect
    /// stays done when the resource forgets it in a restart.
    effects: NodeMap<Vec<(WriteValue, usize)>>,
    /// The version each data node's write in progress was based on, if the writer read one.
    based_on: NodeMap<Option<u64>>,
    found: Findings<'a>,
}

impl Checker<'_> {
    /// Reads event `i`, `e`, and records what it shows.
    fn read(&mut self, i: usize, e: &Event) {
        for change in self.holdings.apply(e) {
            if let Change::Gained { holder, .. } = change {
                self.grants += 1;
                self.latest_grant.insert(holder, self.grants);
            }
        }
        match &e.kind {
            EventKind::BeliefStart { token, .. } => {
                if let Some((other, &other_token)) = self.believers.iter().find(|(n, _)| *n != e.node) {
                    self.found.add(i, Found::TwoHolders { client: e.node, token: *token, other, other_token });
                }
                self.believers.insert(e.node, *token);
            }
            EventKind::BeliefEnd { .. } => {
                self.believers.remove(e.node);
            }
            EventKind::Deliver { msg: Msg::Write { expected_version, .. }, .. } => {
                self.based_on.insert(e.node, *expected_version);
            }
            // A data node that restarts without its state starts its history again.
            EventKind::Restart { keep_state: false } => self.history.or_default(e.node).clear(),
            EventKind::WriteAccepted { writer, token, version, value } => self.accepted(i, e.node, *writer, *token, *version, value),
            EventKind::WriteRejected { writer, token, reason, .. } => {
                let (writer, token, reason) = (*writer, *token, reason.clone());
                if self.quorum > 0 && self.holdings.token_of(writer) == Some(token) {
                    self.found.add(i, Found::HolderWriteRejected { writer, token, reason });
                } else {
                    self.found.add(i, Found::StaleWriteRejected { writer, token, reason });
                }
            }
            // A compensation removes a row the writer itself inserted: nobody's data is lost.
            EventKind::WriteUndone { .. }
            | EventKind::Send { .. }
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
            | EventKind::HungUp { .. }
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

    /// Judges a write of `value` by `writer` under `token`, accepted at event `i` by `node` as
    /// `version`: stale, erasing updates, out of order, or an effect done twice.
    fn accepted(&mut self, i: usize, node: NodeId, writer: NodeId, token: u64, version: u64, value: &WriteValue) {
        if self.quorum > 0 && self.holdings.token_of(writer) != Some(token) {
            self.found.add(i, Found::StaleWriteAccepted { writer, token });
        }
        let rank = (token, self.latest_grant.get(writer).copied().unwrap_or(0));
        let applied = self.history.or_default(node);
        let read = self.based_on.remove(node).flatten();
        // A write based on what it read erases what was written since the read; one based
        // on the data as it stands erases nothing, whatever the order of the locks (a
        // compare-and-set that succeeds is one). A blind write erases what a later holder
        // wrote.
        let since: Vec<&Applied> = read.map_or(Vec::new(), |r| applied.iter().filter(|a| a.version > r).collect());
        if let (Some(read), Some(last)) = (read, since.last()) {
            let (found, erased) = (last.version, since.iter().map(|a| a.event).collect());
            self.found.add(i, Found::LostUpdate { writer, read, found, erased });
        } else if let Some(newer) = applied.iter().filter(|a| a.rank > rank && read.is_none()).max_by_key(|a| a.rank) {
            let (newer, newer_writer, newer_token) = (newer.event, newer.writer, newer.token);
            self.found.add(i, Found::OutOfOrder { writer, token, newer, newer_writer, newer_token });
        }
        if self.once.get(node.0).copied().unwrap_or(false) {
            let done = self.effects.or_default(node);
            if let Some(&(_, first)) = done.iter().find(|(v, _)| v == value) {
                self.found.add(i, Found::DuplicateEffect { writer, value: value.clone(), first });
            }
            done.push((value.clone(), i));
        }
        self.history.or_default(node).push(Applied { event: i, writer, token, rank, version });
    }
}
