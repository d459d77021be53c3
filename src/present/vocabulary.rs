//! A lock design's own words: what its token is called, what a holder holds, how its messages
//! read, and how its lock service describes a grant, an extension and an end. `Words` builds
//! every sentence from these; the defaults speak of a plain lease.

use super::number::{local, reading};
use super::quoted::Quoted;
use crate::engine::event::LockEnd;
use crate::engine::msg::LockMsg;
use crate::engine::time::LocalMillis;
use crate::engine::trace::NodeInfo;
use crate::engine::NodeId;

/// Participants' display names, for words that mention a node other than sender and receiver.
#[derive(Clone, Copy)]
pub struct Names<'a>(pub &'a [NodeInfo]);

impl<'a> Names<'a> {
    /// Returns a participant's display name.
    pub fn of(&self, id: NodeId) -> &'a str {
        self.0.get(id.0).map_or("?", |p| p.name.as_str())
    }
}

/// The words one lock design uses. NodeInfo names arrive already resolved. (A default that
/// builds a sentence around the design's own words does so in an inner function, so each
/// design's copy of the default is only the call.)
pub trait Vocabulary {
    /// Names a fencing token with its value (`token 41`, `czxid 3`), or `None` if the design
    /// hands out none.
    fn token(&self, token: u64) -> Option<String>;

    /// Names what a lock-service node holds for a holder under `token`: `lease 41`, `the key`,
    /// `the znode (czxid 3)`.
    fn lock(&self, token: u64) -> String;

    /// Says briefly how a lock ended: `expired`, `session expired`.
    fn how_ended(&self, how: LockEnd) -> &'static str {
        match how {
            LockEnd::Expired | LockEnd::SessionClosed => "expired",
            LockEnd::Released => "released",
            LockEnd::DeletedByOther => "deleted by another client",
            LockEnd::LostOnRestart => "lost on restart",
            LockEnd::Replaced => "replaced by another holder",
            LockEnd::Resynced => "dropped in a full resync",
        }
    }

    /// Labels one of the design's messages for an arrow or a log line.
    fn label(&self, msg: &LockMsg, names: Names) -> String;

    /// Says that `me` sends `msg` to `to`, as one sentence.
    fn sending(&self, msg: &LockMsg, me: &str, to: &str, names: Names) -> String;

    /// Says that `me` receives `msg` from `from`, where "receives “label”" would mislead.
    fn receiving(&self, _msg: &LockMsg, _me: &str, _from: &str) -> Option<String> {
        None
    }

    /// Says how long a grant lasts on the service's clock: `until local 1,005`.
    fn lasts(&self, expires_local: Option<LocalMillis>) -> String {
        match expires_local {
            Some(t) => format!("until {}", local(t)),
            None => "with no expiry".into(),
        }
    }

    /// Says how long a client believes it holds the lock, on its own clock.
    fn believes(&self, until_local: Option<LocalMillis>) -> String {
        match until_local {
            Some(t) => format!("until {} on its own clock", local(t)),
            None => "with no end it can foresee".into(),
        }
    }

    /// Says that the lock-service node `me` now holds the lock for `holder`.
    fn granted(&self, me: &str, holder: &str, token: u64, expires_local: Option<LocalMillis>) -> String {
        let whom = match self.token(token) {
            Some(t) => format!("{holder} ({t})"),
            None => holder.to_string(),
        };
        match expires_local {
            Some(t) => format!("{me} grants the lock to {whom}; it ends when {me}'s clock reads {}.", reading(t)),
            None => format!("{me} grants the lock to {whom}; it does not expire on its own."),
        }
    }

    /// Says that `me` extended `holder`'s lock.
    fn extended(&self, me: &str, holder: &str, token: u64, expires_local: Option<LocalMillis>) -> String {
        fn words(me: &str, holder: &str, lock: String, lasts: String) -> String {
            format!("{me} extends {holder}'s {lock} {lasts}.")
        }
        words(me, holder, self.lock(token), self.lasts(expires_local))
    }

    /// Says that `me` no longer holds `holder`'s lock, and why.
    fn ended(&self, me: &str, holder: &str, token: u64, how: LockEnd) -> String {
        fn words(me: &str, holder: &str, lock: String, how: LockEnd) -> String {
            match how {
                LockEnd::Expired | LockEnd::SessionClosed => format!(
                    "{} expires on {me}'s clock. Nobody tells {holder}: it may still think the lock is its own.",
                    super::number::capital(&lock)
                ),
                LockEnd::Released => format!("{holder} released {lock}; the lock is free."),
                LockEnd::DeletedByOther => {
                    format!("An unchecked release deletes {lock}, which belongs to {holder}: the lock is free while {holder} still works.")
                }
                LockEnd::LostOnRestart => {
                    format!("{me} comes back without {lock} of {holder}: it was lost with the memory when {me} crashed.")
                }
                LockEnd::Replaced => format!("{holder} no longer holds {lock}: another client wrote itself in as holder."),
                LockEnd::Resynced => {
                    format!("{me} drops its copy of {lock} of {holder}: it takes its new primary's whole dataset instead.")
                }
            }
        }
        words(me, holder, self.lock(token), how)
    }

    /// Labels the mark where a lock-service node stopped holding `holder`'s lock.
    fn ended_mark(&self, holder: &str, token: u64, how: LockEnd) -> String {
        fn words(holder: &str, lock: String, how: LockEnd) -> String {
            match how {
                LockEnd::Expired | LockEnd::SessionClosed => format!("{lock} expires"),
                LockEnd::Released => format!("{lock} released"),
                LockEnd::DeletedByOther => format!("{lock} of {holder} deleted"),
                LockEnd::LostOnRestart => format!("{lock} lost"),
                LockEnd::Replaced => format!("{lock} of {holder} taken over"),
                LockEnd::Resynced => format!("copy of {lock} dropped"),
            }
        }
        words(holder, self.lock(token), how)
    }

    /// Says that the replica `me` now keeps a copy of `holder`'s lock.
    fn replicated(&self, me: &str, holder: &str, token: u64) -> String {
        fn words(me: &str, holder: &str, lock: String) -> String {
            format!("{me} stores its copy of {lock} held by {holder}.")
        }
        words(me, holder, self.lock(token))
    }

    /// Says that `me`'s renewal failed for good, and whether it aborts or carries on.
    fn renewal_failed(&self, me: &str, abort: bool) -> String {
        if abort {
            format!("{me}'s {} failed; its policy is to abort.", self.renewal())
        } else {
            format!("{me}'s {} failed, but its policy is to carry on regardless.", self.renewal())
        }
    }

    /// Names what a renewal is in this design: `renewal`, `keep-alive`, `heartbeat`.
    fn renewal(&self) -> &'static str {
        "renewal"
    }

    /// Labels a write to data kept in the lock service itself.
    fn write_to_service(&self, token: u64, value: &str) -> String {
        fn words(token: Option<String>, value: &str) -> String {
            match token {
                Some(t) => format!("write {value_q} with {t}", value_q = Quoted(value)),
                None => format!("write {value_q}", value_q = Quoted(value)),
            }
        }
        words(self.token(token), value)
    }

    /// Says why the lock service refused a write to the data it keeps, for a writer that
    /// held the lock under `token`.
    fn guard_refused(&self, token: u64) -> String {
        fn words(lock: String) -> String {
            format!("{lock} no longer guards the data")
        }
        words(self.lock(token))
    }

    /// Names the thing clients take turns holding: `the lock`, `partition 0`.
    fn held(&self) -> &'static str {
        "the lock"
    }

    /// Names what the acquire-requests metric counts.
    fn acquires(&self) -> &'static str {
        "acquire requests"
    }

    /// Names what the expiries metric counts: `lease expiries`, `session expiries`.
    fn expiries(&self) -> &'static str {
        "lease expiries"
    }

    /// Says why the lock stayed safe when the clock of one of its `nodes` lock-service nodes
    /// jumped, where that is only because one jump alone is mild for the design (a quorum).
    fn one_clock_jumped(&self, _nodes: usize) -> Option<String> {
        None
    }

    /// Says which parameter puts the protected data in the lock service, for a scenario that
    /// lists a separate resource as well.
    fn data_kept_by(&self) -> &'static str {
        "the design keeps the data"
    }
}
