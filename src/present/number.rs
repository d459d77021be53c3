//! Numbers for people: thousands separators and milliseconds.

use crate::engine::clock::{Clock, TimerClock};
use crate::engine::time::{LocalMillis, Millis};

/// Formats an integer with thousands separators: `-1,234,567`.
pub fn group(v: i64) -> String {
    let digits = v.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if v < 0 {
        out.push('-');
    }
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Formats milliseconds with thousands separators: `1,500 ms`; a typed time or a count of them.
pub fn ms(v: impl Into<Millis>) -> String {
    format!("{} ms", group_u(v.into().as_ms()))
}

/// Formats an unsigned integer with thousands separators.
pub fn group_u(v: u64) -> String {
    i64::try_from(v).map_or_else(|_| v.to_string(), group)
}

/// Formats a local clock reading: `local 1,005`; a typed reading or a count of milliseconds.
pub fn local(v: impl Into<LocalMillis>) -> String {
    format!("local {}", group(v.into().as_ms()))
}

/// Formats a local clock reading's number with thousands separators: `1,005`.
pub fn reading(v: LocalMillis) -> String {
    group(v.as_ms())
}

/// Formats what a node's clocks read at a true instant, in milliseconds: `2,400`, or, once its
/// wall clock has been stepped, both clocks: `wall 2,400 · monotonic 400`.
pub fn clocks(clock: &Clock, at: Millis) -> String {
    let (wall, monotonic) = (clock.reading(TimerClock::Wall, at), clock.reading(TimerClock::Monotonic, at));
    if wall == monotonic {
        reading(wall)
    } else {
        format!("wall {} · monotonic {}", reading(wall), reading(monotonic))
    }
}

/// Upper-cases the first letter of a sentence if it is an ASCII letter. Sentences start with
/// the tool's own words or a name, and a name stays as its author wrote it.
pub fn capital(s: &str) -> String {
    let mut out = s.to_string();
    if let Some(first) = out.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stepped_wall_clock_reads_beside_the_monotonic_one() {
        let clock = Clock::new(0, 0, vec![crate::engine::clock::ClockJump { at_ms: Millis::from_ms(400), by_ms: 2_000 }]);
        assert_eq!(clocks(&clock, Millis::from_ms(399)), "399");
        assert_eq!(clocks(&clock, Millis::from_ms(400)), "wall 2,400 · monotonic 400");
    }

    #[test]
    fn groups_thousands() {
        assert_eq!(group(0), "0");
        assert_eq!(group(999), "999");
        assert_eq!(group(1030), "1,030");
        assert_eq!(group(-1234567), "-1,234,567");
        assert_eq!(group(i64::MIN), "-9,223,372,036,854,775,808");
        assert_eq!(ms(1500), "1,500 ms");
        assert_eq!(group_u(u64::MAX), "18446744073709551615");
        assert_eq!(capital("lease 41"), "Lease 41");
    }
}
