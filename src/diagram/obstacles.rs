//! The boxes already placed on a diagram, indexed by vertical band, so that a new label or mark
//! is checked only against its neighbours: placing n items takes O(n), not O(n²).

/// A box: (x0, y0, x1, y1).
pub type Rect = (f32, f32, f32, f32);

/// How tall one band is, in diagram units.
const BAND: f32 = 64.0;

/// Placed boxes, each filed under every band its height touches.
#[derive(Debug, Default)]
pub struct Obstacles {
    bands: Vec<Vec<Rect>>,
}

fn band(y: f32) -> usize {
    // Saturating: a NaN or negative y files under band 0, a huge one under the last.
    (y / BAND).max(0.0) as usize
}

/// Says whether two boxes overlap (touching edges do not).
pub fn overlap(a: Rect, b: Rect) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

impl Obstacles {
    /// Adds a box.
    pub fn insert(&mut self, r: Rect) {
        let (lo, hi) = (band(r.1), band(r.3));
        if self.bands.len() <= hi {
            self.bands.resize_with(hi + 1, Vec::new);
        }
        for b in &mut self.bands[lo..=hi] {
            b.push(r);
        }
    }

    /// Says whether `r` overlaps any box added so far.
    pub fn hit(&self, r: Rect) -> bool {
        let hi = band(r.3).min(self.bands.len().saturating_sub(1));
        (band(r.1)..=hi).any(|k| self.bands.get(k).is_some_and(|b| b.iter().any(|&o| overlap(r, o))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_exactly_the_overlaps_a_full_scan_finds() {
        // Boxes of many heights across band edges, checked against a plain scan.
        let boxes: Vec<Rect> = (0..400)
            .map(|i| {
                let (x, y) = ((i * 37 % 500) as f32, (i * 53 % 3000) as f32);
                (x, y, x + (i % 7 * 20 + 5) as f32, y + (i % 5 * 40 + 3) as f32)
            })
            .collect();
        let mut index = Obstacles::default();
        for (i, &b) in boxes.iter().enumerate() {
            assert_eq!(index.hit(b), boxes[..i].iter().any(|&o| overlap(b, o)), "box {i}");
            index.insert(b);
        }
        assert!(!index.hit((0.0, 5_000.0, 10.0, 5_010.0)));
        assert!(!index.hit((0.0, f32::NAN, 10.0, f32::NAN)));
    }
}
