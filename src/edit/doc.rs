//! A scenario document and the edits on it: set, insert and remove at a field path such as
//! `faults[2].for_ms`, and the document written back as JSON.

use crate::error::{quote, ScenarioError};
use crate::scenario::json::Value;
use std::fmt::Write;

/// One change to a scenario document.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// Sets the field or element at `path`, adding a field its object lacks; `None` removes the
    /// field, so its default applies.
    Set { path: String, value: Option<Value> },
    /// Inserts `value` into the array at `path` before `index` (at the end when `index` is past
    /// it); a missing array field is created.
    Insert { path: String, index: usize, value: Value },
    /// Removes the array element at `path`, such as `faults[2]`.
    Remove { path: String },
}

/// One step of a field path.
enum Seg<'a> {
    Field(&'a str),
    Index(usize),
}

/// Splits `lock.ttl_ms` or `participants[1].script[0]` into its steps.
fn segments(path: &str) -> Result<Vec<Seg<'_>>, ScenarioError> {
    let bad = || ScenarioError::new("", format!("{} is not a field path", quote(path)));
    let mut out = Vec::new();
    for part in path.split('.') {
        let (field, mut rest) = part.split_once('[').map_or((part, ""), |(f, r)| (f, r));
        if !field.is_empty() {
            out.push(Seg::Field(field));
        } else if rest.is_empty() {
            return Err(bad());
        }
        while !rest.is_empty() {
            let (index, after) = rest.split_once(']').ok_or_else(bad)?;
            out.push(Seg::Index(index.parse().map_err(|_| bad())?));
            rest = after.strip_prefix('[').unwrap_or(after);
            if !after.is_empty() && !after.starts_with('[') {
                return Err(bad());
            }
        }
    }
    Ok(out)
}

/// Finds the value at `segs` under `v`.
fn find<'v>(mut v: &'v mut Value, segs: &[Seg], path: &str) -> Result<&'v mut Value, ScenarioError> {
    for seg in segs {
        v = match (seg, v) {
            (Seg::Field(name), Value::Object(members)) => match members.iter_mut().find(|(k, _)| k == name) {
                Some((_, v)) => v,
                None => return Err(ScenarioError::new(path, format!("has no field `{name}` to change"))),
            },
            (Seg::Index(i), Value::Array(items)) => {
                let n = items.len();
                items.get_mut(*i).ok_or_else(|| ScenarioError::new(path, format!("has no element {i}; the list has {n}")))?
            }
            _ => return Err(ScenarioError::new(path, "does not lead to a field")),
        };
    }
    Ok(v)
}

/// Applies an edit to a document, returning the new document; the original is untouched.
pub fn apply(doc: &Value, edit: &Edit) -> Result<Value, ScenarioError> {
    let mut doc = doc.clone();
    let path = match edit {
        Edit::Set { path, .. } | Edit::Insert { path, .. } | Edit::Remove { path } => path,
    };
    let segs = segments(path)?;
    let Some((last, parents)) = segs.split_last() else { return Err(ScenarioError::new("", "an edit needs a field path")) };
    let parent = find(&mut doc, parents, path)?;
    match (edit, last, parent) {
        (Edit::Set { value, .. }, Seg::Field(name), Value::Object(members)) => {
            let at = members.iter().position(|(k, _)| k == name);
            match (at, value) {
                (Some(at), Some(v)) => members[at].1 = v.clone(),
                (None, Some(v)) => members.push((name.to_string(), v.clone())),
                (Some(at), None) => drop(members.remove(at)),
                (None, None) => {}
            }
        }
        (Edit::Set { value: Some(v), .. }, Seg::Index(_), _) => *find(&mut doc, &segs, path)? = v.clone(),
        (Edit::Insert { index, value, .. }, Seg::Field(name), Value::Object(members)) => {
            if !members.iter().any(|(k, _)| k == name) {
                members.push((name.to_string(), Value::Array(Vec::new())));
            }
            let Value::Array(items) = find(&mut doc, &segs, path)? else { return Err(ScenarioError::new(path, "is not a list")) };
            items.insert((*index).min(items.len()), value.clone());
        }
        (Edit::Insert { index, value, .. }, Seg::Index(_), _) => {
            let Value::Array(items) = find(&mut doc, &segs, path)? else { return Err(ScenarioError::new(path, "is not a list")) };
            items.insert((*index).min(items.len()), value.clone());
        }
        (Edit::Remove { .. }, Seg::Index(i), Value::Array(items)) if *i < items.len() => drop(items.remove(*i)),
        (Edit::Remove { .. }, Seg::Index(i), Value::Array(items)) => {
            return Err(ScenarioError::new(path, format!("has no element {i}; the list has {}", items.len())))
        }
        _ => return Err(ScenarioError::new(path, "cannot be changed that way")),
    }
    Ok(doc)
}

/// Returns the value at `path`, if there is one.
pub fn get<'v>(doc: &'v Value, path: &str) -> Option<&'v Value> {
    let mut v = doc;
    for seg in segments(path).ok()? {
        v = match (seg, v) {
            (Seg::Field(name), Value::Object(members)) => &members.iter().find(|(k, _)| k == name)?.1,
            (Seg::Index(i), Value::Array(items)) => items.get(i)?,
            _ => return None,
        };
    }
    Some(v)
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
