//! Messages between nodes: the resource's own (read, write and their replies), and a lock
//! design's protocol messages, which the engine carries without knowing them.
//!
//! A design declares its messages as a plain enum implementing [`DesignMsg`]; the engine stores
//! one as a [`LockMsg`] and only asks it what [`MsgKind`] it is. No words here.

use serde::Serialize;
use std::any::Any;
use std::fmt::Debug;
use std::rc::Rc;

/// What part a message plays, as far as the engine, the checker and the diagram care.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MsgKind {
    /// Asks for the lock: counted as an acquire request.
    Acquire,
    /// Any other request, notification or replication.
    Request,
    /// A reply that grants, confirms or answers.
    Reply,
    /// The lock is taken by someone else: counted as contention.
    Busy,
    /// A reply that refuses something other than the lock itself.
    Refusal,
    /// A notification that wakes a waiter: counted as a wake-up.
    WakeUp,
}

/// A lock design's message type. Implement [`DesignMsg::kind`]; the rest comes for free.
pub trait DesignMsg: Clone + PartialEq + std::hash::Hash + Debug + Serialize + 'static {
    /// Says what part this message plays.
    fn kind(&self) -> MsgKind;
}

/// The object-safe face of a [`DesignMsg`]. It leaves out `Debug`, so the browser build, which
/// never prints a message, carries no printing code for any design's messages.
trait Erased {
    fn kind(&self) -> MsgKind;
    fn as_any(&self) -> &dyn Any;
    fn same(&self, other: &dyn Erased) -> bool;
    fn fingerprint(&self) -> u128;
    #[cfg(not(target_arch = "wasm32"))]
    fn to_json(&self) -> serde_json::Value;
}

impl<T: DesignMsg> Erased for T {
    fn kind(&self) -> MsgKind {
        DesignMsg::kind(self)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn same(&self, other: &dyn Erased) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }

    fn fingerprint(&self) -> u128 {
        let mut h = super::fingerprint::Fingerprint::default();
        self.hash(&mut h);
        h.finish128()
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
}

/// A design's message in flight: shared, cheap to clone, compared and hashed by value.
#[derive(Clone)]
pub struct LockMsg(Rc<dyn Erased>);

impl std::hash::Hash for LockMsg {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        h.write_u128(self.0.fingerprint())
    }
}

impl Debug for LockMsg {
    /// Natively, the message as JSON; in the browser, only its kind.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        #[cfg(not(target_arch = "wasm32"))]
        return write!(f, "{}", self.0.to_json());
        #[cfg(target_arch = "wasm32")]
        return write!(f, "{:?}", self.kind());
    }
}

impl LockMsg {
    /// Wraps a design's message.
    pub fn new(msg: impl DesignMsg) -> Self {
        LockMsg(Rc::new(msg))
    }

    /// Says what part the message plays.
    pub fn kind(&self) -> MsgKind {
        self.0.kind()
    }

    /// Returns the message as the design's own type, if it is one.
    pub fn get<T: DesignMsg>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref::<T>()
    }
}

impl PartialEq for LockMsg {
    fn eq(&self, other: &Self) -> bool {
        self.0.same(other.0.as_ref())
    }
}

impl Serialize for LockMsg {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[cfg(not(target_arch = "wasm32"))]
        return self.0.to_json().serialize(s);
        #[cfg(target_arch = "wasm32")]
        return self.kind().serialize(s);
    }
}

/// A value written to the data: shared, so a step, the message that carries it and the events
/// that record it do not each copy it.
pub type WriteValue = Rc<str>;

/// How a client gives a lock back; which modes a design offers is the design's to declare.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReleaseMode {
    /// Delete only if the lock is still mine (compare token or value first).
    Safe,
    /// Delete whatever lock is there (a plain `DEL`).
    Unsafe,
    /// End the transaction with `COMMIT`, which releases its transaction-level locks.
    Commit,
}

/// Why a write was refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Hash)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum Rejection {
    /// A fenced resource has already accepted a higher token.
    StaleToken { token: u64, highest: u64 },
    /// A conditional write named a version the data is no longer at.
    VersionChanged { expected: u64, found: u64 },
    /// A conditional write named no version at all.
    NoVersion,
    /// A deduplicating store has already applied this value.
    AlreadyApplied { value: WriteValue },
    /// The value violates a unique constraint.
    Duplicate { value: WriteValue },
    /// A compensation found no write of `value` by its sender to undo.
    NothingToUndo { value: WriteValue },
    /// The lock service that keeps the data refused: the writer's lock (held under `token`) no
    /// longer guards it.
    Guard { token: u64 },
    /// The lock service that keeps the data refused with its own error (Kafka's coordinator:
    /// `ILLEGAL_GENERATION`), which `means` explains; `token` is the one the write carried.
    Refused { token: u64, code: &'static str, means: &'static str },
}

/// Every message a node can send.
#[derive(Clone, Debug, PartialEq, Serialize, Hash)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Msg {
    /// A lock design's protocol message.
    Lock {
        msg: LockMsg,
    },
    /// Read the data's version (for a later conditional write).
    Read,
    ReadResult {
        version: u64,
    },
    /// Write `value`, carrying the writer's token and, for a conditional write, the version it read.
    Write {
        token: u64,
        value: WriteValue,
        expected_version: Option<u64>,
    },
    /// Undo the sender's own earlier write of `value` (a saga's compensating action).
    Undo {
        value: WriteValue,
    },
    WriteAccepted {
        version: u64,
    },
    WriteRejected {
        reason: Rejection,
    },
}

impl Msg {
    /// Wraps a design's message.
    pub fn lock(msg: impl DesignMsg) -> Msg {
        Msg::Lock { msg: LockMsg::new(msg) }
    }

    /// Says what part the message plays.
    pub fn kind(&self) -> MsgKind {
        match self {
            Msg::Lock { msg } => msg.kind(),
            Msg::Read | Msg::Write { .. } | Msg::Undo { .. } => MsgKind::Request,
            Msg::ReadResult { .. } | Msg::WriteAccepted { .. } => MsgKind::Reply,
            Msg::WriteRejected { .. } => MsgKind::Refusal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq, Hash, Serialize)]
    enum Ping {
        Ping(u64),
    }

    impl DesignMsg for Ping {
        fn kind(&self) -> MsgKind {
            MsgKind::Request
        }
    }

    #[test]
    fn a_design_message_keeps_its_type_value_and_kind() {
        let m = Msg::lock(Ping::Ping(7));
        let Msg::Lock { msg } = &m else { panic!("not a lock message") };
        assert_eq!(msg.get::<Ping>(), Some(&Ping::Ping(7)));
        assert_eq!(m.kind(), MsgKind::Request);
        assert_eq!(m, Msg::lock(Ping::Ping(7)));
        assert_ne!(m, Msg::lock(Ping::Ping(8)));
        assert_eq!(serde_json::to_string(&m).unwrap(), r#"{"type":"lock","msg":{"Ping":7}}"#);
    }
}
