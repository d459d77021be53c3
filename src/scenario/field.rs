//! A field of a fault or a script step, declared once: its name in the file, its label in the
//! editor, what it holds (with unit and range), the value a new one starts with, and whether a
//! file may leave it out. [`super::faults`] and [`super::steps`] declare their kinds with these.

use crate::engine::msg::ReleaseMode;
use crate::error::ScenarioError;

pub use crate::limits::{MAX_NAME_CHARS, MAX_SPAN_MS};

/// One declared field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The field's name in the file.
    pub name: &'static str,
    /// What the editor calls it.
    pub label: &'static str,
    pub kind: FieldKind,
    /// Whether a file may leave it out; it then takes the value a new one starts with.
    pub optional: bool,
}

/// What a field holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    /// A time in milliseconds within `min..=max`; a new one starts at `start`.
    Ms { min: i64, max: i64, start: i64 },
    /// The participant a fault hits.
    Node,
    /// Where messages come from (`many`: a list of participants, a partition's side).
    From { many: bool },
    /// Where messages go.
    To { many: bool },
    /// Yes or no.
    Flag { start: bool },
    /// A short text of 1 to [`MAX_NAME_CHARS`] characters.
    Text { start: &'static str },
    /// A way to give the lock back, among those the design offers.
    Release,
    /// The resource a write goes to, by id; left empty (and out of a file) where there is one.
    Resource,
}

/// A field's value, as a fault or step holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldValue {
    Ms(i64),
    /// One participant's id (a node, or one end of a link).
    Id(String),
    /// Participants' ids (a partition's side).
    Ids(Vec<String>),
    Flag(bool),
    Text(String),
    Release(ReleaseMode),
}

impl Field {
    /// A time in milliseconds.
    pub const fn ms(name: &'static str, label: &'static str, min: i64, max: i64, start: i64) -> Field {
        Field { name, label, kind: FieldKind::Ms { min, max, start }, optional: false }
    }

    /// A field of another kind.
    pub const fn of(name: &'static str, label: &'static str, kind: FieldKind) -> Field {
        Field { name, label, kind, optional: false }
    }

    /// Returns the field, which a file may leave out.
    pub const fn optional(self) -> Field {
        Field { optional: true, ..self }
    }

    /// Returns the value a new one starts with, for a field that names no participant or release
    /// (those depend on the scenario).
    pub fn start(&self) -> Option<FieldValue> {
        match self.kind {
            FieldKind::Ms { start, .. } => Some(FieldValue::Ms(start)),
            FieldKind::Flag { start } => Some(FieldValue::Flag(start)),
            FieldKind::Text { start } => Some(FieldValue::Text(start.to_string())),
            FieldKind::Resource => Some(FieldValue::Id(String::new())),
            FieldKind::Node | FieldKind::From { .. } | FieldKind::To { .. } | FieldKind::Release => None,
        }
    }

    /// Returns the unit the editor shows beside the field.
    pub fn unit(&self) -> &'static str {
        match self.kind {
            FieldKind::Ms { .. } => "ms",
            _ => "",
        }
    }

    /// Checks a value against the declared range or length; the error names the field at `path`.
    pub fn check(&self, path: &str, value: FieldValue) -> Result<FieldValue, ScenarioError> {
        match self.problem(&value) {
            Some(problem) => Err(ScenarioError::new(path, problem)),
            None => Ok(value),
        }
    }

    /// Says what is wrong with a list of `len` participants for this field, if anything: a side
    /// of a partition names someone.
    pub fn list_problem(&self, len: usize) -> Option<String> {
        let side = matches!(self.kind, FieldKind::From { many: true } | FieldKind::To { many: true });
        let problem = "must name at least one participant";
        (side && len == 0).then(|| problem.to_string())
    }

    /// Says what is wrong with a value for this field, if anything: out of the declared range,
    /// too long, or an empty list.
    pub fn problem(&self, value: &FieldValue) -> Option<String> {
        Some(match (&self.kind, value) {
            (FieldKind::Ms { min, max, .. }, FieldValue::Ms(v)) if !(min..=max).contains(&v) => {
                if *min == -max {
                    format!("must be within ±{max}")
                } else if v < min {
                    format!("must be ≥ {min}")
                } else if *max == MAX_SPAN_MS {
                    format!("must be ≤ {max} (one day)")
                } else {
                    format!("must be ≤ {max}")
                }
            }
            (FieldKind::Text { .. }, FieldValue::Text(t)) if t.is_empty() || t.chars().count() > MAX_NAME_CHARS => {
                format!("must be 1 to {MAX_NAME_CHARS} characters")
            }
            (_, FieldValue::Ids(ids)) => return self.list_problem(ids.len()),
            _ => return None,
        })
    }
}

/// A value read for a field is not of its declared kind: a fault's or step's `build` reads its
/// fields in another order than it declares them (the declarations' tests catch it).
fn mismatch() -> ! {
    panic!("a fault's or step's fields are read in another order than declared")
}

/// Reads the values of a fault's or step's declared fields in order, one by one: how the typed
/// faults and steps are built from what the decoder read.
pub struct FieldReader(std::vec::IntoIter<FieldValue>);

impl FieldReader {
    /// Takes values read in the order of their declarations.
    pub fn new(values: Vec<FieldValue>) -> FieldReader {
        FieldReader(values.into_iter())
    }

    fn next(&mut self) -> FieldValue {
        self.0.next().unwrap_or_else(|| mismatch())
    }

    /// Returns the next value, of the type its field is declared to hold.
    pub fn take<T: TryFrom<FieldValue>>(&mut self) -> T {
        T::try_from(self.next()).unwrap_or_else(|_| mismatch())
    }
}

/// Each type a field holds, in and out of a [`FieldValue`].
macro_rules! held {
    ($($t:ty => $variant:ident),+) => {$(
        impl From<$t> for FieldValue {
            fn from(v: $t) -> FieldValue {
                FieldValue::$variant(v)
            }
        }

        impl TryFrom<FieldValue> for $t {
            type Error = FieldValue;
            fn try_from(v: FieldValue) -> Result<$t, FieldValue> {
                match v {
                    FieldValue::$variant(v) => Ok(v),
                    other => Err(other),
                }
            }
        }
    )+};
}

held!(i64 => Ms, Vec<String> => Ids, bool => Flag, ReleaseMode => Release);

/// A participant's id as a fault holds it (a text field's value is written `FieldValue::Text`); either reads back as a string.
impl From<String> for FieldValue {
    fn from(id: String) -> FieldValue {
        FieldValue::Id(id)
    }
}

impl TryFrom<FieldValue> for String {
    type Error = FieldValue;
    fn try_from(v: FieldValue) -> Result<String, FieldValue> {
        match v {
            FieldValue::Id(v) | FieldValue::Text(v) => Ok(v),
            other => Err(other),
        }
    }
}
