//! A small, version-stable PRNG (SplitMix64) and named sub-streams derived from one root seed.
//!
//! Written out here rather than taken from a crate so a seed replays the same trace forever.

/// Where FNV-1a starts.
const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a over `bytes`, from `h`.
fn fnv(mut h: u64, bytes: impl Iterator<Item = u8>) -> u64 {
    for b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A deterministic stream of pseudo-random numbers.
#[derive(Clone, Debug, Hash)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// Starts a stream from a seed.
    pub fn new(seed: u64) -> Self {
        Rng { state: seed }
    }

    /// Derives an independent stream for one named purpose (e.g. `"net"`, `"node:3"`).
    pub fn derive(root_seed: u64, purpose: &str) -> Self {
        Rng::mixed(root_seed, fnv(FNV_START, purpose.bytes()))
    }

    /// The stream [`Rng::derive`] gives for `purpose` followed by `n` in decimal (`"node:"` and
    /// 3 for `"node:3"`), without writing the name out.
    pub fn derive_numbered(root_seed: u64, purpose: &str, n: usize) -> Self {
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        let mut rest = n;
        loop {
            at -= 1;
            digits[at] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        let h = fnv(fnv(FNV_START, purpose.bytes()), digits[at..].iter().copied());
        Rng::mixed(root_seed, h)
    }

    /// A stream from the root seed mixed with a purpose's hash.
    fn mixed(root_seed: u64, h: u64) -> Self {
        let mut mix = Rng::new(root_seed ^ h);
        Rng::new(mix.next_u64())
    }

    /// Returns the next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Returns a value in `lo..=hi` (`lo` when the range is empty).
    pub fn range_inclusive(&mut self, lo: u64, hi: u64) -> u64 {
        if hi <= lo {
            return lo;
        }
        let span = hi - lo + 1;
        lo + self.next_u64() % span
    }

    /// Returns true with probability `p` (0.0 ..= 1.0).
    pub fn chance(&mut self, p: f64) -> bool {
        if p <= 0.0 {
            return false;
        }
        let unit = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        unit < p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_is_stable_across_versions() {
        // Pinned outputs: a change here would silently change every saved trace.
        let mut r = Rng::new(42);
        assert_eq!(r.next_u64(), 0xbdd7_3226_2feb_6e95);
        assert_eq!(r.next_u64(), 0x28ef_e333_b266_f103);
    }

    #[test]
    fn derived_streams_differ_by_purpose_and_seed() {
        let a = Rng::derive(1, "net").next_u64();
        let b = Rng::derive(1, "node:0").next_u64();
        let c = Rng::derive(2, "net").next_u64();
        assert_ne!(a, b);
        assert_ne!(a, c);
        assert_eq!(a, Rng::derive(1, "net").next_u64());
        for n in [0, 7, 10, 123, usize::MAX] {
            let named = Rng::derive(9, &format!("node:{n}")).next_u64();
            assert_eq!(Rng::derive_numbered(9, "node:", n).next_u64(), named, "node:{n}");
        }
    }

    #[test]
    fn range_stays_in_bounds() {
        let mut r = Rng::new(9);
        for _ in 0..1000 {
            let v = r.range_inclusive(5, 8);
            assert!((5..=8).contains(&v));
        }
        assert_eq!(r.range_inclusive(7, 7), 7);
    }
}
