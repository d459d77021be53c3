//! `lockstep search`: its options, its report in text or JSON, and the shrunk scenario's file.

use super::Failure;
use lockstep::edit::written::written;
use lockstep::scenario::Scenario;
use lockstep::search::{Bounds, Class, Search, State};
use serde_json::json;
use std::time::Instant;

/// Reads the options, searches, and reports; a failure found is `Failure::Found`.
pub fn search(scenario: &Scenario, args: &[String]) -> Result<String, Failure> {
    let mut bounds = Bounds::default();
    let (mut json_out, mut out_file) = (false, None);
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let value = rest.next().ok_or_else(|| Failure::Usage(format!("{flag} needs a value")))?;
        let number = || value.parse::<u64>().map_err(|_| Failure::Usage(format!("{flag} must be a whole number, got {value:?}")));
        match flag.as_str() {
            "--faults" => bounds.classes = classes(value)?,
            "--max-faults" => bounds.max_faults = number()? as usize,
            "--budget" => bounds.budget = number()? as usize,
            "--seed" => bounds.seed = number()?,
            "--pause-ms" => bounds.pause_ms = number()?,
            "--partition-ms" => bounds.partition_ms = number()?,
            "--crash-ms" => bounds.crash_ms = number()?,
            "--delay-ms" => bounds.delay_ms = number()?,
            "--jump-ms" => bounds.jump_ms = number()?,
            "--drift-ppm" => bounds.drift_ppm = number()?,
            "--stall-ms" => bounds.stall_ms = number()?,
            "--format" => {
                json_out = match value.as_str() {
                    "text" => false,
                    "json" => true,
                    other => return Err(Failure::Usage(format!("unknown format {other:?}: use text or json"))),
                }
            }
            "--out" => out_file = Some(value.clone()),
            other => return Err(Failure::Usage(format!("unknown option {other:?}"))),
        }
    }
    let mut search = Search::new(scenario, bounds).map_err(|e| Failure::Usage(format!("search: {e}")))?;
    let start = Instant::now();
    while matches!(search.step(1_000), State::Searching) {}
    let seconds = start.elapsed().as_secs_f64();
    let State::Found(found) = search.step(0).clone() else {
        let searched = search.searched();
        return Ok(if json_out {
            serde_json::to_string_pretty(&json!({"found": false, "tried": search.tried(), "searched": searched})).unwrap_or_default() + "\n"
        } else {
            format!("{}\n{searched}\n({:.2} s, {:.0} schedules/s)\n", scenario.title, seconds, search.tried() as f64 / seconds)
        });
    };
    let doc = written(&found.scenario);
    if let Some(path) = &out_file {
        let text = lockstep::edit::doc::write(&doc, Some(2));
        std::fs::write(path, text).map_err(|e| Failure::Scenario(format!("{path}: {e}")))?;
    }
    let describe = |faults: &[lockstep::search::Added]| faults.iter().map(|f| f.describe(scenario)).collect::<Vec<_>>();
    let report = if json_out {
        let v = json!({
            "found": true,
            "failure": found.failure,
            "sentence": found.sentence,
            "harm": found.harm,
            "added": found.added,
            "described": describe(&found.added),
            "first": found.first,
            "runs_to_first": found.runs_to_first,
            "shrink_runs": found.shrink_runs,
            "scenario": serde_json::from_str::<serde_json::Value>(&lockstep::edit::doc::write(&doc, None)).unwrap_or_default(),
        });
        serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
    } else {
        let list = |faults: &[lockstep::search::Added]| {
            let d = describe(faults);
            if d.is_empty() {
                "    (no fault added: the scenario fails as it is)\n".to_string()
            } else {
                d.iter().map(|f| format!("    - {f}\n")).collect()
            }
        };
        format!(
            "{}\nFOUND after {} schedules ({:.2} s): {}\nas first found:\n{}shrunk in {} runs to:\n{}{}",
            scenario.title,
            found.runs_to_first,
            seconds,
            found.sentence,
            list(&found.first),
            found.shrink_runs,
            list(&found.added),
            match &out_file {
                Some(p) => format!("the scenario is in {p}: `lockstep run {p}` shows it\n"),
                None => "write the scenario to a file with --out FILE\n".into(),
            }
        )
    };
    Err(Failure::Found(report))
}

/// Reads a comma-separated list of fault kinds.
fn classes(list: &str) -> Result<Vec<Class>, Failure> {
    list.split(',')
        .map(|t| {
            let t = t.trim();
            Class::named(t).ok_or_else(|| {
                let known: Vec<&str> = Class::ALL.iter().map(|c| c.tag()).collect();
                Failure::Usage(format!("unknown fault kind {t:?}: use {}", known.join(", ")))
            })
        })
        .collect()
}
