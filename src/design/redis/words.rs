//! How the Redis design says what happens: its vocabulary, and the phrases Redlock shares.

use super::RedisDesign;
use crate::design::redis_wire::RedisMsg;
use crate::engine::event::LockEnd;
use crate::engine::msg::LockMsg;
use crate::engine::time::LocalMillis;
use crate::present::number::reading;
use crate::present::{Names, Vocabulary};

impl Vocabulary for RedisDesign {
    fn token(&self, token: u64) -> Option<String> {
        // The counter's first value is 1: a key set before its INCR has no token yet.
        (self.incr_token && token > 0).then(|| format!("token {token}"))
    }

    fn lock(&self, _token: u64) -> String {
        "the key".into()
    }

    fn label(&self, msg: &LockMsg, _names: Names) -> String {
        msg.get::<RedisMsg>().map_or_else(String::new, RedisMsg::label)
    }

    fn sending(&self, msg: &LockMsg, me: &str, to: &str, _names: Names) -> String {
        msg.get::<RedisMsg>().map_or_else(String::new, |m| m.sending(me, to))
    }

    fn granted(&self, me: &str, holder: &str, token: u64, expires_local: Option<LocalMillis>) -> String {
        if let (true, Some(t)) = (self.incr_separate, self.token(token)) {
            return format!(
                "The INCR hands {holder} {t}, a fencing token. The counter knows nothing of the key: {holder}'s key, set by its SET before, is deleted {}.",
                deleted_when(expires_local)
            );
        }
        let token = match self.token(token) {
            Some(t) => format!(" The INCR hands out {t}, a fencing token."),
            None => " There is no fencing token: the random value only says whose key it is.".into(),
        };
        format!("{me} sets the key for {holder} and will delete it {}.{token}", deleted_when(expires_local))
    }

    fn extended(&self, me: &str, holder: &str, _token: u64, expires_local: Option<LocalMillis>) -> String {
        format!("{me} pushes back the expiry of {holder}'s key: it now goes {}.", deleted_when(expires_local))
    }

    fn ended(&self, me: &str, holder: &str, token: u64, how: LockEnd) -> String {
        key_ended(me, holder, how, self.token(token))
    }

    fn replicated(&self, me: &str, holder: &str, _token: u64) -> String {
        format!("{me} stores its copy of {holder}'s key, with the same expiry.")
    }

    fn expiries(&self) -> &'static str {
        "key expiries"
    }
}

/// Says when a Redis node deletes a key: `when its own clock reads 1,005`.
pub fn deleted_when(expires_local: Option<LocalMillis>) -> String {
    match expires_local {
        Some(t) => format!("when its own clock reads {}", reading(t)),
        None => "never on its own".into(),
    }
}

/// Says that a Redis node no longer holds a holder's key, and why.
pub fn key_ended(me: &str, holder: &str, how: LockEnd, token: Option<String>) -> String {
    let whose = token.map_or_else(|| format!("{holder}'s key"), |t| format!("{holder}'s key ({t})"));
    match how {
        LockEnd::Expired | LockEnd::SessionClosed => {
            format!("{} expires on {me}'s clock. Nobody tells {holder}: it may still think the lock is its own.", capital_first(&whose))
        }
        LockEnd::Released => format!("{} is deleted; the lock is free.", capital_first(&whose)),
        LockEnd::DeletedByOther => {
            format!("An unchecked DEL deletes {whose}: the lock is free while {holder} still works.")
        }
        LockEnd::LostOnRestart => {
            format!("{me} comes back without {whose}: it was lost with the memory when {me} crashed.")
        }
        LockEnd::Replaced => format!("{} is overwritten.", capital_first(&whose)),
        LockEnd::Resynced => format!(
            "{me} drops its copy of {whose}: a full resync from its new primary replaces everything it had, and the new primary never had that key."
        ),
    }
}

fn capital_first(s: &str) -> String {
    crate::present::number::capital(s)
}
