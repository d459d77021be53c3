//! Fingerprints of a run's state, for a verification to tell states apart: see
//! `crate::verify::visited` for what a collision would cost and how likely one is.

use std::hash::{Hash, Hasher};

/// A 128-bit hasher: two 64-bit lanes, each mixing every word with its own multiplier, finished
/// with the MurmurHash3 finaliser. Deterministic everywhere (no random keys).
#[derive(Clone)]
pub struct Fingerprint {
    a: u64,
    b: u64,
}

impl Default for Fingerprint {
    fn default() -> Self {
        Fingerprint { a: 0x243f_6a88_85a3_08d3, b: 0x1319_8a2e_0370_7344 }
    }
}

impl Fingerprint {
    /// The whole fingerprint.
    pub fn finish128(&self) -> u128 {
        let a = fmix(self.a ^ self.b.rotate_left(23));
        let b = fmix(self.b.wrapping_add(self.a.rotate_left(41)));
        (u128::from(a) << 64) | u128::from(b)
    }
}

impl Hasher for Fingerprint {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(c);
            self.write_u64(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.write_u64(u64::from_le_bytes(word) ^ (rest.len() as u64) << 59);
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.a = (self.a ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(27);
        self.b = (self.b.rotate_left(31) ^ x).wrapping_mul(0xc2b2_ae3d_27d4_eb4f).wrapping_add(0x1656_67b1_9e37_79f9);
    }

    fn write_u8(&mut self, x: u8) {
        self.write_u64(u64::from(x));
    }

    fn write_u16(&mut self, x: u16) {
        self.write_u64(u64::from(x));
    }

    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }

    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }

    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }

    fn write_i8(&mut self, x: i8) {
        self.write_u64(x as u64);
    }

    fn write_i16(&mut self, x: i16) {
        self.write_u64(x as u64);
    }

    fn write_i32(&mut self, x: i32) {
        self.write_u64(x as u64);
    }

    fn write_i64(&mut self, x: i64) {
        self.write_u64(x as u64);
    }

    fn write_i128(&mut self, x: i128) {
        self.write_u128(x as u128);
    }

    fn write_isize(&mut self, x: isize) {
        self.write_u64(x as u64);
    }

    fn finish(&self) -> u64 {
        self.finish128() as u64
    }
}

/// Feeds `h` a set kept in no particular order: how many it holds, then each in ascending
/// order, so two orders of one set hash alike and the hash keeps its full width. The items must
/// be distinct. Sets in a state are small, so each next item is found by a scan instead of
/// sorting into an allocation.
pub fn hash_set<K: Ord + Copy + Hash>(h: &mut impl Hasher, items: impl Iterator<Item = K> + Clone) {
    items.clone().count().hash(h);
    let mut last = None;
    while let Some(k) = items.clone().filter(|k| last.is_none_or(|l| *k > l)).min() {
        k.hash(h);
        last = Some(k);
    }
}

/// The MurmurHash3 finaliser: every input bit moves every output bit.
pub fn fmix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

#[cfg(test)]
mod tests {
    use super::{hash_set, Fingerprint};

    fn set(items: &[u64]) -> u128 {
        let mut h = Fingerprint::default();
        hash_set(&mut h, items.iter().copied());
        h.finish128()
    }

    #[test]
    fn a_set_hashes_alike_in_any_order_and_apart_from_other_sets() {
        assert_eq!(set(&[3, 1, 2]), set(&[2, 3, 1]));
        assert_ne!(set(&[1, 2]), set(&[1, 2, 3]));
        assert_ne!(set(&[1, 2]), set(&[1, 3]));
        assert_ne!(set(&[]), set(&[0]));
        // Two sets in a row are told apart by where one ends.
        let mut two = Fingerprint::default();
        hash_set(&mut two, [1u64, 2].into_iter());
        hash_set(&mut two, [3u64].into_iter());
        let mut one = Fingerprint::default();
        hash_set(&mut one, [1u64].into_iter());
        hash_set(&mut one, [2u64, 3].into_iter());
        assert_ne!(two.finish128(), one.finish128());
    }
}
