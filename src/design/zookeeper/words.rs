//! How the ZooKeeper design says what happens: its vocabulary and znode names.

use super::{ZkDesign, ZkMsg};
use crate::engine::event::LockEnd;
use crate::engine::msg::LockMsg;
use crate::engine::time::LocalMillis;
use crate::present::number::{local, reading};
use crate::present::{Names, Vocabulary};

/// Formats a sequential znode's name, as ZooKeeper does: `lock-` and ten digits.
pub fn znode_name(seq: u64) -> String {
    format!("lock-{seq:010}")
}

impl Vocabulary for ZkDesign {
    fn token(&self, token: u64) -> Option<String> {
        Some(format!("czxid {token}"))
    }

    fn lock(&self, token: u64) -> String {
        format!("the znode (czxid {token})")
    }

    fn how_ended(&self, how: LockEnd) -> &'static str {
        match how {
            LockEnd::Expired | LockEnd::SessionClosed => "session expired",
            LockEnd::Released => "deleted by its owner",
            LockEnd::DeletedByOther => "deleted by another client",
            LockEnd::LostOnRestart | LockEnd::Resynced => "lost on restart",
            LockEnd::Replaced => "replaced",
        }
    }

    fn label(&self, msg: &LockMsg, _names: Names) -> String {
        let Some(msg) = msg.get::<ZkMsg>() else { return String::new() };
        match *msg {
            ZkMsg::Create => "create lock- (ephemeral, sequential)".into(),
            ZkMsg::Owner { seq, .. } => format!("{} is first: you own the lock", znode_name(seq)),
            ZkMsg::Waiting { seq, watching: Some(w) } => format!("{} not first; watch {}", znode_name(seq), znode_name(w)),
            ZkMsg::Waiting { seq, watching: None } => format!("{} not first; watch the lock node", znode_name(seq)),
            ZkMsg::WatchFired { deleted } => format!("watch fired: {} deleted", znode_name(deleted)),
            ZkMsg::ChildAdded { created } => format!("watch fired: {} created", znode_name(created)),
            ZkMsg::GetChildren => "getChildren".into(),
            ZkMsg::Ping => "heartbeat".into(),
            ZkMsg::Pong => "session alive".into(),
            ZkMsg::SessionExpired => "session expired".into(),
            ZkMsg::Delete { seq } => format!("delete {}", znode_name(seq)),
            ZkMsg::Deleted { done: true } => "deleted".into(),
            ZkMsg::Deleted { done: false } => "no such znode".into(),
        }
    }

    fn sending(&self, msg: &LockMsg, me: &str, to: &str, _names: Names) -> String {
        let Some(msg) = msg.get::<ZkMsg>() else { return String::new() };
        match *msg {
            ZkMsg::Create => format!("{me} asks {to} to create an ephemeral, sequential znode under the lock node."),
            ZkMsg::Owner { seq, czxid } => format!(
                "{me} answers {to} with its new znode {} and the lock node's children: it is the lowest, so {to}, following the recipe, owns the lock; the znode's czxid is {czxid}.",
                znode_name(seq)
            ),
            ZkMsg::Waiting { seq, watching: Some(w) } => format!(
                "{me} answers {to} with its new znode {} and the lock node's children: it is not the lowest, so {to}, following the recipe, watches {}, the znode just before its own, and waits.",
                znode_name(seq),
                znode_name(w)
            ),
            ZkMsg::Waiting { seq, watching: None } => {
                format!(
                    "{me} answers {to} with its new znode {} and the lock node's children: it is not the lowest, so {to} watches the whole lock node and waits.",
                    znode_name(seq)
                )
            }
            ZkMsg::WatchFired { deleted } => format!("{me} notifies {to} that {} was deleted: its watch fires.", znode_name(deleted)),
            ZkMsg::ChildAdded { created } => format!(
                "{me} notifies {to} that {} was created under the lock node: a watch on the children fires for any change, not only when a holder leaves. It fires once; {to} sets it again when it lists the children.",
                znode_name(created)
            ),
            ZkMsg::GetChildren => format!("{me} lists the lock node's children on {to} again, to see whether it is now first."),
            ZkMsg::Ping => format!("{me} sends {to} a heartbeat to keep its session alive."),
            ZkMsg::Pong => format!("{me} answers {to}'s heartbeat: the session is alive."),
            ZkMsg::SessionExpired => format!("{me} tells {to}: its session has expired, and its ephemeral znode is gone."),
            ZkMsg::Delete { seq } => format!("{me} deletes its znode {} on {to}, giving the lock up.", znode_name(seq)),
            ZkMsg::Deleted { done: true } => format!("{me} answers {to}: the znode is deleted."),
            ZkMsg::Deleted { done: false } => format!("{me} answers {to}: there is no such znode (its session already ended)."),
        }
    }

    fn lasts(&self, expires_local: Option<LocalMillis>) -> String {
        match expires_local {
            Some(t) => format!("while its session lives (ending at {} without a heartbeat)", local(t)),
            None => "while its session lives".into(),
        }
    }

    fn believes(&self, until_local: Option<LocalMillis>) -> String {
        match until_local {
            Some(t) => {
                format!("as long as it thinks its session is alive: until {} on its own clock unless a heartbeat is answered", local(t))
            }
            None => "as long as its session lives".into(),
        }
    }

    fn granted(&self, me: &str, holder: &str, token: u64, expires_local: Option<LocalMillis>) -> String {
        let session = expires_local.map_or_else(String::new, |t| {
            format!(" The znode is ephemeral: it lives as long as {holder}'s session, which {me} ends when its clock reads {} unless a heartbeat arrives.", reading(t))
        });
        format!("{holder}'s znode is the lowest child of the lock node: {holder} owns the lock, and its czxid, {token}, can serve as a fencing token.{session}")
    }

    fn ended(&self, me: &str, holder: &str, token: u64, how: LockEnd) -> String {
        match how {
            LockEnd::Expired | LockEnd::SessionClosed => format!(
                "{me} expires {holder}'s session and deletes its ephemeral znode (czxid {token}). {holder} is not told: it learns only when it next reaches the ensemble."
            ),
            LockEnd::Released => format!("{holder}'s znode (czxid {token}) is deleted; the lock passes to the next contender."),
            LockEnd::DeletedByOther | LockEnd::LostOnRestart | LockEnd::Replaced | LockEnd::Resynced => {
                format!("{holder}'s znode (czxid {token}) is gone: {}.", self.how_ended(how))
            }
        }
    }

    fn renewal(&self) -> &'static str {
        "heartbeat"
    }

    fn expiries(&self) -> &'static str {
        "session expiries"
    }
}
