//! Fingerprints of a run's state, for a verification to tell states apart: see
//! `crate::verify::visited` for what a collision would cost and how likely one is.

use std::hash::Hasher;

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

/// The MurmurHash3 finaliser: every input bit moves every output bit.
pub fn fmix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}
