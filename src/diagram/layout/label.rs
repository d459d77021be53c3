//! A label's text and where it sits, and text wrapped to a width.

pub const CHAR_PX: f32 = 6.6;
pub const LABEL_PX: f32 = 14.0;
/// The distance between the lines of a wrapped label.
pub const LINE_H: f32 = 15.0;

/// Where a label sits: its anchor point and how text is aligned there.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub x: f32,
    pub y: f32,
    pub text: String,
    pub anchor: Anchor,
    /// The text's size, found once when the label is made ([`Label::new`]).
    pub(super) extent: Extent,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

impl Label {
    /// Returns a label of `text` anchored at (`x`, `y`).
    pub fn new(x: f32, y: f32, text: String, anchor: Anchor) -> Label {
        Label { x, y, extent: Extent::of(&text), text, anchor }
    }

    /// Returns the label's estimated box (x0, y0, x1, y1).
    pub fn bbox(&self) -> (f32, f32, f32, f32) {
        self.extent.bbox(self.x, self.y, self.anchor)
    }

    /// Returns the label's lines (a wrapped label has several).
    pub fn lines(&self) -> std::str::Split<'_, char> {
        self.text.split('\n')
    }
}

/// The estimated size of a label's text: its widest line's width and its number of lines. Found
/// once for a text, it gives the box of each place tried for it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Extent {
    width: f32,
    lines: f32,
}

impl Extent {
    /// Returns the extent of `text`.
    pub fn of(text: &str) -> Extent {
        let (width, lines) = text.split('\n').fold((0.0f32, 0.0), |(w, n), line| (w.max(line.chars().count() as f32 * CHAR_PX), n + 1.0));
        Extent { width, lines }
    }

    /// Returns the widest line's width.
    pub fn width(self) -> f32 {
        self.width
    }

    /// Returns the box (x0, y0, x1, y1) of the text anchored at (`x`, `y`).
    pub fn bbox(self, x: f32, y: f32, anchor: Anchor) -> (f32, f32, f32, f32) {
        let x0 = match anchor {
            Anchor::Start => x,
            Anchor::Middle => x - self.width / 2.0,
            Anchor::End => x - self.width,
        };
        (x0, y - LABEL_PX + 3.0, x0 + self.width, y + 3.0 + (self.lines - 1.0) * LINE_H)
    }
}

/// Breaks `text` at spaces into lines of at most `max` units of label text, joined by `\n`. A
/// longer word breaks after a hyphen where it is camel-cased (`lease-` `Transitions`), else keeps
/// a line of its own.
pub fn wrap(text: &str, max: f32) -> String {
    let per_line = ((max / CHAR_PX) as usize).max(6);
    let mut out = String::with_capacity(text.len() + 4);
    let mut line = 0;
    for word in text.split(' ') {
        let (head, word) = match camel_break(word, per_line) {
            Some(k) => (Some(&word[..k]), &word[k..]),
            None => (None, word),
        };
        let first = head.map_or(word.chars().count(), |h| h.len() + 1);
        if line > 0 && line + 1 + first > per_line {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        if let Some(head) = head {
            out.push_str(head);
            out.push_str("-\n");
            line = 0;
        }
        out.push_str(word);
        line += word.chars().count();
    }
    out
}

/// Where a word longer than `per_line` can break: the last point, with room for a hyphen, where
/// a lower-case letter meets an upper-case one.
fn camel_break(word: &str, per_line: usize) -> Option<usize> {
    if word.chars().count() <= per_line {
        return None;
    }
    let b = word.as_bytes();
    (1..b.len().min(per_line)).rev().find(|&k| b[k - 1].is_ascii_lowercase() && b[k].is_ascii_uppercase())
}
