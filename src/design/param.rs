//! A design's parameters, declared once: name, kind, unit, range, default and one line of help.
//! Decoding, validation, `lockstep designs` and the editor all read these declarations.

use crate::error::ScenarioError;

/// One declared parameter of a lock design.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// The field name in the scenario's `lock` object.
    pub name: &'static str,
    pub kind: ParamKind,
    /// One line for people.
    pub help: &'static str,
    /// The name the field had in older scenario files, still read (a file may not give both).
    pub formerly: Option<&'static str>,
}

/// What values a parameter takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// A whole number in `min..=max` of `unit`; required when `default` is `None`.
    Number { unit: &'static str, min: u64, max: u64, default: Option<u64> },
    /// A whole number in `min..=max` of `unit` that may be left out, meaning there is none.
    Optional { unit: &'static str, min: u64, max: u64 },
    /// `true` or `false`.
    Flag { default: bool },
    /// One of a few names, each with its help.
    Choice { options: &'static [(&'static str, &'static str)], default: &'static str },
}

/// A parameter's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Number(u64),
    /// An optional number left out.
    Absent,
    Flag(bool),
    Choice(&'static str),
}

impl Param {
    /// A required whole number.
    pub const fn number(name: &'static str, unit: &'static str, min: u64, max: u64, help: &'static str) -> Param {
        Param { name, kind: ParamKind::Number { unit, min, max, default: None }, help, formerly: None }
    }

    /// A whole number with a default.
    pub const fn number_or(name: &'static str, unit: &'static str, min: u64, max: u64, default: u64, help: &'static str) -> Param {
        Param { name, kind: ParamKind::Number { unit, min, max, default: Some(default) }, help, formerly: None }
    }

    /// Returns the parameter, also read under the name it had in older files.
    pub const fn formerly(self, old: &'static str) -> Param {
        Param { formerly: Some(old), ..self }
    }

    /// A whole number that may be left out.
    pub const fn optional(name: &'static str, unit: &'static str, min: u64, max: u64, help: &'static str) -> Param {
        Param { name, kind: ParamKind::Optional { unit, min, max }, help, formerly: None }
    }

    /// A flag with a default.
    pub const fn flag(name: &'static str, default: bool, help: &'static str) -> Param {
        Param { name, kind: ParamKind::Flag { default }, help, formerly: None }
    }

    /// A choice among named options.
    pub const fn choice(
        name: &'static str,
        options: &'static [(&'static str, &'static str)],
        default: &'static str,
        help: &'static str,
    ) -> Param {
        Param { name, kind: ParamKind::Choice { options, default }, help, formerly: None }
    }

    /// Returns the value a scenario gets when it leaves the field out, if it may.
    pub fn default(&self) -> Option<Value> {
        match self.kind {
            ParamKind::Number { default, .. } => default.map(Value::Number),
            ParamKind::Optional { .. } => Some(Value::Absent),
            ParamKind::Flag { default } => Some(Value::Flag(default)),
            ParamKind::Choice { default, .. } => Some(Value::Choice(default)),
        }
    }

    /// Checks a number against the declared range; the error names the field under `lock`.
    pub fn check_number(&self, n: u64) -> Result<Value, ScenarioError> {
        let (ParamKind::Number { min, max, .. } | ParamKind::Optional { min, max, .. }) = self.kind else {
            return Err(ScenarioError::new(self.path(), "expected true, false or a name, not a number"));
        };
        if n < min || n > max {
            return Err(ScenarioError::new(self.path(), format!("must be between {min} and {max}, got {n}")));
        }
        Ok(Value::Number(n))
    }

    /// Looks up a choice by name; the error lists the options.
    pub fn check_choice(&self, name: &str) -> Result<Value, ScenarioError> {
        let ParamKind::Choice { options, .. } = self.kind else {
            return Err(ScenarioError::new(self.path(), "expected a number or true or false, not a name"));
        };
        match options.iter().find(|(o, _)| *o == name) {
            Some((o, _)) => Ok(Value::Choice(o)),
            None => {
                let known: Vec<String> = options.iter().map(|(o, _)| format!("`{o}`")).collect();
                Err(ScenarioError::new(self.path(), format!("unknown variant `{name}`, expected one of {}", known.join(", "))))
            }
        }
    }

    /// Returns the field path of this parameter in a scenario.
    pub fn path(&self) -> String {
        format!("lock.{}", self.name)
    }

    /// Describes the accepted values and the default in a few words: `1 to 3600000 ms, default 100`.
    pub fn describe(&self) -> String {
        match self.kind {
            ParamKind::Number { unit, min, max, default } => {
                let range = format!("{min} to {max}{}", space(unit));
                match default {
                    Some(d) => format!("{range}, default {d}"),
                    None => format!("{range}, required"),
                }
            }
            ParamKind::Optional { unit, min, max } => format!("{min} to {max}{}, or left out for none", space(unit)),
            ParamKind::Flag { default } => format!("true or false, default {default}"),
            ParamKind::Choice { options, default } => {
                let names: Vec<&str> = options.iter().map(|(o, _)| *o).collect();
                format!("{}, default {default}", names.join(" or "))
            }
        }
    }
}

fn space(unit: &str) -> String {
    if unit.is_empty() {
        String::new()
    } else {
        format!(" {unit}")
    }
}

/// A design's parameter values, in declaration order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Values(Vec<(&'static str, Value)>);

impl Values {
    /// Takes every parameter's default, then the given values; a required parameter without a
    /// value is an error naming it.
    pub fn new(params: &[Param], given: &[(&str, Value)]) -> Result<Values, ScenarioError> {
        let mut values = Vec::with_capacity(params.len());
        for p in params {
            match given.iter().find(|(n, _)| *n == p.name).map(|(_, v)| *v).or_else(|| p.default()) {
                Some(v) => values.push((p.name, v)),
                None => return Err(ScenarioError::new("lock", format!("missing field `{}`", p.name))),
            }
        }
        Ok(Values(values))
    }

    /// Returns every value with its parameter's name.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, Value)> + '_ {
        self.0.iter().copied()
    }

    fn get(&self, name: &str) -> Value {
        match self.0.iter().find(|(n, _)| *n == name) {
            Some((_, v)) => *v,
            None => panic!("the design reads `{name}`, which it does not declare"),
        }
    }

    /// Returns a number parameter.
    pub fn number(&self, name: &str) -> u64 {
        match self.get(name) {
            Value::Number(n) => n,
            _ => panic!("`{name}` is declared as a number and holds another kind of value"),
        }
    }

    /// Returns an optional number parameter.
    pub fn optional(&self, name: &str) -> Option<u64> {
        match self.get(name) {
            Value::Number(n) => Some(n),
            Value::Absent => None,
            _ => panic!("`{name}` is declared as an optional number and holds another kind of value"),
        }
    }

    /// Returns a flag parameter.
    pub fn flag(&self, name: &str) -> bool {
        match self.get(name) {
            Value::Flag(b) => b,
            _ => panic!("`{name}` is declared as a flag and holds another kind of value"),
        }
    }

    /// Returns a choice parameter.
    pub fn choice(&self, name: &str) -> &'static str {
        match self.get(name) {
            Value::Choice(c) => c,
            _ => panic!("`{name}` is declared as a choice and holds another kind of value"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PARAMS: &[Param] = &[
        Param::number("ttl_ms", "ms", 1, 3_600_000, "How long a grant lasts."),
        Param::number_or("lag_ms", "ms", 0, 60_000, 100, "Replication lag."),
        Param::choice("watch", &[("predecessor", "the recipe"), ("lock_node", "the herd")], "predecessor", "What a waiter watches."),
    ];

    #[test]
    fn defaults_fill_in_and_required_ones_are_named() {
        let v = Values::new(PARAMS, &[("ttl_ms", Value::Number(5))]).unwrap();
        assert_eq!((v.number("ttl_ms"), v.number("lag_ms"), v.choice("watch")), (5, 100, "predecessor"));
        assert_eq!(Values::new(PARAMS, &[]).unwrap_err().to_string(), "lock: missing field `ttl_ms`");
    }

    #[test]
    fn ranges_and_choices_name_the_field() {
        assert_eq!(PARAMS[0].check_number(0).unwrap_err().to_string(), "lock.ttl_ms: must be between 1 and 3600000, got 0");
        assert_eq!(
            PARAMS[2].check_choice("all").unwrap_err().to_string(),
            "lock.watch: unknown variant `all`, expected one of `predecessor`, `lock_node`"
        );
        assert_eq!(PARAMS[1].describe(), "0 to 60000 ms, default 100");
    }
}
