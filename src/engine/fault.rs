//! A fault: one type from the scenario file to the engine, generic over how it names a
//! participant. The file and the editor hold ids as written (`Fault<String>`), the engine holds
//! node ids (`Fault<NodeId>`); [`Fault::try_map`] turns one into the other. Times are in
//! milliseconds as written, signed so that a negative one can be refused by name; validation
//! checks each against its declared range before a run, and the engine reads them as spans
//! ([`span`]).

/// A scheduled fault, tagged by kind; `at_ms` is when it happens.
#[derive(Clone, Debug, PartialEq)]
pub enum Fault<Id> {
    /// Stop the world: the node handles nothing until it resumes.
    Pause {
        at_ms: i64,
        node: Id,
        for_ms: i64,
    },
    Crash {
        at_ms: i64,
        node: Id,
    },
    Restart {
        at_ms: i64,
        node: Id,
        keep_state: bool,
    },
    /// A replica becomes the primary (a Sentinel failover).
    Promote {
        at_ms: i64,
        node: Id,
    },
    /// The node's clock jumps; the jump itself lives in the node's clock, this records it.
    ClockJump {
        at_ms: i64,
        node: Id,
        by_ms: i64,
    },
    /// Messages from `from` to `to` (and back, if two-way) are dropped for `for_ms`.
    Partition {
        at_ms: i64,
        from: Vec<Id>,
        to: Vec<Id>,
        two_way: bool,
        for_ms: i64,
    },
    /// Messages sent on one link during `for_ms` take `extra_ms` longer.
    Delay {
        at_ms: i64,
        from: Id,
        to: Id,
        extra_ms: i64,
        for_ms: i64,
    },
    /// The first message from `from` to `to` sent at or after `at_ms` is lost.
    DropMessage {
        at_ms: i64,
        from: Id,
        to: Id,
    },
    /// The first message from `from` to `to` sent at or after `at_ms` arrives `extra_ms` later.
    DelayMessage {
        at_ms: i64,
        from: Id,
        to: Id,
        extra_ms: i64,
    },
}

/// A validated time or length, which is never negative, as the engine counts it.
pub fn span(ms: i64) -> u64 {
    ms.unsigned_abs()
}

impl<Id> Fault<Id> {
    /// Returns when the fault happens.
    pub fn at_ms(&self) -> i64 {
        match self {
            Fault::Pause { at_ms, .. }
            | Fault::Crash { at_ms, .. }
            | Fault::Restart { at_ms, .. }
            | Fault::Promote { at_ms, .. }
            | Fault::ClockJump { at_ms, .. }
            | Fault::Partition { at_ms, .. }
            | Fault::Delay { at_ms, .. }
            | Fault::DropMessage { at_ms, .. }
            | Fault::DelayMessage { at_ms, .. } => *at_ms,
        }
    }

    /// Returns the same fault with each participant named by `name(field, index, id)`: the field
    /// is `node`, `from` or `to`, and `index` the place in a partition's list.
    pub fn try_map<J, E>(&self, mut name: impl FnMut(&'static str, Option<usize>, &Id) -> Result<J, E>) -> Result<Fault<J>, E> {
        let mut list =
            |field, ids: &[Id]| -> Result<Vec<J>, E> { ids.iter().enumerate().map(|(i, id)| name(field, Some(i), id)).collect() };
        Ok(match self {
            Fault::Partition { at_ms, from, to, two_way, for_ms } => {
                Fault::Partition { at_ms: *at_ms, from: list("from", from)?, to: list("to", to)?, two_way: *two_way, for_ms: *for_ms }
            }
            Fault::Pause { at_ms, node, for_ms } => Fault::Pause { at_ms: *at_ms, node: name("node", None, node)?, for_ms: *for_ms },
            Fault::Crash { at_ms, node } => Fault::Crash { at_ms: *at_ms, node: name("node", None, node)? },
            Fault::Restart { at_ms, node, keep_state } => {
                Fault::Restart { at_ms: *at_ms, node: name("node", None, node)?, keep_state: *keep_state }
            }
            Fault::Promote { at_ms, node } => Fault::Promote { at_ms: *at_ms, node: name("node", None, node)? },
            Fault::ClockJump { at_ms, node, by_ms } => Fault::ClockJump { at_ms: *at_ms, node: name("node", None, node)?, by_ms: *by_ms },
            Fault::Delay { at_ms, from, to, extra_ms, for_ms } => Fault::Delay {
                at_ms: *at_ms,
                from: name("from", None, from)?,
                to: name("to", None, to)?,
                extra_ms: *extra_ms,
                for_ms: *for_ms,
            },
            Fault::DropMessage { at_ms, from, to } => {
                Fault::DropMessage { at_ms: *at_ms, from: name("from", None, from)?, to: name("to", None, to)? }
            }
            Fault::DelayMessage { at_ms, from, to, extra_ms } => {
                Fault::DelayMessage { at_ms: *at_ms, from: name("from", None, from)?, to: name("to", None, to)?, extra_ms: *extra_ms }
            }
        })
    }
}
