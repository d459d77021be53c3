//! `lockstep search`: its options, its report in text or JSON, and the shrunk scenario's file.

use super::Failure;
use lockstep::present::number::group_u;
use lockstep::scenario::encode::scenario as written;
use lockstep::scenario::json::Value;
use lockstep::scenario::Scenario;
use lockstep::search::{Added, Bounds, Class, Search, Shrunk, State, Threaded};
use serde_json::json;
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// How long a search runs unless told otherwise.
const DEFAULT_TIME: Duration = Duration::from_secs(300);
/// How often progress is shown on a terminal.
const PROGRESS_EVERY: Duration = Duration::from_millis(500);
/// How many schedules each thread judges between looks at the clock.
const SCHEDULES_PER_THREAD: usize = 128;

/// Reads the options, searches, and reports; a failure found is `Failure::Found`.
pub fn search(scenario: &Scenario, args: &[String]) -> Result<String, Failure> {
    let Options { bounds, json, out_file, time, threads } = options(args)?;
    let mut search = Threaded::new(scenario, bounds, threads).map_err(|e| Failure::Usage(format!("search: {e}")))?;
    let (timed_out, seconds) = run(&mut search, threads, time);
    let State::Found(found) = search.step(0).clone() else {
        return Ok(nothing_found(scenario, search.search(), json, timed_out.then_some(time), seconds));
    };
    let doc = written(&found.scenario);
    if let Some(path) = &out_file {
        let text = lockstep::scenario::json::write(&doc, Some(2));
        std::fs::write(path, text).map_err(|e| Failure::Scenario(format!("{path}: {e}")))?;
    }
    Err(Failure::Found(if json { found_json(scenario, &found, &doc) } else { found_text(scenario, &found, out_file.as_deref(), seconds) }))
}

/// What `lockstep search` was asked to do.
struct Options {
    bounds: Bounds,
    /// Whether the report is JSON (else text).
    json: bool,
    /// Where to write the shrunk scenario.
    out_file: Option<String>,
    /// The longest the search runs.
    time: Duration,
    /// How many threads judge schedules: every core unless told otherwise.
    threads: usize,
}

/// How many cores this machine has: the threads a search or a verification runs on by default.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Reads `--threads N`, 1 to 256.
pub fn threads(n: u64) -> Result<usize, Failure> {
    match n {
        1..=256 => Ok(n as usize),
        n => Err(Failure::Usage(format!("--threads must be 1 to 256, got {n}"))),
    }
}

/// Reads the options.
fn options(args: &[String]) -> Result<Options, Failure> {
    let mut o = Options { bounds: Bounds::default(), json: false, out_file: None, time: DEFAULT_TIME, threads: cores() };
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let value = rest.next().ok_or_else(|| Failure::Usage(format!("{flag} needs a value")))?;
        let number = || value.parse::<u64>().map_err(|_| Failure::Usage(format!("{flag} must be a whole number, got {value:?}")));
        match flag.as_str() {
            "--faults" => o.bounds.classes = classes(value)?,
            "--max-faults" => o.bounds.max_faults = number()? as usize,
            "--budget" => o.bounds.budget = number()? as usize,
            "--seed" => o.bounds.seed = number()?,
            "--pause-ms" => o.bounds.pause_ms = number()?,
            "--partition-ms" => o.bounds.partition_ms = number()?,
            "--crash-ms" => o.bounds.crash_ms = number()?,
            "--delay-ms" => o.bounds.delay_ms = number()?,
            "--jump-ms" => o.bounds.jump_ms = number()?,
            "--drift-ppm" => o.bounds.drift_ppm = number()?,
            "--stall-ms" => o.bounds.stall_ms = number()?,
            "--format" => {
                o.json = match value.as_str() {
                    "text" => false,
                    "json" => true,
                    other => return Err(Failure::Usage(format!("unknown format {other:?}: use text or json"))),
                }
            }
            "--out" => o.out_file = Some(value.clone()),
            "--threads" => o.threads = threads(number()?)?,
            "--time" => match number()? {
                s @ 1..=86_400 => o.time = Duration::from_secs(s),
                s => return Err(Failure::Usage(format!("--time must be 1 to 86400 seconds, got {s}"))),
            },
            other => return Err(Failure::Usage(format!("unknown option {other:?}"))),
        }
    }
    Ok(o)
}

/// Runs the search until it ends or `time` is up, showing progress on a terminal; returns
/// whether time ran out, and the seconds it took.
fn run(search: &mut Threaded, threads: usize, time: Duration) -> (bool, f64) {
    let start = Instant::now();
    let progress = std::io::stderr().is_terminal();
    let mut shown = start;
    let mut timed_out = false;
    // A few schedules at a time, so the clock and the progress line are looked at often.
    while matches!(search.step(SCHEDULES_PER_THREAD * threads), State::Searching) {
        let now = Instant::now();
        if now - start >= time {
            timed_out = true;
            break;
        }
        if progress && now - shown >= PROGRESS_EVERY {
            shown = now;
            show_progress(search.search(), now - start, time);
        }
    }
    if progress {
        eprint!("\r\x1b[K");
    }
    (timed_out, start.elapsed().as_secs_f64())
}

/// Reports a search that found no failure, stopped by `--time` after `stopped` if it was.
fn nothing_found(scenario: &Scenario, search: &Search, json: bool, stopped: Option<Duration>, seconds: f64) -> String {
    let mut searched = search.searched();
    if let Some(time) = stopped {
        let budget = search.bounds().budget;
        let (tried, budget) = (group_u(search.tried() as u64), group_u(budget as u64));
        searched = format!("Stopped by --time after {} s, {tried} of {budget} schedules run. {searched}", time.as_secs());
    }
    if json {
        let v = json!({"found": false, "tried": search.tried(), "stopped_by_time": stopped.is_some(), "searched": searched});
        serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
    } else {
        format!("{}\n{searched}\n({:.2} s, {:.0} schedules/s)\n", scenario.title, seconds, search.tried() as f64 / seconds)
    }
}

/// Describes each fault added, in words.
pub(super) fn describe(scenario: &Scenario, faults: &[Added]) -> Vec<String> {
    faults.iter().map(|f| f.describe(scenario)).collect()
}

/// Reports the failure found in JSON, with the shrunk scenario's document `doc`.
fn found_json(scenario: &Scenario, found: &Shrunk, doc: &Value) -> String {
    let v = json!({
        "found": true,
        "failure": found.failure,
        "sentence": found.sentence,
        "harm": found.harm,
        "added": found.added,
        "described": describe(scenario, &found.added),
        "first": found.first,
        "runs_to_first": found.runs_to_first,
        "shrink_runs": found.shrink_runs,
        "scenario": serde_json::from_str::<serde_json::Value>(&lockstep::scenario::json::write(doc, None)).unwrap_or_default(),
    });
    serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
}

/// Reports the failure found in text: the faults as first found and as shrunk, and where the
/// shrunk scenario was written (`out_file`), if it was.
fn found_text(scenario: &Scenario, found: &Shrunk, out_file: Option<&str>, seconds: f64) -> String {
    let list = |faults: &[Added]| {
        let d = describe(scenario, faults);
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
        match out_file {
            Some(p) => format!("the scenario is in {p}: `lockstep run {p}` shows it\n"),
            None => "write the scenario to a file with --out FILE\n".into(),
        }
    )
}

/// Shows on one terminal line how far the search has got, how fast, and how long is left (by the
/// budget at this rate, or by `--time`, whichever comes first).
fn show_progress(search: &Search, elapsed: Duration, time: Duration) {
    let (tried, budget) = (search.tried(), search.bounds().budget);
    let rate = tried as f64 / elapsed.as_secs_f64().max(1e-3);
    let by_budget = (budget.saturating_sub(tried)) as f64 / rate.max(1e-3);
    let left = by_budget.min(time.saturating_sub(elapsed).as_secs_f64());
    let mut err = std::io::stderr();
    let (tried, budget, rate, left) = (group_u(tried as u64), group_u(budget as u64), group_u(rate as u64), group_u(left as u64));
    let _ = write!(err, "\r\x1b[K{tried} of {budget} schedules, no failure so far, {rate}/s, about {left} s left");
    let _ = err.flush();
}

/// Reads a comma-separated list of fault kinds.
pub(super) fn classes(list: &str) -> Result<Vec<Class>, Failure> {
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
