//! Redlock's arithmetic, as in the reference implementation (`antirez/redlock-rb`): a majority
//! quorum, a clock-drift allowance, and the validity left after acquisition.

/// The reference implementation's clock drift factor (1 %), as a divisor.
pub const DRIFT_DIVISOR: u64 = 100;
/// Added to the drift: Redis expiry precision plus a minimum drift of 1 ms.
pub const DRIFT_EXTRA_MS: u64 = 2;

/// Returns how many of `n` masters must agree: `n / 2 + 1`.
pub fn quorum(n: usize) -> usize {
    n / 2 + 1
}

/// Returns the drift allowance for a TTL: `ttl * 0.01 + 2` ms, truncated as the reference does.
pub fn drift_ms(ttl_ms: u64) -> u64 {
    ttl_ms / DRIFT_DIVISOR + DRIFT_EXTRA_MS
}

/// Returns the validity left after an acquisition that took `elapsed_ms` on the client's clock.
pub fn validity_ms(ttl_ms: u64, elapsed_ms: i64) -> i64 {
    ttl_ms as i64 - elapsed_ms - drift_ms(ttl_ms) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quorum_is_a_strict_majority() {
        let q: Vec<usize> = (1..=7).map(quorum).collect();
        assert_eq!(q, vec![1, 2, 2, 3, 3, 4, 4]);
    }

    #[test]
    fn drift_and_validity_match_the_reference() {
        assert_eq!(drift_ms(10_000), 102);
        assert_eq!(drift_ms(1_000), 12);
        assert_eq!(drift_ms(50), 2);
        assert_eq!(validity_ms(10_000, 35), 10_000 - 35 - 102);
        assert!(validity_ms(1_000, 990) < 0, "a slow acquisition leaves no validity");
    }
}
