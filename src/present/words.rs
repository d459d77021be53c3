//! Every event, message and finding of a trace in words, in the design's own vocabulary: one
//! sentence per event for the narration, a few words per event for the text trace and the event
//! log, labels for arrows and marks, findings, the verdict and the metrics.

use super::number::{group_u, local, ms, reading};
use super::phrases::{self, checked};
use super::quoted::Quoted;
use super::vocabulary::{Names, Vocabulary};
use crate::engine::event::{BeliefEnd, DropReason, EventKind, LockEnd};
use crate::engine::msg::{Msg, Rejection};
use crate::engine::time::LocalMillis;
use crate::engine::{NodeId, NodeKind, Trace};

/// A trace and the vocabulary of its design: everything needed to put it in words.
#[derive(Clone, Copy)]
pub struct Words<'a> {
    trace: &'a Trace,
    vocab: &'a dyn Vocabulary,
}

impl<'a> Words<'a> {
    /// Pairs a trace with its design's vocabulary.
    pub fn new(trace: &'a Trace, vocab: &'a dyn Vocabulary) -> Self {
        Words { trace, vocab }
    }

    /// Returns the trace these words describe.
    pub fn trace(&self) -> &'a Trace {
        self.trace
    }

    /// Returns the design's vocabulary.
    pub fn vocabulary(&self) -> &'a dyn Vocabulary {
        self.vocab
    }

    pub(super) fn name(&self, id: NodeId) -> &'a str {
        self.trace.name(id)
    }

    pub(super) fn names(&self) -> Names<'a> {
        Names(&self.trace.participants)
    }

    /// Names what the holder holds, with its token if the design hands one out:
    /// `the lock (token 41)`, or `the lock`.
    pub(super) fn held(&self, token: u64) -> String {
        match self.vocab.token(token) {
            Some(t) => format!("{} ({t})", self.vocab.held()),
            None => self.vocab.held().to_string(),
        }
    }

    pub(super) fn list(&self, ids: &[NodeId], sep: &str) -> String {
        ids.iter().map(|id| self.name(*id)).collect::<Vec<_>>().join(sep)
    }

    /// Says whether the run has a lock at all.
    pub fn has_lock(&self) -> bool {
        self.trace.quorum > 0
    }

    /// Names a token, `no token` if the design hands out none.
    pub fn token(&self, token: u64) -> String {
        self.vocab.token(token).unwrap_or_else(|| "no token".into())
    }

    /// Labels a message for an arrow or a log line; `to` is where it goes.
    pub fn label(&self, msg: &Msg, to: NodeId) -> String {
        match msg {
            Msg::Lock { msg } => self.vocab.label(msg, self.names()),
            Msg::Read => "read version".into(),
            Msg::ReadResult { version } => format!("version {version}"),
            Msg::Write { token, value, expected_version: None } if self.trace.participants[to.0].role == NodeKind::LockService => {
                self.vocab.write_to_service(*token, value)
            }
            Msg::Write { value, expected_version: None, .. } if !self.has_lock() => format!("write {value_q}", value_q = Quoted(value)),
            Msg::Write { token, value, expected_version: None } => match self.vocab.token(*token) {
                Some(t) => format!("write {value_q} with {t}", value_q = Quoted(value)),
                None => format!("write {value_q} (no token)", value_q = Quoted(value)),
            },
            Msg::Write { value, expected_version: Some(v), .. } => format!("write {value_q} (read v{v})", value_q = Quoted(value)),
            Msg::Undo { value } => format!("undo {value_q}", value_q = Quoted(value)),
            Msg::WriteAccepted { version } => format!("ok (version {version})"),
            Msg::WriteRejected { reason } => format!("rejected: {}", self.rejection(reason)),
        }
    }

    /// Says why a write was refused, as the refusing side would.
    pub fn rejection(&self, reason: &Rejection) -> String {
        match reason {
            Rejection::StaleToken { token, highest } => format!("{} < {highest}", self.token(*token)),
            Rejection::VersionChanged { expected, found } => format!("expected version {expected}, found {found}"),
            Rejection::NoVersion => "no version given".into(),
            Rejection::AlreadyApplied { value } => format!("{value} already applied"),
            Rejection::Duplicate { value } => format!("duplicate key {value} violates unique constraint"),
            Rejection::Guard { token } => self.vocab.guard_refused(*token),
            Rejection::Refused { code, .. } => code.to_string(),
            Rejection::NothingToUndo { value } => format!("no {value} of yours to undo"),
        }
    }

    /// Says what a refusal of this kind means for the data.
    pub fn rejection_means(&self, reason: &Rejection) -> &'static str {
        match reason {
            Rejection::StaleToken { .. } => "The resource itself stopped a stale writer.",
            Rejection::VersionChanged { .. } | Rejection::NoVersion => {
                "The data changed since that write was based on it, so it cannot overwrite the newer data."
            }
            Rejection::AlreadyApplied { .. } => "The work was already done once; the repeat changes nothing.",
            Rejection::Duplicate { .. } => "The constraint lets exactly one insert in.",
            Rejection::Guard { .. } => "The lock and the data live together, so the stale writer is stopped where the data is.",
            Rejection::Refused { means, .. } => means,
            Rejection::NothingToUndo { .. } => "A compensation undoes only what its own saga did; it is safe to repeat.",
        }
    }

    pub(super) fn drop_reason(&self, reason: DropReason, at: NodeId) -> String {
        match reason {
            DropReason::ConnectionBroken => "held by the partition until the kernel gave up: the connection broke".into(),
            DropReason::ConnectionClosed => format!("{} had closed this connection", self.name(at)),
            DropReason::Lost => "lost".into(),
            DropReason::Down => format!("{} is down", self.name(at)),
            DropReason::Dropped => "dropped by the fault schedule".into(),
        }
    }

    /// Describes event `i` in a few words, for the text trace and the event log.
    pub fn summary(&self, i: usize) -> String {
        let e = &self.trace.events[i];
        let n = |id: NodeId| self.name(id);
        let v = self.vocab;
        match &e.kind {
            EventKind::Send { to, msg, .. } => format!("send → {}: {}", n(*to), self.label(msg, *to)),
            EventKind::Deliver { from, msg, .. } => format!("recv ← {}: {}", n(*from), self.label(msg, e.node)),
            EventKind::Drop { from, msg, reason, .. } => {
                format!("DROP ← {}: {} ({})", n(*from), self.label(msg, e.node), self.drop_reason(*reason, e.node))
            }
            EventKind::PauseStart { until_ms } => format!("pause until {}", ms(*until_ms)),
            EventKind::PauseEnd => "resume".into(),
            EventKind::Crash => phrases::CRASH.into(),
            EventKind::Restart { keep_state } => phrases::restart(*keep_state).into(),
            EventKind::ClockJump { by_ms, elapsed } => phrases::clock_jump(*by_ms, *elapsed),
            EventKind::LockChecked { token, left_ms, margin_ms, ok } => checked(token.is_some(), *left_ms, *margin_ms, *ok),
            EventKind::PartitionStart { from, to, two_way, until_ms } => format!(
                "partition {} {} {} until {}",
                self.list(from, "+"),
                if *two_way { "⇹" } else { "→" },
                self.list(to, "+"),
                ms(*until_ms)
            ),
            EventKind::PartitionEnd { from, to } => format!("heal {} / {}", self.list(from, "+"), self.list(to, "+")),
            EventKind::LinkSlow { to, extra_ms, until_ms } => {
                format!("link to {} slowed by {} until {}", n(*to), ms(*extra_ms), ms(*until_ms))
            }
            EventKind::HungUp { peer } => phrases::hung_up(n(*peer)),
            EventKind::LockGranted { holder, token, expires_local } => {
                format!("{} → {} {}", v.lock(*token), n(*holder), v.lasts(*expires_local))
            }
            EventKind::LockExtended { token, expires_local, .. } => format!("{} extended {}", v.lock(*token), v.lasts(*expires_local)),
            EventKind::LockEnded { holder, token, how } => format!("{} of {} ended: {}", v.lock(*token), n(*holder), v.how_ended(*how)),
            EventKind::LockReplicated { holder, token, .. } => format!("copy of {} of {}", v.lock(*token), n(*holder)),
            EventKind::Promoted => phrases::PROMOTED.into(),
            EventKind::BeliefStart { token, until_local } | EventKind::BeliefExtended { token, until_local } => {
                format!("believes: holds {} {}", self.held(*token), until(*until_local))
            }
            EventKind::BeliefEnd { token, why } => {
                let why = match why {
                    BeliefEnd::Released => "released".to_string(),
                    BeliefEnd::RenewalFailed => format!("{} failed", v.renewal()),
                    BeliefEnd::Crashed => "crashed".to_string(),
                    BeliefEnd::CheckFailed => "too little left at its check".to_string(),
                };
                format!("stops believing it holds {}: {why}", self.held(*token))
            }
            EventKind::RenewalFailed { abort, .. } => phrases::renewal_failed(v.renewal(), *abort),
            EventKind::GaveUp { attempts } => phrases::gave_up(*attempts),
            EventKind::WriteAccepted { writer, value, version, .. } if !self.has_lock() => {
                format!("ACCEPT {value_q} from {} → version {version}", n(*writer), value_q = Quoted(value))
            }
            EventKind::WriteAccepted { writer, token, value, version } => {
                format!("ACCEPT {value_q} from {} {} → version {version}", n(*writer), self.token(*token), value_q = Quoted(value))
            }
            EventKind::WriteRejected { writer, value, reason, .. } if !self.has_lock() => {
                format!("REJECT {value_q} from {}: {}", n(*writer), self.rejection(reason), value_q = Quoted(value))
            }
            EventKind::WriteUndone { writer, value, version } => {
                format!("UNDO {value_q} of {} → version {version}", n(*writer), value_q = Quoted(value))
            }
            EventKind::WriteRejected { writer, token, value, reason } => {
                format!("REJECT {value_q} from {} {}: {}", n(*writer), self.token(*token), self.rejection(reason), value_q = Quoted(value))
            }
            EventKind::Done => "script done".into(),
        }
    }

    /// Renders the metrics as one line.
    pub fn metrics(&self) -> String {
        let m = &self.trace.metrics;
        if !self.has_lock() {
            return format!("metrics: {} duplicate work, {} writes refused\n", m.duplicate_work, m.stale_writes_rejected);
        }
        format!(
            "metrics: {} {} ({} refused, {} gave up, {} wake-ups), {} {}, {} {} failures, {} duplicate work, stale writes {} accepted / {} rejected\n",
            m.acquire_requests,
            self.vocab.acquires(),
            m.contended,
            m.gave_up,
            m.wake_ups,
            m.expiries,
            self.vocab.expiries(),
            m.renewal_failures,
            self.vocab.renewal(),
            m.duplicate_work,
            m.stale_writes_accepted,
            m.stale_writes_rejected
        )
    }

    /// Renders the compact fixed-column text trace used by snapshots and the command line.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = self.write_text(&mut out);
        out
    }

    /// Writes the text trace to `out` line by line, so a trace of any size is never held whole
    /// as text (the command line writes it straight to its output).
    pub fn write_text(&self, out: &mut dyn std::fmt::Write) -> std::fmt::Result {
        let t = self.trace;
        let width = t.participants.iter().map(|p| p.name.chars().count()).max().unwrap_or(4).max(4);
        writeln!(out, "{:>4} {:>9} {:<width$} {:>9}  event", "#", "true_ms", "node", "local_ms")?;
        for (i, e) in t.events.iter().enumerate() {
            writeln!(
                out,
                "{:>4} {:>9} {:<width$} {:>9}  {}",
                i,
                group_u(e.at_ms.as_ms()),
                t.name(e.node),
                reading(e.local_ms),
                self.summary(i)
            )?;
        }
        out.write_str(&self.verdict())?;
        out.write_str(&self.metrics())
    }

    /// Returns the note a sequence-diagram export shows for event `i`, if any.
    pub fn note(&self, i: usize) -> Option<String> {
        let e = &self.trace.events[i];
        let v = self.vocab;
        Some(match &e.kind {
            EventKind::PauseStart { until_ms } => format!("paused for {}", ms(until_ms.saturating_sub(e.at_ms))),
            EventKind::PauseEnd => "resumes".into(),
            EventKind::Crash => "crash".into(),
            EventKind::Restart { keep_state } => format!("restart{}", if *keep_state { "" } else { ", state lost" }),
            EventKind::Promoted => phrases::PROMOTED.into(),
            EventKind::ClockJump { by_ms, elapsed } => phrases::clock_jump(*by_ms, *elapsed),
            EventKind::LockChecked { token, left_ms, margin_ms, ok } => checked(token.is_some(), *left_ms, *margin_ms, *ok),
            EventKind::LockEnded { how: LockEnd::Released, .. } => return None,
            EventKind::LockEnded { holder, token, how } => v.ended_mark(self.name(*holder), *token, *how),
            EventKind::PartitionStart { .. } => "partition".into(),
            EventKind::PartitionEnd { .. } => "partition heals".into(),
            EventKind::HungUp { peer } => phrases::hung_up(self.name(*peer)),
            EventKind::Send { .. }
            | EventKind::Deliver { .. }
            | EventKind::Drop { .. }
            | EventKind::LinkSlow { .. }
            | EventKind::LockGranted { .. }
            | EventKind::LockExtended { .. }
            | EventKind::LockReplicated { .. }
            | EventKind::BeliefStart { .. }
            | EventKind::BeliefExtended { .. }
            | EventKind::BeliefEnd { .. }
            | EventKind::RenewalFailed { .. }
            | EventKind::GaveUp { .. }
            | EventKind::WriteAccepted { .. }
            | EventKind::WriteRejected { .. }
            | EventKind::WriteUndone { .. }
            | EventKind::Done => return None,
        })
    }

    /// Describes a client's belief for the inspector.
    pub fn belief(&self, token: u64, until_local: Option<LocalMillis>) -> String {
        format!("believes it holds {} {}", self.held(token), until(until_local))
    }

    /// Describes what a lock-service node holds for the inspector.
    pub fn service_holds(&self, holder: NodeId, token: u64, expires_local: Option<LocalMillis>) -> String {
        format!("holds {} for {}, {}", self.vocab.lock(token), self.name(holder), self.vocab.lasts(expires_local))
    }

    /// Describes the protected data for the inspector.
    pub fn data(&self, value: &str, writer: NodeId, token: u64, version: u64, highest_token: u64) -> String {
        let mut s = if self.has_lock() {
            format!("data {value_q} (by {}, {}), version {version}", self.name(writer), self.token(token), value_q = Quoted(value))
        } else {
            format!("data {value_q} (by {}), version {version}", self.name(writer), value_q = Quoted(value))
        };
        if highest_token > 0 {
            if let Some(t) = self.vocab.token(highest_token) {
                s.push_str(&format!(", highest seen: {t}"));
            }
        }
        s
    }
}

/// Says until when on a node's own clock, briefly: `until local 1,005`.
fn until(until_local: Option<LocalMillis>) -> String {
    match until_local {
        Some(t) => format!("until {}", local(t)),
        None => "with no foreseeable end".into(),
    }
}
