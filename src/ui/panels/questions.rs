//! The interview questions, each with a short answer, buttons for the lessons that show it and,
//! for an answer that says something is safe, the lesson whose verification proves it; and the
//! interview drill's card.

use super::{Escaped, ROUTE_ATTRIBUTE};
use crate::scenario::lessons;
use crate::scenario::questions::QUESTIONS;
use crate::ui::drill::Drill;
use crate::ui::route::{self, Route, Target};
use std::fmt::Write;

/// The questions, each lesson button titled by its lesson and naming its link in
/// [`ROUTE_ATTRIBUTE`].
pub fn questions() -> String {
    let mut s = String::from(
        r#"<h2>Interview questions</h2><button class="btn drill-start" data-action="drill-start" data-testid="drill-start" title="Each question in turn, through its lessons, predicting each write; the answer after, and a score">▶ Interview drill</button>"#,
    );
    for q in QUESTIONS {
        let _ = write!(
            s,
            r#"<details class="question"><summary>{}</summary><p>{}</p><p class="see">See: "#,
            Escaped(q.question),
            Escaped(q.answer)
        );
        for id in q.lessons {
            let link = route::format(&Route { target: Target::Lesson(id.to_string()), step: 0 });
            let title = lessons::entry(id).map_or(*id, |e| e.title);
            let _ = write!(s, r#"<button class="link" {ROUTE_ATTRIBUTE}="{}">{}</button>"#, Escaped(&link), Escaped(title));
        }
        if let Some((id, kinds)) = q.proof {
            let title = lessons::entry(id).map_or(id, |e| e.title);
            let _ = write!(
                s,
                r#"</p><p class="see">Proved: <button class="link" data-action="prove-lesson:{id}:{kinds}" data-testid="prove-{id}" title="Open the lesson and check every schedule of up to 2 faults ({kinds}) on its grid">{} ▸</button>"#,
                Escaped(title)
            );
        }
        s.push_str("</p></details>");
    }
    s
}

/// The interview drill's card: the question on now, the lesson of it, the score; at the
/// lesson's end (`at_end`) the way on, and after a question's last lesson its answer. `best` is
/// the best finished drill so far (right, answered).
pub fn drill_card(d: &Drill, at_end: bool, best: Option<(u32, u32)>) -> String {
    let score = format!("{} of {} predictions right", d.right, d.answered);
    let best = best.map_or(String::new(), |(r, a)| format!(" Your best drill: {r} of {a}."));
    let mut s = String::from(r#"<section class="card drill" data-testid="drill">"#);
    let Some(q) = d.current() else {
        let _ = write!(
            s,
            r#"<h2>Interview drill: done</h2><p>{score}.{best}</p><button class="btn" data-action="drill-start">Again</button> <button class="btn btn--ghost" data-action="drill-leave">Leave the drill</button></section>"#
        );
        return s;
    };
    let title = d.lesson_id().and_then(|id| lessons::entry(id).ok()).map_or("", |e| e.title);
    let _ = write!(
        s,
        r#"<h2>Interview drill · question {} of {}</h2><p class="drill-question">{}</p><p class="muted">Lesson {} of {}: {} · {score}</p>"#,
        d.question + 1,
        QUESTIONS.len(),
        Escaped(q.question),
        d.lesson + 1,
        q.lessons.len(),
        Escaped(title)
    );
    if !at_end {
        s.push_str(
            r#"<p class="hint">Step through it (<kbd>PageDown</kbd> for the key moments) and predict each write before it is judged.</p>"#,
        );
    } else if d.last_of_question() {
        let _ = write!(
            s,
            r#"<p class="drill-answer" data-testid="drill-answer"><strong>The answer:</strong> {}</p><button class="btn btn--primary" data-action="drill-next" data-testid="drill-next">{}</button> "#,
            Escaped(q.answer),
            if d.question + 1 == QUESTIONS.len() { "Finish ▸" } else { "Next question ▸" }
        );
    } else {
        s.push_str(r#"<button class="btn btn--primary" data-action="drill-next" data-testid="drill-next">Next lesson ▸</button> "#);
    }
    s.push_str(r#"<button class="btn btn--ghost" data-action="drill-leave" data-testid="drill-leave">Leave the drill</button></section>"#);
    s
}
