//! How the Chubby design says what happens: its vocabulary, in the paper's words.

use super::ChubbyDesign;
use crate::design::consul::ConsulMsg;
use crate::engine::event::LockEnd;
use crate::engine::msg::LockMsg;
use crate::engine::time::{LocalMillis, Millis};
use crate::present::number::ms;
use crate::present::{Names, Vocabulary};

impl Vocabulary for ChubbyDesign {
    fn token(&self, token: u64) -> Option<String> {
        Some(format!("generation {token}"))
    }

    fn lock(&self, token: u64) -> String {
        format!("the lock (generation {token})")
    }

    fn how_ended(&self, how: LockEnd) -> &'static str {
        match how {
            LockEnd::Expired | LockEnd::SessionClosed => "session ended",
            LockEnd::Released => "released",
            LockEnd::DeletedByOther => "deleted",
            LockEnd::Replaced => "replaced",
            LockEnd::LostOnRestart | LockEnd::Resynced => "lost",
        }
    }

    fn label(&self, msg: &LockMsg, _names: Names) -> String {
        let Some(msg) = msg.get::<ConsulMsg>() else { return String::new() };
        match *msg {
            ConsulMsg::CreateSession { .. } => "open session".into(),
            ConsulMsg::SessionCreated { session, .. } => format!("session {session}"),
            ConsulMsg::Acquire { .. } => "Acquire(lock)".into(),
            ConsulMsg::Acquired { lock_index, .. } => format!("held: sequencer gen {lock_index}"),
            ConsulMsg::NotAcquired { delay_left, .. } if delay_left > Millis::ZERO => format!("lock-delay, {} left", ms(delay_left)),
            ConsulMsg::NotAcquired { .. } => "held by another".into(),
            ConsulMsg::Renew { .. } => "KeepAlive".into(),
            ConsulMsg::Renewed { .. } => format!("lease +{}", ms(self.lease)),
            ConsulMsg::SessionNotFound { .. } => "session expired".into(),
            ConsulMsg::Release { .. } => "Release(lock)".into(),
            ConsulMsg::Released { done: true, .. } => "released".into(),
            ConsulMsg::Released { done: false, .. } => "not held".into(),
        }
    }

    fn sending(&self, msg: &LockMsg, me: &str, to: &str, _names: Names) -> String {
        let Some(msg) = msg.get::<ConsulMsg>() else { return String::new() };
        match *msg {
            ConsulMsg::CreateSession { .. } => format!("{me} opens a session with the master, {to}."),
            ConsulMsg::SessionCreated { session, .. } => format!("{me} answers {to}: session {session} is open, its lease {} long.", ms(self.lease)),
            ConsulMsg::Acquire { .. } => format!("{me} asks {to} for the lock, through its session."),
            ConsulMsg::Acquired { lock_index, .. } => format!(
                "{me} answers {to}: the lock is {to}'s, at generation {lock_index}. {to}'s sequencer (lock name, mode, generation {lock_index}) goes with its writes, for servers to check."
            ),
            ConsulMsg::NotAcquired { delay_left, .. } if delay_left > Millis::ZERO => format!(
                "{me} answers {to}: no. The lock is free, but its last holder's session ended, and the lock-delay it chose has {} to run.",
                ms(delay_left)
            ),
            ConsulMsg::NotAcquired { .. } => format!("{me} answers {to}: no, another session holds the lock."),
            ConsulMsg::Renew { .. } => format!("{me} sends {to} a KeepAlive for its session."),
            ConsulMsg::Renewed { .. } => format!("{me} answers {to}: the session lease is extended by {}.", ms(self.lease)),
            ConsulMsg::SessionNotFound { .. } => format!("{me} answers {to}: the session has expired; its locks were freed."),
            ConsulMsg::Release { .. } => format!("{me} releases the lock on {to}: a normal release, with no lock-delay."),
            ConsulMsg::Released { done, .. } => format!("{me} answers {to}: {}.", if done { "released" } else { "the lock is not this session's" }),
        }
    }

    fn believes(&self, _until_local: Option<LocalMillis>) -> String {
        "until the library tells it the session is in jeopardy or gone, which a paused process cannot hear".into()
    }

    fn granted(&self, me: &str, holder: &str, token: u64, _expires_local: Option<LocalMillis>) -> String {
        format!("{me} gives the lock to {holder}'s session at generation {token}: the lock went from free to held, so its generation grew.")
    }

    fn extended(&self, me: &str, holder: &str, _token: u64, _expires_local: Option<LocalMillis>) -> String {
        format!("A KeepAlive from {holder} extends its session lease on {me} by {}.", ms(self.lease))
    }

    fn ended(&self, me: &str, holder: &str, token: u64, how: LockEnd) -> String {
        match how {
            LockEnd::Expired | LockEnd::SessionClosed => format!(
                "{holder}'s session lease runs out on {me}: the session ends and the lock (generation {token}) is freed. Lock-delay starts: nobody may take it for {}. Nobody tells {holder}.",
                ms(self.lock_delay)
            ),
            LockEnd::Released => format!("{holder} releases the lock (generation {token}); anyone may take it at once."),
            _ => format!("{holder}'s lock (generation {token}) ends: {}.", self.how_ended(how)),
        }
    }

    fn renewal(&self) -> &'static str {
        "KeepAlive"
    }

    fn expiries(&self) -> &'static str {
        "sessions ended"
    }
}
