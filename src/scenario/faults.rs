//! The kinds of fault a scenario may schedule, declared once each ([`FAULTS`]): the tag files use,
//! what people call it, its fields (units, ranges, the values a new one starts with) and whom a
//! new one hits. The reader, the writer, validation, the editor, the failure search and the
//! command line's help all read these declarations. Each entry of `declare!` names its variant
//! of [`Fault`] and the declaration of each of its fields in the variant's order, so building a
//! fault from the values read ([`Fault::from_values`]) and listing them ([`Fault::values`]) are
//! made from the same list and cannot disagree.

use super::field::{Field, FieldKind, FieldReader, FieldValue, MAX_SPAN_MS};
use super::format::Fault;

/// The declaration of one kind of fault.
pub struct FaultDecl {
    /// The `fault` tag files use: `clock_jump`.
    pub tag: &'static str,
    /// What people call one: `clock jump`.
    pub label: &'static str,
    /// What people call several: `clock jumps`.
    pub plural: &'static str,
    /// Its fields, in the order files write them; `at_ms` comes first.
    pub fields: &'static [Field],
    /// Whom a new one hits when it is not placed on a lifeline.
    pub hits: Hits,
    /// Whether the editor lists it among the faults to add (a dropped or delayed message is
    /// made on the message itself).
    pub listed: bool,
    /// Whether the failure search adds faults of this kind.
    pub searched: bool,
    /// Builds the fault from the values of its fields, in order.
    build: fn(&mut FieldReader) -> Fault<String>,
}

/// Whom a new fault hits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hits {
    /// The first client.
    Client,
    /// The first lock service (the first client when there is none).
    Service,
    /// The link from the first client to the first participant that is not a client.
    Link,
}

const AT: Field = Field::ms("at_ms", "at", 0, MAX_SPAN_MS, 0);
const NODE: Field = Field::of("node", "node", FieldKind::Node);
const FROM: Field = Field::of("from", "from", FieldKind::From { many: false });
const TO: Field = Field::of("to", "to", FieldKind::To { many: false });
const FOR: Field = Field::ms("for_ms", "for", 0, MAX_SPAN_MS, 1_000);

/// Declares each kind: its static, its variant with each field's declaration, its words, whom a
/// new one hits, and whether the editor lists it and the search adds it.
macro_rules! declare {
    ($($name:ident = $kind:ident { $($field:ident: $decl:expr),* }
        $tag:literal, $label:literal, $plural:literal, $hits:ident, listed: $listed:literal, searched: $searched:literal;)+) => {
        $(pub static $name: FaultDecl = FaultDecl {
            tag: $tag,
            label: $label,
            plural: $plural,
            fields: &[AT, $($decl),*],
            hits: Hits::$hits,
            listed: $listed,
            searched: $searched,
            build: |v| Fault::$kind { at_ms: v.take(), $($field: v.take()),* },
        };)+

        /// Every kind of fault, in the order the editor and the help list them.
        pub static FAULTS: &[&FaultDecl] = &[$(&$name),+];

        impl<Id> Fault<Id> {
            /// Returns the declaration of the fault's kind.
            pub fn decl(&self) -> &'static FaultDecl {
                match self {
                    $(Fault::$kind { .. } => &$name,)+
                }
            }
        }

        impl Fault<String> {
            /// Returns the fault's values, one for each field its kind declares, in order.
            pub fn values(&self) -> Vec<FieldValue> {
                match self {
                    $(Fault::$kind { at_ms, $($field),* } => vec![(*at_ms).into(), $($field.clone().into()),*],)+
                }
            }
        }
    };
}

declare! {
    PAUSE = Pause { node: NODE, for_ms: Field::ms("for_ms", "for", 0, MAX_SPAN_MS, 1_500) }
        "pause", "pause", "pauses", Client, listed: true, searched: true;
    CRASH = Crash { node: NODE }
        "crash", "crash", "crashes", Service, listed: true, searched: true;
    RESTART = Restart { node: NODE, keep_state: Field::of("keep_state", "keeps its state", FieldKind::Flag { start: false }) }
        "restart", "restart", "restarts", Service, listed: true, searched: true;
    PROMOTE = Promote { node: NODE }
        "promote", "promotion", "promotions", Service, listed: true, searched: false;
    CLOCK_JUMP = ClockJump { node: NODE, by_ms: Field::ms("by_ms", "by", -MAX_SPAN_MS, MAX_SPAN_MS, 2_000) }
        "clock_jump", "clock jump", "clock jumps", Service, listed: true, searched: true;
    PARTITION = Partition {
        from: Field::of("from", "from", FieldKind::From { many: true }),
        to: Field::of("to", "to", FieldKind::To { many: true }),
        two_way: Field::of("two_way", "both ways", FieldKind::Flag { start: true }).optional(),
        for_ms: FOR
    }
        "partition", "partition", "partitions", Link, listed: true, searched: true;
    DELAY = Delay { from: FROM, to: TO, extra_ms: Field::ms("extra_ms", "extra", 0, MAX_SPAN_MS, 1_000), for_ms: FOR }
        "delay", "delay", "delays", Link, listed: true, searched: false;
    DROP_MESSAGE = DropMessage { from: FROM, to: TO }
        "drop_message", "dropped message", "dropped messages", Link, listed: false, searched: false;
    DELAY_MESSAGE = DelayMessage { from: FROM, to: TO, extra_ms: Field::ms("extra_ms", "extra", 0, MAX_SPAN_MS, 500) }
        "delay_message", "delayed message", "message delays", Link, listed: false, searched: true;
}

impl FaultDecl {
    /// Returns the declared field called `name`.
    pub fn field(&self, name: &str) -> Option<&'static Field> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// Returns the time a new fault's field `name` starts at (0 for a field that is not a time).
    pub fn start_ms(&self, name: &str) -> u64 {
        match self.field(name).map(|f| f.kind) {
            Some(FieldKind::Ms { start, .. }) => start.unsigned_abs(),
            _ => 0,
        }
    }
}

/// Finds the declaration of a kind of fault by its tag.
pub fn fault_decl(tag: &str) -> Option<&'static FaultDecl> {
    FAULTS.iter().copied().find(|k| k.tag == tag)
}

impl Fault<String> {
    /// Builds a fault of `kind` from values read for its declared fields, in order.
    pub fn from_values(kind: &FaultDecl, values: Vec<FieldValue>) -> Fault<String> {
        (kind.build)(&mut FieldReader::new(values))
    }
}
