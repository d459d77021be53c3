//! The interview questions, each with a short answer and buttons for the lessons that show it.

use super::{Escaped, ROUTE_ATTRIBUTE};
use crate::scenario::lessons;
use crate::scenario::questions::QUESTIONS;
use crate::ui::route::{self, Route, Target};
use std::fmt::Write;

/// The questions, each lesson button titled by its lesson and naming its link in
/// [`ROUTE_ATTRIBUTE`].
pub fn questions() -> String {
    let mut s = String::from("<h2>Interview questions</h2>");
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
        s.push_str("</p></details>");
    }
    s
}
