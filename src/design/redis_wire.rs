//! Redis's commands and replies as the lock and its replication use them, with how each is
//! labelled on an arrow and said in the story.

use crate::engine::ids::NodeId;
use crate::engine::msg::{DesignMsg, MsgKind};
use crate::engine::time::{LocalMillis, Millis};
use crate::present::number::ms;
use serde::Serialize;

/// Shows a random lock value briefly, as its last four hex digits.
pub fn short(value: u64) -> String {
    format!("{:04x}", value & 0xffff)
}

/// Redis commands and replies, as the lock uses them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Hash)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum RedisMsg {
    /// `SET lock <value> NX PX <px_ms>`.
    Set { value: u64, px_ms: Millis },
    /// `OK`, with the `INCR` counter's value when the design hands out tokens.
    SetOk { token: Option<u64> },
    /// `(nil)`: the key exists.
    Nil,
    /// The compare-and-`PEXPIRE` script: extend only if the key still holds `value`.
    Extend { value: u64, px_ms: Millis },
    /// The script's answer: 1 extended, 0 not.
    Extended { done: bool },
    /// Delete the key: with the compare-and-delete script if `checked`, else a plain `DEL`.
    Del { value: u64, checked: bool },
    /// 1 deleted, 0 not.
    Deleted { done: bool },
    /// `-READONLY`: a replica takes no writes.
    ReadOnly,
    /// The primary streams a key to its replica, asynchronously, with its expiry as an absolute
    /// time (as Redis propagates `PXAT`: the lag does not stretch the lease), and the `INCR`
    /// counter's value with it.
    Replicate { holder: NodeId, value: u64, token: u64, expires_at: LocalMillis, offset: u64 },
    /// The primary streams a key's deletion to its replica.
    ReplicateDel { value: u64, offset: u64 },
    /// `REPLCONF GETACK`: the primary asks a replica how far it has got.
    GetAck,
    /// `REPLCONF ACK`: the replica's offset.
    Ack { offset: u64 },
    /// `WAIT replicas timeout_ms`: block until that many replicas have this client's last write.
    Wait { replicas: u64, timeout_ms: Millis },
    /// `WAIT`'s answer: how many replicas acknowledged.
    Acked { replicas: u64 },
    /// A promoted replica's whole dataset, replacing what another replica holds.
    FullSync { key: Option<Key>, counter: u64, offset: u64 },
    /// `INCR` the fencing counter, as a round trip of its own after the SET.
    Incr,
    /// The counter's new value.
    Counter { value: u64 },
}

impl DesignMsg for RedisMsg {
    fn kind(&self) -> MsgKind {
        match self {
            RedisMsg::Set { .. } => MsgKind::Acquire,
            RedisMsg::Extend { .. }
            | RedisMsg::Del { .. }
            | RedisMsg::Replicate { .. }
            | RedisMsg::ReplicateDel { .. }
            | RedisMsg::GetAck
            | RedisMsg::FullSync { .. }
            | RedisMsg::Wait { .. }
            | RedisMsg::Incr => MsgKind::Request,
            RedisMsg::SetOk { .. }
            | RedisMsg::Extended { done: true }
            | RedisMsg::Deleted { done: true }
            | RedisMsg::Counter { .. }
            | RedisMsg::Ack { .. }
            | RedisMsg::Acked { .. } => MsgKind::Reply,
            RedisMsg::Nil => MsgKind::Busy,
            RedisMsg::Extended { done: false } | RedisMsg::Deleted { done: false } | RedisMsg::ReadOnly => MsgKind::Refusal,
        }
    }
}

impl RedisMsg {
    /// Labels the message as Redis would show it.
    pub fn label(&self) -> String {
        match *self {
            RedisMsg::Set { value, px_ms } => format!("SET lock {} NX PX {px_ms}", short(value)),
            RedisMsg::SetOk { token: None } => "OK".into(),
            RedisMsg::SetOk { token: Some(t) } => format!("OK; INCR → {t}"),
            RedisMsg::Nil => "(nil): key exists".into(),
            RedisMsg::Extend { value, .. } => format!("PEXPIRE if value = {}", short(value)),
            RedisMsg::Extended { done: true } => "1: extended".into(),
            RedisMsg::Extended { done: false } => "0: not yours".into(),
            RedisMsg::Del { value, checked: true } => format!("DEL if value = {}", short(value)),
            RedisMsg::Del { checked: false, .. } => "DEL lock (no check)".into(),
            RedisMsg::Deleted { done: true } => "1: deleted".into(),
            RedisMsg::Deleted { done: false } => "0: not yours".into(),
            RedisMsg::ReadOnly => "READONLY (replica)".into(),
            RedisMsg::Replicate { value, .. } => format!("replicate key {}", short(value)),
            RedisMsg::ReplicateDel { value, .. } => format!("replicate DEL {}", short(value)),
            RedisMsg::GetAck => "REPLCONF GETACK".into(),
            RedisMsg::FullSync { key: Some(k), .. } => format!("full resync: key {}", short(k.value)),
            RedisMsg::FullSync { key: None, .. } => "full resync: no key".into(),
            RedisMsg::Ack { offset } => format!("REPLCONF ACK {offset}"),
            RedisMsg::Wait { replicas, timeout_ms } => format!("WAIT {replicas} {timeout_ms}"),
            RedisMsg::Acked { replicas } => format!("(integer) {replicas}: replicas acked"),
            RedisMsg::Incr => "INCR fencing-counter".into(),
            RedisMsg::Counter { value } => format!("(integer) {value}"),
        }
    }

    /// Says that `me` sends this to `to`.
    pub fn sending(&self, me: &str, to: &str) -> String {
        match *self {
            RedisMsg::Set { value, px_ms } => format!(
                "{me} runs SET lock {} NX PX {px_ms} on {to}: set the key only if nobody holds it, expiring in {}.",
                short(value),
                ms(px_ms)
            ),
            RedisMsg::SetOk { token: None } => format!("{me} answers {to}: OK, the key is set."),
            RedisMsg::SetOk { token: Some(t) } => format!("{me} answers {to}: OK, the key is set, and the INCR gives token {t}."),
            RedisMsg::Nil => format!("{me} answers {to}: (nil), the key exists, so someone else holds the lock."),
            RedisMsg::Extend { value, .. } => {
                format!("{me} runs the compare-and-extend script on {to}: PEXPIRE the key only if it still holds {}.", short(value))
            }
            RedisMsg::Extended { done: true } => format!("{me} answers {to}: 1, the key's expiry is pushed back."),
            RedisMsg::Extended { done: false } => format!("{me} answers {to}: 0, the key no longer holds {to}'s value."),
            RedisMsg::Del { value, checked: true } => {
                format!("{me} runs the compare-and-delete script on {to}: delete the key only if it still holds {}.", short(value))
            }
            RedisMsg::Del { checked: false, .. } => format!("{me} deletes the key on {to} with a plain DEL, without checking whose it is."),
            RedisMsg::Deleted { done: true } => format!("{me} answers {to}: 1, the key is deleted."),
            RedisMsg::Deleted { done: false } => format!("{me} answers {to}: 0, nothing deleted: the key is gone or holds another client's value (the script answers 0 to both)."),
            RedisMsg::ReadOnly => format!("{me} answers {to}: READONLY, a replica takes no writes."),
            RedisMsg::Replicate { value, .. } => format!("{me} streams the key {} to its replica {to}.", short(value)),
            RedisMsg::ReplicateDel { .. } => format!("{me} streams the key's deletion to its replica {to}."),
            RedisMsg::FullSync { key, .. } => format!(
                "{me}, now the primary, sends its replica {to} its whole dataset ({}), once repl-diskless-sync-delay has passed: {to} drops what it had and takes this instead.",
                key.map_or_else(|| "no lock key".to_string(), |k| format!("the key {}", short(k.value)))
            ),
            RedisMsg::GetAck => format!("{me} asks its replica {to} how far it has got (REPLCONF GETACK), down the same stream as the changes."),
            RedisMsg::Ack { offset } => format!("{me} tells {to} it has every change up to offset {offset} (REPLCONF ACK)."),
            RedisMsg::Wait { replicas, timeout_ms } => format!(
                "{me} runs WAIT {replicas} {timeout_ms} on {to}: block until {} its last write, or for {}.",
                if replicas == 1 { "a replica has".to_string() } else { format!("{replicas} replicas have") },
                ms(timeout_ms)
            ),
            RedisMsg::Acked { replicas } => format!(
                "{me} answers {to}: {replicas}, the number of replicas that acknowledged its write. The write stays on {me} whatever the number: WAIT rolls nothing back."
            ),
            RedisMsg::Incr => format!(
                "{me} runs INCR fencing-counter on {to}, a second round trip after its SET: the number it gets back is its token, whatever happened in between."
            ),
            RedisMsg::Counter { value } => format!("{me} answers {to}: the counter is now {value}."),
        }
    }
}

/// The lock key as a node holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Hash)]
pub struct Key {
    pub holder: NodeId,
    pub value: u64,
    pub token: u64,
    pub expires_local: LocalMillis,
}
