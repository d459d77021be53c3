//! `lockstep verify`: its options and its report in text or JSON.

use super::search::{classes, cores, describe, threads as thread_count};
use super::Failure;
use lockstep::scenario::encode::scenario as written;
use lockstep::scenario::Scenario;
use lockstep::verify::{report, threads, Grid, Proof, Verify};
use serde_json::json;
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// How long a verification runs unless told otherwise.
const DEFAULT_TIME: Duration = Duration::from_secs(600);

/// Reads the options, verifies, and reports: safe (exit 0), unsafe (`Failure::Found`, exit 1),
/// or not verified (`Failure::Unproven`, exit 3).
pub fn verify(scenario: &Scenario, args: &[String]) -> Result<String, Failure> {
    let (grid, json, out_file, time, threads) = options(args)?;
    let start = Instant::now();
    let progress = std::io::stderr().is_terminal();
    let mut timed_out = false;
    let watch = |v: &Verify| {
        timed_out = start.elapsed() >= time;
        if progress && !timed_out {
            let c = v.counts();
            let _ = write!(std::io::stderr(), "\r\x1b[K{:.0}% of the grid's instants, {} states", v.progress() * 100.0, c.states);
        }
        !timed_out
    };
    let v = threads::verify(scenario, grid, threads, watch).map_err(|e| Failure::Usage(format!("verify: {e}")))?;
    if progress {
        eprint!("\r\x1b[K");
    }
    let seconds = start.elapsed().as_secs_f64();
    let counts = v.counts();
    let rate = counts.states as f64 / seconds.max(1e-6);
    let mut sentence = report::sentence(&v);
    if timed_out {
        sentence = format!("Not verified: stopped by --time after {} s. {}", time.as_secs(), report::sentence(&v));
    }
    let proof = v.proof().clone();
    if let (Proof::Unsafe(found), Some(path)) = (&proof, &out_file) {
        let text = lockstep::scenario::json::write(&written(&found.scenario), Some(2));
        std::fs::write(path, text).map_err(|e| Failure::Scenario(format!("{path}: {e}")))?;
    }
    let out = if json {
        let verdict = match (&proof, timed_out) {
            (_, true) | (Proof::TooLarge | Proof::Running, _) => "not_verified",
            (Proof::Safe, _) => "safe",
            (Proof::Unsafe(_), _) => "unsafe",
        };
        let found = match &proof {
            Proof::Unsafe(f) => json!({"failure": f.failure, "sentence": f.sentence, "harm": f.harm, "first": f.first, "added": f.added,
                "described": describe(scenario, &f.added)}),
            _ => serde_json::Value::Null,
        };
        let v = json!({"verdict": verdict, "sentence": sentence, "bounds": report::bounds(&v), "schedules": v.choices().schedules().to_string(),
            "states": counts.states, "runs": counts.runs, "branches": counts.branches, "table_bytes": v.table_bytes(), "seconds": seconds, "found": found});
        serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
    } else {
        let mut text = format!("{}\n{sentence}\n", scenario.title);
        if let Proof::Unsafe(f) = &proof {
            let list = |faults| match describe(scenario, faults) {
                d if d.is_empty() => "    (no fault added: the scenario fails as it is)\n".to_string(),
                d => d.iter().map(|d| format!("    - {d}\n")).collect(),
            };
            text.push_str(&format!("as first found:\n{}shrunk in {} runs to:\n{}", list(&f.first), f.shrink_runs, list(&f.added)));
            text.push_str(&match &out_file {
                Some(p) => format!("the scenario is in {p}: `lockstep run {p}` shows it\n"),
                None => "write the scenario to a file with --out FILE\n".into(),
            });
        }
        let mb = v.table_bytes() as f64 / 1e6;
        text + &format!("({seconds:.2} s, {} runs, {rate:.0} states/s, {mb:.1} MB of states)\n", counts.runs)
    };
    match (proof, timed_out) {
        (Proof::Safe, false) => Ok(out),
        (Proof::Unsafe(_), _) => Err(Failure::Found(out)),
        _ => Err(Failure::Unproven(out)),
    }
}

/// Reads the options: the grid, whether the report is JSON, where the counterexample goes, the
/// longest the verification may run, and on how many threads.
fn options(args: &[String]) -> Result<(Grid, bool, Option<String>, Duration, usize), Failure> {
    let (mut g, mut json, mut out, mut time) = (Grid::default(), false, None, DEFAULT_TIME);
    let mut threads = cores();
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let value = rest.next().ok_or_else(|| Failure::Usage(format!("{flag} needs a value")))?;
        let number = || value.parse::<u64>().map_err(|_| Failure::Usage(format!("{flag} must be a whole number, got {value:?}")));
        match flag.as_str() {
            "--faults" => g.classes = classes(value)?,
            "--max-faults" => g.max_faults = number()? as usize,
            "--grid-ms" => g.grid_ms = Some(number()?),
            "--horizon-ms" => g.horizon_ms = Some(number()?),
            "--longest-ms" => g.longest_ms = Some(number()?),
            "--jump-ms" => g.jump_ms = number()?,
            "--drift-ppm" => g.drift_ppm = number()?,
            "--drift-step-ppm" => g.drift_step_ppm = number()?,
            "--max-states" => g.max_states = number()? as usize,
            "--format" => {
                json = match value.as_str() {
                    "text" => false,
                    "json" => true,
                    other => return Err(Failure::Usage(format!("unknown format {other:?}: use text or json"))),
                }
            }
            "--out" => out = Some(value.clone()),
            "--time" => match number()? {
                s @ 1..=86_400 => time = Duration::from_secs(s),
                s => return Err(Failure::Usage(format!("--time must be 1 to 86400 seconds, got {s}"))),
            },
            "--threads" => threads = thread_count(number()?)?,
            other => return Err(Failure::Usage(format!("unknown option {other:?}"))),
        }
    }
    Ok((g, json, out, time, threads))
}
