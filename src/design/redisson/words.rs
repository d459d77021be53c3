//! How the Redisson design says what happens: its vocabulary, in Redisson's and Redis's words.

use super::RedissonDesign;
use crate::design::redis::{deleted_when, key_ended};
use crate::design::redis_wire::RedisMsg;
use crate::engine::event::LockEnd;
use crate::engine::msg::LockMsg;
use crate::engine::time::LocalMillis;
use crate::present::number::ms;
use crate::present::{Names, Vocabulary};

impl RedissonDesign {
    /// What the acquire script does, in a label.
    fn acquire_label(&self, px_ms: crate::engine::time::Millis) -> String {
        let incr = if self.fenced { " + INCR" } else { "" };
        format!("lock: HSET, PEXPIRE {px_ms}{incr}")
    }
}

impl Vocabulary for RedissonDesign {
    fn token(&self, token: u64) -> Option<String> {
        (self.fenced && token > 0).then(|| format!("token {token}"))
    }

    fn lock(&self, _token: u64) -> String {
        "the lock hash".into()
    }

    fn label(&self, msg: &LockMsg, _names: Names) -> String {
        let Some(msg) = msg.get::<RedisMsg>() else { return String::new() };
        match *msg {
            RedisMsg::Set { px_ms, .. } => self.acquire_label(px_ms),
            RedisMsg::SetOk { token: None } => "nil: locked".into(),
            RedisMsg::SetOk { token: Some(t) } => format!("locked; token {t}"),
            RedisMsg::Nil => "PTTL: held by another".into(),
            RedisMsg::Extend { px_ms, .. } => format!("watchdog: PEXPIRE {px_ms}"),
            RedisMsg::Extended { done: true } => "1: renewed".into(),
            RedisMsg::Extended { done: false } => "0: field gone".into(),
            RedisMsg::Del { .. } => "unlock script".into(),
            RedisMsg::Deleted { done: true } => "1: unlocked".into(),
            RedisMsg::Deleted { done: false } => "nil: not locked by this thread".into(),
            _ => msg.label(),
        }
    }

    fn sending(&self, msg: &LockMsg, me: &str, to: &str, _names: Names) -> String {
        let Some(msg) = msg.get::<RedisMsg>() else { return String::new() };
        match *msg {
            RedisMsg::Set { px_ms, .. } => format!(
                "{me} runs Redisson's lock script on {to}: if the lock hash does not exist, HSET its own field (its UUID and thread id) and PEXPIRE it in {}{}.",
                ms(px_ms),
                if self.fenced { ", and INCR redisson_lock_token for its fencing token" } else { "" }
            ),
            RedisMsg::SetOk { token: None } => format!("{me} answers {to}: nil, the lock is {to}'s."),
            RedisMsg::SetOk { token: Some(t) } => format!("{me} answers {to}: the lock is {to}'s, and redisson_lock_token is now {t}, its fencing token."),
            RedisMsg::Nil => format!("{me} answers {to} with the lock hash's remaining time: another client holds it."),
            RedisMsg::Extend { px_ms, .. } => format!(
                "{me}'s watchdog runs its renewal script on {to}: if the lock hash still has {me}'s field, PEXPIRE it in {}.",
                ms(px_ms)
            ),
            RedisMsg::Extended { done: true } => format!("{me} answers {to}: 1, the lock hash lives on."),
            RedisMsg::Extended { done: false } => format!("{me} answers {to}: 0, the lock hash no longer has {to}'s field."),
            RedisMsg::Del { .. } => format!(
                "{me} runs Redisson's unlock script on {to}: if the lock hash has its field, count it down and delete the hash at zero."
            ),
            RedisMsg::Deleted { done: true } => format!("{me} answers {to}: 1, unlocked."),
            RedisMsg::Deleted { done: false } => format!(
                "{me} answers {to}: nil, the lock hash does not have {to}'s field; Redisson throws IllegalMonitorStateException (attempt to unlock lock, not locked by current thread)."
            ),
            _ => msg.sending(me, to),
        }
    }

    fn believes(&self, until_local: Option<LocalMillis>) -> String {
        match until_local {
            Some(t) => format!("until its lease time runs out at {} on its own clock", crate::present::number::local(t)),
            None => "until it unlocks: the application never checks, trusting the watchdog".into(),
        }
    }

    fn granted(&self, me: &str, holder: &str, token: u64, expires_local: Option<LocalMillis>) -> String {
        let token = match self.token(token) {
            Some(t) => format!(" The INCR hands out {t}, a fencing token."),
            None => " There is no fencing token: the field only says whose lock it is.".into(),
        };
        format!("{me} creates the lock hash with {holder}'s field and will delete it {}.{token}", deleted_when(expires_local))
    }

    fn extended(&self, me: &str, holder: &str, _token: u64, expires_local: Option<LocalMillis>) -> String {
        format!("{holder}'s watchdog pushes back the lock hash's expiry on {me}: it now goes {}.", deleted_when(expires_local))
    }

    fn ended(&self, me: &str, holder: &str, token: u64, how: LockEnd) -> String {
        key_ended(me, holder, how, self.token(token)).replace("key", "lock hash")
    }

    fn renewal_failed(&self, me: &str, _abort: bool) -> String {
        format!(
            "{me}'s watchdog renewal failed. The watchdog logs an error and stops renewing for good; nobody tells the application, which carries on as if it held the lock."
        )
    }

    fn renewal(&self) -> &'static str {
        "watchdog renewal"
    }

    fn replicated(&self, me: &str, holder: &str, _token: u64) -> String {
        format!("{me} stores its copy of {holder}'s lock hash, with the same expiry, and of redisson_lock_token.")
    }

    fn expiries(&self) -> &'static str {
        "lock hash expiries"
    }
}
