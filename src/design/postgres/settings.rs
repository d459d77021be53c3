//! The PostgreSQL design's settings, declared once, and how they build the design.

use super::PgDesign;
use crate::design::param::settings;
use crate::design::{Design, Factory, Settings};
use crate::engine::time::Millis;
use crate::error::ScenarioError;
use crate::limits::MAX_SETTING_MS;
use std::rc::Rc;

settings! {
    /// How the PostgreSQL advisory lock is set up.
    pub struct PostgresSettings {
        /// PostgreSQL's idle_session_timeout (14+): a session that runs no statement for this long outside a transaction is ended, and its
        /// advisory locks with it; left out, it never is (the default). Formerly session_timeout_ms.
        idle_session_timeout_ms: Option<u64> = optional("ms", 1..=MAX_SETTING_MS).formerly("session_timeout_ms"),
        /// PostgreSQL's idle_in_transaction_session_timeout: a session idle inside an open transaction for this long is ended, its
        /// transaction rolled back and its locks released; left out, it never is (the default). The only timeout that frees a
        /// transaction-level lock.
        idle_in_transaction_session_timeout_ms: Option<u64> = optional("ms", 1..=MAX_SETTING_MS),
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

impl Factory for PostgresSettings {
    fn build(&self) -> Result<Rc<dyn Design>, ScenarioError> {
        // A holder of transaction-level locks sits inside its open transaction, where only the
        // in-transaction timeout applies.
        let idle_timeout_ms =
            if self.transaction_level { self.idle_in_transaction_session_timeout_ms } else { self.idle_session_timeout_ms };
        let idle_timeout_ms = idle_timeout_ms.map(Millis::from_ms);
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
