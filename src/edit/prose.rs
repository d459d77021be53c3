//! Keeping a scenario's own words true to an edit: a participant renamed is renamed in the
//! title, the setup, the takeaway and the statement of guarantees; a lock parameter changed
//! marks a lesson's own statement of guarantees as written for its numbers, and the editor says
//! that the setup and the takeaway were too.

use crate::scenario::Scenario;

/// Returns `after` with its prose made true to the change from `before`, and what the editor
/// should say about it.
pub fn follow(before: &Scenario, mut after: Scenario) -> (Scenario, Vec<String>) {
    let mut notes = Vec::new();
    for (old, new) in renames(before, &after) {
        rename_in(&mut after, &old, &new);
    }
    if before.lock.kind.tag() == after.lock.kind.tag() && before.lock.values != after.lock.values {
        // A lesson's statement speaks of its resource and faults too, which the design's would
        // not: it stays, saying for which numbers it was written.
        if let Some(g) = &mut after.guarantees {
            if !g.safety.starts_with(WRITTEN_FOR) {
                g.safety = format!("{WRITTEN_FOR} {}", g.safety);
            }
        }
        notes.push("The setup, the takeaway and what the lock promises were written for the lesson's own numbers.".into());
    }
    (after, notes)
}

/// What begins a lesson's statement of guarantees once its lock's numbers were changed.
const WRITTEN_FOR: &str = "(Written for the lesson's own numbers.)";

/// Returns each participant whose name the change altered: (old name, new name), by id.
fn renames(before: &Scenario, after: &Scenario) -> Vec<(String, String)> {
    let mut renamed = Vec::new();
    for p in &after.participants {
        if let Some(old) = before.participants.iter().find(|b| b.id() == p.id()).map(|b| b.name()) {
            if old != p.name() && !old.is_empty() {
                renamed.push((old.to_string(), p.name().to_string()));
            }
        }
    }
    renamed
}

/// Renames `old` to `new` wherever it stands as a whole name in the scenario's prose: its title,
/// setup and takeaway, and its statement of guarantees.
fn rename_in(s: &mut Scenario, old: &str, new: &str) {
    let mut texts = vec![&mut s.title, &mut s.intro, &mut s.takeaway];
    if let Some(g) = &mut s.guarantees {
        texts.extend([&mut g.safety, &mut g.liveness, &mut g.assumes]);
    }
    for text in texts {
        *text = replace_name(text, old, new);
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
    use crate::scenario::json::Value;

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
        let before = crate::scenario::lessons::find("lease-race-fenced").expect("a lesson").scenario;
        let name = before.participants[0].name().to_string();
        let mut said = before.clone();
        said.intro = format!("{name} takes a 1,000 ms lease.");
        let (liveness, assumes) = ("l".to_string(), "a".to_string());
        let safety = format!("{name} is safe within the TTL.");
        said.guarantees = Some(crate::design::Guarantees { lock: crate::design::LockKind::Correctness, safety, liveness, assumes });
        let set = |s: &Scenario, path: &str, v: Value| {
            crate::edit::apply(s, &crate::edit::Edit::Set { path: path.into(), value: Some(v) }).unwrap()
        };
        let (after, notes) = follow(&said, set(&said, "participants[0].name", Value::String("Alice".into())));
        assert_eq!(after.intro, "Alice takes a 1,000 ms lease.");
        assert_eq!(after.guarantees.as_ref().map(|g| g.safety.as_str()), Some("Alice is safe within the TTL."));
        assert!(notes.is_empty(), "{notes:?}");
        let (after, notes) = follow(&after, set(&after, "lock.ttl_ms", Value::Number("700".into())));
        let written = "(Written for the lesson's own numbers.) Alice is safe within the TTL.";
        assert_eq!(after.guarantees.as_ref().map(|g| g.safety.as_str()), Some(written), "the statement says for which numbers");
        assert_eq!(notes.len(), 1, "{notes:?}");
        let again = follow(&after, set(&after, "lock.ttl_ms", Value::Number("600".into()))).0;
        assert_eq!(again.guarantees.as_ref().map(|g| g.safety.as_str()), Some(written), "said once");
    }
}
