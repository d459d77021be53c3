//! PostgreSQL advisory locks. Session-level (`pg_advisory_lock`, `pg_advisory_unlock`): held until
//! unlocked or until the session ends; requests from the same session stack, each needing its own
//! unlock. Transaction-level (`pg_advisory_xact_lock`): released all at once when the transaction
//! commits or rolls back, and `pg_advisory_unlock` cannot release them. A waiter blocks until the
//! lock is free. A session idle outside a transaction ends after `idle_session_timeout_ms`
//! (PostgreSQL's `idle_session_timeout`, 14+); one idle inside an open transaction, as a holder
//! of transaction-level locks is, only after `idle_in_transaction_session_timeout_ms`
//! (`idle_session_timeout` does not apply there). Either way `pg_advisory_unlock_all` runs
//! implicitly. A paused client does not lose its session by being silent at the TCP level (its
//! kernel answers keepalives): only those timeouts or `pg_terminate_backend` end it. There is no
//! fencing token.
//!
//! When the protected rows live in the same database, writes go to this node and commit only
//! inside a live session: a client whose session was terminated cannot commit.
//!
//! Simplifications, said in the lessons: the client keeps its session from going idle with a
//! statement (`SELECT 1`) now and then; a client holds one kind of lock, and its writes apply at
//! once rather than at commit.

use super::param::settings;
pub use super::pg_wire::PgMsg;
use super::pgbouncer::PooledServer;
use super::{Design, Factory, Guarantees, Kind, LockKind, Row, Rows, Services, Settings, Summary, Values};
use crate::engine::actor::{Actor, Cx, Timer};
use crate::engine::event::{EventKind, LockEnd};
use crate::engine::ids::NodeId;
use crate::engine::msg::{LockMsg, Msg, Rejection, ReleaseMode};
use crate::engine::protocol::{ClientView, LockClient, Progress, Protocol, Release};
use crate::engine::spec::ResourceMode;
use crate::error::ScenarioError;
use crate::present::number::{group, local, ms};
use crate::present::quoted::Quoted;
use crate::present::{Names, Vocabulary};
use std::collections::VecDeque;
use std::rc::Rc;

/// The registry entry.
pub struct Postgres;

settings! {
    /// How the PostgreSQL advisory lock is set up.
    pub struct PostgresSettings {
        /// PostgreSQL's idle_session_timeout (14+): a session that runs no statement for this long outside a transaction is ended, and its
        /// advisory locks with it; left out, it never is (the default). Formerly idle_timeout_ms.
        idle_session_timeout_ms: Option<u64> = optional("ms", 1..=3_600_000).formerly("session_timeout_ms"),
        /// PostgreSQL's idle_in_transaction_session_timeout: a session idle inside an open transaction for this long is ended, its
        /// transaction rolled back and its locks released; left out, it never is (the default). The only timeout that frees a
        /// transaction-level lock.
        idle_in_transaction_session_timeout_ms: Option<u64> = optional("ms", 1..=3_600_000),
        /// The protected rows live in the same database, so a write commits only inside a live session.
        same_database: bool = flag(false),
        /// Locks are pg_advisory_xact_lock: one COMMIT releases them all, and pg_advisory_unlock cannot.
        transaction_level: bool = flag(false),
        /// Clients reach PostgreSQL through PgBouncer in transaction pooling mode, with this many server connections: each statement runs
        /// on whichever is free, so a session-level lock stays with a server connection, not with the client. Left out, each client has its
        /// own session.
        pgbouncer_pool_size: Option<u64> = optional("", 1..=100),
    }
}

/// The design as the registry lists it.
static SUMMARY: Summary = Summary::of::<PostgresSettings>(
    "postgres",
    "PostgreSQL advisory lock",
    "pg_advisory_lock held by a session until unlocked or the session ends; no fencing token.",
);

impl Factory for PostgresSettings {
    fn build(&self) -> Result<Rc<dyn Design>, ScenarioError> {
        // A holder of transaction-level locks sits inside its open transaction, where only the
        // in-transaction timeout applies.
        let idle_timeout_ms =
            if self.transaction_level { self.idle_in_transaction_session_timeout_ms } else { self.idle_session_timeout_ms };
        if self.pgbouncer_pool_size.is_some() {
            let alone = [
                (Self::transaction_level, self.transaction_level),
                (Self::same_database, self.same_database),
                (Self::idle_session_timeout_ms, self.idle_session_timeout_ms.is_some()),
                (Self::idle_in_transaction_session_timeout_ms, self.idle_in_transaction_session_timeout_ms.is_some()),
            ];
            if let Some((p, _)) = alone.iter().find(|(_, set)| *set) {
                return Err(ScenarioError::new(
                    Self::pgbouncer_pool_size.path(),
                    format!(
                        "the pooler is modelled with session-level locks on an external resource and no timeouts: leave {} out",
                        p.name
                    ),
                ));
            }
        }
        Ok(Rc::new(PgDesign {
            values: self.to_values(),
            idle_timeout_ms,
            same_database: self.same_database,
            transaction_level: self.transaction_level,
            pool_size: self.pgbouncer_pool_size,
        }))
    }
}

impl Kind for Postgres {
    fn summary(&self) -> &'static Summary {
        &SUMMARY
    }

    fn rows(&self, ttl_ms: u64) -> Vec<Row> {
        let rows = |timeout: bool, same: bool| {
            let settings =
                PostgresSettings { idle_session_timeout_ms: timeout.then_some(ttl_ms), same_database: same, ..PostgresSettings::new() };
            let design = settings.configure();
            Rows { design, services: 1, service_name: "PostgreSQL", elapsed_timers: true }
        };
        vec![
            rows(true, true).row(
                "pg-same",
                "PostgreSQL 14+, idle_session_timeout, rows in the same database",
                "none: the session guards the commit",
                None,
            ),
            rows(true, false).row(
                "pg-external",
                "PostgreSQL 14+, idle_session_timeout, external resource",
                "none",
                Some(ResourceMode::Unfenced),
            ),
            rows(false, true).row(
                "pg-no-timeout",
                "PostgreSQL, no idle_session_timeout (the default)",
                "none: the session guards the commit",
                None,
            ),
        ]
    }
}

/// PostgreSQL advisory locks, configured.
#[derive(Debug)]
pub struct PgDesign {
    values: Values,
    /// The timeout that ends a silent holder's session: `idle_session_timeout`, or inside a
    /// transaction (transaction-level locks) `idle_in_transaction_session_timeout`.
    idle_timeout_ms: Option<u64>,
    same_database: bool,
    transaction_level: bool,
    /// Server connections behind a transaction-pooling PgBouncer, if clients go through one.
    pool_size: Option<u64>,
}

impl Protocol for PgDesign {
    fn service(&self, _index: usize, _nodes: &[NodeId]) -> Option<Box<dyn Actor>> {
        Some(match self.pool_size {
            Some(n) => Box::new(PooledServer::new(n as usize)),
            None => Box::new(PgServer::new(self.idle_timeout_ms, self.transaction_level)),
        })
    }

    fn client(&self, nodes: &[NodeId]) -> Option<Box<dyn LockClient>> {
        Some(Box::new(PgClient { server: nodes[0], idle_timeout_ms: self.idle_timeout_ms, acquire_sent_at: 0, renew_sent_at: 0 }))
    }

    fn data_in_service(&self) -> bool {
        self.same_database
    }
}

impl Design for PgDesign {
    fn kind(&self) -> &'static dyn Kind {
        &Postgres
    }

    fn values(&self) -> &Values {
        &self.values
    }

    fn guarantees(&self) -> Guarantees {
        let timeout = self.timeout_name();
        let liveness = match self.idle_timeout_ms {
            Some(t) => {
                format!("If a holder runs no statement for {} ({timeout}), the server ends its session and the next waiting session gets the lock.", ms(t))
            }
            None => format!(
                "Nothing ends a silent holder's session (its kernel still answers TCP keepalives, and no {timeout} is set): a paused holder keeps the lock, and everyone waits until it comes back."
            ),
        };
        Guarantees {
            lock: if self.same_database { LockKind::Correctness } else { LockKind::Efficiency },
            safety: if self.pool_size.is_some() {
                "None behind a transaction pooler: the lock belongs to a server connection that other clients' statements also use, so a second client can find it already its session's, and an unlock can land on a connection that holds nothing.".into()
            } else if self.same_database {
                "One session holds the lock at a time, and the rows live in the same database: a write commits only in a live session, so a holder whose session was ended cannot commit.".into()
            } else {
                "One session holds the lock at a time, but there is no fencing token: a resource outside the database cannot tell a holder whose session was ended from the current one.".into()
            },
            liveness,
            assumes: "A single PostgreSQL server; the lock fences only writes made over the same session.".into(),
        }
    }

    fn services(&self) -> Services {
        Services { count: 1..=1, what: "one PostgreSQL server" }
    }

    fn release_modes(&self) -> &'static [ReleaseMode] {
        &[ReleaseMode::Safe, ReleaseMode::Commit]
    }

    fn expires(&self) -> bool {
        self.idle_timeout_ms.is_some()
    }
}

impl PgDesign {
    /// The setting that ends a silent holder's session: inside the transaction that holds
    /// transaction-level locks, only `idle_in_transaction_session_timeout` does.
    fn timeout_name(&self) -> &'static str {
        if self.transaction_level {
            "idle_in_transaction_session_timeout"
        } else {
            "idle_session_timeout"
        }
    }

    /// How long a granted lock is held.
    fn held_until(&self) -> &'static str {
        if self.transaction_level {
            "until its transaction commits or rolls back (there is no unlock)"
        } else {
            "until released"
        }
    }

    fn lock_call(&self) -> &'static str {
        if self.transaction_level {
            "pg_advisory_xact_lock(42)"
        } else {
            "pg_advisory_lock(42)"
        }
    }
}

impl Vocabulary for PgDesign {
    fn token(&self, _token: u64) -> Option<String> {
        None
    }

    fn lock(&self, _token: u64) -> String {
        "the advisory lock".into()
    }

    fn how_ended(&self, how: LockEnd) -> &'static str {
        match how {
            LockEnd::Expired => "session ended",
            LockEnd::Released => "released",
            LockEnd::DeletedByOther => "released by another session",
            LockEnd::LostOnRestart | LockEnd::Resynced => "server restarted",
            LockEnd::Replaced => "replaced",
        }
    }

    fn label(&self, msg: &LockMsg, _names: Names) -> String {
        let Some(msg) = msg.get::<PgMsg>() else { return String::new() };
        match *msg {
            PgMsg::Lock => format!("SELECT {}", self.lock_call()),
            PgMsg::Locked => "locked".into(),
            PgMsg::Waiting => "blocked: no reply".into(),
            PgMsg::KeepAlive => "SELECT 1".into(),
            PgMsg::Alive => "session alive".into(),
            PgMsg::SessionEnded => "FATAL: session terminated".into(),
            PgMsg::Unlock => "SELECT pg_advisory_unlock(42)".into(),
            PgMsg::Commit => "COMMIT".into(),
            PgMsg::Unlocked { done: true, commit: false } => "t".into(),
            PgMsg::Unlocked { done: false, commit: false } => "f: WARNING, not held".into(),
            PgMsg::Unlocked { done: true, commit: true } => "COMMIT: locks released".into(),
            PgMsg::Unlocked { done: false, commit: true } => "COMMIT: session lock stays".into(),
        }
    }

    fn receiving(&self, msg: &LockMsg, me: &str, from: &str) -> Option<String> {
        (msg.get::<PgMsg>() == Some(&PgMsg::Waiting)).then(|| {
            format!("{me}'s query is blocked behind the holder; {from} will say nothing until the lock is free or the session ends.")
        })
    }

    fn sending(&self, msg: &LockMsg, me: &str, to: &str, _names: Names) -> String {
        let Some(msg) = msg.get::<PgMsg>() else { return String::new() };
        match *msg {
            PgMsg::Lock => format!("{me} runs SELECT {} on {to}: take the advisory lock, waiting as long as it takes.", self.lock_call()),
            PgMsg::Locked if self.pool_size.is_some() => {
                format!("{me} answers {to}: the lock call returned; the lock is held by a pooled server connection's session. There is no token to carry.")
            }
            PgMsg::Locked => format!("{me} answers {to}: the advisory lock is held by {to}'s session. There is no token to carry."),
            PgMsg::Waiting => format!(
                "{me} queues {to}'s request behind the holder and sends nothing: {to}'s query does not return until the lock is free. The real server is silent; the model draws the wait as an arrow so that it shows."
            ),
            PgMsg::KeepAlive => format!("{me} runs SELECT 1 on its session, so that {to} does not end it as idle."),
            PgMsg::Alive => format!("{me} answers {to}: the session is alive."),
            PgMsg::SessionEnded => format!("{me} tells {to}: its session was terminated; nothing more runs on it."),
            PgMsg::Unlock => format!("{me} runs SELECT pg_advisory_unlock(42) on {to}."),
            PgMsg::Commit => {
                format!("{me} commits its transaction on {to}; the commit releases every transaction-level advisory lock it took.")
            }
            PgMsg::Unlocked { done: true, commit: false } if self.pool_size.is_some() => format!(
                "{me} answers {to}: t. The unlock ran on a server connection whose session held the lock, and took off one of that session's locks on it."
            ),
            PgMsg::Unlocked { done: true, commit: false } => format!("{me} answers {to}: t, the advisory lock is released."),
            PgMsg::Unlocked { done: false, commit: false } => {
                format!("{me} answers {to}: f, with a warning: {to} does not hold that lock.")
            }
            PgMsg::Unlocked { done: true, commit: true } => {
                format!("{me} answers {to}: COMMIT, and its transaction-level locks are released.")
            }
            PgMsg::Unlocked { done: false, commit: true } => {
                format!("{me} answers {to}: COMMIT, but a session-level lock does not end with a transaction.")
            }
        }
    }

    fn lasts(&self, expires_local: Option<i64>) -> String {
        match expires_local {
            Some(t) => format!("while its session lives (ended at {} if it runs no statement by then)", local(t)),
            None => format!("while its session lives (no {} ends it)", self.timeout_name()),
        }
    }

    fn believes(&self, until_local: Option<i64>) -> String {
        match until_local {
            Some(t) => format!("as long as its session lives: until {} on its own clock unless it runs a statement first", local(t)),
            None => "for as long as its session lives; nothing ends it on a timer".into(),
        }
    }

    fn granted(&self, me: &str, holder: &str, _token: u64, expires_local: Option<i64>) -> String {
        if self.pool_size.is_some() {
            return format!(
                "{me} runs {holder}'s lock call on the most recently used free server connection. That connection's session now holds the lock, or held it already for whichever client's statement took it there: a session's locks stack, so the call returns at once. The lock is the session's, not {holder}'s."
            );
        }
        let timeout = self.timeout_name();
        let end = match expires_local {
            Some(t) => {
                format!(", which {me} does if {holder}'s session has run no statement by the time its clock reads {} ({timeout})", group(t))
            }
            None => format!("; with no {timeout}, nothing ends a silent session"),
        };
        format!(
            "{me} grants the advisory lock to {holder}'s session. It is held {} or until the session ends{end}. There is no fencing token.",
            self.held_until()
        )
    }

    fn ended(&self, me: &str, holder: &str, _token: u64, how: LockEnd) -> String {
        match how {
            LockEnd::Expired => format!(
                "{me} ends {holder}'s session: it has run no statement for {}. pg_advisory_unlock_all runs implicitly, and nothing {holder} sends over that session can commit any more.",
                self.timeout_name()
            ),
            LockEnd::Released if self.pool_size.is_some() => {
                format!("The session's last stacked lock is undone, and with it the hold {holder}'s call took; the next blocked call gets the lock.")
            }
            LockEnd::Released => format!("{holder}'s advisory lock is released; the next waiting session gets it."),
            LockEnd::LostOnRestart | LockEnd::Resynced => format!("{me} restarts: every session, and every advisory lock, is gone."),
            LockEnd::DeletedByOther | LockEnd::Replaced => format!("{holder}'s advisory lock is gone: {}.", self.how_ended(how)),
        }
    }

    fn renewal(&self) -> &'static str {
        "keep-alive statement"
    }

    fn write_to_service(&self, _token: u64, value: &str) -> String {
        format!("UPDATE rows SET value = {value_q}", value_q = Quoted(value))
    }

    fn guard_refused(&self, _token: u64) -> String {
        "session terminated: cannot commit".into()
    }

    fn expiries(&self) -> &'static str {
        "sessions ended"
    }

    fn data_kept_by(&self) -> &'static str {
        "same_database is true"
    }
}

/// A PostgreSQL server holding one advisory lock key.
pub struct PgServer {
    idle_timeout_ms: Option<u64>,
    /// Whether locks are transaction-level (`pg_advisory_xact_lock`).
    transaction_level: bool,
    /// Live sessions and when the server last heard from each, on its clock.
    sessions: Vec<(NodeId, i64)>,
    /// Sessions the server ended: nothing more runs on them.
    ended: Vec<NodeId>,
    /// The holder and how many times its session has locked the key.
    holder: Option<(NodeId, u32)>,
    waiters: VecDeque<NodeId>,
    /// The version of the rows kept in this database.
    version: u64,
}

impl PgServer {
    /// Builds a server; without a timeout, sessions of silent clients never end.
    pub fn new(idle_timeout_ms: Option<u64>, transaction_level: bool) -> Self {
        PgServer {
            idle_timeout_ms,
            transaction_level,
            sessions: Vec::new(),
            ended: Vec::new(),
            holder: None,
            waiters: VecDeque::new(),
            version: 0,
        }
    }

    fn heard(&mut self, cx: &mut Cx, client: NodeId) {
        match self.sessions.iter_mut().find(|s| s.0 == client) {
            Some(s) => s.1 = cx.now,
            None => self.sessions.push((client, cx.now)),
        }
        if let Some(t) = self.idle_timeout_ms {
            cx.at(Timer::Expiry(client.0 as u64), cx.now + t as i64);
        }
    }

    fn alive(&self, client: NodeId) -> bool {
        self.sessions.iter().any(|s| s.0 == client)
    }

    /// Grants the lock; the session's lock call returns, so its idle time starts now.
    fn grant(&mut self, cx: &mut Cx, client: NodeId) {
        self.heard(cx, client);
        self.holder = Some((client, 1));
        let expires_local = self.idle_timeout_ms.map(|t| cx.now + t as i64);
        cx.note(EventKind::LockGranted { holder: client, token: 0, expires_local });
        cx.send(client, Msg::lock(PgMsg::Locked));
    }

    /// Frees the lock and hands it to the first waiter whose session still lives.
    fn free(&mut self, cx: &mut Cx, how: LockEnd) {
        if let Some((holder, _)) = self.holder.take() {
            cx.note(EventKind::LockEnded { holder, token: 0, how });
        }
        while let Some(next) = self.waiters.pop_front() {
            if self.alive(next) {
                return self.grant(cx, next);
            }
        }
    }

    /// Ends the sessions that have run no statement in time, unlocking all they held. A session
    /// waiting in its lock call is running a statement, so it is not idle.
    fn end_silent_sessions(&mut self, cx: &mut Cx) {
        let Some(t) = self.idle_timeout_ms else { return };
        let silent: Vec<NodeId> =
            self.sessions.iter().filter(|s| cx.now - s.1 >= t as i64 && !self.waiters.contains(&s.0)).map(|s| s.0).collect();
        for client in silent {
            self.sessions.retain(|s| s.0 != client);
            self.ended.push(client);
            if self.holder.is_some_and(|h| h.0 == client) {
                self.free(cx, LockEnd::Expired);
            }
        }
    }

    fn handle(&mut self, cx: &mut Cx, from: NodeId, msg: &PgMsg, alive: bool) {
        if self.ended.contains(&from) {
            if *msg != PgMsg::Lock {
                // The connection is closed: every statement fails.
                return cx.send(from, Msg::lock(PgMsg::SessionEnded));
            }
            // A new lock call comes on a new connection, with a new session.
            self.ended.retain(|c| *c != from);
        }
        match *msg {
            PgMsg::KeepAlive if alive => {
                self.heard(cx, from);
                cx.send(from, Msg::lock(PgMsg::Alive));
            }
            PgMsg::KeepAlive => cx.send(from, Msg::lock(PgMsg::SessionEnded)),
            PgMsg::Lock => {
                self.heard(cx, from);
                match self.holder {
                    None => self.grant(cx, from),
                    // Requests stack: the same session must unlock as many times.
                    Some((h, n)) if h == from => {
                        self.holder = Some((h, n + 1));
                        cx.send(from, Msg::lock(PgMsg::Locked));
                    }
                    Some(_) => {
                        self.waiters.push_back(from);
                        cx.send(from, Msg::lock(PgMsg::Waiting));
                    }
                }
            }
            PgMsg::Unlock | PgMsg::Commit => {
                // COMMIT releases transaction-level locks (however often they were taken) and
                // never session-level ones; pg_advisory_unlock the other way round.
                let commit = *msg == PgMsg::Commit;
                let done = match self.holder {
                    Some((h, _)) if h == from && alive && commit && self.transaction_level => {
                        self.free(cx, LockEnd::Released);
                        true
                    }
                    Some((h, n)) if h == from && alive && !commit && !self.transaction_level => {
                        if n > 1 {
                            self.holder = Some((h, n - 1));
                        } else {
                            self.free(cx, LockEnd::Released);
                        }
                        true
                    }
                    // pg_advisory_unlock returns false, with a warning, for a lock not held.
                    Some(_) | None => false,
                };
                cx.send(from, Msg::lock(PgMsg::Unlocked { done, commit }));
            }
            PgMsg::Locked | PgMsg::Waiting | PgMsg::Alive | PgMsg::SessionEnded | PgMsg::Unlocked { .. } => {}
        }
    }

    /// Writes the rows kept here, inside the writer's session if it still lives.
    fn write(&mut self, cx: &mut Cx, from: NodeId, token: u64, value: &str, alive: bool) {
        let value = value.to_string();
        if !alive {
            let reason = Rejection::Guard { token };
            cx.note(EventKind::WriteRejected { writer: from, token, value, reason: reason.clone() });
            return cx.send(from, Msg::WriteRejected { reason });
        }
        self.heard(cx, from);
        self.version += 1;
        cx.note(EventKind::WriteAccepted { writer: from, token, value, version: self.version });
        cx.send(from, Msg::WriteAccepted { version: self.version });
    }
}

impl Actor for PgServer {
    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &Msg) {
        self.end_silent_sessions(cx);
        let alive = self.alive(from);
        match msg {
            Msg::Lock { msg } => {
                if let Some(msg) = msg.get::<PgMsg>() {
                    self.handle(cx, from, msg, alive);
                }
            }
            Msg::Write { token, value, .. } => self.write(cx, from, *token, value, alive),
            Msg::Read | Msg::ReadResult { .. } | Msg::Undo { .. } | Msg::WriteAccepted { .. } | Msg::WriteRejected { .. } => {}
        }
    }

    fn on_timer(&mut self, cx: &mut Cx, timer: Timer) {
        if let Timer::Expiry(_) = timer {
            self.end_silent_sessions(cx);
        }
    }

    fn on_restart(&mut self, cx: &mut Cx, _keep_state: bool) {
        // A restarted server has no sessions: every advisory lock is gone, and every client's
        // connection was reset, so a waiting lock call fails at once.
        let known: Vec<NodeId> = self.sessions.drain(..).map(|s| s.0).collect();
        for w in std::mem::take(&mut self.waiters) {
            cx.send(w, Msg::lock(PgMsg::SessionEnded));
        }
        self.ended.extend(known);
        self.free(cx, LockEnd::LostOnRestart);
    }
}

/// A client's side: one session, kept alive while it holds (while it waits, its lock call
/// keeps the session busy).
struct PgClient {
    server: NodeId,
    idle_timeout_ms: Option<u64>,
    acquire_sent_at: i64,
    renew_sent_at: i64,
}

impl PgClient {
    fn until(&self, since: i64) -> Option<i64> {
        self.idle_timeout_ms.map(|t| since + t as i64)
    }
}

impl LockClient for PgClient {
    fn acquire(&mut self, cx: &mut Cx, timeout_ms: u64) {
        self.acquire_sent_at = cx.now;
        cx.send(self.server, Msg::lock(PgMsg::Lock));
        cx.after(Timer::Timeout, timeout_ms);
    }

    fn on_message(&mut self, cx: &mut Cx, _from: NodeId, msg: &LockMsg, view: ClientView) -> Progress {
        let Some(msg) = msg.get::<PgMsg>() else { return Progress::Pending };
        match *msg {
            PgMsg::Locked => {
                // A waiting session's idle time starts when its lock call returns, which the
                // client learns as the reply arrives (a little after, as a real client would).
                let since = if view.queued { cx.now } else { self.acquire_sent_at };
                Progress::Granted { token: 0, until_local: self.until(since) }
            }
            PgMsg::Waiting => Progress::Queued,
            PgMsg::Alive => Progress::Renewed { until_local: self.until(self.renew_sent_at) },
            // Its unlock failed with the session: nothing is left to release.
            PgMsg::SessionEnded if view.held.is_none() && !view.acquiring => Progress::Released,
            // Its lock call failed as the server restarted: try again, on a new connection.
            PgMsg::SessionEnded if view.acquiring => Progress::Refused,
            PgMsg::SessionEnded => Progress::Lost,
            PgMsg::Unlocked { .. } => Progress::Released,
            PgMsg::Lock | PgMsg::KeepAlive | PgMsg::Unlock | PgMsg::Commit => Progress::Pending,
        }
    }

    fn on_timeout(&mut self, _cx: &mut Cx, _timeout_ms: u64) -> Progress {
        Progress::Refused
    }

    fn renews_while_queued(&self) -> bool {
        false
    }

    fn renew(&mut self, cx: &mut Cx, _held: Option<u64>) {
        self.renew_sent_at = cx.now;
        cx.send(self.server, Msg::lock(PgMsg::KeepAlive));
    }

    fn release(&mut self, cx: &mut Cx, held: Option<u64>, _last: u64, mode: ReleaseMode) -> Release {
        if held.is_none() {
            return Release::Nothing;
        }
        let msg = if mode == ReleaseMode::Commit { PgMsg::Commit } else { PgMsg::Unlock };
        cx.send(self.server, Msg::lock(msg));
        Release::AwaitReply
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::actor::testing::{self, sent};

    fn call(node: &mut PgServer, now: i64, from: usize, msg: PgMsg) -> Vec<(usize, Msg)> {
        sent(&testing::call(node, now, from, Msg::lock(msg)))
    }

    fn to(client: usize, msg: PgMsg) -> (usize, Msg) {
        (client, Msg::lock(msg))
    }

    #[test]
    fn requests_stack_and_need_as_many_unlocks() {
        let mut pg = PgServer::new(None, false);
        call(&mut pg, 0, 1, PgMsg::Lock);
        call(&mut pg, 1, 1, PgMsg::Lock);
        assert_eq!(call(&mut pg, 2, 2, PgMsg::Lock), vec![to(2, PgMsg::Waiting)]);
        assert_eq!(call(&mut pg, 3, 1, PgMsg::Unlock), vec![to(1, PgMsg::Unlocked { done: true, commit: false })]);
        assert_eq!(pg.holder, Some((NodeId(1), 1)), "still held once");
        let out = call(&mut pg, 4, 1, PgMsg::Unlock);
        assert_eq!(out[0], to(2, PgMsg::Locked), "the waiter gets it after the second unlock");
        assert_eq!(call(&mut pg, 5, 1, PgMsg::Unlock), vec![to(1, PgMsg::Unlocked { done: false, commit: false })]);
    }

    #[test]
    fn a_silent_session_ends_and_its_locks_go_with_it() {
        let mut pg = PgServer::new(Some(1000), false);
        call(&mut pg, 0, 1, PgMsg::Lock);
        call(&mut pg, 10, 2, PgMsg::Lock);
        call(&mut pg, 900, 2, PgMsg::KeepAlive);
        assert!(call(&mut pg, 1000, 2, PgMsg::KeepAlive).contains(&to(2, PgMsg::Locked)));
        // The dead session's transaction cannot commit.
        let w = sent(&testing::call(&mut pg, 1500, 1, Msg::Write { token: 0, value: "A".into(), expected_version: None }));
        assert_eq!(w, vec![(1, Msg::WriteRejected { reason: Rejection::Guard { token: 0 } })]);
    }

    #[test]
    fn a_waiting_session_is_busy_not_idle_and_its_idle_time_starts_at_the_grant() {
        let mut pg = PgServer::new(Some(1000), false);
        call(&mut pg, 0, 1, PgMsg::Lock);
        call(&mut pg, 10, 2, PgMsg::Lock);
        // A's session ends at 1,000; B, silent in its lock call since 10, gets the lock.
        call(&mut pg, 1000, 3, PgMsg::KeepAlive);
        assert_eq!(pg.holder, Some((NodeId(2), 1)));
        assert_eq!(call(&mut pg, 1900, 2, PgMsg::KeepAlive), vec![to(2, PgMsg::Alive)], "idle since the grant, not since 10");
    }

    #[test]
    fn nothing_runs_on_a_terminated_session() {
        let mut pg = PgServer::new(Some(1000), false);
        call(&mut pg, 0, 1, PgMsg::Lock);
        call(&mut pg, 1000, 2, PgMsg::KeepAlive);
        assert_eq!(call(&mut pg, 1001, 1, PgMsg::Unlock), vec![to(1, PgMsg::SessionEnded)]);
        // A new lock call is a new connection and a new session.
        assert_eq!(call(&mut pg, 1002, 1, PgMsg::Lock), vec![to(1, PgMsg::Locked)]);
    }

    #[test]
    fn a_restart_fails_every_waiting_lock_call() {
        let mut pg = PgServer::new(None, false);
        call(&mut pg, 0, 1, PgMsg::Lock);
        call(&mut pg, 1, 2, PgMsg::Lock);
        let out = sent(&testing::restart(&mut pg, 10));
        assert_eq!(out, vec![to(2, PgMsg::SessionEnded)], "the waiter's connection was reset");
        assert_eq!(call(&mut pg, 11, 1, PgMsg::Unlock), vec![to(1, PgMsg::SessionEnded)], "the holder's session is gone");
        assert_eq!(call(&mut pg, 12, 2, PgMsg::Lock), vec![to(2, PgMsg::Locked)], "a new session takes the free lock");
    }

    #[test]
    fn one_commit_releases_every_transaction_level_lock() {
        let mut pg = PgServer::new(None, true);
        call(&mut pg, 0, 1, PgMsg::Lock);
        call(&mut pg, 1, 1, PgMsg::Lock);
        assert_eq!(call(&mut pg, 2, 2, PgMsg::Lock), vec![to(2, PgMsg::Waiting)]);
        // pg_advisory_unlock cannot release a transaction-level lock.
        assert_eq!(call(&mut pg, 3, 1, PgMsg::Unlock), vec![to(1, PgMsg::Unlocked { done: false, commit: false })]);
        assert_eq!(call(&mut pg, 4, 1, PgMsg::Commit)[0], to(2, PgMsg::Locked), "one commit frees both requests");
    }

    #[test]
    fn commit_does_not_release_a_session_level_lock() {
        let mut pg = PgServer::new(None, false);
        call(&mut pg, 0, 1, PgMsg::Lock);
        assert_eq!(call(&mut pg, 1, 1, PgMsg::Commit), vec![to(1, PgMsg::Unlocked { done: false, commit: true })]);
        assert_eq!(pg.holder, Some((NodeId(1), 1)));
    }

    #[test]
    fn without_a_timeout_a_silent_holder_keeps_the_lock() {
        let mut pg = PgServer::new(None, false);
        call(&mut pg, 0, 1, PgMsg::Lock);
        assert_eq!(call(&mut pg, 60_000, 2, PgMsg::Lock), vec![to(2, PgMsg::Waiting)]);
    }
}
