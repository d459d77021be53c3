//! The lesson picker: every lesson grouped by topic in teaching order, then the explorations.
//! Written once; the page marks the current entry (see [`CURRENT_CLASS`]).

use super::{Escaped, ROUTE_ATTRIBUTE};
use crate::scenario::lessons::{self, Entry};
use crate::ui::route::{self, Route, Target};
use std::fmt::Write;

/// The class of the picker's entry for what is on screen (which also gets `aria-current`).
pub const CURRENT_CLASS: &str = "is-current";

/// Returns the picker's entry button for `target` (`lesson-link` buttons naming their link).
fn entry(s: &mut String, target: Target, title: &str, testid: &str) {
    let link = route::format(&Route { target, step: 0 });
    let _ = write!(
        s,
        r#"<li><button class="lesson-link" data-testid="{}" {ROUTE_ATTRIBUTE}="{}">{}</button></li>"#,
        Escaped(testid),
        Escaped(&link),
        Escaped(title)
    );
}

/// The picker, with no entry marked current.
pub fn picker() -> String {
    let mut topics: Vec<(&str, Vec<&Entry>)> = Vec::new();
    for l in lessons::index() {
        match topics.iter_mut().find(|(t, _)| *t == l.topic) {
            Some((_, list)) => list.push(l),
            None => topics.push((l.topic, vec![l])),
        }
    }
    let mut s = String::from(r#"<div class="picker">"#);
    for (topic, list) in topics {
        let _ = write!(s, r#"<section class="topic"><h2>{}</h2><ul>"#, Escaped(topic));
        for l in list {
            entry(&mut s, Target::Lesson(l.id.to_string()), l.title, &format!("lesson-{}", l.id));
        }
        s.push_str("</ul></section>");
    }
    s.push_str(r#"<section class="topic"><h2>Explore</h2><ul>"#);
    entry(&mut s, Target::Table, "One schedule, every design", "lesson-compare");
    entry(&mut s, Target::Stress(1_000), "Many clients contending", "lesson-stress");
    s.push_str("</ul></section></div>");
    s
}
