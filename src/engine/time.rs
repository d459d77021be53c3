//! Simulated time, typed: [`Millis`] is true time (an instant since the run began, or a length of
//! time), [`LocalMillis`] a node's own clock reading, which offset, drift and a jump can put
//! anywhere, before zero or backwards. Both are milliseconds; the types keep the one from being
//! read as the other. A clock ([`super::clock::Clock`]) turns true time into a reading; a reading
//! plus a length is a later reading; two readings apart are a signed span of local time (`i64`).
//!
//! Each prints, serializes and debug-prints as its bare number of milliseconds, so a trace's JSON
//! and every text reads as it did when times were integers. Pure: no wall clock.

use serde::Serialize;
use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Sub};

/// True simulated time in milliseconds: an instant since the run began, or a length of time.
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct Millis(u64);

impl Millis {
    /// The start of the run; no time at all.
    pub const ZERO: Millis = Millis(0);

    /// A time of `ms` milliseconds.
    pub const fn from_ms(ms: u64) -> Millis {
        Millis(ms)
    }

    /// Returns this time as a number of milliseconds.
    pub const fn as_ms(self) -> u64 {
        self.0
    }

    /// Returns `self + other`, or the greatest time if that overflows.
    pub const fn saturating_add(self, other: Millis) -> Millis {
        Millis(self.0.saturating_add(other.0))
    }

    /// Returns `self - other`, or zero if `other` is later.
    pub const fn saturating_sub(self, other: Millis) -> Millis {
        Millis(self.0.saturating_sub(other.0))
    }

    /// Returns `self` times `n`, or the greatest time if that overflows.
    pub const fn saturating_mul(self, n: u64) -> Millis {
        Millis(self.0.saturating_mul(n))
    }
}

/// A count of milliseconds as a time: for a layer that holds a plain number (a setting as the
/// file writes it) and wants it read as one.
impl From<u64> for Millis {
    fn from(ms: u64) -> Millis {
        Millis(ms)
    }
}

impl Add for Millis {
    type Output = Millis;
    fn add(self, other: Millis) -> Millis {
        Millis(self.0 + other.0)
    }
}

impl AddAssign for Millis {
    fn add_assign(&mut self, other: Millis) {
        self.0 += other.0;
    }
}

impl Sub for Millis {
    type Output = Millis;
    /// The time from `other` to `self`; `other` is never later.
    fn sub(self, other: Millis) -> Millis {
        Millis(self.0 - other.0)
    }
}

impl Sum for Millis {
    fn sum<I: Iterator<Item = Millis>>(iter: I) -> Millis {
        iter.fold(Millis::ZERO, Add::add)
    }
}

impl fmt::Display for Millis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// Debug-prints as the bare number, as the integer it replaced did.
impl fmt::Debug for Millis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

/// A node's local clock reading in milliseconds. Signed: an offset or a backward jump can put a
/// reading before zero, and a later reading can be lower than an earlier one.
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct LocalMillis(i64);

impl LocalMillis {
    /// A clock reading of zero.
    pub const ZERO: LocalMillis = LocalMillis(0);

    /// A clock reading of `ms` milliseconds.
    pub const fn from_ms(ms: i64) -> LocalMillis {
        LocalMillis(ms)
    }

    /// What a clock with no offset, drift or jump reads at true instant `at`: the same number.
    /// (Run times are bounded far below `i64::MAX`; a greater one saturates.)
    pub fn perfect(at: Millis) -> LocalMillis {
        LocalMillis(i64::try_from(at.0).unwrap_or(i64::MAX))
    }

    /// Returns this reading as a number of milliseconds.
    pub const fn as_ms(self) -> i64 {
        self.0
    }

    /// Returns the reading `span_ms` later (earlier if negative), saturating at the ends.
    pub const fn shifted(self, span_ms: i64) -> LocalMillis {
        LocalMillis(self.0.saturating_add(span_ms))
    }
}

/// A count of milliseconds as a clock reading, as [`From<u64>`](Millis) is for true time.
impl From<i64> for LocalMillis {
    fn from(ms: i64) -> LocalMillis {
        LocalMillis(ms)
    }
}

impl Add<Millis> for LocalMillis {
    type Output = LocalMillis;
    /// The reading `after` later on the same clock, saturating at the end.
    fn add(self, after: Millis) -> LocalMillis {
        LocalMillis(self.0.saturating_add_unsigned(after.0))
    }
}

impl Sub<Millis> for LocalMillis {
    type Output = LocalMillis;
    /// The reading `before` earlier on the same clock, saturating at the start.
    fn sub(self, before: Millis) -> LocalMillis {
        LocalMillis(self.0.saturating_sub_unsigned(before.0))
    }
}

impl Sub for LocalMillis {
    type Output = i64;
    /// The local time from reading `other` to `self` in milliseconds: negative if `self` reads
    /// earlier.
    fn sub(self, other: LocalMillis) -> i64 {
        self.0 - other.0
    }
}

impl fmt::Display for LocalMillis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// Debug-prints as the bare number, as the integer it replaced did.
impl fmt::Debug for LocalMillis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serializes_and_prints_as_the_bare_number() {
        assert_eq!(serde_json::to_string(&Millis::from_ms(1_500)).unwrap(), "1500");
        assert_eq!(serde_json::to_string(&LocalMillis::from_ms(-20)).unwrap(), "-20");
        assert_eq!(format!("{} {:?} {}", Millis::from_ms(7), Millis::from_ms(7), LocalMillis::from_ms(-3)), "7 7 -3");
    }

    #[test]
    fn readings_move_by_lengths_and_differ_by_signed_spans() {
        let t = LocalMillis::from_ms(100);
        assert_eq!(t + Millis::from_ms(50), LocalMillis::from_ms(150));
        assert_eq!(t - Millis::from_ms(150), LocalMillis::from_ms(-50));
        assert_eq!(LocalMillis::from_ms(40) - t, -60);
        assert_eq!(LocalMillis::perfect(Millis::from_ms(9)), LocalMillis::from_ms(9));
        assert_eq!(Millis::from_ms(5).saturating_sub(Millis::from_ms(9)), Millis::ZERO);
    }
}
