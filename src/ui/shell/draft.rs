//! The course a teacher is making (the draft): adding the run on screen at its step, or a
//! lesson; its title, audience, introduction and each stop's title, notes, minutes and
//! questions; moving and removing stops; and starting it, or sharing it as a link or a file. It
//! is kept on the device as a course file, so it outlives the visit.

use super::action::DraftEdit;
use super::state::AppState;
use crate::course::format::{self, STOP_MINUTES};
use crate::course::{built_in, Asking, Course, Open, Stop};
use crate::limits::{MAX_COURSE_STOPS, MAX_COURSE_TEXT_CHARS, MAX_COURSE_TITLE_CHARS, MAX_STOP_MINUTES};
use crate::ui::route::Target;
use std::rc::Rc;

/// Takes at most `most` characters of `text`.
fn cut(text: &str, most: usize) -> String {
    text.chars().take(most).collect()
}

impl AppState {
    /// Applies a change to the draft; returns the state after it, or why it cannot be made.
    pub fn drafted(&self, edit: DraftEdit) -> Result<AppState, String> {
        let mut c = (*self.draft).clone();
        match edit {
            DraftEdit::AddShown => c.stops.push(self.shown_stop()?),
            DraftEdit::AddLesson(id) => {
                crate::scenario::lessons::entry(&id).map_err(|e| e.to_string())?;
                c.stops.push(stop(Open::Lesson(id), 0));
            }
            DraftEdit::Field { path, text } => field(&mut c, &path, &text)?,
            DraftEdit::Move(i, up) => {
                let j = if up { i.checked_sub(1) } else { Some(i + 1) };
                match j.filter(|&j| j < c.stops.len() && i < c.stops.len()) {
                    Some(j) => c.stops.swap(i, j),
                    None => return Ok(self.clone()),
                }
            }
            DraftEdit::Remove(i) if i < c.stops.len() => drop(c.stops.remove(i)),
            DraftEdit::Remove(_) => return Ok(self.clone()),
            DraftEdit::Copy(id) => c = built_in(&id).ok_or_else(|| format!("there is no shipped course “{id}”"))?.course()?,
            DraftEdit::Clear => c = Course::untitled(),
        }
        if c.stops.len() > MAX_COURSE_STOPS {
            return Err(format!("a course holds at most {MAX_COURSE_STOPS} stops"));
        }
        Ok(AppState { draft: Rc::new(c), ..self.clone() })
    }

    /// The stop that opens the run on screen at its step: a lesson, a comparison cell, or an
    /// edited scenario (by its link).
    fn shown_stop(&self) -> Result<Stop, String> {
        let run = self.run.as_ref().filter(|_| self.view.is_none() && self.table.is_none()).ok_or("there is no run on screen to add")?;
        #[cfg(editing)]
        if let Some(editing) = &self.editing {
            let link = editing.link.clone().map_err(|e| e.to_string())?;
            return Ok(stop(Open::Edited(link), self.player.step as u64));
        }
        let open = match &run.target {
            Target::Lesson(id) => Open::Lesson(id.clone()),
            Target::Compare { schedule, design } => Open::Cell(format!("{schedule}/{design}")),
            Target::Edited(link) if !link.is_empty() => Open::Edited(link.clone()),
            _ => return Err("only a lesson, a comparison cell or an edited scenario can be a course's stop".into()),
        };
        // A lesson's stop opens at its setup or at a key moment: the last one shown.
        let step = self.player.step;
        let at = if step == 0 { 0 } else { run.beats.iter().map(|b| b.event + 1).filter(|&s| s <= step).max().unwrap_or(0) };
        Ok(stop(open, at as u64))
    }

    /// The draft as a link to present, or why it cannot be one.
    pub fn draft_link(&self) -> Result<String, String> {
        if self.draft.stops.is_empty() {
            return Err("the course has no stops yet: add a lesson first".into());
        }
        format::to_link(&self.draft).map_err(|e| e.problem)
    }
}

/// A new stop opening `open` at `step`, with no words of its own yet.
fn stop(open: Open, step: u64) -> Stop {
    Stop { open, step, title: String::new(), notes: String::new(), predict: Asking::All, minutes: STOP_MINUTES }
}

/// Sets the draft's field at `path` (`course`, `audience`, `intro`, `stops[2].notes`, …) to what
/// `text` says.
fn field(c: &mut Course, path: &str, text: &str) -> Result<(), String> {
    let (head, rest) = path.split_once('.').unwrap_or((path, ""));
    match (head, rest) {
        ("course", "") => c.title = cut(text, MAX_COURSE_TITLE_CHARS),
        ("audience", "") => c.audience = cut(text, MAX_COURSE_TITLE_CHARS),
        ("intro", "") => c.intro = cut(text, MAX_COURSE_TEXT_CHARS),
        (stops, name) if stops.starts_with("stops[") && stops.ends_with(']') => {
            let i: usize = stops["stops[".len()..stops.len() - 1].parse().map_err(|_| format!("{path}: no such stop"))?;
            let s = c.stops.get_mut(i).ok_or_else(|| format!("{path}: no such stop"))?;
            match name {
                "title" => s.title = cut(text, MAX_COURSE_TITLE_CHARS),
                "notes" => s.notes = cut(text, MAX_COURSE_TEXT_CHARS),
                "predict" => s.predict = Asking::typed(text)?,
                "minutes" => match text.trim().parse::<u32>() {
                    Ok(m) if (1..=MAX_STOP_MINUTES).contains(&m) => s.minutes = m,
                    _ => return Err(format!("a stop takes 1 to {MAX_STOP_MINUTES} minutes, not “{}”", cut(text, 12))),
                },
                _ => return Err(format!("{path}: no such field")),
            }
        }
        _ => return Err(format!("{path}: no such field")),
    }
    Ok(())
}
