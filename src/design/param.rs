//! A design's parameters, declared once: each a field of the design's typed settings, with its
//! name, kind, unit, range, default and one line of help next to it (`settings!`). The design
//! reads its settings by field; decoding, validation, `lockstep designs`, the editor and the
//! conformance suite read the declarations ([`Settings::PARAMS`]) and the generic [`Values`].

use crate::error::ScenarioError;
use std::marker::PhantomData;
use std::ops::RangeInclusive;

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
pub enum ParamValue {
    Number(u64),
    /// An optional number left out.
    Absent,
    Flag(bool),
    Choice(&'static str),
}

impl Param {
    /// Returns the value a scenario gets when it leaves the field out, if it may.
    pub const fn default(&self) -> Option<ParamValue> {
        match self.kind {
            ParamKind::Number { default: Some(d), .. } => Some(ParamValue::Number(d)),
            ParamKind::Number { default: None, .. } => None,
            ParamKind::Optional { .. } => Some(ParamValue::Absent),
            ParamKind::Flag { default } => Some(ParamValue::Flag(default)),
            ParamKind::Choice { default, .. } => Some(ParamValue::Choice(default)),
        }
    }

    /// Checks a number against the declared range; the error names the field under `lock`.
    pub fn check_number(&self, n: u64) -> Result<ParamValue, ScenarioError> {
        let (ParamKind::Number { min, max, .. } | ParamKind::Optional { min, max, .. }) = self.kind else {
            return Err(ScenarioError::new(self.path(), "expected true, false or a name, not a number"));
        };
        if n < min || n > max {
            return Err(ScenarioError::new(self.path(), format!("must be between {min} and {max}, got {n}")));
        }
        Ok(ParamValue::Number(n))
    }

    /// Looks up a choice by name; the error lists the options.
    pub fn check_choice(&self, name: &str) -> Result<ParamValue, ScenarioError> {
        let ParamKind::Choice { options, .. } = self.kind else {
            return Err(ScenarioError::new(self.path(), "expected a number or true or false, not a name"));
        };
        match options.iter().find(|(o, _)| *o == name) {
            Some((o, _)) => Ok(ParamValue::Choice(o)),
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

/// A design's parameter values, in declaration order: the form the decoder, the editor and the
/// scenario writer share. A design reads its values through its typed settings
/// ([`Settings::from_values`]), never by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Values(Vec<(&'static str, ParamValue)>);

impl Values {
    /// Takes every parameter's default, then the given values; a required parameter without a
    /// value is an error naming it.
    pub fn new(params: &[Param], given: &[(&str, ParamValue)]) -> Result<Values, ScenarioError> {
        let mut values = Vec::with_capacity(params.len());
        for p in params {
            match given.iter().find(|(n, _)| *n == p.name).map(|(_, v)| *v).or_else(|| p.default()) {
                Some(v) => values.push((p.name, v)),
                None => return Err(ScenarioError::new("lock", format!("missing field `{}`", p.name))),
            }
        }
        Ok(Values(values))
    }

    /// Returns the values of settings, one for each of `params`, in order.
    pub fn declared(params: &'static [Param], values: Vec<ParamValue>) -> Values {
        Values(params.iter().map(|p| p.name).zip(values).collect())
    }

    /// Returns every value with its parameter's name.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, ParamValue)> + '_ {
        self.0.iter().copied()
    }
}

/// A type a setting may have, and how it goes to and from a [`ParamValue`]: `u64` for a number,
/// `Option<u64>` for an optional number, `bool` for a flag, an enum made by `choice!` for a
/// choice.
pub trait Setting: Sized {
    /// Returns the setting a value stands for, or `None` for a value of another kind.
    fn from_value(value: ParamValue) -> Option<Self>;
    /// Returns the value that stands for the setting.
    fn to_value(&self) -> ParamValue;
}

impl Setting for u64 {
    fn from_value(value: ParamValue) -> Option<Self> {
        match value {
            ParamValue::Number(n) => Some(n),
            _ => None,
        }
    }

    fn to_value(&self) -> ParamValue {
        ParamValue::Number(*self)
    }
}

impl Setting for Option<u64> {
    fn from_value(value: ParamValue) -> Option<Self> {
        match value {
            ParamValue::Number(n) => Some(Some(n)),
            ParamValue::Absent => Some(None),
            _ => None,
        }
    }

    fn to_value(&self) -> ParamValue {
        self.map_or(ParamValue::Absent, ParamValue::Number)
    }
}

impl Setting for bool {
    fn from_value(value: ParamValue) -> Option<Self> {
        match value {
            ParamValue::Flag(b) => Some(b),
            _ => None,
        }
    }

    fn to_value(&self) -> ParamValue {
        ParamValue::Flag(*self)
    }
}

/// A design's typed settings: one field per parameter, declared once with `settings!`.
pub trait Settings: Sized {
    /// The declarations, in order: what the decoder, `lockstep designs` and the editor read.
    const PARAMS: &'static [Param];
    /// Reads the settings from values made for these declarations.
    ///
    /// # Panics
    /// If the values were made for another design's declarations: a bug, not a user's mistake.
    fn from_values(values: &Values) -> Self;
    /// Returns the settings as values, in declaration order.
    fn to_values(&self) -> Values;
}

/// A parameter's declaration before it has a name and help, typed by the field that holds it:
/// `Decl<u64>` declares a number, `Decl<Option<u64>>` an optional number, `Decl<bool>` a flag, so
/// a field declared as one kind and typed as another does not compile. `settings!` names it.
#[derive(Clone, Copy, Debug)]
pub struct Decl<T> {
    kind: ParamKind,
    formerly: Option<&'static str>,
    of: PhantomData<fn() -> T>,
}

impl Decl<u64> {
    /// A required whole number of `unit` in `range`.
    pub const fn number(unit: &'static str, range: RangeInclusive<u64>) -> Self {
        Decl::of(ParamKind::Number { unit, min: *range.start(), max: *range.end(), default: None })
    }

    /// A whole number of `unit` in `range`, `default` when left out.
    pub const fn number_or(unit: &'static str, range: RangeInclusive<u64>, default: u64) -> Self {
        Decl::of(ParamKind::Number { unit, min: *range.start(), max: *range.end(), default: Some(default) })
    }
}

impl Decl<Option<u64>> {
    /// A whole number of `unit` in `range` that may be left out, meaning there is none.
    pub const fn optional(unit: &'static str, range: RangeInclusive<u64>) -> Self {
        Decl::of(ParamKind::Optional { unit, min: *range.start(), max: *range.end() })
    }
}

impl Decl<bool> {
    /// `true` or `false`, `default` when left out.
    pub const fn flag(default: bool) -> Self {
        Decl::of(ParamKind::Flag { default })
    }
}

impl<T> Decl<T> {
    const fn of(kind: ParamKind) -> Self {
        Decl { kind, formerly: None, of: PhantomData }
    }

    /// One of a `choice!` enum's options, `default` when left out; `settings!` writes this
    /// from `choice(Enum::Variant)`.
    #[doc(hidden)]
    pub const fn choice(options: &'static [(&'static str, &'static str)], default: &'static str) -> Self {
        Decl::of(ParamKind::Choice { options, default })
    }

    /// Returns the declaration, also read under the name the field had in older files.
    pub const fn formerly(self, old: &'static str) -> Self {
        Decl { formerly: Some(old), ..self }
    }

    /// Returns the parameter with its name and help (a doc comment's text, from its leading space).
    #[doc(hidden)]
    pub const fn named(self, name: &'static str, doc: &'static str) -> Param {
        Param { name, kind: self.kind, help: trim_start(doc), formerly: self.formerly }
    }
}

/// Returns `s` without its leading spaces (a doc comment's lines each start with one).
const fn trim_start(s: &'static str) -> &'static str {
    let mut bytes = s.as_bytes();
    while let [b' ', rest @ ..] = bytes {
        bytes = rest;
    }
    match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(_) => panic!("a doc comment is UTF-8"),
    }
}

/// Reads the next value as the setting named `name` declares: values are made for the design's
/// declarations, in their order (checked in debug builds). Used by `settings!`.
#[doc(hidden)]
pub fn read<T: Setting>(values: &mut impl Iterator<Item = (&'static str, ParamValue)>, name: &'static str) -> T {
    let (given, value) = values.next().unwrap_or_else(|| mismatch(name));
    debug_assert_eq!(given, name, "values made for another design's declarations");
    T::from_value(value).unwrap_or_else(|| mismatch(name))
}

/// Values made for another design's declarations, or of another kind than declared: a bug.
#[cold]
fn mismatch(name: &str) -> ! {
    panic!("values made for another design's declarations at `{name}`")
}

/// Returns the setting's declared default. Used by `settings!`, which checks when compiling
/// that there is one.
#[doc(hidden)]
pub fn default<T: Setting>(name: &'static str, default: Option<ParamValue>) -> T {
    default.and_then(T::from_value).unwrap_or_else(|| mismatch(name))
}

/// Declares a design's settings once: a struct with one public field per parameter, each with
/// its help as its doc comment and its declaration after `=`; an associated constant per field
/// (named as the field) holding its [`Param`]; the [`Settings`] table and conversions; and
/// `new`, which takes the `required` fields (those a scenario must give) and defaults the rest.
///
/// ```ignore
/// settings! {
///     /// How the Redis lock is set up.
///     pub struct RedisSettings {
///         required {
///             /// The PX a client sets.
///             ttl_ms: u64 = number("ms", 1..=3_600_000),
///         }
///         /// Each acquisition also INCRs a counter.
///         incr_token: bool = flag(false),
///         /// Older files call it `lag_ms`.
///         replication_lag_ms: u64 = number_or("ms", 0..=60_000, 100).formerly("lag_ms"),
///         /// What a waiting contender watches.
///         watch: Watch = choice(Watch::Predecessor),
///     }
/// }
/// ```
macro_rules! settings {
    (
        $(#[doc = $doc:literal])+
        $vis:vis struct $name:ident {
            $(required {
                $( $(#[doc = $rdoc:literal])+ $rfield:ident : $rty:ty = $rkind:ident ( $($rargs:tt)* ) $(. $rmethod:ident ( $($rmargs:tt)* ))* ),* $(,)?
            })?
            $( $(#[doc = $fdoc:literal])+ $field:ident : $ty:ty = $kind:ident ( $($args:tt)* ) $(. $method:ident ( $($margs:tt)* ))* ),* $(,)?
        }
    ) => {
        $(#[doc = $doc])+
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        $vis struct $name {
            $($( $(#[doc = $rdoc])+ pub $rfield: $rty, )*)?
            $( $(#[doc = $fdoc])+ pub $field: $ty, )*
        }

        #[allow(non_upper_case_globals)]
        impl $name {
            $($(
                #[doc = concat!("The declaration of `", stringify!($rfield), "`.")]
                pub const $rfield: $crate::design::param::Param =
                    $crate::design::param::settings!(@decl $rty; $rkind ( $($rargs)* ))
                        $(. $rmethod ( $($rmargs)* ))* .named(stringify!($rfield), concat!($($rdoc),+));
            )*)?
            $(
                #[doc = concat!("The declaration of `", stringify!($field), "`.")]
                pub const $field: $crate::design::param::Param =
                    $crate::design::param::settings!(@decl $ty; $kind ( $($args)* ))
                        $(. $method ( $($margs)* ))* .named(stringify!($field), concat!($($fdoc),+));
            )*

            /// Returns the settings with these required values and every other parameter's default.
            #[allow(clippy::new_without_default)]
            pub fn new($($($rfield: $rty),*)?) -> Self {
                $($(const { assert!(Self::$rfield.default().is_none(), "a required setting has no default") };)*)?
                $(const { assert!(Self::$field.default().is_some(), "a setting not under `required` has a default") };)*
                Self {
                    $($($rfield,)*)?
                    $($field: $crate::design::param::default(stringify!($field), const { Self::$field.default() }),)*
                }
            }
        }

        impl $crate::design::param::Settings for $name {
            const PARAMS: &'static [$crate::design::param::Param] = &[$($(Self::$rfield,)*)? $(Self::$field,)*];

            #[allow(unused_variables, unused_mut)]
            fn from_values(values: &$crate::design::param::Values) -> Self {
                let mut values = values.iter();
                let settings = Self {
                    $($($rfield: $crate::design::param::read(&mut values, stringify!($rfield)),)*)?
                    $($field: $crate::design::param::read(&mut values, stringify!($field)),)*
                };
                debug_assert!(values.next().is_none(), "values made for another design: more values than settings");
                settings
            }

            fn to_values(&self) -> $crate::design::param::Values {
                $crate::design::param::Values::declared(Self::PARAMS, vec![
                    $($($crate::design::param::Setting::to_value(&self.$rfield),)*)?
                    $($crate::design::param::Setting::to_value(&self.$field),)*
                ])
            }
        }
    };
    (@decl $ty:ty; choice ( $default:expr )) => {
        $crate::design::param::Decl::<$ty>::choice(<$ty>::OPTIONS, <$ty>::name($default))
    };
    (@decl $ty:ty; $kind:ident ( $($args:tt)* )) => {
        $crate::design::param::Decl::<$ty>::$kind($($args)*)
    };
}
pub(crate) use settings;

/// Declares the options of a choice setting: an enum whose variants are each written as their
/// name in scenario files, with a doc comment that is the option's help.
macro_rules! choice {
    (
        $(#[doc = $doc:literal])+
        $vis:vis enum $name:ident {
            $( $(#[doc = $vdoc:literal])+ $variant:ident = $tag:literal ),+ $(,)?
        }
    ) => {
        $(#[doc = $doc])+
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        $vis enum $name {
            $( $(#[doc = $vdoc])+ $variant, )+
        }

        impl $name {
            /// Every option's name in scenario files and its help, in order.
            pub const OPTIONS: &'static [(&'static str, &'static str)] =
                &[$(($tag, $crate::design::param::help(concat!($($vdoc),+))),)+];

            /// Returns the option's name in scenario files.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Self::$variant => $tag,)+
                }
            }
        }

        impl $crate::design::param::Setting for $name {
            fn from_value(value: $crate::design::param::ParamValue) -> Option<Self> {
                match value {
                    $($crate::design::param::ParamValue::Choice($tag) => Some(Self::$variant),)+
                    _ => None,
                }
            }

            fn to_value(&self) -> $crate::design::param::ParamValue {
                $crate::design::param::ParamValue::Choice(self.name())
            }
        }
    };
}
pub(crate) use choice;

/// Returns a doc comment's text as help: without the leading space each line starts with.
#[doc(hidden)]
pub const fn help(doc: &'static str) -> &'static str {
    trim_start(doc)
}

#[cfg(test)]
mod tests {
    use super::*;

    choice! {
        /// What a waiter watches.
        enum Watch {
            /// the recipe
            Predecessor = "predecessor",
            /// the herd
            LockNode = "lock_node",
        }
    }

    settings! {
        /// A design's settings, for the tests.
        struct Example {
            required {
                /// How long a grant
                /// lasts.
                ttl_ms: u64 = number("ms", 1..=3_600_000),
            }
            /// Replication lag.
            lag_ms: u64 = number_or("ms", 0..=60_000, 100).formerly("replication_ms"),
            /// A cap, if any.
            cap: Option<u64> = optional("", 1..=9),
            /// What a waiter watches.
            watch: Watch = choice(Watch::Predecessor),
        }
    }

    #[test]
    fn one_declaration_gives_the_table_the_fields_and_the_defaults() {
        assert_eq!(Example::PARAMS.iter().map(|p| p.name).collect::<Vec<_>>(), ["ttl_ms", "lag_ms", "cap", "watch"]);
        assert_eq!(Example::ttl_ms.help, "How long a grant lasts.", "doc lines joined, the leading space gone");
        assert_eq!(Example::lag_ms.formerly, Some("replication_ms"));
        assert_eq!(Example::watch.kind, ParamKind::Choice { options: Watch::OPTIONS, default: "predecessor" });
        assert_eq!(Watch::OPTIONS, &[("predecessor", "the recipe"), ("lock_node", "the herd")]);
        assert_eq!(Example::new(5), Example { ttl_ms: 5, lag_ms: 100, cap: None, watch: Watch::Predecessor });
    }

    #[test]
    fn values_go_to_settings_and_back() {
        let v = Values::new(Example::PARAMS, &[("ttl_ms", ParamValue::Number(5)), ("watch", ParamValue::Choice("lock_node"))]).unwrap();
        let settings = Example::from_values(&v);
        assert_eq!(settings, Example { watch: Watch::LockNode, ..Example::new(5) });
        assert_eq!(settings.to_values(), v);
        assert_eq!(Values::new(Example::PARAMS, &[]).unwrap_err().to_string(), "lock: missing field `ttl_ms`");
    }

    #[test]
    #[should_panic(expected = "values made for another design")]
    fn values_of_another_design_are_a_bug() {
        let v = Values::new(&[Param { name: "other", ..Example::ttl_ms }], &[("other", ParamValue::Number(5))]).unwrap();
        Example::from_values(&v);
    }

    #[test]
    fn ranges_and_choices_name_the_field() {
        assert_eq!(Example::ttl_ms.check_number(0).unwrap_err().to_string(), "lock.ttl_ms: must be between 1 and 3600000, got 0");
        assert_eq!(
            Example::watch.check_choice("all").unwrap_err().to_string(),
            "lock.watch: unknown variant `all`, expected one of `predecessor`, `lock_node`"
        );
        assert_eq!(Example::lag_ms.describe(), "0 to 60000 ms, default 100");
    }
}
