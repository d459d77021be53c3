//! The names the file gives the variants of each unit enum, one table per enum: the reader
//! ([`super::decode`]), the writer ([`super::encode`]), validation's messages and the editor's
//! choices all read the same table.

use crate::design::LockKind;
use crate::engine::msg::ReleaseMode;
use crate::engine::spec::{RenewFailure, ResourceMode};

/// A unit enum written in the file as one of a few names.
pub trait Tagged: Copy + PartialEq + 'static {
    /// Every variant with its name, in the order the editor offers them.
    const TAGS: &'static [(&'static str, Self)];

    /// Returns the name the file gives this variant.
    fn tag(self) -> &'static str {
        Self::TAGS.iter().find(|(_, v)| *v == self).map_or("", |(name, _)| name)
    }

    /// Finds the variant the file calls `name`.
    fn from_tag(name: &str) -> Option<Self> {
        Self::TAGS.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }
}

impl Tagged for ReleaseMode {
    const TAGS: &'static [(&'static str, Self)] =
        &[("safe", ReleaseMode::Safe), ("unsafe", ReleaseMode::Unsafe), ("commit", ReleaseMode::Commit)];
}

impl Tagged for RenewFailure {
    const TAGS: &'static [(&'static str, Self)] = &[("abort", RenewFailure::Abort), ("carry_on", RenewFailure::CarryOn)];
}

impl Tagged for LockKind {
    const TAGS: &'static [(&'static str, Self)] =
        &[("efficiency", LockKind::Efficiency), ("correctness", LockKind::Correctness), ("none", LockKind::None)];
}

impl Tagged for ResourceMode {
    const TAGS: &'static [(&'static str, Self)] = &[
        ("unfenced", ResourceMode::Unfenced),
        ("fenced", ResourceMode::Fenced),
        ("conditional", ResourceMode::Conditional),
        ("deduplicated", ResourceMode::Deduplicated),
        ("unique", ResourceMode::Unique),
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each table names every variant once, and each name reads back as its variant.
    fn round_trips<T: Tagged + std::fmt::Debug>(all: &[T]) {
        assert_eq!(T::TAGS.len(), all.len());
        for v in all {
            assert_eq!(T::from_tag(v.tag()), Some(*v), "{v:?}");
        }
    }

    #[test]
    fn every_variant_has_one_name() {
        round_trips(&[ReleaseMode::Safe, ReleaseMode::Unsafe, ReleaseMode::Commit]);
        round_trips(&[RenewFailure::Abort, RenewFailure::CarryOn]);
        round_trips(&[LockKind::Efficiency, LockKind::Correctness, LockKind::None]);
        let modes =
            [ResourceMode::Unfenced, ResourceMode::Fenced, ResourceMode::Conditional, ResourceMode::Deduplicated, ResourceMode::Unique];
        round_trips(&modes);
    }
}
