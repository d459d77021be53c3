//! Every event, message and finding of a trace in words, in the design's own vocabulary: one
//! sentence per event for the narration, a few words per event for the text trace and the event
//! log, labels for arrows and marks, findings, the verdict and the metrics.

use super::number::{capital, group, group_u, local, ms};
use super::phrases::{self, checked};
use super::quoted::Quoted;
use super::vocabulary::{Names, Vocabulary};
use crate::engine::checker::{FindingKind, Found};
use crate::engine::event::{BeliefEnd, DropReason, EventKind, LockEnd};
use crate::engine::msg::{Msg, Rejection};
use crate::engine::Event;
use crate::engine::{Finding, NodeId, NodeKind, Trace};

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

    fn name(&self, id: NodeId) -> &'a str {
        self.trace.name(id)
    }

    fn names(&self) -> Names<'a> {
        Names(&self.trace.participants)
    }

    /// Names what the holder holds, with its token if the design hands one out:
    /// `the lock (token 41)`, or `the lock`.
    fn held(&self, token: u64) -> String {
        match self.vocab.token(token) {
            Some(t) => format!("{} ({t})", self.vocab.held()),
            None => self.vocab.held().to_string(),
        }
    }

    fn list(&self, ids: &[NodeId], sep: &str) -> String {
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

    fn drop_reason(&self, reason: DropReason, at: NodeId) -> String {
        match reason {
            DropReason::Partitioned => "partitioned".into(),
            DropReason::Lost => "lost".into(),
            DropReason::Down => format!("{} is down", self.name(at)),
            DropReason::Dropped => "dropped by the fault schedule".into(),
        }
    }

    fn quote(&self, msg: &Msg, to: NodeId) -> String {
        format!("“{}”", self.label(msg, to))
    }

    /// Tells event `i` in one plain sentence, for a learner.
    pub fn narrate(&self, i: usize) -> String {
        let e = &self.trace.events[i];
        let me = self.name(e.node);
        let n = |id: NodeId| self.name(id);
        let v = self.vocab;
        match &e.kind {
            EventKind::Send { to, msg, .. } => self.sending(me, *to, msg),
            EventKind::Deliver { from, msg, .. } => match msg {
                Msg::Lock { msg: lock } => self.vocab.receiving(lock, me, n(*from)),
                _ => None,
            }
            .unwrap_or_else(|| format!("{me} receives {} from {}.", self.quote(msg, e.node), n(*from))),
            EventKind::Drop { from, msg, reason, .. } => {
                format!("{} from {} never reaches {me}: {}.", capital(&self.quote(msg, e.node)), n(*from), self.drop_reason(*reason, e.node))
            }
            EventKind::PauseStart { until_ms } => format!(
                "{me} stops the world (think of a long GC pause) until {}: it handles nothing and cannot notice time passing.",
                ms(*until_ms)
            ),
            EventKind::PauseEnd => format!("{me} resumes exactly where it stopped, unaware that it was paused."),
            EventKind::Crash => format!("{me} crashes: everything in its memory is gone."),
            EventKind::Restart { keep_state: true } => format!("{me} restarts and reloads its saved state."),
            EventKind::Restart { keep_state: false } => format!("{me} restarts with nothing it kept in memory before the crash."),
            EventKind::ClockJump { by_ms } => format!(
                "{me}'s clock jumps {} by {} (an NTP step or an operator's fix); true time is unchanged.",
                if *by_ms >= 0 { "forward" } else { "back" },
                ms(by_ms.unsigned_abs())
            ),
            EventKind::PartitionStart { from, to, two_way, until_ms } => format!(
                "The network splits: messages from {} to {}{} are dropped until {}.",
                self.list(from, " and "),
                self.list(to, " and "),
                if *two_way { " and back" } else { "" },
                ms(*until_ms)
            ),
            EventKind::PartitionEnd { from, to } => {
                format!("The partition between {} and {} heals.", self.list(from, " and "), self.list(to, " and "))
            }
            EventKind::LinkSlow { to, extra_ms, until_ms } => {
                format!("Messages from {me} to {} now take {} longer (until {}).", n(*to), ms(*extra_ms), ms(*until_ms))
            }
            EventKind::LockGranted { holder, token, expires_local } => v.granted(me, n(*holder), *token, *expires_local),
            EventKind::LockExtended { holder, token, expires_local } => v.extended(me, n(*holder), *token, *expires_local),
            EventKind::LockEnded { holder, token, how } => v.ended(me, n(*holder), *token, *how),
            EventKind::LockReplicated { holder, token, .. } => v.replicated(me, n(*holder), *token),
            EventKind::Promoted => format!(
                "{me} is promoted to primary (as a failover would do). Whatever the old primary granted but never replicated does not exist here."
            ),
            EventKind::BeliefStart { token, until_local } => {
                let passed = if until_local.is_some_and(|t| t <= e.local_ms) { ", a time its clock has already passed: it does not look" } else { "" };
                format!("{me} believes it holds {}, {}{passed}.", self.held(*token), v.believes(*until_local))
            }
            EventKind::BeliefExtended { until_local, .. } => {
                format!("{me} now believes {} is its own, {}.", v.held(), v.believes(*until_local))
            }
            EventKind::BeliefEnd { token, why } => match why {
                BeliefEnd::Released => format!("{me} is done with {} and lets it go.", self.held(*token)),
                BeliefEnd::RenewalFailed => {
                    format!("{me} stops: it no longer believes it holds {}, and skips the rest of its work.", v.held())
                }
                BeliefEnd::Crashed => format!("{me}'s belief that it holds {} dies with the process.", v.held()),
                BeliefEnd::CheckFailed => format!(
                    "{me} checks {} on its own clock before going on: too little of it is left, so it stops without touching the resource.",
                    self.held(*token)
                ),
            },
            EventKind::RenewalFailed { abort, .. } => v.renewal_failed(me, *abort),
            EventKind::GaveUp { attempts } => format!("{me} gives up on {} after {attempts} attempts.", v.held()),
            EventKind::LockChecked { token: None, .. } => format!("{me} checks before going on and finds it holds no lock: it stops."),
            EventKind::LockChecked { left_ms, margin_ms, ok, .. } => {
                let left = left_ms.map_or("no end it can foresee".to_string(), |l| format!("{} left", ms(l.max(0) as u64)));
                if *ok {
                    format!("{me} checks {} on its own clock before going on: {left}, at least the {} it wants, so it goes on. Nothing tells it what happens after this check.", v.held(), ms(*margin_ms))
                } else {
                    format!("{me} checks {} on its own clock before going on: {left}, less than the {} it wants.", v.held(), ms(*margin_ms))
                }
            }
            EventKind::WriteAccepted { writer, value, version, .. } if !self.has_lock() => {
                format!("{me} accepts {value_q} from {}; the data is now at version {version}.", n(*writer), value_q = Quoted(value))
            }
            EventKind::WriteAccepted { writer, token, value, version } => {
                format!("{me} accepts {value_q} from {} ({}); the data is now at version {version}.", n(*writer), self.token(*token), value_q = Quoted(value))
            }
            EventKind::WriteRejected { writer, value, reason, .. } => {
                format!("{me} rejects {value_q} from {}: {}. {}", n(*writer), self.rejection(reason), self.rejection_means(reason), value_q = Quoted(value))
            }
            EventKind::WriteUndone { writer, value, version } => format!(
                "{me} removes {value_q}, which {} wrote: the compensation undoes that step, and {value_q} is free again (version {version}). It was visible to everyone in between.",
                n(*writer),
                value_q = Quoted(value)
            ),
            EventKind::Done => format!("{me} has finished its script."),
        }
    }

    fn sending(&self, me: &str, to: NodeId, msg: &Msg) -> String {
        let to_name = self.name(to);
        match msg {
            Msg::Lock { msg } => self.vocab.sending(msg, me, to_name, self.names()),
            Msg::Read => format!("{me} asks {to_name} which version the data is at."),
            Msg::ReadResult { version } => format!("{me} answers {to_name}: the data is at version {version}."),
            Msg::Write { expected_version: Some(v), value, .. } => format!(
                "{me} sends a write of {value_q} to {to_name}, based on version {v}, which it read; a store that checks versions takes it only if the data is still at version {v}.", value_q = Quoted(value)),
            Msg::Write { .. } if self.trace.participants[to.0].role == NodeKind::LockService => {
                format!("{me} sends {to_name} “{}”.", self.label(msg, to))
            }
            Msg::Write { value, .. } if !self.has_lock() => format!("{me} sends a write of {value_q} to {to_name}.", value_q = Quoted(value)),
            Msg::Write { token, value, .. } => match self.vocab.token(*token) {
                Some(t) => format!("{me} sends a write of {value_q} to {to_name}, carrying {t}.", value_q = Quoted(value)),
                None => format!("{me} sends a write of {value_q} to {to_name}; it has no token to carry.", value_q = Quoted(value)),
            },
            Msg::Undo { value } => format!(
                "{me} sends {to_name} a compensation: undo its own {value_q}, because a later step of its saga was refused.",
                value_q = Quoted(value)
            ),
            Msg::WriteAccepted { version } => format!("{me} answers {to_name}: ok, the data is now at version {version}."),
            Msg::WriteRejected { reason } => format!("{me} answers {to_name}: rejected ({}).", self.rejection(reason)),
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
            EventKind::ClockJump { by_ms } => format!("clock jumps {by_ms:+} ms"),
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

    /// Returns a finding kind's short label.
    pub fn finding_kind(kind: FindingKind) -> &'static str {
        match kind {
            FindingKind::LostUpdate => "lost update",
            FindingKind::OutOfOrder => "writes out of order",
            FindingKind::DuplicateEffect => "effect done twice",
            FindingKind::StaleWriteAccepted => "stale write accepted",
            FindingKind::TwoHolders => "two holders",
            FindingKind::StaleWriteRejected => "write rejected",
            FindingKind::HolderWriteRejected => "holder's write rejected",
        }
    }

    /// Tells what a finding found, with who and which token.
    pub fn finding(&self, f: &Finding) -> String {
        let n = |id: NodeId| self.name(id);
        match &f.found {
            Found::StaleWriteAccepted { writer, token } => {
                let said = format!(
                    "{}'s write ({}) was accepted although {} no longer held {}",
                    n(*writer),
                    self.token(*token),
                    n(*writer),
                    self.vocab.held()
                );
                // Alone it harms nothing: say why, so that broken exclusion is not read as lost data.
                if self.trace.verdict.findings.iter().any(|h| h.event == f.event && h.kind().is_harm()) {
                    said
                } else {
                    format!("{said}; it erased nothing: nobody had written under a later grant")
                }
            }
            Found::LostUpdate { writer, read, found, erased } => {
                let by: Vec<&str> = erased.iter().map(|&e| self.trace.events.get(e).map_or("", |e| self.write_by(e))).collect();
                format!(
                    "{}'s write was based on version {read}, but the data was at version {found}: the update{} of {} since {} lost",
                    n(*writer),
                    if by.len() == 1 { "" } else { "s" },
                    by.join(" and "),
                    if by.len() == 1 { "is" } else { "are" }
                )
            }
            Found::OutOfOrder { writer, token, newer_writer, newer_token, .. } => {
                match (self.vocab.token(*token), self.vocab.token(*newer_token)) {
                    (Some(t), Some(newer)) => {
                        format!("{}'s write ({t}) was applied after {}'s ({newer}) and erased it", n(*writer), n(*newer_writer))
                    }
                    _ => format!(
                        "{}'s write was applied after that of {}, a later holder of {}, and erased it",
                        n(*writer),
                        n(*newer_writer),
                        self.vocab.held()
                    ),
                }
            }
            Found::DuplicateEffect { writer, value, first } => format!(
                "{}'s {} was applied a second time (first at {})",
                n(*writer),
                Quoted(value),
                self.trace.events.get(*first).map_or(String::new(), |e| ms(e.at_ms))
            ),
            Found::TwoHolders { client, token, other, other_token } => format!(
                "{} ({}) and {} ({}) both believe they hold {}",
                n(*client),
                self.token(*token),
                n(*other),
                self.token(*other_token),
                self.vocab.held()
            ),
            Found::StaleWriteRejected { token, reason, .. } if self.has_lock() => {
                format!("the write ({}) was rejected: {}", self.token(*token), self.rejection(reason))
            }
            Found::StaleWriteRejected { reason, .. } => format!("the write was rejected: {}", self.rejection(reason)),
            Found::HolderWriteRejected { writer, token, reason } => format!(
                "{}'s write ({}) was rejected although {} holds {}: {}",
                n(*writer),
                self.token(*token),
                n(*writer),
                self.vocab.held(),
                self.rejection(reason)
            ),
        }
    }

    /// Names the writer of an accepted write's event.
    fn write_by(&self, e: &Event) -> &str {
        match e.kind {
            EventKind::WriteAccepted { writer, .. } => self.name(writer),
            _ => "",
        }
    }

    /// Renders the verdict as lines: `verdict: SAFE`, then one line per finding.
    pub fn verdict(&self) -> String {
        let v = &self.trace.verdict;
        let mut out = format!("verdict: {}\n", if v.safe { "SAFE" } else { "UNSAFE" });
        for f in &v.findings {
            out.push_str(&format!("  [{}] #{} at {}: {}\n", Words::finding_kind(f.kind()), f.event, ms(f.at_ms), self.finding(f)));
        }
        out
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
            writeln!(out, "{:>4} {:>9} {:<width$} {:>9}  {}", i, group_u(e.at_ms), t.name(e.node), group(e.local_ms), self.summary(i))?;
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
            EventKind::ClockJump { by_ms } => format!("clock jumps {by_ms:+} ms"),
            EventKind::LockChecked { token, left_ms, margin_ms, ok } => checked(token.is_some(), *left_ms, *margin_ms, *ok),
            EventKind::LockEnded { how: LockEnd::Released, .. } => return None,
            EventKind::LockEnded { holder, token, how } => v.ended_mark(self.name(*holder), *token, *how),
            EventKind::PartitionStart { .. } => "partition".into(),
            EventKind::PartitionEnd { .. } => "partition heals".into(),
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
    pub fn belief(&self, token: u64, until_local: Option<i64>) -> String {
        format!("believes it holds {} {}", self.held(token), until(until_local))
    }

    /// Describes what a lock-service node holds for the inspector.
    pub fn service_holds(&self, holder: NodeId, token: u64, expires_local: Option<i64>) -> String {
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
fn until(until_local: Option<i64>) -> String {
    match until_local {
        Some(t) => format!("until {}", local(t)),
        None => "with no foreseeable end".into(),
    }
}
