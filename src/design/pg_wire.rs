//! What a PostgreSQL client and server say about an advisory lock, shared by the server, the
//! pooler in front of it and the client.

use crate::engine::msg::{DesignMsg, MsgKind};
use serde::Serialize;

/// What a client and the server say about the advisory lock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Hash)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum PgMsg {
    /// `SELECT pg_advisory_lock(key)` (or `_xact_`): returns once the lock is held.
    Lock,
    Locked,
    /// The lock is held by another session; the query waits (a model's note of what blocking means).
    Waiting,
    /// A sign of life from the client's session.
    KeepAlive,
    Alive,
    /// The session was terminated.
    SessionEnded,
    /// `SELECT pg_advisory_unlock(key)`.
    Unlock,
    /// `COMMIT`.
    Commit,
    /// Whether the unlock (or commit) released the lock.
    Unlocked {
        done: bool,
        commit: bool,
    },
}

impl DesignMsg for PgMsg {
    fn kind(&self) -> MsgKind {
        match self {
            PgMsg::Lock => MsgKind::Acquire,
            PgMsg::KeepAlive | PgMsg::Unlock | PgMsg::Commit => MsgKind::Request,
            PgMsg::Locked | PgMsg::Waiting | PgMsg::Alive | PgMsg::Unlocked { done: true, .. } => MsgKind::Reply,
            PgMsg::SessionEnded | PgMsg::Unlocked { done: false, .. } => MsgKind::Refusal,
        }
    }
}
