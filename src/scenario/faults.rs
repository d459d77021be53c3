//! The kinds of fault a scenario may schedule, declared once each ([`FAULTS`]): the tag files use,
//! what people call it, its fields (units, ranges, the values a new one starts with) and whom a
//! new one hits. The reader, the writer, validation, the editor, the failure search and the
//! command line's help all read these declarations. A declaration builds the typed [`Fault`]
//! from the values read for its fields; [`Fault::decl`] and [`Fault::values`] go the other way.

use super::field::{Field, FieldKind, FieldValue, Values, MAX_SPAN_MS};
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
    pub target: Target,
    /// Whether the editor lists it among the faults to add (a dropped or delayed message is
    /// made on the message itself).
    pub listed: bool,
    /// Whether the failure search adds faults of this kind.
    pub searched: bool,
    /// Builds the fault from its time and the values of its other fields, in order.
    pub build: fn(i64, &mut Values) -> Fault<String>,
}

/// Whom a new fault hits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
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

pub static PAUSE: FaultDecl = FaultDecl {
    tag: "pause",
    label: "pause",
    plural: "pauses",
    fields: &[AT, NODE, Field::ms("for_ms", "for", 0, MAX_SPAN_MS, 1_500)],
    target: Target::Client,
    listed: true,
    searched: true,
    build: |at_ms, v| Fault::Pause { at_ms, node: v.id(), for_ms: v.ms() },
};

pub static CRASH: FaultDecl = FaultDecl {
    tag: "crash",
    label: "crash",
    plural: "crashes",
    fields: &[AT, NODE],
    target: Target::Service,
    listed: true,
    searched: true,
    build: |at_ms, v| Fault::Crash { at_ms, node: v.id() },
};

pub static RESTART: FaultDecl = FaultDecl {
    tag: "restart",
    label: "restart",
    plural: "restarts",
    fields: &[AT, NODE, Field::of("keep_state", "keeps its state", FieldKind::Flag { start: false })],
    target: Target::Service,
    listed: true,
    searched: true,
    build: |at_ms, v| Fault::Restart { at_ms, node: v.id(), keep_state: v.flag() },
};

pub static PROMOTE: FaultDecl = FaultDecl {
    tag: "promote",
    label: "promotion",
    plural: "promotions",
    fields: &[AT, NODE],
    target: Target::Service,
    listed: true,
    searched: false,
    build: |at_ms, v| Fault::Promote { at_ms, node: v.id() },
};

pub static CLOCK_JUMP: FaultDecl = FaultDecl {
    tag: "clock_jump",
    label: "clock jump",
    plural: "clock jumps",
    fields: &[AT, NODE, Field::ms("by_ms", "by", -MAX_SPAN_MS, MAX_SPAN_MS, 2_000)],
    target: Target::Service,
    listed: true,
    searched: true,
    build: |at_ms, v| Fault::ClockJump { at_ms, node: v.id(), by_ms: v.ms() },
};

pub static PARTITION: FaultDecl = FaultDecl {
    tag: "partition",
    label: "partition",
    plural: "partitions",
    fields: &[
        AT,
        Field::of("from", "from", FieldKind::From { many: true }),
        Field::of("to", "to", FieldKind::To { many: true }),
        Field::of("two_way", "both ways", FieldKind::Flag { start: true }).optional(),
        FOR,
    ],
    target: Target::Link,
    listed: true,
    searched: true,
    build: |at_ms, v| Fault::Partition { at_ms, from: v.ids(), to: v.ids(), two_way: v.flag(), for_ms: v.ms() },
};

pub static DELAY: FaultDecl = FaultDecl {
    tag: "delay",
    label: "delay",
    plural: "delays",
    fields: &[AT, FROM, TO, Field::ms("extra_ms", "extra", 0, MAX_SPAN_MS, 1_000), FOR],
    target: Target::Link,
    listed: true,
    searched: false,
    build: |at_ms, v| Fault::Delay { at_ms, from: v.id(), to: v.id(), extra_ms: v.ms(), for_ms: v.ms() },
};

pub static DROP_MESSAGE: FaultDecl = FaultDecl {
    tag: "drop_message",
    label: "dropped message",
    plural: "dropped messages",
    fields: &[AT, FROM, TO],
    target: Target::Link,
    listed: false,
    searched: false,
    build: |at_ms, v| Fault::DropMessage { at_ms, from: v.id(), to: v.id() },
};

pub static DELAY_MESSAGE: FaultDecl = FaultDecl {
    tag: "delay_message",
    label: "delayed message",
    plural: "message delays",
    fields: &[AT, FROM, TO, Field::ms("extra_ms", "extra", 0, MAX_SPAN_MS, 500)],
    target: Target::Link,
    listed: false,
    searched: true,
    build: |at_ms, v| Fault::DelayMessage { at_ms, from: v.id(), to: v.id(), extra_ms: v.ms() },
};

/// Every kind of fault, in the order the editor and the help list them.
pub static FAULTS: [&FaultDecl; 9] = [&PAUSE, &CRASH, &RESTART, &PROMOTE, &CLOCK_JUMP, &PARTITION, &DELAY, &DROP_MESSAGE, &DELAY_MESSAGE];

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
    /// Returns the declaration of the fault's kind.
    pub fn decl(&self) -> &'static FaultDecl {
        match self {
            Fault::Pause { .. } => &PAUSE,
            Fault::Crash { .. } => &CRASH,
            Fault::Restart { .. } => &RESTART,
            Fault::Promote { .. } => &PROMOTE,
            Fault::ClockJump { .. } => &CLOCK_JUMP,
            Fault::Partition { .. } => &PARTITION,
            Fault::Delay { .. } => &DELAY,
            Fault::DropMessage { .. } => &DROP_MESSAGE,
            Fault::DelayMessage { .. } => &DELAY_MESSAGE,
        }
    }

    /// Returns the fault's values, one for each field its kind declares, in order.
    pub fn values(&self) -> Vec<FieldValue> {
        use FieldValue::{Flag, Id, Ids, Ms};
        match self.clone() {
            Fault::Pause { at_ms, node, for_ms } => vec![Ms(at_ms), Id(node), Ms(for_ms)],
            Fault::Crash { at_ms, node } | Fault::Promote { at_ms, node } => vec![Ms(at_ms), Id(node)],
            Fault::Restart { at_ms, node, keep_state } => vec![Ms(at_ms), Id(node), Flag(keep_state)],
            Fault::ClockJump { at_ms, node, by_ms } => vec![Ms(at_ms), Id(node), Ms(by_ms)],
            Fault::Partition { at_ms, from, to, two_way, for_ms } => vec![Ms(at_ms), Ids(from), Ids(to), Flag(two_way), Ms(for_ms)],
            Fault::Delay { at_ms, from, to, extra_ms, for_ms } => vec![Ms(at_ms), Id(from), Id(to), Ms(extra_ms), Ms(for_ms)],
            Fault::DropMessage { at_ms, from, to } => vec![Ms(at_ms), Id(from), Id(to)],
            Fault::DelayMessage { at_ms, from, to, extra_ms } => vec![Ms(at_ms), Id(from), Id(to), Ms(extra_ms)],
        }
    }

    /// Builds a fault of `kind` from values read for its declared fields, in order.
    pub fn from_values(kind: &FaultDecl, values: Vec<FieldValue>) -> Fault<String> {
        let mut values = Values::new(values);
        let at_ms = values.ms();
        (kind.build)(at_ms, &mut values)
    }
}
