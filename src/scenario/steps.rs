//! The kinds of step a client's script may take, declared once each ([`STEPS`]): the tag files
//! use, what people call it, and its field (unit, range, the value a new one starts with). The
//! decoder, the written document, the editor and the command line's help read these
//! declarations; a kind builds its typed [`Step`], and [`kind_of`] and [`values_of`] go the
//! other way.

use super::field::{Field, FieldKind, FieldReader, FieldValue, MAX_SPAN_MS};
use crate::engine::spec::Step;

/// One kind of script step.
pub struct StepKind {
    /// The `step` tag files use.
    pub tag: &'static str,
    /// What it does, in a few words.
    pub label: &'static str,
    /// Its fields, in the order files write them.
    pub fields: &'static [Field],
    /// Builds the step from the values of its fields, in order.
    pub build: fn(&mut FieldReader) -> Step,
}

pub static ACQUIRE: StepKind = StepKind { tag: "acquire", label: "take the lock", fields: &[], build: |_| Step::Acquire };

pub static WORK: StepKind = StepKind {
    tag: "work",
    label: "work inside the critical section",
    fields: &[Field::ms("ms", "for", 0, MAX_SPAN_MS, 100)],
    build: |v| Step::Work { ms: v.take::<i64>().unsigned_abs() },
};

pub static READ: StepKind = StepKind { tag: "read", label: "read the resource's version", fields: &[], build: |_| Step::Read };

pub static CHECK: StepKind = StepKind {
    tag: "check",
    label: "check the lock on its own clock",
    fields: &[Field::ms("margin_ms", "margin", 0, MAX_SPAN_MS, 200)],
    build: |v| Step::Check { margin_ms: v.take::<i64>().unsigned_abs() },
};

/// Where a write goes: needed only where a scenario has several resources.
const TO: Field = Field::of("to", "to", FieldKind::Resource).optional();

/// A resource's id, or `None` for the scenario's only resource.
fn target(v: &mut FieldReader) -> Option<String> {
    Some(v.take::<String>()).filter(|to| !to.is_empty())
}

pub static WRITE: StepKind = StepKind {
    tag: "write",
    label: "write to the resource",
    fields: &[Field::of("value", "value", FieldKind::Text { start: "X" }), TO],
    build: |v| Step::Write { value: v.take::<String>().into(), to: target(v) },
};

pub static COMPENSATE: StepKind = StepKind {
    tag: "compensate",
    label: "undo its own write, once a later one was refused (a saga)",
    fields: &[Field::of("value", "value", FieldKind::Text { start: "X" }), TO],
    build: |v| Step::Compensate { value: v.take::<String>().into(), to: target(v) },
};

pub static RELEASE: StepKind = StepKind {
    tag: "release",
    label: "give the lock back",
    fields: &[Field::of("mode", "mode", FieldKind::Release)],
    build: |v| Step::Release { mode: v.take() },
};

/// Every kind of step, in the order the editor and the help list them.
pub static STEPS: [&StepKind; 7] = [&ACQUIRE, &WORK, &READ, &CHECK, &WRITE, &COMPENSATE, &RELEASE];

/// Finds a kind of step by its tag.
pub fn step_kind(tag: &str) -> Option<&'static StepKind> {
    STEPS.iter().copied().find(|k| k.tag == tag)
}

/// Returns a step's kind.
pub fn kind_of(step: &Step) -> &'static StepKind {
    match step {
        Step::Acquire => &ACQUIRE,
        Step::Work { .. } => &WORK,
        Step::Read => &READ,
        Step::Check { .. } => &CHECK,
        Step::Write { .. } => &WRITE,
        Step::Compensate { .. } => &COMPENSATE,
        Step::Release { .. } => &RELEASE,
    }
}

/// Returns a step's values, one for each field its kind declares, in order.
pub fn values_of(step: &Step) -> Vec<FieldValue> {
    match step {
        Step::Acquire | Step::Read => Vec::new(),
        Step::Work { ms } => vec![FieldValue::Ms(*ms as i64)],
        Step::Check { margin_ms } => vec![FieldValue::Ms(*margin_ms as i64)],
        Step::Write { value, to } | Step::Compensate { value, to } => {
            vec![FieldValue::Text(value.to_string()), FieldValue::Id(to.clone().unwrap_or_default())]
        }
        Step::Release { mode } => vec![FieldValue::Release(*mode)],
    }
}

/// Builds a step of `kind` from values read for its declared fields, in order.
pub fn from_values(kind: &StepKind, values: Vec<FieldValue>) -> Step {
    (kind.build)(&mut FieldReader::new(values))
}
