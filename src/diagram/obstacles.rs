//! The boxes already placed on a diagram, indexed by vertical band, so that a new label or mark
//! is checked only against its neighbours: placing n items takes O(n), not O(n²).

/// A box: (x0, y0, x1, y1).
pub type Rect = (f32, f32, f32, f32);

/// A line segment, an arrow's shaft: (x1, y1, x2, y2).
pub type Segment = (f32, f32, f32, f32);

/// How tall one band is, in diagram units.
const BAND: f32 = 64.0;

/// Placed boxes, each filed under every band its height touches.
#[derive(Debug, Default)]
pub struct Obstacles {
    bands: Vec<Vec<Rect>>,
}

/// Arrow shafts, each filed under every band its height spans.
#[derive(Debug, Default)]
pub struct Shafts {
    bands: Vec<Vec<Segment>>,
}

fn band(y: f32) -> usize {
    // Saturating: a NaN or negative y files under band 0, a huge one under the last.
    (y / BAND).max(0.0) as usize
}

/// Says whether two boxes overlap (touching edges do not).
pub fn overlap(a: Rect, b: Rect) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// Says whether a segment runs through the inside of a box (one that only touches its edge or
/// corner does not): the segment clipped to the box, Liang–Barsky, leaves a piece.
pub fn crosses(s: Segment, r: Rect) -> bool {
    let (dx, dy) = (s.2 - s.0, s.3 - s.1);
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for (p, q) in [(-dx, s.0 - r.0), (dx, r.2 - s.0), (-dy, s.1 - r.1), (dy, r.3 - s.1)] {
        if p == 0.0 {
            if q <= 0.0 {
                return false;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    t0 < t1
}

impl Shafts {
    /// Adds a shaft.
    pub fn insert(&mut self, s: Segment) {
        let (lo, hi) = (band(s.1.min(s.3)), band(s.1.max(s.3)));
        if self.bands.len() <= hi {
            self.bands.resize_with(hi + 1, Vec::new);
        }
        for b in &mut self.bands[lo..=hi] {
            b.push(s);
        }
    }

    /// Says whether a shaft other than `own` runs through `r`.
    pub fn cross(&self, r: Rect, own: Option<Segment>) -> bool {
        let hi = band(r.3).min(self.bands.len().saturating_sub(1));
        for shafts in self.bands.get(band(r.1)..=hi).unwrap_or_default() {
            for &s in shafts {
                if Some(s) != own && crosses(s, r) {
                    return true;
                }
            }
        }
        false
    }
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

    #[test]
    fn a_shaft_crosses_a_box_it_runs_through_and_not_one_it_passes_or_touches() {
        let r = (10.0, 10.0, 20.0, 20.0);
        assert!(crosses((0.0, 15.0, 30.0, 15.0), r), "straight through");
        assert!(crosses((0.0, 0.0, 30.0, 30.0), r), "corner to corner");
        assert!(crosses((12.0, 12.0, 14.0, 14.0), r), "inside");
        assert!(!crosses((0.0, 25.0, 30.0, 25.0), r), "below it");
        assert!(!crosses((0.0, 20.0, 30.0, 20.0), r), "along its edge");
        assert!(!crosses((0.0, 10.0, 10.0, 0.0), r), "touching a corner");
        assert!(!crosses((0.0, 18.0, 18.0, 0.0), r), "passing the corner outside");
        let mut shafts = Shafts::default();
        let own = (0.0, 15.0, 30.0, 15.0);
        shafts.insert(own);
        assert!(shafts.cross(r, None) && !shafts.cross(r, Some(own)), "its own shaft does not count");
        shafts.insert((0.0, 300.0, 30.0, 100.0));
        assert!(shafts.cross((10.0, 190.0, 20.0, 210.0), None), "a sloped shaft across bands");
    }
}
