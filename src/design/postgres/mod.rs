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

mod client;
mod service;
mod settings;
#[cfg(test)]
mod tests;
mod words;

pub use super::pg_wire::PgMsg;
use super::pgbouncer::PooledServer;
use super::{Design, Factory, Guarantees, Kind, LockKind, Row, Rows, Services, Summary, Values};
use crate::engine::actor::Actor;
use crate::engine::clock::TimerClock;
use crate::engine::ids::NodeId;
use crate::engine::msg::ReleaseMode;
use crate::engine::protocol::{LockClient, Protocol};
use crate::engine::spec::ResourceMode;
use crate::engine::time::Millis;
use crate::present::number::ms;
use client::PgClient;
pub use service::PgServer;
pub use settings::PostgresSettings;

/// The registry entry.
pub struct Postgres;

/// The design as the registry lists it.
static SUMMARY: Summary = Summary::of::<PostgresSettings>(
    "postgres",
    "PostgreSQL advisory lock",
    "pg_advisory_lock held by a session until unlocked or the session ends; no fencing token.",
);

impl Kind for Postgres {
    fn summary(&self) -> &'static Summary {
        &SUMMARY
    }

    fn rows(&self, ttl_ms: u64) -> Vec<Row> {
        let rows = |timeout: bool, same: bool| {
            let settings =
                PostgresSettings { idle_session_timeout_ms: timeout.then_some(ttl_ms), same_database: same, ..PostgresSettings::new() };
            let design = settings.configure();
            Rows { design, services: 1, service_name: "PostgreSQL" }
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
    idle_timeout_ms: Option<Millis>,
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
        Some(Box::new(PgClient::new(nodes[0], self.idle_timeout_ms)))
    }

    fn data_in_service(&self) -> bool {
        self.same_database
    }

    /// PostgreSQL's timeouts are interval timers: they count elapsed time.
    fn service_clock(&self) -> TimerClock {
        TimerClock::Monotonic
    }

    fn connections(&self) -> &'static str {
        "a session ends when its connection does, and pg_advisory_unlock_all runs implicitly even after an ungraceful disconnect (here, a client that hangs up ends its session when its close arrives); the server finds a silent peer only by TCP keepalive (tcp_keepalives_idle 0: the system's 7,200 s, then 9 probes 75 s apart) or tcp_user_timeout (0: the system's retransmission limit, about 15 minutes), which no lesson here lasts long enough to reach, and a paused client's kernel answers keepalives anyway"
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
