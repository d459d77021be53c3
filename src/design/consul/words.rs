//! How the Consul design says what happens: its vocabulary, in Consul's words.

use super::{ConsulDesign, ConsulMsg};
use crate::engine::event::LockEnd;
use crate::engine::msg::LockMsg;
use crate::engine::time::{LocalMillis, Millis};
use crate::present::number::ms;
use crate::present::{Names, Vocabulary};

impl Vocabulary for ConsulDesign {
    fn token(&self, token: u64) -> Option<String> {
        Some(format!("LockIndex {token}"))
    }

    fn lock(&self, token: u64) -> String {
        format!("the lock key (LockIndex {token})")
    }

    fn how_ended(&self, how: LockEnd) -> &'static str {
        match how {
            LockEnd::Expired | LockEnd::SessionClosed => "session invalidated",
            LockEnd::Released => "released",
            LockEnd::DeletedByOther => "deleted by another client",
            LockEnd::Replaced => "replaced",
            LockEnd::LostOnRestart | LockEnd::Resynced => "lost",
        }
    }

    fn label(&self, msg: &LockMsg, _names: Names) -> String {
        let Some(msg) = msg.get::<ConsulMsg>() else { return String::new() };
        match *msg {
            ConsulMsg::CreateSession { .. } => format!("session/create TTL {}", ms(self.ttl)),
            ConsulMsg::SessionCreated { session, .. } => format!("session {session}"),
            ConsulMsg::Acquire { session, .. } => format!("PUT key?acquire={session}"),
            ConsulMsg::Acquired { lock_index, .. } => format!("true (LockIndex {lock_index})"),
            ConsulMsg::NotAcquired { delay_left, .. } if delay_left > Millis::ZERO => format!("false: lock-delay, {} left", ms(delay_left)),
            ConsulMsg::NotAcquired { .. } => "false: held".into(),
            ConsulMsg::Renew { session, .. } => format!("session/renew/{session}"),
            ConsulMsg::Renewed { ttl, .. } => format!("renewed, TTL {}", ms(ttl)),
            ConsulMsg::SessionNotFound { .. } => "404".into(),
            ConsulMsg::Release { session, .. } => format!("PUT key?release={session}"),
            ConsulMsg::Released { done: true, .. } => "true".into(),
            ConsulMsg::Released { done: false, .. } => "false".into(),
        }
    }

    fn sending(&self, msg: &LockMsg, me: &str, to: &str, _names: Names) -> String {
        let Some(msg) = msg.get::<ConsulMsg>() else { return String::new() };
        match *msg {
            ConsulMsg::CreateSession { .. } => format!(
                "{me} creates a session on {to}: TTL {} (reaped only after twice that without a renewal), LockDelay {}, Behavior {}.",
                ms(self.ttl),
                ms(self.lock_delay),
                if self.delete { "delete" } else { "release" }
            ),
            ConsulMsg::SessionCreated { session, .. } => format!("{me} answers {to}: session {session} is created."),
            ConsulMsg::Acquire { session, .. } => {
                format!("{me} puts the lock key on {to} with ?acquire={session}: it succeeds only if no session holds the key.")
            }
            ConsulMsg::Acquired { lock_index, .. } => format!(
                "{me} answers {to}: true, {to}'s session holds the key, and its LockIndex is {lock_index}: the sequencer's number, a fencing token."
            ),
            ConsulMsg::NotAcquired { delay_left, .. } if delay_left > Millis::ZERO => format!(
                "{me} answers {to}: false. No session holds the key, but it was freed by an invalidation, and its lock-delay has {} to run.",
                ms(delay_left)
            ),
            ConsulMsg::NotAcquired { .. } => format!("{me} answers {to}: false, another session holds the key."),
            ConsulMsg::Renew { session, .. } => format!("{me} renews session {session} on {to}, as it does every half TTL."),
            ConsulMsg::Renewed { ttl, .. } => format!("{me} answers {to}: the session lives on, TTL {}.", ms(ttl)),
            ConsulMsg::SessionNotFound { .. } => format!("{me} answers {to}: 404, the session is gone: it was invalidated."),
            ConsulMsg::Release { session, .. } => {
                format!("{me} releases the key on {to} with ?release={session}: a normal release, with no lock-delay.")
            }
            ConsulMsg::Released { done, .. } => format!("{me} answers {to}: {done}."),
        }
    }

    fn believes(&self, _until_local: Option<LocalMillis>) -> String {
        "until its session is reported lost, which a paused process cannot hear".into()
    }

    fn granted(&self, me: &str, holder: &str, token: u64, _expires_local: Option<LocalMillis>) -> String {
        format!("{me} gives the key to {holder}'s session: LockIndex {token}. It lasts as long as the session, reaped twice its TTL after the last renewal.")
    }

    fn extended(&self, me: &str, holder: &str, _token: u64, _expires_local: Option<LocalMillis>) -> String {
        format!("{holder} renews its session on {me}: it is reaped only {} from now without another.", ms(self.ttl + self.ttl))
    }

    fn ended(&self, me: &str, holder: &str, token: u64, how: LockEnd) -> String {
        match how {
            LockEnd::Expired | LockEnd::SessionClosed => format!(
                "{me} reaps {holder}'s session, unrenewed for twice its TTL, and frees the key (LockIndex {token}). Lock-delay starts: nobody may acquire it for {}. Nobody tells {holder}.",
                ms(self.lock_delay)
            ),
            LockEnd::Released => format!("{holder} releases the key (LockIndex {token}); anyone may acquire it at once."),
            _ => format!("{holder}'s hold on the key (LockIndex {token}) ends: {}.", self.how_ended(how)),
        }
    }

    fn expiries(&self) -> &'static str {
        "session invalidations"
    }
}
