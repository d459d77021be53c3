//! Text in straight double quotes, as Rust's `{:?}` writes it for the characters people type: a
//! quote or backslash gets a backslash, a control character (NUL, tab, line breaks…) its escape. (`{:?}` also escapes
//! unprintable Unicode, which needs tables this page would have to load.)

use std::fmt::{self, Write};

/// Displays its text in double quotes with `"`, `\` and control characters escaped.
pub struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('"')?;
        for c in self.0.chars() {
            match c {
                '"' | '\\' => write!(f, "\\{c}")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                '\0' => f.write_str("\\0")?,
                c if c.is_control() => write!(f, "\\u{{{:x}}}", u32::from(c))?,
                c => f.write_char(c)?,
            }
        }
        f.write_char('"')
    }
}

#[cfg(test)]
mod tests {
    use super::Quoted;

    #[test]
    fn quotes_as_debug_does_for_typed_text() {
        for text in ["A", "c6", "", "say \"hi\"", "back\\slash", "tab\there", "line\nbreak", "nul\u{0}", "bell\u{7}", "名前 & <b>", "é"]
        {
            assert_eq!(Quoted(text).to_string(), format!("{text:?}"), "{text}");
        }
    }
}
