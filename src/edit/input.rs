//! How an editor field's text is read, named once: the form writes it into the field's
//! `data-kind` ([`Input::attr`]), the page reads it back ([`Input::parse`]) with the text, and
//! [`Input::edit`] turns the text into the edit it makes.

use super::start;
use super::Edit;
use crate::engine::msg::ReleaseMode;
use crate::scenario::json::{self, Value};
use crate::scenario::tags::Tagged;

/// What a field's text means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// A number: an empty field removes it, so its default applies.
    Number,
    /// `true` or `false`, read from a checkbox.
    Flag,
    /// Text as typed.
    Text,
    /// Comma-separated participant ids.
    List,
    /// The tag of a new script step, which releases with this mode if it is a release.
    Step(ReleaseMode),
    /// The design to switch to.
    Design,
    /// The kind of fault a click on a lifeline adds.
    Tool,
    /// The variant drawn beside the edited run.
    Beside,
    /// The design of a blank scenario to start.
    New,
}

/// The inputs that carry nothing but their name.
const NAMED: [(&str, Input); 8] = [
    ("number", Input::Number),
    ("flag", Input::Flag),
    ("text", Input::Text),
    ("list", Input::List),
    ("design", Input::Design),
    ("tool", Input::Tool),
    ("beside", Input::Beside),
    ("new", Input::New),
];

impl Input {
    /// Returns the name written in the field's `data-kind`: `number`, or `step:safe`.
    pub fn attr(self) -> String {
        match self {
            Input::Step(mode) => format!("step:{}", mode.tag()),
            input => NAMED.iter().find(|(_, i)| *i == input).map_or("", |(name, _)| name).to_string(),
        }
    }

    /// Reads a field's `data-kind`; one the form never writes reads as text.
    pub fn parse(attr: &str) -> Input {
        if let Some(mode) = attr.strip_prefix("step:") {
            return Input::Step(ReleaseMode::from_tag(mode).unwrap_or(ReleaseMode::Safe));
        }
        NAMED.iter().find(|(name, _)| *name == attr).map_or(Input::Text, |(_, input)| *input)
    }

    /// Returns the edit that what a person typed into the field at `path` makes: a new script
    /// step of the kind named (see [`start::step`]; `None` for a name that is none), or the
    /// field set to the text's value.
    pub fn edit(self, path: String, text: &str) -> Option<Edit> {
        match self {
            Input::Step(mode) => Some(Edit::ReplaceStep { path, step: start::step(text.trim(), mode)? }),
            _ => Some(Edit::Set { path, value: self.value(text) }),
        }
    }

    /// Reads what a person typed as a value: a number (an empty field is `None`, so the default
    /// applies; text that is not a JSON number stays text, for the reader to refuse by name), a
    /// flag, a list of ids, or text.
    pub fn value(self, text: &str) -> Option<Value> {
        let trimmed = text.trim();
        Some(match self {
            Input::Number if trimmed.is_empty() => return None,
            Input::Number => match json::parse(trimmed) {
                Ok(number @ Value::Number(_)) => number,
                _ => Value::String(trimmed.to_string()),
            },
            Input::Flag => Value::Bool(trimmed == "true"),
            Input::List => {
                Value::Array(trimmed.split(',').map(str::trim).filter(|id| !id.is_empty()).map(|id| Value::String(id.into())).collect())
            }
            Input::Text | Input::Step(_) | Input::Design | Input::Tool | Input::Beside | Input::New => Value::String(text.to_string()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_input_reads_back_from_its_name() {
        let steps = [ReleaseMode::Safe, ReleaseMode::Unsafe, ReleaseMode::Commit].map(Input::Step);
        for input in NAMED.iter().map(|(_, i)| *i).chain(steps) {
            assert_eq!(Input::parse(&input.attr()), input);
        }
    }
}
