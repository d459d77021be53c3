//! How the Hazelcast design says what happens: its vocabulary, in the CP Subsystem's words.

use super::{HazelcastDesign, HzMsg};
use crate::engine::event::LockEnd;
use crate::engine::msg::LockMsg;
use crate::engine::time::LocalMillis;
use crate::present::number::ms;
use crate::present::{Names, Vocabulary};

impl Vocabulary for HazelcastDesign {
    fn token(&self, token: u64) -> Option<String> {
        Some(format!("fence {token}"))
    }

    fn lock(&self, token: u64) -> String {
        format!("the FencedLock (fence {token})")
    }

    fn how_ended(&self, how: LockEnd) -> &'static str {
        match how {
            LockEnd::Expired | LockEnd::SessionClosed => "CP session closed",
            LockEnd::Released => "unlocked",
            LockEnd::DeletedByOther => "destroyed",
            LockEnd::Replaced => "replaced",
            LockEnd::LostOnRestart | LockEnd::Resynced => "lost",
        }
    }

    fn label(&self, msg: &LockMsg, _names: Names) -> String {
        let Some(msg) = msg.get::<HzMsg>() else { return String::new() };
        match *msg {
            HzMsg::CreateSession { .. } => "create CP session".into(),
            HzMsg::SessionCreated { session, .. } => format!("session {session}"),
            HzMsg::Lock { .. } => "lock()".into(),
            HzMsg::Locked { fence, .. } => format!("locked, fence {fence}"),
            HzMsg::Waiting { .. } => "queued".into(),
            HzMsg::Heartbeat { .. } => "heartbeat".into(),
            HzMsg::HeartbeatOk { .. } => "ok".into(),
            HzMsg::SessionExpired { .. } => "SessionExpired".into(),
            HzMsg::Unlock { .. } => "unlock()".into(),
            HzMsg::Unlocked { .. } => "unlocked".into(),
            HzMsg::OwnershipLost { .. } => "LockOwnershipLost".into(),
        }
    }

    fn sending(&self, msg: &LockMsg, me: &str, to: &str, _names: Names) -> String {
        let Some(msg) = msg.get::<HzMsg>() else { return String::new() };
        match *msg {
            HzMsg::CreateSession { .. } => format!(
                "{me} creates a CP session on {to}; it will send a heartbeat every {}, and the session closes after {} without one.",
                ms(self.heartbeat_ms),
                ms(self.ttl_ms)
            ),
            HzMsg::SessionCreated { session, .. } => format!("{me} answers {to}: CP session {session} is open."),
            HzMsg::Lock { .. } => format!("{me} calls lock() on {to}, through its CP session."),
            HzMsg::Locked { fence, .. } => format!(
                "{me} answers {to}: the lock is {to}'s, and its fence is {fence}, the Raft commit index of {to}'s lock call: higher than any before, though not the next number."
            ),
            HzMsg::Waiting { .. } => format!("{me} queues {to}'s lock call behind the holder, first in, first out."),
            HzMsg::Heartbeat { .. } => format!("{me} sends its CP session's heartbeat to {to}."),
            HzMsg::HeartbeatOk { .. } => format!("{me} answers {to}: the session lives on."),
            HzMsg::SessionExpired { .. } => format!("{me} answers {to}: the CP session has expired and is closed."),
            HzMsg::Unlock { .. } => format!("{me} calls unlock() on {to}."),
            HzMsg::Unlocked { .. } => format!("{me} answers {to}: unlocked."),
            HzMsg::OwnershipLost { .. } => format!(
                "{me} answers {to} with LockOwnershipLostException: its session no longer holds the lock. This is the first {to} hears of it."
            ),
        }
    }

    fn believes(&self, _until_local: Option<LocalMillis>) -> String {
        "until its next call on the lock throws LockOwnershipLostException".into()
    }

    fn granted(&self, me: &str, holder: &str, token: u64, _expires_local: Option<LocalMillis>) -> String {
        format!("{me} gives the lock to {holder}'s CP session, with fence {token}. It lasts while the session's heartbeats arrive.")
    }

    fn extended(&self, me: &str, holder: &str, _token: u64, _expires_local: Option<LocalMillis>) -> String {
        format!("{holder}'s heartbeat keeps its CP session open on {me}.")
    }

    fn ended(&self, me: &str, holder: &str, token: u64, how: LockEnd) -> String {
        match how {
            LockEnd::Expired | LockEnd::SessionClosed => format!(
                "{me} closes {holder}'s CP session, silent for {}; the lock (fence {token}) passes to the next waiter. Nobody tells {holder}.",
                ms(self.ttl_ms)
            ),
            LockEnd::Released => format!("{holder} unlocks (fence {token}); the next waiter gets the lock."),
            _ => format!("{holder}'s lock (fence {token}) ends: {}.", self.how_ended(how)),
        }
    }

    fn renewal(&self) -> &'static str {
        "heartbeat"
    }

    fn expiries(&self) -> &'static str {
        "session closes"
    }
}
