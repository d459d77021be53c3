//! The native command line over the same engine the browser runs.

use lockstep::diagram::{self, mermaid, svg};
use lockstep::engine::{self, Trace};
use lockstep::scenario::{self, compare, lessons, Lesson};
use std::process::ExitCode;

const HELP: &str = "\
lockstep: distributed locks and fencing tokens, step by step

USAGE:
    lockstep list                         list the lessons
    lockstep run <LESSON|FILE> [options]  run a lesson by id, or a scenario file (*.json)
    lockstep compare                      run every fault schedule against every design and
                                          print the table of outcomes (a cell runs on its own
                                          as `lockstep run compare-<schedule>-<design>`)

OPTIONS:
    --format FORMAT      text (fixed-column trace, the default), json, svg (the diagram) or mermaid
    --seed N             override the scenario's seed
    -h, --help           show this help

EXIT STATUS:
    0 the run finished (safe or unsafe: the verdict is in the output)
    1 the scenario or file is invalid, or the run hit a limit
    2 the command line is wrong
";

enum Format {
    Text,
    Json,
    Svg,
    Mermaid,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match dispatch(&args) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err((code, msg)) => {
            eprintln!("lockstep: {msg}");
            ExitCode::from(code)
        }
    }
}

fn dispatch(args: &[String]) -> Result<String, (u8, String)> {
    let usage = |m: String| (2, format!("{m} (try --help)"));
    match args.first().map(String::as_str) {
        None | Some("-h" | "--help" | "help") => Ok(HELP.to_string()),
        Some("list") => Ok(list()),
        Some("compare") if args.len() == 1 => compare::table().map(|rows| compare::to_text(&rows)).map_err(|m| (1, m)),
        Some("compare") => Err(usage("compare takes no arguments".into())),
        Some("run") => {
            let target = args.get(1).ok_or_else(|| usage("run needs a lesson id or a file".into()))?;
            let mut format = Format::Text;
            let mut seed = None;
            let mut rest = args[2..].iter();
            while let Some(flag) = rest.next() {
                let mut value = || rest.next().ok_or_else(|| usage(format!("{flag} needs a value")));
                match flag.as_str() {
                    "--format" => {
                        format = match value()?.as_str() {
                            "text" => Format::Text,
                            "json" => Format::Json,
                            "svg" => Format::Svg,
                            "mermaid" => Format::Mermaid,
                            other => return Err(usage(format!("unknown format {other:?}: use text, json, svg or mermaid"))),
                        }
                    }
                    "--seed" => {
                        let v = value()?;
                        seed = Some(v.parse::<u64>().map_err(|_| usage(format!("--seed must be a whole number, got {v:?}")))?);
                    }
                    other => return Err(usage(format!("unknown option {other:?}"))),
                }
            }
            let (title, trace) = run(target, seed).map_err(|m| (1, m))?;
            Ok(match format {
                Format::Text => trace.to_text(),
                Format::Json => serde_json::to_string_pretty(&trace).expect("a trace always serializes") + "\n",
                Format::Svg => svg::render(&diagram::layout(&trace), &title, true) + "\n",
                Format::Mermaid => mermaid::render(&trace),
            })
        }
        Some(other) => Err(usage(format!("unknown command {other:?}"))),
    }
}

fn list() -> String {
    let all = lessons::all();
    let id_width = all.iter().map(|l| l.id().len()).max().unwrap_or(0);
    let topic_width = all.iter().map(|l| l.scenario.topic.len()).max().unwrap_or(0);
    all.iter()
        .map(|l: &Lesson| format!("{:<id_width$}  {:<topic_width$}  {}\n", l.id(), l.scenario.topic, l.scenario.title))
        .collect()
}

/// Runs a lesson or a scenario file, returning its title and trace.
fn run(target: &str, seed: Option<u64>) -> Result<(String, Trace), String> {
    if target.starts_with("compare-") {
        if seed.is_some() {
            return Err("a comparison cell has a fixed seed".into());
        }
        let (_, scenario, trace) = compare::cell_by_id(target)?;
        return Ok((scenario.title, trace));
    }
    let (scenario, mut spec) = if target.ends_with(".json") || target.contains('/') {
        let text = std::fs::read_to_string(target).map_err(|e| format!("{target}: {e}"))?;
        scenario::load(&text).map_err(|e| format!("{target}: {e}"))?
    } else {
        let lesson = lessons::find(target).map_err(|e| e.to_string())?;
        (lesson.scenario, lesson.spec)
    };
    if let Some(seed) = seed {
        spec.seed = seed;
    }
    let title = if scenario.title.is_empty() { target.to_string() } else { scenario.title };
    Ok((title, engine::run(&spec).map_err(|e| e.to_string())?))
}
