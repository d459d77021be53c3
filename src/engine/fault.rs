//! A fault: one type from the scenario file to the engine, generic over how it names a
//! participant. The file and the editor hold ids as written (`Fault<String>`), the engine holds
//! node ids (`Fault<NodeId>`); [`Fault::try_map`] turns one into the other. Times are in
//! milliseconds as written, signed so that a negative one can be refused by name; validation
//! checks each against its declared range before a run, and the engine reads them as spans
//! ([`span`]). Each kind is one entry of `faults!`: its fields, each a time (`i64`), a flag
//! (`bool`), one participant (`Id`) or a list of them (`Vec<Id>`); its tag, words and ranges
//! are declared in `scenario::faults`, its meaning in `sim`.

/// A field's value with its participants named by `name`, by the field's type: a time or a flag
/// as it is, one participant (`Id`) or a list of them (`Vec<Id>`) named.
macro_rules! mapped {
    (Id, $v:ident, $name:ident) => {
        $name(stringify!($v), None, $v)?
    };
    (Vec, $v:ident, $name:ident) => {{
        let mut ids = Vec::with_capacity($v.len());
        for (i, id) in $v.iter().enumerate() {
            ids.push($name(stringify!($v), Some(i), id)?);
        }
        ids
    }};
    ($plain:ident, $v:ident, $name:ident) => {
        *$v
    };
}

use super::time::Millis;

/// Shows field `at` to a visitor: a time or a list's length; a participant or a flag it skips.
macro_rules! visited {
    (i64, $v:ident, $at:ident, $see:ident) => {
        $see($at, Seen::Time(*$v))
    };
    (Vec, $v:ident, $at:ident, $see:ident) => {
        $see($at, Seen::List($v.len()))
    };
    ($other:ident, $v:ident, $at:ident, $see:ident) => {{
        let _ = ($v, $at);
    }};
}

/// What [`Fault::visit`] shows of a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seen {
    /// A time, in milliseconds as written.
    Time(i64),
    /// A list of participants, by its length.
    List(usize),
}

/// Declares the kinds of fault: the enum, when each happens, and how its participants are named.
macro_rules! faults {
    ($($(#[$doc:meta])* $kind:ident { $($field:ident: $t:ident $(<$inner:ident>)?),* })+) => {
        /// A scheduled fault, tagged by kind; `at_ms` is when it happens.
        #[derive(Clone, Debug, PartialEq, Hash)]
        pub enum Fault<Id> {
            $($(#[$doc])* $kind { at_ms: i64, $($field: $t $(<$inner>)?),* },)+
        }

        impl<Id> Fault<Id> {
            /// Returns when the fault happens.
            pub fn at_ms(&self) -> i64 {
                match self {
                    $(Fault::$kind { at_ms, .. })|+ => *at_ms,
                }
            }

            /// Shows each time and list of the fault to `see`, by the place of its field among
            /// the fault's fields (`at_ms` first, then in the order above, as the scenario's
            /// declarations list them): what validation checks against the declared ranges.
            pub fn visit(&self, mut see: impl FnMut(usize, Seen)) {
                match self {
                    $(Fault::$kind { at_ms, $($field),* } => {
                        let at = 0;
                        see(at, Seen::Time(*at_ms));
                        $(
                            let at = at + 1;
                            visited!($t, $field, at, see);
                        )*
                    })+
                }
            }

            /// Returns the same fault with each participant named by `name(field, index, id)`:
            /// `index` is the place in a list such as a partition's side.
            pub fn try_map<J, E>(
                &self,
                mut name: impl FnMut(&'static str, Option<usize>, &Id) -> Result<J, E>,
            ) -> Result<Fault<J>, E> {
                Ok(match self {
                    $(Fault::$kind { at_ms, $($field),* } => {
                        Fault::$kind { at_ms: *at_ms, $($field: mapped!($t, $field, name)),* }
                    })+
                })
            }
        }
    };
}

faults! {
    /// Stop the world: the node handles nothing until it resumes.
    Pause { node: Id, for_ms: i64 }
    Crash { node: Id }
    Restart { node: Id, keep_state: bool }
    /// A replica becomes the primary (a Sentinel failover).
    Promote { node: Id }
    /// The node's clock jumps; the jump itself lives in the node's clock, this records it.
    ClockJump { node: Id, by_ms: i64 }
    /// Messages from `from` to `to` (and back, if two-way) are dropped for `for_ms`.
    Partition { from: Vec<Id>, to: Vec<Id>, two_way: bool, for_ms: i64 }
    /// Messages sent on one link during `for_ms` take `extra_ms` longer.
    Delay { from: Id, to: Id, extra_ms: i64, for_ms: i64 }
    /// The first message from `from` to `to` sent at or after `at_ms` is lost.
    DropMessage { from: Id, to: Id }
    /// The first message from `from` to `to` sent at or after `at_ms` arrives `extra_ms` later.
    DelayMessage { from: Id, to: Id, extra_ms: i64 }
}

/// A validated time or length, which is never negative, as the engine counts it.
pub fn span(ms: i64) -> Millis {
    Millis::from_ms(ms.unsigned_abs())
}
