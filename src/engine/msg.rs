//! Messages between clients, lock services and the protected resource.

use super::ids::NodeId;
use serde::Serialize;

/// How a client gives a lock back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReleaseMode {
    /// Delete only if the lock is still mine (compare token or value first).
    Safe,
    /// Delete whatever lock is there (a plain `DEL`).
    Unsafe,
    /// End the transaction with `COMMIT`, which releases its transaction-level advisory locks
    /// (PostgreSQL only).
    Commit,
}

/// Every message the protocols exchange.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Msg {
    /// Ask for the lock, naming a random value that identifies this acquisition; `px_ms` is set
    /// when the client chooses the expiry itself (Redis `SET key value NX PX ms`).
    Acquire { value: u64, px_ms: Option<u64> },
    /// The lock is yours with this fencing token for `ttl_ms` on the service's clock.
    Granted { token: u64, ttl_ms: u64 },
    /// Someone else holds the lock.
    Busy,
    /// etcd and ZooKeeper: keep my session alive.
    KeepAlive,
    /// PostgreSQL: the lock is held by another session; this request waits.
    Blocked,
    /// etcd and ZooKeeper: that session no longer exists.
    SessionExpired,
    /// ZooKeeper: your znode is not first; you now watch `watching` (or, if none, the lock node).
    Waiting { znode: u64, watching: Option<u64> },
    /// ZooKeeper: the znode you watched was deleted.
    WatchFired { deleted: u64 },
    /// ZooKeeper: list the lock node's children again.
    Relist,
    /// etcd: your key has this create revision; wait for the deletion of the one before it.
    Queued { revision: u64, behind: u64 },
    /// A replica refuses writes until it is promoted.
    ReadOnly,
    /// The primary streams a key to its replica, asynchronously.
    Replicate { holder: NodeId, value: u64, token: u64, expires_in_ms: u64 },
    /// The primary streams a key's deletion to its replica.
    ReplicateDelete { value: u64 },
    /// Extend my lease, if it is still mine.
    Renew { token: u64, value: u64 },
    Renewed { token: u64, ttl_ms: u64 },
    RenewRefused { token: u64 },
    Release { token: u64, value: u64, mode: ReleaseMode },
    /// Whether the release deleted a lock.
    ReleaseResult { token: u64, released: bool },
    /// Read the resource's version (for a conditional write).
    Read,
    ReadResult { version: u64 },
    /// Write `value`, carrying the writer's fencing token and, for a conditional write, the version it read.
    Write { token: u64, value: String, expected_version: Option<u64> },
    WriteAccepted { version: u64 },
    WriteRejected { reason: String },
}

impl Msg {
    /// Labels the message for a diagram arrow.
    pub fn label(&self) -> String {
        match self {
            Msg::Acquire { px_ms: None, .. } => "acquire".into(),
            Msg::Acquire { value, px_ms: Some(px) } => format!("SET lock {} NX PX {px}", short(*value)),
            Msg::Granted { token: 0, .. } => "OK (no token)".into(),
            Msg::Granted { token, ttl_ms } => format!("granted: token {token}, TTL {}", ms(*ttl_ms)),
            Msg::Busy => "busy".into(),
            Msg::ReadOnly => "READONLY (replica)".into(),
            Msg::KeepAlive => "keep-alive".into(),
            Msg::SessionExpired => "session expired".into(),
            Msg::Blocked => "blocked: waiting for the lock".into(),
            Msg::WatchFired { deleted } => format!("watch fired: {} deleted", super::lock::znode_name(*deleted)),
            Msg::Relist => "getChildren".into(),
            Msg::Waiting { znode, watching: Some(w) } => {
                format!("{} not first; watch {}", super::lock::znode_name(*znode), super::lock::znode_name(*w))
            }
            Msg::Waiting { znode, watching: None } => format!("{} not first; watch the lock node", super::lock::znode_name(*znode)),
            Msg::Queued { revision, behind } => format!("queued at revision {revision}, watching {behind}"),
            Msg::Replicate { value, .. } => format!("replicate key {}", short(*value)),
            Msg::ReplicateDelete { value } => format!("replicate DEL {}", short(*value)),
            Msg::Renew { token: 0, value } => format!("PEXPIRE if value = {}", short(*value)),
            Msg::Renew { token, .. } => format!("renew token {token}"),
            Msg::Renewed { token: 0, .. } => "renewed".into(),
            Msg::Renewed { token, .. } => format!("renewed token {token}"),
            Msg::RenewRefused { token: 0 } => "renewal refused: not yours".into(),
            Msg::RenewRefused { token } => format!("renewal refused (token {token})"),
            Msg::Release { token: 0, value: 0, mode: ReleaseMode::Safe } => "unlock".into(),
            Msg::Release { token: 0, value, mode: ReleaseMode::Safe } => format!("DEL if value = {}", short(*value)),
            Msg::Release { token, mode: ReleaseMode::Safe, .. } => format!("release token {token} if mine"),
            Msg::Release { mode: ReleaseMode::Unsafe, .. } => "DEL lock (no check)".into(),
            Msg::Release { mode: ReleaseMode::Commit, .. } => "COMMIT".into(),
            Msg::ReleaseResult { released: true, .. } => "released".into(),
            Msg::ReleaseResult { released: false, .. } => "not released: not yours".into(),
            Msg::Read => "read version".into(),
            Msg::ReadResult { version } => format!("version {version}"),
            Msg::Write { token: 0, value, expected_version: None } => format!("write {value:?} (no token)"),
            Msg::Write { token, value, expected_version: None } => format!("write {value:?} with token {token}"),
            Msg::Write { value, expected_version: Some(v), .. } => format!("write {value:?} (read v{v})"),
            Msg::WriteAccepted { version } => format!("ok (version {version})"),
            Msg::WriteRejected { reason } => format!("rejected: {reason}"),
        }
    }

    /// Says whether the message is a reply that refuses something.
    pub fn is_refusal(&self) -> bool {
        matches!(
            self,
            Msg::Busy | Msg::ReadOnly | Msg::SessionExpired | Msg::RenewRefused { .. } | Msg::WriteRejected { .. } | Msg::ReleaseResult { released: false, .. }
        )
    }
}

/// Names a lease for people: `lease 41`, or `the lock` for a design without tokens.
pub fn lease_name(token: u64) -> String {
    if token == 0 {
        "the lock".into()
    } else {
        format!("lease {token}")
    }
}

/// Says until when, on a node's own clock: `until local 1,005`, or `with no expiry`.
pub fn until_local(local_ms: i64) -> String {
    if local_ms == i64::MAX {
        "with no expiry".into()
    } else {
        format!("until local {}", group(local_ms))
    }
}

/// Names a token for people: `token 41`, or `no token`.
pub fn token_name(token: u64) -> String {
    if token == 0 {
        "no token".into()
    } else {
        format!("token {token}")
    }
}

/// Shows a random lock value briefly, as its last four hex digits.
pub fn short(value: u64) -> String {
    format!("{:04x}", value & 0xffff)
}

/// Formats milliseconds with thousands separators: `1,500 ms`.
pub fn ms(v: u64) -> String {
    format!("{} ms", group(v as i64))
}

/// Formats an integer with thousands separators.
pub fn group(v: i64) -> String {
    let digits = v.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if v < 0 {
        format!("-{out}")
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_thousands() {
        assert_eq!(group(0), "0");
        assert_eq!(group(999), "999");
        assert_eq!(group(1030), "1,030");
        assert_eq!(group(-1234567), "-1,234,567");
        assert_eq!(ms(1500), "1,500 ms");
    }

    #[test]
    fn labels_name_tokens() {
        let w = Msg::Write { token: 41, value: "A".into(), expected_version: None };
        assert_eq!(w.label(), "write \"A\" with token 41");
        assert!(Msg::WriteRejected { reason: "token 41 < 42".into() }.is_refusal());
    }
}
