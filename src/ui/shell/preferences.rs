//! What the browser keeps for the site between visits: whether lessons ask for predictions, the
//! predictions' score, and the best finished interview drill.

/// The kept preferences.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preferences {
    /// Whether lessons ask for predictions (on unless switched off).
    pub predicting: bool,
    /// Predictions answered right, and in all.
    pub score: (u32, u32),
    /// The best finished drill: questions answered right, and in all.
    pub drill_best: Option<(u32, u32)>,
}

impl Preferences {
    /// What a first visit starts with.
    pub const FIRST_VISIT: Preferences = Preferences { predicting: true, score: (0, 0), drill_best: None };

    /// Counts one more prediction, right or not.
    pub fn scored(self, right: bool) -> Preferences {
        Preferences { score: (self.score.0 + u32::from(right), self.score.1 + 1), ..self }
    }

    /// Keeps a finished drill (right, answered) if it is the best: a larger share right
    /// (compared without division).
    pub fn finished(self, (right, answered): (u32, u32)) -> Preferences {
        let better = self.drill_best.is_none_or(|(r, a)| u64::from(right) * u64::from(a) > u64::from(r) * u64::from(answered));
        if answered > 0 && better {
            Preferences { drill_best: Some((right, answered)), ..self }
        } else {
            self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Preferences;

    #[test]
    fn the_best_drill_is_the_largest_share_right() {
        let s = Preferences::FIRST_VISIT.finished((3, 4));
        assert_eq!(s.drill_best, Some((3, 4)));
        assert_eq!(s.finished((5, 8)).drill_best, Some((3, 4)), "5/8 is less than 3/4");
        assert_eq!(s.finished((7, 8)).drill_best, Some((7, 8)));
        assert_eq!(Preferences::FIRST_VISIT.finished((0, 0)).drill_best, None, "a drill with nothing answered is not kept");
        assert_eq!(s.scored(true).scored(false).score, (1, 2));
    }
}
