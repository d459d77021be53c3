//! Local clocks: each node reads true time through its own offset, drift and scheduled jumps.
//!
//! A node has two clocks, as a real machine does: the wall clock, which a jump steps (an NTP
//! step, an operator setting the date), and the monotonic clock, which counts elapsed time and
//! never jumps. Drift moves both: it is the rate of the machine's oscillator. Each design says
//! which of the two its timers read ([`TimerClock`]), as the real system does.
//!
//! A clock is a pure function of true time, so the simulator can say exactly when a timer set
//! on a node's local clock fires, even across a later jump. Pure: no IO, no wall clock.

use super::copy::field_clone;
use super::time::{LocalMillis, Millis};
use crate::limits::{MAX_DRIFT_PPM, MIN_DRIFT_PPM};
use serde::Serialize;

/// A scheduled step of a node's clock at a true instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ClockJump {
    pub at_ms: Millis,
    pub by_ms: i64,
}

/// Which of a node's clocks its timers and its readings of the time use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimerClock {
    /// The wall clock: a jump moves every deadline set on it (Redis key expiry).
    Wall,
    /// Elapsed time: a jump moves nothing, only drift does (etcd, ZooKeeper, client-go).
    Monotonic,
}

/// How one node's local clock relates to simulated true time.
#[derive(Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Clock {
    pub offset_ms: i64,
    /// Rate error in parts per million: +1,000 runs 1 ms fast per second.
    pub drift_ppm: i64,
    /// Jumps sorted by `at_ms`.
    pub jumps: Vec<ClockJump>,
}

field_clone!(Clock { offset_ms, drift_ppm, jumps });

impl Clock {
    /// Builds a clock, sorting its jumps by time.
    pub fn new(offset_ms: i64, drift_ppm: i64, jumps: Vec<ClockJump>) -> Self {
        assert!((MIN_DRIFT_PPM..=MAX_DRIFT_PPM).contains(&drift_ppm), "drift validated by the scenario");
        let mut clock = Clock { offset_ms, drift_ppm, jumps: Vec::with_capacity(jumps.len()) };
        for jump in jumps {
            clock.add_jump(jump);
        }
        clock
    }

    /// Adds a jump after any earlier or simultaneous one, keeping the jumps sorted by time.
    pub fn add_jump(&mut self, jump: ClockJump) {
        let at = self.jumps.partition_point(|j| j.at_ms <= jump.at_ms);
        self.jumps.insert(at, jump);
    }

    /// The first instant at which this clock may read otherwise than `other`, if it ever does.
    pub fn differs_from(&self, other: &Clock) -> Option<Millis> {
        if (self.offset_ms, self.drift_ppm) != (other.offset_ms, other.drift_ppm) {
            return Some(Millis::ZERO);
        }
        let same = self.jumps.iter().zip(&other.jumps).take_while(|(a, b)| a == b).count();
        [self.jumps.get(same), other.jumps.get(same)].into_iter().flatten().map(|j| j.at_ms).min()
    }

    /// Reads the wall clock at a true instant. (A run's times are bounded by its limits, far
    /// below where the drift's product could leave `i64`; it saturates rather than wrap.)
    pub fn local_at(&self, true_ms: Millis) -> LocalMillis {
        self.reading(TimerClock::Wall, true_ms)
    }

    /// Reads the node's clock `which` at a true instant: the monotonic clock reads as the wall
    /// clock does until the wall clock's first jump, and never jumps itself.
    pub fn reading(&self, which: TimerClock, true_ms: Millis) -> LocalMillis {
        let perfect = LocalMillis::perfect(true_ms);
        let drift = perfect.as_ms().saturating_mul(self.drift_ppm).div_euclid(1_000_000);
        let jumped = match which {
            TimerClock::Wall => self.jumped_by(true_ms),
            TimerClock::Monotonic => 0,
        };
        perfect.shifted(self.offset_ms + drift + jumped)
    }

    fn jumped_by(&self, true_ms: Millis) -> i64 {
        self.jumps.iter().take_while(|j| j.at_ms <= true_ms).map(|j| j.by_ms).sum()
    }

    /// Finds the earliest true instant at or after `from_ms` (and no later than `horizon_ms`)
    /// at which clock `which` reads at least `deadline_local`.
    pub fn true_when_reaches(&self, which: TimerClock, deadline_local: LocalMillis, from_ms: Millis, horizon_ms: Millis) -> Option<Millis> {
        let jumps: &[ClockJump] = match which {
            TimerClock::Wall => &self.jumps,
            TimerClock::Monotonic => &[],
        };
        if jumps.is_empty() && self.drift_ppm == 0 {
            // The reading is `t + offset`: the instant is `deadline - offset`, or `from_ms`.
            let at = u64::try_from(deadline_local.as_ms().saturating_sub(self.offset_ms)).unwrap_or(0);
            let t = Millis::from_ms(at).max(from_ms);
            return (t <= horizon_ms).then_some(t);
        }
        let one = Millis::from_ms(1);
        let mut start = from_ms;
        loop {
            if start > horizon_ms {
                return None;
            }
            // Jumps split true time into segments on which the clock is monotone.
            let end = jumps.iter().map(|j| j.at_ms).find(|&at| at > start).map_or(horizon_ms, |at| (at - one).min(horizon_ms));
            if self.reading(which, end) >= deadline_local {
                return Some(self.first_reaching(which, deadline_local, start));
            }
            if end >= horizon_ms {
                return None;
            }
            start = end + one;
        }
    }
}

impl Clock {
    /// The earliest true instant at or after `start` at which clock `which` reads at least
    /// `deadline`, given that it does so before its next jump. On a stretch without a jump the
    /// reading is `t + floor(t · (10⁶ + drift) / 10⁶) - t + c`, so the instant is found by
    /// inverting that in closed form; the last two loops only correct a rounding step.
    fn first_reaching(&self, which: TimerClock, deadline: LocalMillis, start: Millis) -> Millis {
        if self.reading(which, start) >= deadline {
            return start;
        }
        // Here the reading is `floor(t · rate / 10⁶) + shift`, with `rate` > 0 (drift is
        // validated above -10⁶ ppm). Times and spans are bounded (`limits.rs`) far below where
        // these products could leave `i64`.
        let rate = 1_000_000 + self.drift_ppm;
        let start_ms = i64::try_from(start.as_ms()).unwrap_or(i64::MAX);
        let shift = self.reading(which, start).as_ms() - start_ms.saturating_mul(rate) / 1_000_000;
        let target = deadline.as_ms().saturating_sub(shift);
        let guess = target.saturating_mul(1_000_000).saturating_add(rate - 1).div_euclid(rate);
        let mut t = Millis::from_ms(u64::try_from(guess).unwrap_or(0).max(start.as_ms()));
        let one = Millis::from_ms(1);
        while self.reading(which, t) < deadline {
            t += one;
        }
        while t > start && self.reading(which, t - one) >= deadline {
            t = t - one;
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(ms: u64) -> Millis {
        Millis::from_ms(ms)
    }

    fn local(ms: i64) -> LocalMillis {
        LocalMillis::from_ms(ms)
    }

    #[test]
    fn perfect_clock_reads_true_time() {
        let c = Clock::default();
        assert_eq!(c.local_at(ms(1234)), local(1234));
        assert_eq!(c.true_when_reaches(TimerClock::Wall, local(1500), Millis::ZERO, ms(10_000)), Some(ms(1500)));
    }

    #[test]
    fn drift_and_offset_shift_readings() {
        let c = Clock::new(-20, 100_000, vec![]);
        assert_eq!(c.local_at(ms(1000)), local(1000 - 20 + 100));
        // 1.1 * t - 20 >= 1080  =>  t >= 1000
        assert_eq!(c.true_when_reaches(TimerClock::Wall, local(1080), Millis::ZERO, ms(10_000)), Some(ms(1000)));
    }

    #[test]
    fn forward_jump_makes_deadline_arrive_early() {
        let c = Clock::new(0, 0, vec![ClockJump { at_ms: ms(300), by_ms: 5_000 }]);
        assert_eq!(c.local_at(ms(299)), local(299));
        assert_eq!(c.local_at(ms(300)), local(5_300));
        assert_eq!(c.true_when_reaches(TimerClock::Wall, local(1_000), Millis::ZERO, ms(10_000)), Some(ms(300)));
    }

    #[test]
    fn backward_jump_delays_deadline() {
        let c = Clock::new(0, 0, vec![ClockJump { at_ms: ms(500), by_ms: -400 }]);
        assert_eq!(c.true_when_reaches(TimerClock::Wall, local(600), Millis::ZERO, ms(10_000)), Some(ms(1_000)));
        assert_eq!(c.true_when_reaches(TimerClock::Wall, local(400), Millis::ZERO, ms(10_000)), Some(ms(400)));
    }

    #[test]
    fn a_jump_moves_the_wall_clock_only_and_drift_moves_both() {
        let c = Clock::new(0, 100_000, vec![ClockJump { at_ms: ms(300), by_ms: 5_000 }]);
        assert_eq!(c.reading(TimerClock::Wall, ms(1_000)), local(1_100 + 5_000));
        assert_eq!(c.reading(TimerClock::Monotonic, ms(1_000)), local(1_100));
        // 1.1 t >= 1,100 at t = 1,000 on the monotonic clock; the wall clock passed it at the jump.
        assert_eq!(c.true_when_reaches(TimerClock::Monotonic, local(1_100), Millis::ZERO, ms(10_000)), Some(ms(1_000)));
        assert_eq!(c.true_when_reaches(TimerClock::Wall, local(1_100), Millis::ZERO, ms(10_000)), Some(ms(300)));
    }

    #[test]
    fn unreachable_deadline_is_none() {
        let c = Clock::default();
        assert_eq!(c.true_when_reaches(TimerClock::Wall, local(50_000), Millis::ZERO, ms(10_000)), None);
    }

    #[test]
    fn the_closed_form_finds_the_instant_a_scan_of_every_millisecond_finds() {
        let scan = |c: &Clock, which, deadline, from: u64| (from..=3_000).map(ms).find(|&t| c.reading(which, t) >= deadline);
        for drift in [-499_999, -123_457, -1, 0, 1, 999, 333_333, 1_000_000] {
            for offset in [-700, 0, 41] {
                let c =
                    Clock::new(offset, drift, vec![ClockJump { at_ms: ms(900), by_ms: -650 }, ClockJump { at_ms: ms(1_700), by_ms: 800 }]);
                for which in [TimerClock::Wall, TimerClock::Monotonic] {
                    for deadline in (-900..4_000).step_by(37) {
                        for from in [0, 5, 899, 900, 1_234] {
                            let got = c.true_when_reaches(which, local(deadline), ms(from), ms(3_000));
                            assert_eq!(
                                got,
                                scan(&c, which, local(deadline), from),
                                "drift {drift}, offset {offset}, {which:?}, deadline {deadline}, from {from}"
                            );
                        }
                    }
                }
            }
        }
    }
}
