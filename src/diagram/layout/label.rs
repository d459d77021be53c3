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
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

impl Label {
    /// Returns the label's estimated box (x0, y0, x1, y1).
    pub fn bbox(&self) -> (f32, f32, f32, f32) {
        let (w, lines) = self.text.split('\n').fold((0.0f32, 0.0), |(w, n), line| (w.max(line.chars().count() as f32 * CHAR_PX), n + 1.0));
        let x0 = match self.anchor {
            Anchor::Start => self.x,
            Anchor::Middle => self.x - w / 2.0,
            Anchor::End => self.x - w,
        };
        (x0, self.y - LABEL_PX + 3.0, x0 + w, self.y + 3.0 + (lines - 1.0) * LINE_H)
    }

    /// Returns the label's lines (a wrapped label has several).
    pub fn lines(&self) -> std::str::Split<'_, char> {
        self.text.split('\n')
    }
}

/// Breaks `text` at spaces into lines of at most `max` units of label text (a longer word keeps
/// a line of its own), joined by `\n`.
pub fn wrap(text: &str, max: f32) -> String {
    let per_line = ((max / CHAR_PX) as usize).max(6);
    let mut out = String::with_capacity(text.len() + 4);
    let mut line = 0;
    for word in text.split(' ') {
        let n = word.chars().count();
        if line > 0 && line + 1 + n > per_line {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += n;
    }
    out
}
