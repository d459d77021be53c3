//! What may be drawn beside an edited run on the same time axis: the original, or the edited
//! scenario with its resource in another mode. Named once: the form's options and the page's
//! buttons carry [`Variant::name`], and [`Variant::parse`] reads it back.

use crate::engine::spec::ResourceMode;
use crate::scenario::tags::Tagged;

/// A variant of the edited scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// The run editing started from.
    Original,
    /// The edited scenario with its (first) resource in this mode.
    Mode(ResourceMode),
}

impl Variant {
    /// The name of the original among the variants.
    const ORIGINAL: &'static str = "original";

    /// Returns the variant's name: `original`, or the mode's tag.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Original => Variant::ORIGINAL,
            Variant::Mode(mode) => mode.tag(),
        }
    }

    /// Reads a variant's name.
    pub fn parse(name: &str) -> Option<Variant> {
        match name {
            Variant::ORIGINAL => Some(Variant::Original),
            mode => ResourceMode::from_tag(mode).map(Variant::Mode),
        }
    }

    /// Every variant of a scenario that has a resource (`with_modes`) or not.
    pub fn all(with_modes: bool) -> impl Iterator<Item = Variant> {
        let modes = ResourceMode::TAGS.iter().filter(move |_| with_modes).map(|(_, mode)| Variant::Mode(*mode));
        std::iter::once(Variant::Original).chain(modes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_reads_back_from_its_name() {
        for v in Variant::all(true) {
            assert_eq!(Variant::parse(v.name()), Some(v));
        }
        assert_eq!(Variant::parse("nothing"), None);
    }
}
