//! What the actions about learning do: a course (started, presented, moved through, left), the
//! interview drill, the course being made, and the progress kept on the device (imported,
//! exported, cleared). Pure, like the rest of the reducer.

use super::action::{Action, CourseMove, DraftUse, Picked};
use super::effect::{Content, Effect, Reduced};
use super::state::{AppState, Env, View};
use crate::ui::course::Taking;
use crate::ui::drill::Drill;
use crate::ui::progress::Record;
use std::rc::Rc;

/// What an action about learning does: a course, the drill, the course being made, the
/// progress kept.
pub(super) fn learning(s: &AppState, action: Action) -> Reduced {
    match action {
        Action::Course(step) => course(s, step),
        Action::DrillStart => (Some(s.drill(Drill::default())), vec![Effect::Menu(Some(false))]),
        Action::DrillNext => (Some(s.drill(s.drill.unwrap_or_default().next())), Vec::new()),
        Action::DrillContinue => (Some(s.drill(s.progress.drill.unwrap_or_default())), vec![Effect::Menu(Some(false))]),
        Action::DrillLeave => {
            let progress = Rc::new(Record { drill: None, ..(*s.progress).clone() });
            (Some(AppState { drill: None, progress, ..s.clone() }), Vec::new())
        }
        Action::Picked(what, file) => picked(s, what, file),
        Action::ExportProgress => {
            let content = Content::Text(s.progress.write());
            (None, vec![Effect::Download { name: "lockstep-progress.json".into(), mime: "application/json", content }])
        }
        Action::ClearProgress => {
            let env = Env { preferences: super::preferences::Preferences::FIRST_VISIT, ..s.env };
            let notice = Some("Everything this site kept on this device is cleared: progress, predictions and settings.".to_string());
            // Back to the front page, where the progress was shown: nothing on screen counts again.
            (Some(AppState { env, progress: Rc::default(), notice, view: Some(View::Home), ..s.clone() }), vec![Effect::ClearStorage])
        }
        Action::Draft(edit) => match s.drafted(edit) {
            Ok(next) if Rc::ptr_eq(&next.draft, &s.draft) => (Some(next), Vec::new()),
            Ok(next) => {
                let kept = Effect::KeepDraft(next.draft.clone());
                let stops = match next.draft.stops.len() {
                    1 => "1 stop".to_string(),
                    n => format!("{n} stops"),
                };
                let added = s
                    .view
                    .is_none()
                    .then(|| format!("Added to your course, now {stops}: ☰ Lessons → Make a course… to order them and write your notes."));
                (Some(AppState { notice: added.or(next.notice.clone()), ..next }), vec![kept])
            }
            Err(problem) => (Some(AppState { notice: Some(format!("Your course was not changed: {problem}.")), ..s.clone() }), Vec::new()),
        },
        Action::UseDraft(how) => use_draft(s, how),
        _ => (None, Vec::new()),
    }
}

/// Takes a file a person picked: a progress file replaces what is kept on this device, a
/// course's file is presented from its first stop, and a course's file for the builder becomes
/// the course being made. Either, if it cannot be read, is named in a notice.
fn picked(s: &AppState, what: Picked, file: Result<String, String>) -> Reduced {
    let notice = |problem: String| (Some(AppState { notice: Some(problem), ..s.clone() }), Vec::new());
    let text = match file {
        Ok(text) => text,
        Err(e) => return notice(format!("The file could not be opened: {e}.")),
    };
    match what {
        Picked::Progress => match Record::read(&text) {
            Ok(p) => {
                let notice = Some(format!("Progress imported: {} lessons visited, {} finished.", p.visited.len(), p.finished.len()));
                (Some(AppState { progress: Rc::new(p), notice, ..s.clone() }), Vec::new())
            }
            Err(e) => notice(format!("The progress file could not be read, and nothing was changed: {e}.")),
        },
        Picked::Course => match crate::course::format::parse(&text).and_then(|c| crate::course::format::to_link(&c)) {
            Ok(link) => course(s, CourseMove::Present(link)),
            Err(e) => notice(format!("The course file could not be opened: {e}.")),
        },
        Picked::Draft => match crate::course::format::parse(&text) {
            Ok(c) => {
                let draft = Rc::new(c);
                (Some(AppState { draft: draft.clone(), notice: None, ..s.clone() }), vec![Effect::KeepDraft(draft)])
            }
            Err(e) => notice(format!("The course file could not be opened, and your course was not changed: {e}.")),
        },
    }
}

/// Takes the course being made, or shares it as a link or a file.
fn use_draft(s: &AppState, how: DraftUse) -> Reduced {
    if let DraftUse::Download = how {
        let content = Content::Text(crate::scenario::json::write(&crate::course::format::write(&s.draft), Some(2)));
        return (None, vec![Effect::Download { name: "lockstep-course.json".into(), mime: "application/json", content }]);
    }
    match (s.draft_link(), how) {
        (Ok(link), DraftUse::Take { present: false }) => course(s, CourseMove::Start(link)),
        (Ok(link), DraftUse::Take { present: true }) => course(s, CourseMove::Present(link)),
        (Ok(link), _) => (None, vec![Effect::CopyCourseLink(Taking::named(&link, 0).map(|t| t.link(0)).unwrap_or_default())]),
        (Err(problem), _) => {
            (Some(AppState { notice: Some(format!("Your course cannot be shared as a link: {problem}.")), ..s.clone() }), Vec::new())
        }
    }
}

/// Moves through a course: starts one, goes to its next stop or the one before, or leaves it.
pub(super) fn course(s: &AppState, step: CourseMove) -> Reduced {
    let go = |taking: Option<Taking>| match taking {
        Some(t) => {
            let at = t.stop().step;
            (Some(s.take(t, at)), vec![Effect::Menu(Some(false)), Effect::ToTop])
        }
        None => (None, Vec::new()),
    };
    let present = matches!(step, CourseMove::Present(_));
    match step {
        CourseMove::Start(reference) | CourseMove::Present(reference) => match Taking::named(&reference, 0) {
            Ok(t) => {
                // Started to present, the stop is told on its story's axis from the first frame.
                let from = AppState { presenting: s.presenting || present, ..s.clone() };
                let mut effects = vec![Effect::Menu(Some(false)), Effect::ToTop];
                if present {
                    effects.push(Effect::Present(true));
                }
                (Some(from.take(t.clone(), t.stop().step)), effects)
            }
            Err(e) => (Some(AppState { notice: Some(format!("Could not open the course: {e}.")), ..s.clone() }), Vec::new()),
        },
        CourseMove::Next => match (&s.course, s.course.as_ref().and_then(Taking::next)) {
            // Past the last stop: the course is over, and the front page says so.
            (Some(done), None) => {
                let notice = Some(format!(
                    "You finished “{}”: {} stops, about {} minutes.",
                    done.course.title,
                    done.course.stops.len(),
                    done.course.minutes()
                ));
                let progress = Rc::new(Record { course: None, ..(*s.progress).clone() });
                let over = AppState { notice, progress, view: Some(View::Home), course: None, presenting: false, ..s.clone() };
                (Some(over), vec![Effect::Present(false), Effect::ToTop])
            }
            (_, next) => go(next),
        },
        CourseMove::Previous => go(s.course.as_ref().and_then(Taking::previous)),
        CourseMove::Leave => {
            let progress = Rc::new(Record { course: None, ..(*s.progress).clone() });
            (Some(AppState { course: None, progress, ..s.clone() }), Vec::new())
        }
    }
}
