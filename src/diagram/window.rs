//! The part of a diagram between two heights, for a page that keeps only what is near the view
//! in its DOM: items are filed by vertical band once, so cutting out a window costs what it
//! holds, not the size of the run.

use super::layout::{Item, Label, Layout, Shape};
use super::obstacles::Rect;
use super::svg::{drawing_indices, gap_svg, label_item_svg, shape_svg, tick_svg};

/// Runs with up to this many items (every lesson and comparison cell, with room to spare) are
/// drawn whole; larger ones keep only the items near the view in the page, so any run the app
/// accepts opens, scrolls and steps without freezing.
pub const DRAW_WHOLE_UP_TO: usize = 250;

/// How tall one band is, in diagram units.
const BAND: f32 = 512.0;

/// Every item of a layout filed under the bands its shape and label touch.
#[derive(Debug)]
pub struct Window {
    /// The items' indices in drawing order.
    order: Vec<u32>,
    /// Per band, positions in `order`, ascending.
    bands: Vec<Vec<u32>>,
}

fn band(y: f32) -> usize {
    // Saturating: a NaN or negative y files under band 0.
    (y / BAND).max(0.0) as usize
}

/// The top and bottom of what an item draws.
fn extent(item: &Item) -> (f32, f32) {
    let (y0, y1) = match item.shape {
        Shape::Arrow { y1, y2, .. } => (y1.min(y2), y1.max(y2)),
        Shape::Span { y0, y1, .. } | Shape::Band { y0, y1, .. } => (y0, y1),
        Shape::Mark { y, .. } => (y, y),
    };
    // Marks and arrowheads reach a little past their points.
    let (mut top, mut bottom) = (y0 - 12.0, y1 + 12.0);
    if let Some(label) = &item.label {
        let (_, ly0, _, ly1) = label.bbox();
        (top, bottom) = (top.min(ly0), bottom.max(ly1));
    }
    (top, bottom)
}

impl Window {
    /// Files every item of `layout`.
    pub fn new(layout: &Layout) -> Window {
        let mut bands: Vec<Vec<u32>> = vec![Vec::new(); band(layout.height) + 1];
        let last = bands.len() - 1;
        let mut order = Vec::with_capacity(layout.items.len());
        for (position, i) in drawing_indices(layout).enumerate() {
            order.push(i as u32);
            let (top, bottom) = extent(&layout.items[i]);
            for b in &mut bands[band(top).min(last)..=band(bottom).min(last)] {
                b.push(position as u32);
            }
        }
        Window { order, bands }
    }

    /// Returns the items whose labels a line across the diagram at height `y` would cross (or
    /// pass within 2 units of), with their labels' boxes.
    pub fn labelled_across<'a>(&'a self, layout: &'a Layout, y: f32) -> impl Iterator<Item = (&'a Item, Rect)> + 'a {
        let positions = self.bands.get(band(y).min(self.bands.len() - 1)).map_or(&[][..], Vec::as_slice);
        positions.iter().map(|&p| &layout.items[self.order[p as usize] as usize]).filter_map(move |item| {
            let b = item.label.as_ref().map(Label::bbox)?;
            (b.1 - 2.0 <= y && y <= b.3 + 2.0).then_some((item, b))
        })
    }

    /// Returns the horizontal extents of the labels that a line across the diagram at height
    /// `y` would cross, so that the line can leave them clear.
    pub fn labels_across<'a>(&'a self, layout: &'a Layout, y: f32) -> impl Iterator<Item = (f32, f32)> + 'a {
        self.labelled_across(layout, y).map(|(_, b)| (b.0, b.2))
    }

    /// Returns the pieces of a line across the diagram at height `y`, from `x0` to `x1`, that
    /// leave every label it meets clear by `margin`.
    pub fn line_around_labels(&self, layout: &Layout, y: f32, (x0, x1): (f32, f32), margin: f32) -> Vec<(f32, f32)> {
        let mut pieces = vec![(x0, x1)];
        for (a, b) in self.labels_across(layout, y) {
            let (a, b) = (a - margin, b + margin);
            let mut left = Vec::with_capacity(pieces.len() + 1);
            for (p, q) in pieces {
                for (p, q) in [(p, q.min(a)), (p.max(b), q)] {
                    if q > p {
                        left.push((p, q));
                    }
                }
            }
            pieces = left;
        }
        pieces
    }

    /// Returns the markup of the time ticks, compressed gaps and items that reach between `y0`
    /// and `y1`, in drawing order, to go inside the frame that [`super::svg::skeleton`] draws
    /// without them.
    pub fn markup(&self, layout: &Layout, y0: f32, y1: f32) -> String {
        let mut s = String::from(r#"<g class="axis">"#);
        let ticks = layout.ticks.partition_point(|t| t.y < y0 - 20.0)..layout.ticks.partition_point(|t| t.y <= y1 + 20.0);
        for t in &layout.ticks[ticks] {
            tick_svg(&mut s, t);
        }
        s.push_str("</g>");
        for g in layout.gaps.iter().skip(layout.gaps.partition_point(|g| g.y1 < y0)).take_while(|g| g.y0 <= y1) {
            gap_svg(&mut s, g, layout.width);
        }
        let last = self.bands.len() - 1;
        let mut picked: Vec<u32> = Vec::new();
        for positions in &self.bands[band(y0).min(last)..=band(y1).min(last)] {
            picked = union(&picked, positions);
        }
        let items = || picked.iter().map(|&p| &layout.items[self.order[p as usize] as usize]);
        for item in items() {
            shape_svg(&mut s, item);
        }
        for item in items() {
            label_item_svg(&mut s, item);
        }
        s
    }
}

/// Merges two ascending lists without repeats into one, in time linear in their lengths.
fn union(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        out.push(x.min(y));
        i += usize::from(x <= y);
        j += usize::from(y <= x);
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagram::layout::layout;
    use crate::engine;
    use crate::present::Words;
    use crate::scenario::stress::stress;

    /// The items of a full drawing whose extent reaches between `y0` and `y1`, found by a scan.
    fn scan(layout: &Layout, y0: f32, y1: f32) -> String {
        let mut s = String::new();
        let reaching = || {
            crate::diagram::svg::drawing_order(layout).filter(|item| {
                let (top, bottom) = extent(item);
                bottom >= y0 && top <= y1
            })
        };
        for item in reaching() {
            shape_svg(&mut s, item);
        }
        for item in reaching() {
            label_item_svg(&mut s, item);
        }
        s
    }

    #[test]
    fn a_window_holds_what_reaches_into_it_and_little_else() {
        let (scenario, spec) = stress(5_000).unwrap();
        let trace = engine::run(&spec).unwrap();
        let l = layout(&Words::new(&trace, &*scenario.lock.design));
        let window = Window::new(&l);
        let (y0, y1) = (l.height / 2.0, l.height / 2.0 + 900.0);
        let markup = window.markup(&l, y0, y1);
        let wanted = scan(&l, y0, y1);
        assert!(!wanted.is_empty());
        // Everything a scan finds is there, in drawing order, and the window holds at most the
        // items of the bands it touches.
        let items = |m: &str| m.matches(r#"<g class="item"#).count();
        let mut rest = markup.as_str();
        for piece in wanted.split_inclusive("</g>").filter(|p| p.starts_with(r#"<g class="item"#)) {
            let at = rest.find(piece).unwrap_or_else(|| panic!("missing {piece}"));
            rest = &rest[at + piece.len()..];
        }
        assert!(items(&markup) >= items(&wanted) && items(&markup) < items(&wanted) + 200, "{} vs {}", items(&markup), items(&wanted));
        assert!(items(&markup) * 10 < l.items.len(), "a window is a small part of the run");
        // A window over everything holds every item: a group for its shape, one for its label.
        let labelled = l.items.iter().filter(|i| i.label.is_some()).count();
        assert_eq!(items(&window.markup(&l, 0.0, l.height)), l.items.len() + labelled);
    }

    #[test]
    fn union_merges_ascending_lists_and_drops_repeats() {
        assert_eq!(union(&[1, 4, 6], &[2, 4, 7, 9]), [1, 2, 4, 6, 7, 9]);
        assert_eq!(union(&[], &[3]), [3]);
        assert_eq!(union(&[3, 5], &[]), [3, 5]);
    }
}
