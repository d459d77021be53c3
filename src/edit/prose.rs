//! Keeping a scenario's own words true to an edit: a participant renamed is renamed in the
//! title, the setup, the takeaway and the statement of guarantees; a lock parameter changed
//! marks a lesson's own statement of guarantees as written for its numbers, and the editor says
//! that the setup and the takeaway were too.

use super::doc::get;
use crate::scenario::json::Value;

/// The scenario's fields of prose, and the guarantees' own.
const PROSE: [&str; 3] = ["title", "intro", "takeaway"];
const GUARANTEES: [&str; 3] = ["safety", "liveness", "assumes"];

/// Returns `after` with its prose made true to the change from `before`, and what the editor
/// should say about it.
pub fn follow(before: &Value, mut after: Value) -> (Value, Vec<String>) {
    let mut notes = Vec::new();
    for (old, new) in renames(before, &after) {
        rename_in(&mut after, &old, &new);
    }
    let lock = |doc: &Value| get(doc, "lock").cloned();
    let same_design = get(before, "lock.design") == get(&after, "lock.design");
    if same_design && lock(before) != lock(&after) {
        // A lesson's statement speaks of its resource and faults too, which the design's would
        // not: it stays, saying for which numbers it was written.
        if let Some(Value::String(safety)) = get_mut(&mut after, "guarantees", "safety") {
            if !safety.starts_with(WRITTEN_FOR) {
                *safety = format!("{WRITTEN_FOR} {safety}");
            }
        }
        notes.push("The setup, the takeaway and what the lock promises were written for the lesson's own numbers.".into());
    }
    (after, notes)
}

/// What begins a lesson's statement of guarantees once its lock's numbers were changed.
const WRITTEN_FOR: &str = "(Written for the lesson's own numbers.)";

/// Returns the field `field` of the object at top-level `key`, to change.
fn get_mut<'v>(doc: &'v mut Value, key: &str, field: &str) -> Option<&'v mut Value> {
    let Value::Object(members) = doc else { return None };
    let Value::Object(fields) = &mut members.iter_mut().find(|(k, _)| k == key)?.1 else { return None };
    fields.iter_mut().find(|(k, _)| k == field).map(|(_, v)| v)
}

/// Returns each participant whose name the change altered: (old name, new name), by id.
fn renames(before: &Value, after: &Value) -> Vec<(String, String)> {
    let people = |doc: &Value| match get(doc, "participants") {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|p| match (get(p, "id"), get(p, "name")) {
                (Some(Value::String(id)), Some(Value::String(name))) => Some((id.clone(), name.clone())),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    let (was, now) = (people(before), people(after));
    now.into_iter()
        .filter_map(|(id, name)| {
            was.iter().find(|(i, _)| *i == id).filter(|(_, old)| *old != name && !old.is_empty()).map(|(_, old)| (old.clone(), name))
        })
        .collect()
}

/// Renames `old` to `new` wherever it stands as a whole name in the document's prose.
fn rename_in(doc: &mut Value, old: &str, new: &str) {
    let Value::Object(members) = doc else { return };
    for (key, value) in members.iter_mut() {
        match value {
            Value::String(text) if PROSE.contains(&key.as_str()) => *text = replace_name(text, old, new),
            Value::Object(fields) if key == "guarantees" => {
                for (k, v) in fields.iter_mut() {
                    if let (true, Value::String(text)) = (GUARANTEES.contains(&k.as_str()), v) {
                        *text = replace_name(text, old, new);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Replaces every `old` in `text` that is not part of a longer word (a letter or digit on
/// neither side) with `new`.
pub fn replace_name(text: &str, old: &str, new: &str) -> String {
    let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(old) {
        let (before, after) = (rest[..at].chars().next_back(), rest[at + old.len()..].chars().next());
        out.push_str(&rest[..at]);
        out.push_str(if word(before) || word(after) { old } else { new });
        rest = &rest[at + old.len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::json::parse;

    #[test]
    fn a_name_is_replaced_only_where_it_stands_whole() {
        assert_eq!(
            replace_name("Client A pauses; Client AB waits for Client A.", "Client A", "Alice"),
            "Alice pauses; Client AB waits for Alice."
        );
        assert_eq!(replace_name("A and B", "A", "Ann"), "Ann and B");
        assert_eq!(replace_name("Aha", "A", "Ann"), "Aha");
    }

    #[test]
    fn a_rename_follows_into_the_prose_and_a_new_ttl_drops_the_lesson_s_guarantees() {
        let before = parse(
            r#"{"title": "t", "intro": "Client A takes a 1,000 ms lease.", "takeaway": "Client A lost.",
            "guarantees": {"safety": "Client A is safe within the 1,000 ms TTL.", "liveness": "l", "assumes": "a"},
            "lock": {"design": "lease", "ttl_ms": 1000},
            "participants": [{"id": "A", "name": "Client A"}]}"#,
        )
        .unwrap();
        let renamed = crate::edit::apply(
            &before,
            &crate::edit::Edit::Set { path: "participants[0].name".into(), value: Some(Value::String("Alice".into())) },
        )
        .unwrap();
        let (after, notes) = follow(&before, renamed);
        assert_eq!(get(&after, "intro"), Some(&Value::String("Alice takes a 1,000 ms lease.".into())));
        assert_eq!(get(&after, "takeaway"), Some(&Value::String("Alice lost.".into())));
        assert_eq!(get(&after, "guarantees.safety"), Some(&Value::String("Alice is safe within the 1,000 ms TTL.".into())));
        assert!(notes.is_empty(), "{notes:?}");
        let shorter =
            crate::edit::apply(&after, &crate::edit::Edit::Set { path: "lock.ttl_ms".into(), value: Some(Value::Number("700".into())) })
                .unwrap();
        let (after, notes) = follow(&before, shorter);
        let said = "(Written for the lesson's own numbers.) Alice is safe within the 1,000 ms TTL.";
        assert_eq!(get(&after, "guarantees.safety"), Some(&Value::String(said.into())), "the statement says for which numbers");
        assert_eq!(notes.len(), 1, "{notes:?}");
        let again =
            crate::edit::apply(&after, &crate::edit::Edit::Set { path: "lock.ttl_ms".into(), value: Some(Value::Number("600".into())) })
                .unwrap();
        assert_eq!(get(&follow(&after, again).0, "guarantees.safety"), Some(&Value::String(said.into())), "said once");
    }
}
