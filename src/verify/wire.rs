//! A verification's side of the worker's conversation with the page: a request names what to
//! verify as a search request does, with `"verify": {bounds}` in place of the search's bounds;
//! the reports are the search's `Proving` and `Proven` (see [`crate::search::wire`]).

use super::explore::Verify;
use super::grid::Grid;
use super::outcome::Proof;
use super::report;
use crate::edit::link;
use crate::error::ScenarioError;
use crate::scenario::encode::scenario as document;
use crate::scenario::format::Scenario;
use crate::scenario::json::{self, Value};
use crate::search::wire::{classes, encode, subject, whole, Report};

/// Steps between two progress reports (a few times a second).
const SLICE: usize = 20_000;

/// Reads a verification request: the scenario and the bounds, naming what is wrong.
pub fn read_request(request: &str) -> Result<(Scenario, Grid), ScenarioError> {
    let v = json::parse(request)?;
    let field = |name: &str| match &v {
        Value::Object(m) => m.iter().find(|(k, _)| k == name).map(|(_, v)| v),
        _ => None,
    };
    let scenario = subject(field)?;
    let mut grid = Grid::default();
    let Some(Value::Object(b)) = field("verify") else { return Err(ScenarioError::new("verify", "must be an object of bounds")) };
    for (k, v) in b {
        let whole = || whole("verify", k, v);
        match (k.as_str(), v) {
            ("faults", Value::Array(list)) => grid.classes = classes("verify", list)?,
            ("max_faults", _) => grid.max_faults = whole()? as usize,
            ("grid_ms", _) => grid.grid_ms = Some(whole()?),
            ("horizon_ms", _) => grid.horizon_ms = Some(whole()?),
            _ => return Err(ScenarioError::new(format!("verify.{k}"), "is not a bound verification knows")),
        }
    }
    Ok((scenario, grid))
}

/// Answers a verification request: progress a few times a second, then the verdict.
pub fn serve(request: &str, mut post: impl FnMut(String)) {
    let verify = read_request(request).and_then(|(scenario, grid)| Ok((Verify::new(&scenario, grid, false)?, scenario)));
    let (mut v, scenario) = match verify {
        Ok(v) => v,
        Err(e) => return post(encode(&Report::Failed { message: e.to_string() })),
    };
    while matches!(v.step(SLICE), Proof::Running) {
        post(encode(&Report::Proving { states: v.counts().states, permille: (v.progress() * 1000.0) as usize }));
    }
    let sentence = report::sentence(&v);
    let last = match v.proof() {
        Proof::Unsafe(found) => Report::Proven {
            safe: false,
            sentence,
            faults: found.added.iter().map(|a| a.describe(&scenario)).collect(),
            link: Some(link::encode(&document(&found.scenario)).map_err(|e| e.to_string())),
        },
        proof => Report::Proven { safe: matches!(proof, Proof::Safe), sentence, faults: Vec::new(), link: None },
    };
    post(encode(&last));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::wire::{decode, request, to_verify, verifies, Subject};
    use crate::search::Bounds;

    #[test]
    fn a_cell_is_verified_with_progress_then_its_verdict() {
        let asked = to_verify(&request(Subject::Cell("compare-pause-lease-fenced"), &Bounds::default()), "pause,partition");
        assert!(verifies(&asked), "{asked}");
        let asked = asked.replace(r#""partition"]}"#, r#""partition"],"grid_ms":500}"#);
        let mut reports = Vec::new();
        serve(&asked, |r| reports.push(decode(&r).expect("a report")));
        let Some(Report::Proven { safe: true, sentence, .. }) = reports.last() else { panic!("{reports:?}") };
        assert!(sentence.starts_with("Safe for every schedule of ≤ 2 faults (pauses, partitions) on a 500 ms grid"), "{sentence}");
        assert!(reports[..reports.len() - 1].iter().all(|r| matches!(r, Report::Proving { .. })), "{reports:?}");
    }

    #[test]
    fn an_unsafe_cell_comes_back_with_its_counterexample_and_a_bad_request_with_its_problem() {
        let asked = to_verify(&request(Subject::Cell("compare-pause-lease"), &Bounds::default()), "");
        let mut reports = Vec::new();
        serve(&asked, |r| reports.push(decode(&r).expect("a report")));
        let Some(Report::Proven { safe: false, faults, link: Some(Ok(_)), .. }) = reports.last() else { panic!("{reports:?}") };
        assert!(!faults.is_empty() || reports.len() == 1, "{reports:?}");
        let bad = asked.replace(r#""verify":{}"#, r#""verify":{"grid_ms":0}"#);
        let mut reports = Vec::new();
        serve(&bad, |r| reports.push(decode(&r).expect("a report")));
        assert_eq!(reports, [Report::Failed { message: "grid_ms: must be between 1 and 3,600,000 ms, got 0".into() }]);
    }
}
