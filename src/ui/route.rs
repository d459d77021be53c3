//! The URL hash: which lesson and which step, so a reload or a shared link restores the view.
//! Format: `#/<lesson-id>/<step>`, `#/stress/<events>/<step>`, `#/compare` (the comparison
//! table), `#/compare/<schedule>/<design>/<step>` (one of its cells), `#/edit/<link>/<step>`
//! (an edited scenario, carried whole in the link; see [`crate::edit::link`]),
//! `#/course/<course>/<stop>/<step>` (a course at a stop, counted from 1: a shipped course by
//! its id, another carried whole in the link) or `#/make` (the course builder); no hash at all
//! is the front page. Pure, tested natively.

use crate::error::{quote, ScenarioError};
use crate::present::number::group_u;

/// How an edited scenario's link starts.
pub const EDITED: &str = "#/edit/";
/// How a course's link starts.
pub const COURSE: &str = "#/course/";
/// The attribute of a button that opens another lesson or cell: it holds that target's link,
/// and one handler on the page follows whichever is pressed.
pub const ROUTE_ATTRIBUTE: &str = "data-route";

/// What is on screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Lesson(String),
    /// The generated contention scenario with about this many events.
    Stress(u64),
    /// The comparison table of every schedule against every design.
    Table,
    /// One cell of the comparison table.
    Compare {
        schedule: String,
        design: String,
    },
    /// An edited scenario, as link text.
    Edited(String),
    /// A course at a stop (counted from 0): a shipped course's id, or the course as link text.
    Course {
        course: String,
        stop: usize,
    },
    /// The front page: the courses, and where the last visit stopped.
    Home,
    /// The course builder.
    Builder,
}

/// A parsed hash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    pub target: Target,
    /// The step asked for, which may be past the last one (the app clamps it and says so).
    pub step: u64,
}

/// Parses a location hash; `Ok(None)` for an empty one. Errors name the part that is wrong.
pub fn parse(hash: &str) -> Result<Option<Route>, ScenarioError> {
    parse_link(hash).map_err(|problem| ScenarioError::new("", problem))
}

fn parse_link(hash: &str) -> Result<Option<Route>, String> {
    let path = hash.trim_start_matches('#').trim_start_matches('/');
    if path.is_empty() {
        return Ok(None);
    }
    let parts: Vec<&str> = path.split('/').collect();
    // A number too large for the machine saturates: the caller clamps it to what exists.
    let number = |what: &str, s: &str| match s.parse::<u64>() {
        Ok(n) => Ok(n),
        Err(_) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => Ok(u64::MAX),
        Err(_) => Err(format!("the link's {what} {} is not a whole number", quote(s))),
    };
    let (target, rest) = match parts.as_slice() {
        ["stress", size, rest @ ..] => (Target::Stress(number("stress size", size)?), rest),
        ["stress"] => return Err("the link says “stress” but not how many events".into()),
        ["compare"] => return Ok(Some(Route { target: Target::Table, step: 0 })),
        ["compare", schedule, design, rest @ ..] => (Target::Compare { schedule: schedule.to_string(), design: design.to_string() }, rest),
        ["compare", _] => return Err("the link names a schedule to compare but not a design".into()),
        ["edit", link, rest @ ..] => (Target::Edited(link.to_string()), rest),
        ["edit"] => return Err("the link says “edit” but carries no scenario".into()),
        ["course", course, rest @ ..] => {
            let (stop, rest) = match rest {
                [] => (1, rest),
                [stop, rest @ ..] => (number("stop", stop)?, rest),
            };
            let stop =
                usize::try_from(stop).unwrap_or(usize::MAX).checked_sub(1).ok_or("the link's stop is 0; a course's stops count from 1")?;
            (Target::Course { course: course.to_string(), stop }, rest)
        }
        ["course"] => return Err("the link says “course” but names none".into()),
        ["make"] => return Ok(Some(Route { target: Target::Builder, step: 0 })),
        [id, rest @ ..] => (Target::Lesson(id.to_string()), rest),
        [] => return Ok(None),
    };
    let step = match rest {
        [] => 0,
        [step] => number("step", step)?,
        _ => return Err(format!("the link {} has more parts than lesson and step", quote(hash))),
    };
    Ok(Some(Route { target, step }))
}

/// The step to show for a link's step in a run of `steps` steps, and a notice when the link asks
/// for more than there is.
pub fn clamp(step: u64, steps: usize) -> (usize, Option<String>) {
    match usize::try_from(step) {
        Ok(s) if s <= steps => (s, None),
        _ => {
            let asked = if step == u64::MAX { "a step beyond counting".to_string() } else { format!("step {}", group_u(step)) };
            (steps, Some(format!("The link asks for {asked}, but this run has {} steps; showing the last one.", group_u(steps as u64))))
        }
    }
}

/// Formats a route as a hash.
pub fn format(route: &Route) -> String {
    match &route.target {
        Target::Lesson(id) => format!("#/{id}/{}", route.step),
        Target::Stress(n) => format!("#/stress/{n}/{}", route.step),
        Target::Table => "#/compare".into(),
        Target::Compare { schedule, design } => format!("#/compare/{schedule}/{design}/{}", route.step),
        Target::Edited(link) => format!("{EDITED}{link}/{}", route.step),
        Target::Course { course, stop } => format!("#/course/{course}/{}/{}", stop + 1, route.step),
        Target::Home => String::new(),
        Target::Builder => "#/make".into(),
    }
}

/// Says whether moving the address from `from` to `to` opens another page for the browser's
/// history (Back returns to the one before): another lesson, cell or table, but not another
/// step of the same one, and not an edit of an edited scenario (every edit has its own link).
pub fn is_new_page(from: &str, to: &str) -> bool {
    // The address without a trailing `/<step>`.
    fn place(hash: &str) -> &[u8] {
        let h = hash.as_bytes();
        let digits = h.iter().rev().take_while(|b| b.is_ascii_digit()).count();
        match h.len().checked_sub(digits + 1) {
            Some(slash) if digits > 0 && h[slash] == b'/' => &h[..slash],
            _ => h,
        }
    }
    !from.is_empty() && !to.starts_with(EDITED) && place(from) != place(to)
}

#[cfg(test)]
mod tests {
    #[test]
    fn another_lesson_is_a_new_page_and_another_step_is_not() {
        use super::is_new_page;
        assert!(is_new_page("#/lease-race-fenced/3", "#/short-pause/0"));
        assert!(is_new_page("#/lease-race-fenced/3", "#/compare"));
        assert!(!is_new_page("#/lease-race-fenced/3", "#/lease-race-fenced/9"));
        assert!(!is_new_page("", "#/lease-race-fenced/0"), "the first address replaces none");
        assert!(!is_new_page("#/edit/1.abc/2", "#/edit/1.abd/2"), "each edit has its own link");
    }

    use super::*;

    #[test]
    fn round_trips() {
        for r in [
            Route { target: Target::Lesson("lease-race-fenced".into()), step: 12 },
            Route { target: Target::Stress(10_000), step: 0 },
            Route { target: Target::Table, step: 0 },
            Route { target: Target::Compare { schedule: "pause".into(), design: "redis".into() }, step: 7 },
            Route { target: Target::Edited("1.AbC-_9".into()), step: 3 },
            Route { target: Target::Course { course: "class".into(), stop: 2 }, step: 16 },
            Route { target: Target::Builder, step: 0 },
        ] {
            assert_eq!(parse(&format(&r)), Ok(Some(r)));
        }
    }

    #[test]
    fn accepts_short_forms() {
        assert_eq!(parse(""), Ok(None));
        assert_eq!(parse("#"), Ok(None));
        assert_eq!(parse("#/short-pause"), Ok(Some(Route { target: Target::Lesson("short-pause".into()), step: 0 })));
    }

    #[test]
    fn names_what_is_wrong() {
        let problem = |hash| parse(hash).unwrap_err().to_string();
        assert_eq!(problem("#/short-pause/abc"), "the link's step “abc” is not a whole number");
        assert_eq!(problem("#/stress/many"), "the link's stress size “many” is not a whole number");
        assert_eq!(problem("#/stress"), "the link says “stress” but not how many events");
        assert!(problem("#/a/1/2").contains("more parts"));
        assert_eq!(problem("#/compare/pause"), "the link names a schedule to compare but not a design");
        assert_eq!(problem("#/edit"), "the link says “edit” but carries no scenario");
        assert_eq!(problem("#/course"), "the link says “course” but names none");
        assert_eq!(problem("#/course/class/0"), "the link's stop is 0; a course's stops count from 1");
        assert_eq!(problem("#/course/class/x"), "the link's stop “x” is not a whole number");
        assert_eq!(parse("#/course/class"), Ok(Some(Route { target: Target::Course { course: "class".into(), stop: 0 }, step: 0 })));
    }

    #[test]
    fn huge_steps_saturate_instead_of_wrapping() {
        let step = |hash| parse(hash).unwrap().unwrap().step;
        assert_eq!(step("#/short-pause/4294967297"), 4_294_967_297);
        assert_eq!(step("#/short-pause/99999999999999999999999"), u64::MAX);
    }

    #[test]
    fn clamps_to_the_last_step_with_a_notice() {
        assert_eq!(clamp(7, 12), (7, None));
        assert_eq!(clamp(12, 12), (12, None));
        let (step, notice) = clamp(4_294_967_297, 12);
        assert_eq!(step, 12);
        assert_eq!(notice.unwrap(), "The link asks for step 4,294,967,297, but this run has 12 steps; showing the last one.");
        assert_eq!(
            clamp(u64::MAX, 3).1.unwrap(),
            "The link asks for a step beyond counting, but this run has 3 steps; showing the last one."
        );
    }

    #[test]
    fn quotes_only_a_short_prefix_of_a_long_link() {
        let long = format!("#/a/1/{}", "x".repeat(100_000));
        let e = parse(&long).unwrap_err().to_string();
        assert!(e.len() < 120, "{e}");
        let e = parse(&format!("#/stress/{}", "y".repeat(100_000))).unwrap_err().to_string();
        assert!(e.len() < 120, "{e}");
    }
}
