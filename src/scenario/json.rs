//! A small JSON reader for scenario files: text to a [`Value`] tree, with errors that give the
//! line and column. The browser and the command line read scenarios with this same code.

use crate::error::ScenarioError;
use crate::limits::{MAX_FILE_BYTES, MAX_JSON_DEPTH, MAX_JSON_NUMBER_CHARS, MAX_JSON_STRING_BYTES};
use crate::present::quoted::Quoted;
use crate::sort::heap_sort;
use std::fmt::Write;

/// A JSON value. Numbers keep their text, so each field can read it as the type it needs.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(String),
    String(String),
    Array(Vec<Value>),
    /// Members in file order.
    Object(Vec<(String, Value)>),
}

impl Value {
    /// Describes the value for an error message, as in `string "seven"` or `an array`.
    pub fn in_error(&self) -> String {
        match self {
            Value::Null => "null".into(),
            Value::Bool(b) => format!("boolean `{b}`"),
            Value::Number(n) => format!("number {n}"),
            Value::String(s) => format!("string {s_q}", s_q = Quoted(s)),
            Value::Array(_) => "an array".into(),
            Value::Object(_) => "an object".into(),
        }
    }
}

/// Parses a whole JSON text in time linear in its length (n log n for an object's keys); the
/// error names what was expected and where, or the limit a text goes past.
pub fn parse(text: &str) -> Result<Value, ScenarioError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(ScenarioError::new("", format!("the text is {} bytes; at most {MAX_FILE_BYTES} (1 MiB) are read", text.len())));
    }
    if text.starts_with('\u{feff}') {
        return Err(ScenarioError::new("", "the text starts with a byte-order mark (U+FEFF): save it as UTF-8 without one"));
    }
    let mut p = Parser { s: text.as_bytes(), i: 0 };
    let whole = |p: &mut Parser| {
        p.ws();
        let v = p.value(0)?;
        p.ws();
        if p.i < p.s.len() {
            return Err(p.error("trailing characters"));
        }
        Ok(v)
    };
    whole(&mut p).map_err(|problem| ScenarioError::new("", problem))
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> String {
        self.error_at(self.i, what)
    }

    /// Names a problem at byte `at`, by line and by column in characters (UTF-8 continuation
    /// bytes do not count).
    fn error_at(&self, at: usize, what: &str) -> String {
        let before = &self.s[..at.min(self.s.len())];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let col = before.iter().rev().take_while(|&&b| b != b'\n').filter(|&&b| b & 0xC0 != 0x80).count() + 1;
        format!("{what} at line {line} column {col}")
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        let hit = self.peek() == Some(b);
        self.i += usize::from(hit);
        hit
    }

    fn value(&mut self, depth: usize) -> Result<Value, String> {
        if depth > MAX_JSON_DEPTH {
            return Err(self.error(&format!("nested more than {MAX_JSON_DEPTH} levels deep")));
        }
        match self.peek() {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => self.string().map(Value::String),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b't') => self.word("true", Value::Bool(true)),
            Some(b'f') => self.word("false", Value::Bool(false)),
            Some(b'n') => self.word("null", Value::Null),
            Some(_) => Err(self.error("expected value")),
            None => Err(self.error("EOF while parsing a value")),
        }
    }

    fn word(&mut self, word: &str, v: Value) -> Result<Value, String> {
        if self.s[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(v)
        } else {
            Err(self.error("expected value"))
        }
    }

    /// Refuses an object with a repeated key, pointing at the first repetition; sorting the keys
    /// keeps this n log n for any number of them.
    fn unique(&mut self, members: Vec<(String, Value)>, starts: &[usize]) -> Result<Value, String> {
        let mut order: Vec<usize> = (0..members.len()).collect();
        heap_sort(&mut order, |&a, &b| (&members[a].0, a) < (&members[b].0, b));
        let repeated = order.windows(2).filter(|w| members[w[0]].0 == members[w[1]].0).map(|w| w[1]).min();
        match repeated {
            Some(i) => {
                self.i = starts[i];
                Err(self.error(&format!("duplicate field `{}`", members[i].0)))
            }
            None => Ok(Value::Object(members)),
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value, String> {
        self.i += 1;
        let mut members: Vec<(String, Value)> = Vec::new();
        // Where each key starts, to point at a repeated one.
        let mut starts = Vec::new();
        self.ws();
        if self.eat(b'}') {
            return Ok(Value::Object(members));
        }
        loop {
            self.ws();
            if self.peek() != Some(b'"') {
                return Err(self.error("key must be a string"));
            }
            starts.push(self.i);
            let key = self.string()?;
            self.ws();
            if !self.eat(b':') {
                return Err(self.error("expected `:`"));
            }
            self.ws();
            let v = self.value(depth + 1)?;
            members.push((key, v));
            self.ws();
            if self.eat(b'}') {
                return self.unique(members, &starts);
            }
            if !self.eat(b',') {
                return Err(self.error("expected `,` or `}`"));
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Value, String> {
        self.i += 1;
        let mut items = Vec::new();
        self.ws();
        if self.eat(b']') {
            return Ok(Value::Array(items));
        }
        loop {
            self.ws();
            items.push(self.value(depth + 1)?);
            self.ws();
            if self.eat(b']') {
                return Ok(Value::Array(items));
            }
            if !self.eat(b',') {
                return Err(self.error("expected `,` or `]`"));
            }
        }
    }

    fn number(&mut self) -> Result<Value, String> {
        let start = self.i;
        self.eat(b'-');
        let digits = |p: &mut Self| {
            let from = p.i;
            while matches!(p.peek(), Some(b'0'..=b'9')) {
                p.i += 1;
            }
            p.i > from
        };
        // No leading zeros: `0` alone, or a digit from 1 to 9 first.
        let leading_zero = self.peek() == Some(b'0') && matches!(self.s.get(self.i + 1), Some(b'0'..=b'9'));
        let mut ok = digits(self) && !leading_zero;
        if self.eat(b'.') {
            ok &= digits(self);
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if !self.eat(b'+') {
                self.eat(b'-');
            }
            ok &= digits(self);
        }
        if !ok {
            return Err(self.error("invalid number"));
        }
        if self.i - start > MAX_JSON_NUMBER_CHARS {
            return Err(self.error_at(start, &format!("a number longer than {MAX_JSON_NUMBER_CHARS} characters")));
        }
        // Only ASCII digits, signs, points and exponents were read.
        Ok(Value::Number(self.s[start..self.i].iter().map(|&b| char::from(b)).collect()))
    }

    fn string(&mut self) -> Result<String, String> {
        let open = self.i;
        self.i += 1;
        let mut out = String::new();
        loop {
            let start = self.i;
            while !matches!(self.peek(), None | Some(b'"' | b'\\' | 0..=0x1f)) {
                self.i += 1;
            }
            // The input is a &str and we stop only at ASCII bytes, so this slice is valid UTF-8.
            out.push_str(std::str::from_utf8(&self.s[start..self.i]).map_err(|_| self.error("invalid UTF-8"))?);
            if out.len() > MAX_JSON_STRING_BYTES {
                return Err(self.error_at(open, &format!("a string longer than {MAX_JSON_STRING_BYTES} bytes")));
            }
            match self.peek() {
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    let c = match self.peek() {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.i += 1;
                            out.push(self.unicode_escape()?);
                            continue;
                        }
                        _ => return Err(self.error("invalid escape")),
                    };
                    self.i += 1;
                    out.push(c);
                }
                Some(_) => return Err(self.error("control character in a string")),
                None => return Err(self.error("EOF while parsing a string")),
            }
        }
    }

    /// Reads the four hex digits after `\u` (and a second escape for a surrogate pair).
    fn unicode_escape(&mut self) -> Result<char, String> {
        let hex = |p: &mut Self| -> Result<u32, String> {
            let digits = p.s.get(p.i..p.i + 4).and_then(|d| std::str::from_utf8(d).ok());
            let n = digits.and_then(|d| u32::from_str_radix(d, 16).ok()).ok_or_else(|| p.error("invalid \\u escape"))?;
            p.i += 4;
            Ok(n)
        };
        let hi = hex(self)?;
        let code = if (0xD800..0xDC00).contains(&hi) {
            if !(self.eat(b'\\') && self.eat(b'u')) {
                return Err(self.error("unpaired surrogate in \\u escape"));
            }
            let lo = hex(self)?;
            if !(0xDC00..0xE000).contains(&lo) {
                return Err(self.error("unpaired surrogate in \\u escape"));
            }
            0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
        } else {
            hi
        };
        char::from_u32(code).ok_or_else(|| self.error("invalid \\u escape"))
    }
}

/// Writes a document as JSON: compact when `indent` is `None`, else indented by that many spaces
/// per level (as exported files are).
pub fn write(v: &Value, indent: Option<usize>) -> String {
    let mut s = String::new();
    write_value(&mut s, v, indent, 0);
    if indent.is_some() {
        s.push('\n');
    }
    s
}

fn newline(s: &mut String, indent: Option<usize>, level: usize) {
    if let Some(n) = indent {
        s.push('\n');
        s.extend(std::iter::repeat_n(' ', n * level));
    }
}

fn write_value(s: &mut String, v: &Value, indent: Option<usize>, level: usize) {
    match v {
        Value::Null => s.push_str("null"),
        Value::Bool(b) => s.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => s.push_str(n),
        Value::String(text) => write_string(s, text),
        Value::Array(items) if items.is_empty() => s.push_str("[]"),
        Value::Object(members) if members.is_empty() => s.push_str("{}"),
        Value::Array(items) => {
            s.push('[');
            for (i, item) in items.iter().enumerate() {
                s.push_str(if i > 0 { "," } else { "" });
                newline(s, indent, level + 1);
                write_value(s, item, indent, level + 1);
            }
            newline(s, indent, level);
            s.push(']');
        }
        Value::Object(members) => {
            s.push('{');
            for (i, (k, item)) in members.iter().enumerate() {
                s.push_str(if i > 0 { "," } else { "" });
                newline(s, indent, level + 1);
                write_string(s, k);
                s.push_str(if indent.is_some() { ": " } else { ":" });
                write_value(s, item, indent, level + 1);
            }
            newline(s, indent, level);
            s.push('}');
        }
    }
}

/// Writes a JSON string literal: quotes, backslashes and control characters escaped.
fn write_string(s: &mut String, text: &str) {
    s.push('"');
    for c in text.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\t' => s.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(s, "\\u{:04x}", u32::from(c));
            }
            c => s.push(c),
        }
    }
    s.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_kind_of_value() {
        let v = parse(r#" { "a": [1, -2.5e3, true, false, null], "b": "x\"\u00e9\ud83d\ude00\n" } "#).unwrap();
        let n = |s: &str| Value::Number(s.into());
        assert_eq!(
            v,
            Value::Object(vec![
                ("a".into(), Value::Array(vec![n("1"), n("-2.5e3"), Value::Bool(true), Value::Bool(false), Value::Null])),
                ("b".into(), Value::String("x\"é😀\n".into())),
            ])
        );
    }

    fn problem(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn errors_say_what_and_where() {
        assert_eq!(problem("{\n  \"a\": 1,\n  b: 2 }"), "key must be a string at line 3 column 3");
        assert_eq!(problem("[1 2]"), "expected `,` or `]` at line 1 column 4");
        assert_eq!(problem("{\"a\": 1} x"), "trailing characters at line 1 column 10");
        assert_eq!(problem("\"abc"), "EOF while parsing a string at line 1 column 5");
        assert_eq!(problem("{\"a\": 1, \"a\": 2}"), "duplicate field `a` at line 1 column 10");
        assert_eq!(problem("-"), "invalid number at line 1 column 2");
        assert_eq!(problem("012"), "invalid number at line 1 column 4");
        assert_eq!(problem("1."), "invalid number at line 1 column 3");
        assert!(problem(&"[".repeat(100)).starts_with("nested more than 64 levels deep"));
        // A value too long is named where it starts.
        assert_eq!(problem(&format!("[1, \"{}\"]", "x".repeat(20_000))), "a string longer than 16384 bytes at line 1 column 5");
        assert_eq!(problem(&format!("[{}]", "1".repeat(50))), "a number longer than 40 characters at line 1 column 2");
        // Columns count characters, not bytes.
        assert_eq!(problem("{\"é\": x}"), "expected value at line 1 column 7");
        assert_eq!(problem("\u{feff}{}"), "the text starts with a byte-order mark (U+FEFF): save it as UTF-8 without one");
        assert_eq!(problem(&" ".repeat(MAX_FILE_BYTES + 1)), "the text is 1048577 bytes; at most 1048576 (1 MiB) are read");
    }

    #[test]
    fn many_keys_and_long_arrays_are_read_in_linear_time() {
        // 60,000 distinct keys, then the same with one repeated at the end: both answered at once
        // (a quadratic check takes seconds here; the assertions are on the answers, not the time).
        let keys: Vec<String> = (0..60_000).map(|i| format!("\"k{i}\": 1")).collect();
        let text = format!("{{{}}}", keys.join(","));
        assert!(text.len() < MAX_FILE_BYTES);
        let Ok(Value::Object(members)) = parse(&text) else { panic!("a valid object") };
        assert_eq!(members.len(), 60_000);
        let repeated = format!("{{{}, \"k7\": 2}}", keys.join(","));
        assert!(problem(&repeated).starts_with("duplicate field `k7`"));
    }
}
