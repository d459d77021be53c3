//! Playback state: which step of the trace is shown, whether it plays, how fast. Pure.
//!
//! Step 0 shows the lesson's introduction and nothing of the run; step k reveals events 0..k and
//! puts the cursor on event k−1. Stepping back is exact: the view is a function of the step.

/// Playback speed: how long each event stays on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Speed {
    Slow,
    Normal,
    Fast,
    Faster,
}

impl Speed {
    pub const ALL: [Speed; 4] = [Speed::Slow, Speed::Normal, Speed::Fast, Speed::Faster];

    /// Returns the time between steps.
    pub fn interval_ms(self) -> u32 {
        match self {
            Speed::Slow => 2_000,
            Speed::Normal => 1_000,
            Speed::Fast => 400,
            Speed::Faster => 100,
        }
    }

    /// Returns the label for the speed menu.
    pub fn label(self) -> &'static str {
        match self {
            Speed::Slow => "0.5×",
            Speed::Normal => "1×",
            Speed::Fast => "2.5×",
            Speed::Faster => "10×",
        }
    }
}

/// Where playback is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player {
    /// Number of events in the trace.
    pub steps: usize,
    pub step: usize,
    pub playing: bool,
    pub speed: Speed,
}

/// What the user (or the playback timer) asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Playback {
    /// A new trace of `steps` events, shown at `step` (clamped).
    Load {
        steps: usize,
        step: usize,
    },
    Forward,
    Back,
    ToStart,
    ToEnd,
    Seek(usize),
    TogglePlay,
    /// The playback timer fired.
    Tick,
    SetSpeed(Speed),
}

impl Player {
    /// Starts at the introduction of a trace with `steps` events.
    pub fn new(steps: usize) -> Self {
        Player { steps, step: 0, playing: false, speed: Speed::Normal }
    }

    /// Applies one action.
    pub fn apply(self, action: Playback) -> Player {
        let p = self;
        match action {
            Playback::Load { steps, step } => Player { steps, step: step.min(steps), playing: false, ..p },
            Playback::Forward => Player { step: (p.step + 1).min(p.steps), playing: false, ..p },
            Playback::Back => Player { step: p.step.saturating_sub(1), playing: false, ..p },
            Playback::ToStart => Player { step: 0, playing: false, ..p },
            Playback::ToEnd => Player { step: p.steps, playing: false, ..p },
            Playback::Seek(step) => Player { step: step.min(p.steps), playing: false, ..p },
            Playback::TogglePlay if p.playing => Player { playing: false, ..p },
            Playback::TogglePlay if p.step >= p.steps => Player { step: 0, playing: p.steps > 0, ..p },
            Playback::TogglePlay => Player { playing: true, ..p },
            Playback::Tick if !p.playing => p,
            Playback::Tick => {
                let step = (p.step + 1).min(p.steps);
                Player { step, playing: step < p.steps, ..p }
            }
            Playback::SetSpeed(speed) => Player { speed, ..p },
        }
    }

    /// Returns the index of the event under the cursor, if any has been revealed.
    pub fn cursor(self) -> Option<usize> {
        self.step.checked_sub(1)
    }
}

/// Returns where a move from step `from` to step `to` must stop to ask a prediction first: the
/// step just before the earliest event in `asks` (events not yet predicted) that the move would
/// show. Moving back, or past nothing asked, stops nowhere.
pub fn gate(from: usize, to: usize, asks: impl IntoIterator<Item = usize>) -> Option<usize> {
    asks.into_iter().filter(|&e| from <= e && e < to).min()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_stops_before_the_first_outcome_still_to_predict() {
        assert_eq!(gate(0, 38, [20, 30]), Some(20), "End stops before the first");
        assert_eq!(gate(20, 21, [20, 30]), Some(20), "a step onto it stops too");
        assert_eq!(gate(21, 38, [30]), Some(30));
        assert_eq!(gate(31, 38, [30]), None, "an outcome already shown");
        assert_eq!(gate(30, 10, [20]), None, "going back");
    }

    #[test]
    fn steps_within_bounds() {
        let p = Player::new(3);
        assert_eq!(p.apply(Playback::Back).step, 0);
        let end = p.apply(Playback::ToEnd);
        assert_eq!(end.step, 3);
        assert_eq!(end.apply(Playback::Forward).step, 3);
        assert_eq!(end.apply(Playback::Back).cursor(), Some(1));
        assert_eq!(p.apply(Playback::Seek(99)).step, 3);
    }

    #[test]
    fn playing_stops_at_the_end_and_restarts_from_the_top() {
        let mut p = Player::new(2).apply(Playback::TogglePlay);
        assert!(p.playing);
        p = p.apply(Playback::Tick).apply(Playback::Tick);
        assert_eq!((p.step, p.playing), (2, false));
        p = p.apply(Playback::TogglePlay);
        assert_eq!((p.step, p.playing), (0, true));
        assert!(!p.apply(Playback::Forward).playing, "manual stepping pauses");
    }

    #[test]
    fn ticks_do_nothing_when_paused_and_load_clamps() {
        let p = Player::new(5);
        assert_eq!(p.apply(Playback::Tick), p);
        assert_eq!(p.apply(Playback::Load { steps: 4, step: 10 }).step, 4);
    }
}
