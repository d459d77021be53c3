//! The native command line over the same engine the browser runs.

use lockstep::design::{Design, REGISTRY};
use lockstep::engine::Spec;
use lockstep::engine::{self, Trace};
use lockstep::error::ScenarioError;
use lockstep::present::Words;
use lockstep::scenario::faults::FAULTS;
use lockstep::scenario::field::{Field, FieldKind, MAX_NAME_CHARS};
use lockstep::scenario::steps::STEPS;
use lockstep::scenario::{self, compare, lessons, Lesson, Scenario};
use lockstep::search::{Bounds, Class};
use output::Format;
use std::process::ExitCode;

#[path = "lockstep/output.rs"]
mod output;
#[path = "lockstep/search.rs"]
mod search;
#[path = "lockstep/verify.rs"]
mod verify;
use std::rc::Rc;

const HELP: &str = "\
lockstep: distributed locks and fencing tokens, step by step

USAGE:
    lockstep list                         list the lessons
    lockstep designs                      list the lock designs and their parameters
    lockstep faults                       list the kinds of fault and script step a scenario
                                          file may have, and their fields
    lockstep run <LESSON|FILE> [options]  run a lesson by id, a scenario file (*.json), a link
                                          to an edited scenario (…#/edit/…), or a generated
                                          contention run of about N events (stress-N)
    lockstep compare                      run every fault schedule against every design and
                                          print the table of outcomes (a cell runs on its own
                                          as `lockstep run compare-<schedule>-<design>`)
    lockstep search <TARGET> [options]    look for a fault schedule that makes the scenario
                                          (a lesson, file, link or comparison cell) fail, and
                                          shrink it to the smallest story
    lockstep verify <TARGET> [options]    check every fault schedule on a grid: prove the
                                          scenario safe within those bounds, or find the first
                                          unsafe schedule and shrink it

OPTIONS (run):
    --format FORMAT      text (fixed-column trace, the default), json, svg (the diagram) or mermaid
    --seed N             override the scenario's seed
    -h, --help           show this help

OPTIONS (search):
    --faults LIST        the kinds of fault to add, comma-separated (default: all):
                         {classes}
    --max-faults N       the most faults one schedule adds, 1 to 4 (default 2)
    --budget N           the most schedules to run (default 20000)
    --time SECONDS       stop after this long with what was searched, 1 to 86400 (default 300);
                         on a terminal, progress (schedules run, rate, time left) goes to stderr
    --seed N             the random schedules' seed (default 1)
    --pause-ms, --partition-ms, --crash-ms, --delay-ms, --jump-ms N
                         the largest fault of each kind (defaults {sizes})
    --drift-ppm N        the largest clock drift, in millionths (default {drift})
    --stall-ms N         a client waiting longer for the lock is a failure (default {stall})
    --format FORMAT      text (the default) or json
    --out FILE           write the shrunk scenario to FILE (JSON), to run, open or share
    --threads N          judge schedules on N threads, 1 to 256 (default: every core); the
                         result is the same on any number

OPTIONS (verify):
    --faults LIST        the kinds of fault, comma-separated (default: pause, partition, crash)
    --max-faults N       the most faults one schedule adds, 1 to 4 (default 2)
    --grid-ms N          every start, length and jump is a whole number of these (default:
                         the run without faults in ten steps, rounded up to 50 ms)
    --horizon-ms N       faults start before this (default: the end of the run without faults,
                         rounded up to the grid)
    --longest-ms N       the longest pause, partition, crash and delay (default: the horizon)
    --jump-ms N          the largest clock jump either way (default 1000)
    --drift-ppm N, --drift-step-ppm N
                         the largest drift either way and the step between rates, in millionths
                         (defaults 500000 and 100000)
    --max-states N       the most distinct states kept, 16 bytes each (default 4000000)
    --time SECONDS       stop after this long, not verified, 1 to 86400 (default 600)
    --threads N          explore on N threads, 1 to 256 (default: every core); the result is
                         the same on any number
    --format FORMAT      text (the default) or json
    --out FILE           write the shrunk counterexample's scenario to FILE (JSON)
EXIT STATUS:
    0 the run finished (safe or unsafe: the verdict is in the output); the search found nothing
    1 the scenario or file is invalid, or the run hit a limit; the search found a failure; the
      verification found an unsafe schedule
    2 the command line is wrong (for search and verify, also a scenario they cannot read)
    3 the verification did not finish: its bounds were too large for --max-states or --time
";

/// Why the command stopped: a bad command line (exit 2), a scenario problem (exit 1), a
/// search or verification that found a failure (its report, on standard output, exit 1), or a
/// verification that could not finish within its bounds (its report, exit 3).
enum Failure {
    Usage(String),
    Scenario(String),
    Found(String),
    Unproven(String),
}

impl From<ScenarioError> for Failure {
    fn from(e: ScenarioError) -> Self {
        Failure::Scenario(e.to_string())
    }
}

/// Reads a scenario file, reading no more than the scenario reader takes: a larger file (or an
/// endless one, like `/dev/zero`) is refused without being read whole.
fn read_file(path: &str) -> Result<String, Failure> {
    use std::io::Read;
    let fail = |problem: String| Failure::Scenario(format!("{path}: {problem}"));
    let limit = lockstep::limits::MAX_FILE_BYTES;
    let mut bytes = Vec::new();
    std::fs::File::open(path).and_then(|f| f.take(limit as u64 + 1).read_to_end(&mut bytes)).map_err(|e| fail(e.to_string()))?;
    if bytes.len() > limit {
        return Err(fail(format!("the file is over {limit} bytes (1 MiB), the most a scenario may be")));
    }
    String::from_utf8(bytes).map_err(|_| fail("the file is not UTF-8 text".into()))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match dispatch(&args) {
        Ok(out) => print(&out, ExitCode::SUCCESS),
        Err(Failure::Found(out)) => print(&out, ExitCode::from(1)),
        Err(Failure::Unproven(out)) => print(&out, ExitCode::from(3)),
        Err(Failure::Usage(m)) => {
            eprintln!("lockstep: {m} (try --help)");
            ExitCode::from(2)
        }
        Err(Failure::Scenario(m)) => {
            eprintln!("lockstep: {m}");
            ExitCode::from(1)
        }
    }
}

/// Writes the output; a reader that stops early (`| head`) is not an error.
fn print(out: &str, code: ExitCode) -> ExitCode {
    match std::io::Write::write_all(&mut std::io::stdout().lock(), out.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("lockstep: cannot write the output: {e}");
            ExitCode::from(1)
        }
        _ => code,
    }
}

fn dispatch(args: &[String]) -> Result<String, Failure> {
    match args.first().map(String::as_str) {
        None | Some("-h" | "--help" | "help") => Ok(help()),
        Some("list") if args.len() == 1 => Ok(list()),
        Some("designs") if args.len() == 1 => Ok(designs()),
        Some("faults") if args.len() == 1 => Ok(faults()),
        Some("compare") if args.len() == 1 => Ok(compare::to_text(&compare::table()?)),
        Some(cmd @ ("list" | "designs" | "faults" | "compare")) => Err(Failure::Usage(format!("{cmd} takes no arguments"))),
        Some("run") => {
            let target = args.get(1).ok_or_else(|| Failure::Usage("run needs a lesson id or a file".into()))?;
            let mut format = Format::Text;
            let mut seed = None;
            let mut rest = args[2..].iter();
            while let Some(flag) = rest.next() {
                let mut value = || rest.next().ok_or_else(|| Failure::Usage(format!("{flag} needs a value")));
                match flag.as_str() {
                    "--format" => {
                        format = match value()?.as_str() {
                            "text" => Format::Text,
                            "json" => Format::Json,
                            "svg" => Format::Svg,
                            "mermaid" => Format::Mermaid,
                            other => return Err(Failure::Usage(format!("unknown format {other:?}: use text, json, svg or mermaid"))),
                        }
                    }
                    "--seed" => {
                        let v = value()?;
                        seed = Some(v.parse::<u64>().map_err(|_| Failure::Usage(format!("--seed must be a whole number, got {v:?}")))?);
                    }
                    other => return Err(Failure::Usage(format!("unknown option {other:?}"))),
                }
            }
            let (title, design, trace) = run(target, seed)?;
            output::write(format, &Words::new(&trace, &*design), &title)?;
            Ok(String::new())
        }
        Some(cmd @ ("search" | "verify")) => {
            let target =
                args.get(1).ok_or_else(|| Failure::Usage(format!("{cmd} needs a lesson id, a file, a link or a comparison cell")))?;
            let (scenario, _) = load(target).map_err(|e| match e {
                Failure::Scenario(m) => Failure::Usage(m),
                other => other,
            })?;
            match cmd {
                "search" => search::search(&scenario, &args[2..]),
                _ => verify::verify(&scenario, &args[2..]),
            }
        }
        Some(other) => Err(Failure::Usage(format!("unknown command {other:?}"))),
    }
}

fn list() -> String {
    let all = lessons::all();
    let id_width = all.iter().map(|l| l.id().len()).max().unwrap_or(0);
    let topic_width = all.iter().map(|l| l.scenario.topic.chars().count()).max().unwrap_or(0);
    all.iter()
        .map(|l: &Lesson| {
            let topic = &l.scenario.topic;
            let pad = " ".repeat(topic_width - topic.chars().count());
            format!("{:<id_width$}  {topic}{pad}  {}\n", l.id(), l.scenario.title)
        })
        .collect()
}

/// Lists every design with its parameters, from the designs' own declarations.
fn designs() -> String {
    let mut out = String::new();
    for kind in REGISTRY {
        out.push_str(&format!("{}  {}\n    {}\n", kind.tag(), kind.title(), kind.about()));
        for p in kind.params() {
            out.push_str(&format!("    {:<20} {}\n    {:<20} {}\n", p.name, p.help, "", p.describe()));
        }
        out.push('\n');
    }
    out
}

/// Lists every kind of fault and script step with its fields, from their declarations.
fn faults() -> String {
    let mut out = String::from("FAULTS (a scenario's \"faults\": {\"fault\": KIND, \"at_ms\": …, …})\n");
    for kind in FAULTS {
        out.push_str(&format!("{:<16} a {}\n", kind.tag, kind.label));
        out.extend(kind.fields.iter().map(field));
    }
    out.push_str("\nSTEPS (a client's \"script\": {\"step\": KIND, …})\n");
    for kind in STEPS {
        out.push_str(&format!("{:<16} {}\n", kind.tag, kind.label));
        out.extend(kind.fields.iter().map(field));
    }
    out
}

/// One declared field: its name and what it takes.
fn field(f: &Field) -> String {
    let takes = match f.kind {
        FieldKind::Ms { min, max, start: 0 } => format!("ms, {min} to {max}"),
        FieldKind::Ms { min, max, start } => format!("ms, {min} to {max} (a new one: {start})"),
        FieldKind::Node => "a participant's id".into(),
        FieldKind::From { many: false } | FieldKind::To { many: false } => "a participant's id".into(),
        FieldKind::From { many: true } | FieldKind::To { many: true } => "a list of participants' ids".into(),
        FieldKind::Flag { start } if f.optional => format!("true or false (left out: {start})"),
        FieldKind::Flag { .. } => "true or false".into(),
        FieldKind::Text { .. } => format!("text, 1 to {MAX_NAME_CHARS} characters"),
        FieldKind::Release => "safe, unsafe or commit, as the design allows".into(),
        FieldKind::Resource => "a resource's id (left out: the only resource)".into(),
    };
    format!("    {:<12} {takes}\n", f.name)
}

/// The help, with the search's fault kinds and default sizes from their declarations.
fn help() -> String {
    let b = Bounds::default();
    let sizes = [Class::Pause, Class::Partition, Class::Crash, Class::DelayMessage, Class::ClockJump].map(|c| b.limit(c).to_string());
    HELP.replace("{classes}", &Class::ALL.map(Class::tag).join(", "))
        .replace("{sizes}", &sizes.join(", "))
        .replace("{drift}", &b.drift_ppm.to_string())
        .replace("{stall}", &b.stall_ms.to_string())
}

/// Runs a lesson, a comparison cell or a scenario file, returning its title, design and trace.
fn run(target: &str, seed: Option<u64>) -> Result<(String, Rc<dyn Design>, Trace), Failure> {
    if target.starts_with("compare-") && seed.is_some() {
        return Err(Failure::Scenario("a comparison cell has a fixed seed".into()));
    }
    let (scenario, mut spec) = load(target)?;
    if let Some(seed) = seed {
        spec.seed = seed;
    }
    let title = if scenario.title.is_empty() { target.to_string() } else { scenario.title };
    let trace = engine::run(&spec).map_err(ScenarioError::from)?;
    Ok((title, scenario.lock.design, trace))
}

/// Reads a lesson, a comparison cell, a generated stress run, a link or a scenario file.
fn load(target: &str) -> Result<(Scenario, Spec), Failure> {
    Ok(if target.starts_with("compare-") {
        let (_, scenario, _) = compare::cell_by_id(target)?;
        let spec = scenario::validate::compile(&scenario)?;
        (scenario, spec)
    } else if let Some(size) = target.strip_prefix("stress-") {
        let events = size.parse().map_err(|_| Failure::Usage(format!("{target}: stress-N needs a whole number of events")))?;
        scenario::stress::stress(events)?
    } else if let Some((_, link)) = target.split_once("#/edit/") {
        let link = link.split('/').next().unwrap_or_default();
        let doc = lockstep::edit::link::decode(link).map_err(|e| Failure::Scenario(e.to_string()))?;
        scenario::validate::load_doc(&doc).map_err(|e| Failure::Scenario(format!("the link's scenario: {e}")))?
    } else if target.ends_with(".json") || target.contains('/') {
        let text = read_file(target)?;
        scenario::load(&text).map_err(|e| Failure::Scenario(format!("{target}: {e}")))?
    } else {
        let lesson = lessons::find(target)?;
        (lesson.scenario, lesson.spec)
    })
}
