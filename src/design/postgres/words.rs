//! How the PostgreSQL design says what happens: its vocabulary.

use super::PgDesign;
use crate::design::pg_wire::PgMsg;
use crate::engine::event::LockEnd;
use crate::engine::msg::LockMsg;
use crate::engine::time::LocalMillis;
use crate::present::number::{local, reading};
use crate::present::quoted::Quoted;
use crate::present::{Names, Vocabulary};

impl PgDesign {
    /// The setting that ends a silent holder's session: inside the transaction that holds
    /// transaction-level locks, only `idle_in_transaction_session_timeout` does.
    pub(super) fn timeout_name(&self) -> &'static str {
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
            LockEnd::SessionClosed => "connection closed",
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

    fn lasts(&self, expires_local: Option<LocalMillis>) -> String {
        match expires_local {
            Some(t) => format!("while its session lives (ended at {} if it runs no statement by then)", local(t)),
            None => format!("while its session lives (no {} ends it)", self.timeout_name()),
        }
    }

    fn believes(&self, until_local: Option<LocalMillis>) -> String {
        match until_local {
            Some(t) => format!("as long as its session lives: until {} on its own clock unless it runs a statement first", local(t)),
            None => "for as long as its session lives; nothing ends it on a timer".into(),
        }
    }

    fn granted(&self, me: &str, holder: &str, _token: u64, expires_local: Option<LocalMillis>) -> String {
        if self.pool_size.is_some() {
            return format!(
                "{me} runs {holder}'s lock call on the most recently used free server connection. That connection's session now holds the lock, or held it already for whichever client's statement took it there: a session's locks stack, so the call returns at once. The lock is the session's, not {holder}'s."
            );
        }
        let timeout = self.timeout_name();
        let end = match expires_local {
            Some(t) => {
                format!(
                    ", which {me} does if {holder}'s session has run no statement by the time its clock reads {} ({timeout})",
                    reading(t)
                )
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
            LockEnd::SessionClosed => format!(
                "{holder}'s connection closes, so {me} ends its session: pg_advisory_unlock_all runs implicitly, even though the client disconnected ungracefully."
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
