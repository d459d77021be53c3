//! How the etcd design says what happens: its vocabulary.

use super::{EtcdDesign, EtcdMsg};
use crate::engine::event::LockEnd;
use crate::engine::msg::LockMsg;
use crate::engine::time::LocalMillis;
use crate::present::number::{local, ms, reading};
use crate::present::quoted::Quoted;
use crate::present::{Names, Vocabulary};

impl Vocabulary for EtcdDesign {
    fn token(&self, token: u64) -> Option<String> {
        Some(format!("revision {token}"))
    }

    fn lock(&self, token: u64) -> String {
        format!("the lock key (revision {token})")
    }

    fn how_ended(&self, how: LockEnd) -> &'static str {
        match how {
            LockEnd::Expired | LockEnd::SessionClosed => "session lease expired",
            LockEnd::Released => "unlocked",
            LockEnd::DeletedByOther => "deleted by another client",
            LockEnd::LostOnRestart | LockEnd::Resynced => "lost on restart",
            LockEnd::Replaced => "replaced",
        }
    }

    fn label(&self, msg: &LockMsg, _names: Names) -> String {
        let Some(msg) = msg.get::<EtcdMsg>() else { return String::new() };
        match *msg {
            EtcdMsg::Lock => "lock: put key with session lease".into(),
            EtcdMsg::Owner { revision } => format!("owner: create revision {revision}"),
            EtcdMsg::Queued { revision, behind } => format!("queued at revision {revision}, watching {behind}"),
            EtcdMsg::KeepAlive => "lease keep-alive".into(),
            EtcdMsg::KeptAlive { ttl_ms } => format!("lease TTL {}", ms(ttl_ms)),
            EtcdMsg::LeaseNotFound => "lease not found".into(),
            EtcdMsg::Unlock { revision } => format!("unlock: delete key (revision {revision})"),
            EtcdMsg::Unlocked { done: true } => "deleted".into(),
            EtcdMsg::Unlocked { done: false } => "no such key".into(),
        }
    }

    fn sending(&self, msg: &LockMsg, me: &str, to: &str, _names: Names) -> String {
        let Some(msg) = msg.get::<EtcdMsg>() else { return String::new() };
        match *msg {
            EtcdMsg::Lock => format!("{me} asks {to} to lock: grant a session lease and put its key under the lock prefix, attached to that lease."),
            EtcdMsg::Owner { revision } => format!(
                "{me} answers {to}: its key has the lowest create revision, {revision}, so {to} owns the lock; the revision is its fencing token."
            ),
            EtcdMsg::Queued { revision, behind } => format!(
                "{me} answers {to}: its key has create revision {revision}; {to} waits for the key with revision {behind}, just before its own, to be deleted."
            ),
            EtcdMsg::KeepAlive => format!("{me} sends {to} a keep-alive for its session lease."),
            EtcdMsg::KeptAlive { ttl_ms } => format!("{me} answers {to}: the session lease runs another {}.", ms(ttl_ms)),
            EtcdMsg::LeaseNotFound => format!("{me} answers {to}: lease not found; its session has expired and its key is gone."),
            EtcdMsg::Unlock { revision } => format!("{me} unlocks on {to}: delete its lock key (revision {revision})."),
            EtcdMsg::Unlocked { done: true } => format!("{me} answers {to}: the key is deleted."),
            EtcdMsg::Unlocked { done: false } => format!("{me} answers {to}: there is no such key (its session already ended)."),
        }
    }

    fn lasts(&self, expires_local: Option<LocalMillis>) -> String {
        match expires_local {
            Some(t) => format!("while its session lease lives (ending at {} without a keep-alive)", local(t)),
            None => "while its session lease lives".into(),
        }
    }

    fn believes(&self, until_local: Option<LocalMillis>) -> String {
        match until_local {
            Some(t) => format!(
                "as long as it thinks its session lease is alive: until {} on its own clock unless a keep-alive is answered",
                local(t)
            ),
            None => "as long as its session lease lives".into(),
        }
    }

    fn granted(&self, me: &str, holder: &str, token: u64, expires_local: Option<LocalMillis>) -> String {
        let lease = expires_local.map_or_else(String::new, |t| {
            format!(
                " The key is attached to {holder}'s session lease, which {me} revokes when its clock reads {} unless a keep-alive arrives.",
                reading(t)
            )
        });
        format!("{holder}'s key has the lowest create revision under the lock prefix: {holder} owns the lock, and revision {token} is its fencing token.{lease}")
    }

    fn extended(&self, me: &str, holder: &str, _token: u64, expires_local: Option<LocalMillis>) -> String {
        let until = expires_local.map_or_else(String::new, |t| format!(": it now ends at {}", local(t)));
        format!("A keep-alive from {holder} extends its session lease on {me}{until}.")
    }

    fn ended(&self, me: &str, holder: &str, token: u64, how: LockEnd) -> String {
        match how {
            LockEnd::Expired | LockEnd::SessionClosed => format!(
                "{holder}'s session lease expires on {me}'s clock, so {me} deletes its lock key (revision {token}). Nobody tells {holder}: it may still think the lock is its own."
            ),
            LockEnd::Released => format!("{holder}'s lock key (revision {token}) is deleted; the next waiter sees the deletion."),
            LockEnd::DeletedByOther | LockEnd::LostOnRestart | LockEnd::Replaced | LockEnd::Resynced => {
                format!("{holder}'s lock key (revision {token}) is gone: {}.", self.how_ended(how))
            }
        }
    }

    fn renewal(&self) -> &'static str {
        "keep-alive"
    }

    fn write_to_service(&self, token: u64, value: &str) -> String {
        format!("txn: if create_revision(lock key) = {token} then put {value_q}", value_q = Quoted(value))
    }

    fn guard_refused(&self, token: u64) -> String {
        format!("txn failed: no lock key with create revision {token}")
    }

    fn expiries(&self) -> &'static str {
        "session lease expiries"
    }

    fn data_kept_by(&self) -> &'static str {
        "data_in_etcd is true"
    }
}
