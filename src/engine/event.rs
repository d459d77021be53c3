//! What happens in a run, as typed data. Words for people come later, from `present`.

use super::ids::NodeId;
use super::msg::{Msg, Rejection, WriteValue};
use super::time::{LocalMillis, Millis};
use serde::Serialize;

/// Why a lock-service node stopped holding a client's lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LockEnd {
    /// Its time ran out on the service's clock (a lease, a key, a session).
    Expired,
    Released,
    /// Deleted by someone else's unchecked release.
    DeletedByOther,
    /// Lost when the lock service restarted without its state.
    LostOnRestart,
    /// Freed when the holder's connection closed and its session ended with it.
    SessionClosed,
    /// Another client wrote itself in as the holder.
    Replaced,
    /// A replica's copy, dropped when it took a new primary's whole dataset (a full resync).
    Resynced,
}

/// Why a client stopped believing it holds the lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BeliefEnd {
    Released,
    RenewalFailed,
    Crashed,
    /// Its own check found too little of the lock left, and it stopped.
    CheckFailed,
}

/// Why a message never arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DropReason {
    /// A partition held it until the sender's kernel gave up retransmitting, which broke the connection.
    ConnectionBroken,
    /// It came back on a connection the receiver had closed.
    ConnectionClosed,
    /// The link's loss rate took it.
    Lost,
    /// The recipient was down.
    Down,
    /// A fault scheduled for this one message dropped it.
    Dropped,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EventKind {
    Send {
        msg_id: u64,
        to: NodeId,
        msg: Msg,
    },
    Deliver {
        msg_id: u64,
        from: NodeId,
        msg: Msg,
        sent_at_ms: Millis,
    },
    Drop {
        msg_id: u64,
        from: NodeId,
        msg: Msg,
        sent_at_ms: Millis,
        reason: DropReason,
    },
    PauseStart {
        until_ms: Millis,
    },
    PauseEnd,
    Crash,
    Restart {
        keep_state: bool,
    },
    /// The node's wall clock steps by `by_ms`. A node that times by elapsed time (`elapsed`)
    /// reads its monotonic clock, which the step does not move: none of its timers move.
    ClockJump {
        by_ms: i64,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        elapsed: bool,
    },
    PartitionStart {
        from: Vec<NodeId>,
        to: Vec<NodeId>,
        two_way: bool,
        until_ms: Millis,
    },
    PartitionEnd {
        from: Vec<NodeId>,
        to: Vec<NodeId>,
    },
    /// The node gave up on a reply a partition held and closed its connection to `peer`: what
    /// it sent may still arrive, but no answer on that connection will reach it.
    HungUp {
        peer: NodeId,
    },
    LinkSlow {
        to: NodeId,
        extra_ms: Millis,
        until_ms: Millis,
    },
    /// This lock-service node now holds the lock for `holder`, until its own clock reads
    /// `expires_local` (`None`: until released or the session ends).
    LockGranted {
        holder: NodeId,
        token: u64,
        expires_local: Option<LocalMillis>,
    },
    LockExtended {
        holder: NodeId,
        token: u64,
        expires_local: Option<LocalMillis>,
    },
    LockEnded {
        holder: NodeId,
        token: u64,
        how: LockEnd,
    },
    /// A replica now keeps a copy of a holder's lock.
    LockReplicated {
        holder: NodeId,
        token: u64,
        expires_local: Option<LocalMillis>,
    },
    /// A replica became the primary; locks it never received are gone.
    Promoted,
    /// The client believes it holds the lock, until its own clock reads `until_local`
    /// (`None`: with no end it can foresee).
    BeliefStart {
        token: u64,
        until_local: Option<LocalMillis>,
    },
    BeliefExtended {
        token: u64,
        until_local: Option<LocalMillis>,
    },
    BeliefEnd {
        token: u64,
        why: BeliefEnd,
    },
    RenewalFailed {
        token: u64,
        abort: bool,
    },
    /// The client checked its lock on its own clock before going on: `left_ms` of it was left
    /// (`None`: no end it can foresee), against a `margin_ms`; `token` is `None` if it held none.
    LockChecked {
        token: Option<u64>,
        left_ms: Option<i64>,
        margin_ms: Millis,
        ok: bool,
    },
    GaveUp {
        attempts: u32,
    },
    WriteAccepted {
        writer: NodeId,
        token: u64,
        value: WriteValue,
        version: u64,
    },
    WriteRejected {
        writer: NodeId,
        token: u64,
        value: WriteValue,
        reason: Rejection,
    },
    /// The resource undid `writer`'s earlier write of `value` (a saga's compensation).
    WriteUndone {
        writer: NodeId,
        value: WriteValue,
        version: u64,
    },
    Done,
}

/// One entry of the trace.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Event {
    pub at_ms: Millis,
    /// The node the event happens at.
    pub node: NodeId,
    /// That node's clock reading at `at_ms`.
    pub local_ms: LocalMillis,
    #[serde(flatten)]
    pub kind: EventKind,
}
