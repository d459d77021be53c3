//! The course builder as text: the course's title, audience and introduction; each stop with
//! what it opens, its title, minutes, questions and notes, and the buttons that move or remove
//! it; the ways to add a lesson or start from a shipped course; and the ways to take the course
//! or share it. Its fields name their place in the course (`data-draft`).

use super::courses::stop_title;
use super::Escaped;
use crate::course::{Course, Open, BUILT_IN};
use crate::limits::{MAX_COURSE_TEXT_CHARS, MAX_COURSE_TITLE_CHARS, MAX_STOP_MINUTES};
use crate::scenario::lessons;
use std::fmt::Write;

/// Says what a stop opens and where, for its heading.
fn opens(open: &Open, step: u64) -> String {
    let what = match open {
        Open::Lesson(_) => "Lesson",
        Open::Cell(_) => "A comparison cell",
        Open::Edited(_) => "An edited scenario",
    };
    if step == 0 {
        format!("{what}, from its setup")
    } else {
        format!("{what}, from step {step}")
    }
}

/// A text field of the builder: its label, its path in the course, and its value.
fn text_field(s: &mut String, label: &str, path: &str, value: &str, placeholder: &str, most: usize) {
    let _ = write!(
        s,
        r#"<label class="draft-field"><span>{label}</span><input type="text" data-draft="{path}" value="{}" placeholder="{}" maxlength="{most}"></label>"#,
        Escaped(value),
        Escaped(placeholder)
    );
}

/// The lessons, grouped by topic, as a list to add one from.
fn lesson_choices(s: &mut String) {
    s.push_str(r#"<label class="draft-field"><span>Add a lesson</span><select data-draft="add" data-testid="draft-add"><option value="">Choose a lesson…</option>"#);
    let mut topic = "";
    for e in lessons::index() {
        if e.topic != topic {
            if !topic.is_empty() {
                s.push_str("</optgroup>");
            }
            topic = e.topic;
            let _ = write!(s, r#"<optgroup label="{}">"#, Escaped(topic));
        }
        let _ = write!(s, r#"<option value="{}">{}</option>"#, e.id, Escaped(e.title));
    }
    s.push_str("</optgroup></select></label>");
}

/// The builder, for the course being made (`c`).
pub fn builder(c: &Course) -> String {
    let mut s = String::from(
        r#"<section class="builder" data-testid="builder"><h1 id="lesson-title">Make a course</h1><p class="lede">A course is a path through lessons, comparison cells and edited scenarios, each with your title and notes, to present with a clicker or hand to a learner. On any run, <strong>+ Course</strong> beside its title adds it here at the step on screen; below, you can add any lesson, order the stops and write your words. It is kept in this browser.</p><div class="draft-course">"#,
    );
    text_field(&mut s, "Title", "course", &c.title, "My course", MAX_COURSE_TITLE_CHARS);
    text_field(&mut s, "For whom", "audience", &c.audience, "A class new to distributed locks", MAX_COURSE_TITLE_CHARS);
    let _ = write!(
        s,
        r#"<label class="draft-field draft-field--wide"><span>Introduction</span><textarea data-draft="intro" rows="2" maxlength="{MAX_COURSE_TEXT_CHARS}" placeholder="What the course covers, in what order">{}</textarea></label></div>"#,
        Escaped(&c.intro)
    );
    let _ =
        write!(s, r#"<h2>{} stops · about {} minutes</h2><ol class="draft-stops" data-testid="draft-stops">"#, c.stops.len(), c.minutes());
    let last = c.stops.len().saturating_sub(1);
    for (i, stop) in c.stops.iter().enumerate() {
        let _ = write!(
            s,
            r#"<li class="draft-stop" data-testid="draft-stop-{i}"><div class="draft-stop-head"><strong>{}</strong><span class="muted">{}</span><span class="draft-stop-moves"><button class="btn btn--small btn--ghost" data-action="draft-up:{i}" aria-label="Move stop {n} up"{}>↑</button><button class="btn btn--small btn--ghost" data-action="draft-down:{i}" aria-label="Move stop {n} down"{}>↓</button><button class="btn btn--small btn--ghost" data-action="draft-remove:{i}" aria-label="Remove stop {n}">✕</button></span></div><div class="draft-stop-fields">"#,
            Escaped(&stop_title(c, i)),
            opens(&stop.open, stop.step),
            if i == 0 { " disabled" } else { "" },
            if i == last { " disabled" } else { "" },
            n = i + 1
        );
        let lesson_title = match &stop.open {
            Open::Lesson(id) => lessons::entry(id).map_or("", |e| e.title),
            _ => "",
        };
        text_field(&mut s, "Title", &format!("stops[{i}].title"), &stop.title, lesson_title, MAX_COURSE_TITLE_CHARS);
        let _ = write!(
            s,
            r#"<label class="draft-field draft-field--narrow"><span>Minutes</span><input type="number" min="1" max="{MAX_STOP_MINUTES}" data-draft="stops[{i}].minutes" value="{}"></label><label class="draft-field draft-field--narrow draft-field--asks"><span>Questions to ask</span><input type="text" data-draft="stops[{i}].predict" value="{}" placeholder="all" title="all, none, or their numbers (1, 3): a question's card says its number"></label><label class="draft-field draft-field--wide"><span>Notes for the teacher</span><textarea data-draft="stops[{i}].notes" rows="2" maxlength="{MAX_COURSE_TEXT_CHARS}" placeholder="What to ask before which moment; what to name at the end">{}</textarea></label></div></li>"#,
            stop.minutes,
            Escaped(&stop.predict.said()),
            Escaped(&stop.notes)
        );
    }
    s.push_str("</ol>");
    if c.stops.is_empty() {
        s.push_str(r#"<p class="muted" data-testid="draft-empty">No stops yet: add a lesson below, or open a run and press + Course beside its title.</p>"#);
    }
    s.push_str(r#"<div class="draft-add">"#);
    lesson_choices(&mut s);
    s.push_str(r#"<label class="draft-field"><span>Or start from a copy of</span><select data-draft="copy" data-testid="draft-copy"><option value="">Choose a shipped course…</option>"#);
    for b in BUILT_IN {
        if let Ok(course) = b.course() {
            let _ = write!(s, r#"<option value="{}">{}</option>"#, b.id, Escaped(&course.title));
        }
    }
    let disabled = if c.stops.is_empty() { " disabled" } else { "" };
    let _ = write!(
        s,
        r#"</select></label></div><div class="draft-actions"><button class="btn btn--primary" data-action="draft-present" data-testid="draft-present"{disabled}>▶ Present it</button><button class="btn" data-action="draft-take" data-testid="draft-take"{disabled}>Take it</button><button class="btn" data-action="draft-link" data-testid="draft-link"{disabled}>Copy its link</button><button class="btn" data-action="draft-download" data-testid="draft-download"{disabled}>Download its file</button><label class="btn file-button">Open a course file…<input type="file" accept=".json,application/json" data-pick="draft" data-testid="draft-open"></label><button class="btn btn--ghost" data-action="draft-clear" data-testid="draft-clear">Start again</button></div></section>"#
    );
    s
}
