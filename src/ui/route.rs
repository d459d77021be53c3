//! The URL hash: which lesson and which step, so a reload or a shared link restores the view.
//! Format: `#/<lesson-id>/<step>`, `#/stress/<events>/<step>`, `#/compare` (the comparison
//! table) or `#/compare/<schedule>/<design>/<step>` (one of its cells). Pure, tested natively.

use crate::error::ScenarioError;

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
}

/// A parsed hash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    pub target: Target,
    pub step: usize,
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
    let number = |what: &str, s: &str| s.parse::<u64>().map_err(|_| format!("the link's {what} “{s}” is not a whole number"));
    let (target, rest) = match parts.as_slice() {
        ["stress", size, rest @ ..] => (Target::Stress(number("stress size", size)?), rest),
        ["stress"] => return Err("the link says “stress” but not how many events".into()),
        ["compare"] => return Ok(Some(Route { target: Target::Table, step: 0 })),
        ["compare", schedule, design, rest @ ..] => (Target::Compare { schedule: schedule.to_string(), design: design.to_string() }, rest),
        ["compare", _] => return Err("the link names a schedule to compare but not a design".into()),
        [id, rest @ ..] => (Target::Lesson(id.to_string()), rest),
        [] => return Ok(None),
    };
    let step = match rest {
        [] => 0,
        [step] => number("step", step)? as usize,
        _ => return Err(format!("the link “#{}” has more parts than lesson and step", hash.trim_start_matches('#'))),
    };
    Ok(Some(Route { target, step }))
}

/// Formats a route as a hash.
pub fn format(route: &Route) -> String {
    match &route.target {
        Target::Lesson(id) => format!("#/{id}/{}", route.step),
        Target::Stress(n) => format!("#/stress/{n}/{}", route.step),
        Target::Table => "#/compare".into(),
        Target::Compare { schedule, design } => format!("#/compare/{schedule}/{design}/{}", route.step),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for r in [
            Route { target: Target::Lesson("lease-race-fenced".into()), step: 12 },
            Route { target: Target::Stress(10_000), step: 0 },
            Route { target: Target::Table, step: 0 },
            Route { target: Target::Compare { schedule: "pause".into(), design: "redis".into() }, step: 7 },
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
    }
}
