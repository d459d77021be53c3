//! What a page and a search worker say to each other, as JSON text: the request (a scenario
//! file's text or a comparison cell's id, and the bounds), and the reports (progress, the
//! failure found with its share link, or what was searched). [`serve`] answers a request in
//! full; the worker only carries its messages. The page only writes requests and reads reports,
//! so it carries none of the search.

use super::fault::Class;
use super::runner::{Search, Share, State};
use super::space::Bounds;
use crate::edit::link;
use crate::error::ScenarioError;
use crate::limits::MAX_SEARCH_WORKERS;
use crate::present::quoted::Quoted;
use crate::scenario::encode::scenario as document;
use crate::scenario::format::Scenario;
use crate::scenario::json::write;
use crate::scenario::json::{self, Value};
use crate::scenario::validate::load;
use crate::scenario::{compare, stress};

/// What the worker says once it listens; the page then posts its request.
pub const READY: &str = "ready";

/// How many schedules run between two progress reports.
const SLICE: usize = 5_000;

/// A report from the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    Progress {
        tried: usize,
        budget: usize,
    },
    /// A failure, shrunk: what failed, the faults that cause it in words, and the link that
    /// opens the shrunk scenario (or why it cannot be a link).
    Found {
        sentence: String,
        faults: Vec<String>,
        tried: usize,
        link: Result<String, String>,
    },
    /// Nothing failed: exactly what was searched.
    Nothing {
        searched: String,
    },
    Failed {
        message: String,
    },
    /// A sample's figures: schedules run and how many failed (a request with `sample`).
    Sampled {
        tried: usize,
        failed: usize,
    },
    /// How far a verification has got (a request with `verify`): distinct states explored, and
    /// thousandths of its last pass done.
    Proving {
        states: usize,
        permille: usize,
    },
    /// A verification's end, with its bounds stated in `sentence`: proven safe, or not (then, for
    /// an unsafe scenario, the counterexample's faults, shrunk, and the link that opens it).
    Proven {
        safe: bool,
        sentence: String,
        faults: Vec<String>,
        link: Option<Result<String, String>>,
    },
}

/// Whether a request asks for a verification rather than a search.
pub fn verifies(request: &str) -> bool {
    matches!(json::parse(request), Ok(Value::Object(m)) if m.iter().any(|(k, _)| k == "verify"))
}

/// The request for a verification of what `request` would search, within the default bounds but
/// for the kinds of fault `faults` names (comma-separated tags; none: the default kinds).
pub fn to_verify(request: &str, faults: &str) -> String {
    match json::parse(request) {
        Ok(Value::Object(mut m)) => {
            m.retain(|(k, _)| k != "bounds" && k != "share");
            let kinds: Vec<Value> = faults.split(',').filter(|t| !t.is_empty()).map(text).collect();
            let bounds = if kinds.is_empty() { Vec::new() } else { vec![("faults".to_string(), Value::Array(kinds))] };
            m.push(("verify".into(), Value::Object(bounds)));
            write(&Value::Object(m), None)
        }
        _ => request.to_string(),
    }
}

fn text(s: &str) -> Value {
    Value::String(s.to_string())
}

fn number(n: usize) -> Value {
    Value::Number(n.to_string())
}

/// What to search: a scenario file's text, a comparison cell by its id, or the stress run of
/// about so many events.
#[derive(Clone, Copy, Debug)]
pub enum Subject<'a> {
    File(&'a str),
    Cell(&'a str),
    Stress(u64),
}

/// Writes a request for a search of `subject` within `bounds` (its kinds of fault, how many
/// at most, the budget and the seed; the sizes are the defaults).
pub fn request(subject: Subject, bounds: &Bounds) -> String {
    let faults = Value::Array(bounds.classes.iter().map(|c| text(c.tag())).collect());
    let b = Value::Object(vec![
        ("faults".into(), faults),
        ("max_faults".into(), number(bounds.max_faults)),
        ("budget".into(), number(bounds.budget)),
        ("seed".into(), Value::Number(bounds.seed.to_string())),
    ]);
    let what = match subject {
        Subject::File(text) => ("file".to_string(), Value::String(text.to_string())),
        Subject::Cell(id) => ("cell".to_string(), Value::String(id.to_string())),
        Subject::Stress(events) => ("stress".to_string(), Value::Number(events.to_string())),
    };
    write(&Value::Object(vec![what, ("bounds".into(), b)]), None)
}

/// The request for one worker of a pool of `share.of`: it judges share `share.index` of every
/// batch. (A request without a share judges every schedule.)
pub fn for_share(request: &str, share: Share) -> String {
    match json::parse(request) {
        Ok(Value::Object(mut m)) => {
            m.retain(|(k, _)| k != "share");
            m.push(("share".into(), Value::Array(vec![number(share.index), number(share.of)])));
            write(&Value::Object(m), None)
        }
        _ => request.to_string(),
    }
}

/// Reads a request, naming what is wrong with it.
pub fn read_request(request: &str) -> Result<(Scenario, Bounds, Share), ScenarioError> {
    let v = json::parse(request)?;
    let field = |name: &str| match &v {
        Value::Object(m) => m.iter().find(|(k, _)| k == name).map(|(_, v)| v),
        _ => None,
    };
    let share = match field("share") {
        None => Share::ALL,
        Some(Value::Array(pair)) => match &pair[..] {
            [Value::Number(i), Value::Number(n)] => match (i.parse::<usize>(), n.parse::<usize>()) {
                (Ok(index), Ok(of)) if index < of && of <= MAX_SEARCH_WORKERS => Share { index, of },
                _ => {
                    return Err(ScenarioError::new(
                        "share",
                        format!("must be [index, workers] with index < workers ≤ {MAX_SEARCH_WORKERS}"),
                    ))
                }
            },
            _ => return Err(ScenarioError::new("share", "must be two whole numbers")),
        },
        Some(_) => return Err(ScenarioError::new("share", "must be two whole numbers")),
    };
    let scenario = subject(field)?;
    let mut bounds = Bounds::default();
    if let Some(Value::Object(b)) = field("bounds") {
        for (k, v) in b {
            let whole = || whole("bounds", k, v);
            match (k.as_str(), v) {
                ("faults", Value::Array(list)) => bounds.classes = classes("bounds", list)?,
                ("max_faults", _) => bounds.max_faults = whole()? as usize,
                ("budget", _) => bounds.budget = whole()? as usize,
                ("seed", _) => bounds.seed = whole()?,
                ("sample", Value::Bool(_)) => {}
                _ => return Err(ScenarioError::new(format!("bounds.{k}"), "is not a bound the search knows")),
            }
        }
    }
    Ok((scenario, bounds, share))
}

/// Reads what a request names, by the request's `field`s: a scenario file's text, a comparison
/// cell or a stress run.
pub fn subject<'v>(field: impl Fn(&str) -> Option<&'v Value>) -> Result<Scenario, ScenarioError> {
    Ok(match (field("file"), field("cell"), field("stress")) {
        (Some(Value::String(text)), _, _) => load(text)?.0,
        (_, Some(Value::String(id)), _) => compare::cell_by_id(id)?.1,
        (_, _, Some(Value::Number(n))) => {
            let events = n.parse().map_err(|_| ScenarioError::new("stress", "must be a whole number of events"))?;
            stress::stress(events)?.0
        }
        _ => return Err(ScenarioError::new("file", "is missing: name a scenario file's text, a comparison cell or a stress run")),
    })
}

/// Reads bound `key` of a request's `part` as a whole number.
pub fn whole(part: &str, key: &str, v: &Value) -> Result<u64, ScenarioError> {
    match v {
        Value::Number(n) => n.parse::<u64>().map_err(|_| ScenarioError::new(format!("{part}.{key}"), "must be a whole number")),
        _ => Err(ScenarioError::new(format!("{part}.{key}"), "must be a number")),
    }
}

/// Reads the kinds of fault a request's `part` lists by name.
pub fn classes(part: &str, list: &[Value]) -> Result<Vec<Class>, ScenarioError> {
    let field = format!("{part}.faults");
    list.iter()
        .map(|t| match t {
            Value::String(t) => {
                Class::named(t).ok_or_else(|| ScenarioError::new(field.as_str(), format!("unknown kind of fault {}", Quoted(t))))
            }
            _ => Err(ScenarioError::new(field.as_str(), "must list names")),
        })
        .collect()
}

/// Writes a list of texts.
fn texts(list: &[String]) -> Value {
    Value::Array(list.iter().map(|f| text(f)).collect())
}

/// Reads a list of texts, if the report has one.
fn list(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::Array(list)) => list.iter().filter_map(|f| if let Value::String(f) = f { Some(f.clone()) } else { None }).collect(),
        _ => Vec::new(),
    }
}

/// Writes a report as JSON text.
pub fn encode(report: &Report) -> String {
    let v = match report {
        Report::Progress { tried, budget } => {
            vec![("report", text("progress")), ("tried", number(*tried)), ("budget", number(*budget))]
        }
        Report::Found { sentence, faults, tried, link } => vec![
            ("report", text("found")),
            ("sentence", text(sentence)),
            ("faults", texts(faults)),
            ("tried", number(*tried)),
            match link {
                Ok(code) => ("link", text(code)),
                Err(why) => ("no_link", text(why)),
            },
        ],
        Report::Nothing { searched } => vec![("report", text("nothing")), ("searched", text(searched))],
        Report::Failed { message } => vec![("report", text("failed")), ("message", text(message))],
        Report::Sampled { tried, failed } => vec![("report", text("sampled")), ("tried", number(*tried)), ("failed", number(*failed))],
        Report::Proving { states, permille } => {
            vec![("report", text("proving")), ("states", number(*states)), ("permille", number(*permille))]
        }
        Report::Proven { safe, sentence, faults, link } => {
            let mut v =
                vec![("report", text("proven")), ("safe", Value::Bool(*safe)), ("sentence", text(sentence)), ("faults", texts(faults))];
            match link {
                Some(Ok(code)) => v.push(("link", text(code))),
                Some(Err(why)) => v.push(("no_link", text(why))),
                None => {}
            }
            v
        }
    };
    write(&Value::Object(v.into_iter().map(|(k, v)| (k.to_string(), v)).collect()), None)
}

/// Reads a report, if it is one.
pub fn decode(report: &str) -> Option<Report> {
    let Ok(Value::Object(m)) = json::parse(report) else { return None };
    let get = |name: &str| m.iter().find(|(k, _)| k == name).map(|(_, v)| v);
    let s = |name: &str| match get(name) {
        Some(Value::String(s)) => Some(s.clone()),
        _ => None,
    };
    let n = |name: &str| match get(name) {
        Some(Value::Number(n)) => n.parse().ok(),
        _ => None,
    };
    Some(match s("report")?.as_str() {
        "progress" => Report::Progress { tried: n("tried")?, budget: n("budget")? },
        "found" => {
            let link = s("link").ok_or_else(|| s("no_link").unwrap_or_default());
            Report::Found { sentence: s("sentence")?, faults: list(get("faults")), tried: n("tried")?, link }
        }
        "proving" => Report::Proving { states: n("states")?, permille: n("permille")? },
        "proven" => {
            let link = s("link").map(Ok).or_else(|| s("no_link").map(Err));
            let safe = matches!(get("safe"), Some(Value::Bool(true)));
            Report::Proven { safe, sentence: s("sentence")?, faults: list(get("faults")), link }
        }
        "nothing" => Report::Nothing { searched: s("searched")? },
        "failed" => Report::Failed { message: s("message")? },
        "sampled" => Report::Sampled { tried: n("tried")?, failed: n("failed")? },
        _ => return None,
    })
}

/// Answers a request: reports progress every five thousand schedules (a few times a second),
/// then the failure found (shrunk) or what was searched; or, for a request marked
/// `"sample":true`, runs the budget's schedules without stopping and reports how many it judged
/// and how many failed. A request with a share judges only that share of each batch (the pool's
/// other workers judge the rest: [`super::pool::Merge`] puts their reports together).
pub fn serve(request: &str, mut post: impl FnMut(String)) {
    let search = read_request(request).and_then(|(scenario, bounds, share)| Ok((Search::new(&scenario, bounds)?, scenario, share)));
    let (mut search, scenario, share) = match search {
        Ok(s) => s,
        Err(e) => return post(encode(&Report::Failed { message: e.to_string() })),
    };
    if request.contains(r#""sample":true"#) {
        let (tried, failed) = search.sample(search.bounds().budget, share);
        return post(encode(&Report::Sampled { tried, failed }));
    }
    let budget = search.bounds().budget;
    loop {
        let report = match search.step_share(SLICE, share) {
            State::Searching => Report::Progress { tried: search.tried(), budget },
            State::Found(f) => Report::Found {
                sentence: f.sentence.clone(),
                faults: f.added.iter().map(|a| a.describe(&scenario)).collect(),
                tried: f.runs_to_first,
                link: link::encode(&document(&f.scenario)).map_err(|e| e.to_string()),
            },
            State::Exhausted => Report::Nothing { searched: search.searched() },
        };
        let last = !matches!(report, Report::Progress { .. });
        post(encode(&report));
        if last {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::lessons;
    use crate::scenario::validate::load_doc;

    #[test]
    fn a_request_is_served_with_progress_then_the_failure_as_a_scenario() {
        let lesson = lessons::find("lease-race-unfenced").expect("lesson");
        let mut s = lesson.scenario.clone();
        s.faults.clear();
        let bounds = Bounds { classes: vec![Class::Pause], budget: 2_000, ..Bounds::default() };
        let file = write(&document(&s), None);
        let (read, b, _) = read_request(&request(Subject::File(&file), &bounds)).expect("reads back");
        assert_eq!((read.id.as_str(), b.classes.clone(), b.budget), (s.id.as_str(), vec![Class::Pause], 2_000));
        let mut reports = Vec::new();
        serve(&request(Subject::File(&file), &bounds), |r| reports.push(decode(&r).expect("a report")));
        assert!(reports[..reports.len() - 1].iter().all(|r| matches!(r, Report::Progress { budget: 2_000, .. })), "{reports:?}");
        let Some(Report::Found { faults, link: Ok(code), .. }) = reports.last() else { panic!("{reports:?}") };
        assert_eq!(faults.len(), 1, "{faults:?}");
        let doc = link::decode(code).expect("the link decodes");
        let (found, _) = load_doc(&doc).expect("the found scenario loads");
        assert_eq!(found.faults.len(), 1);
        assert!(found.title.starts_with("A failure found in"));
    }

    #[test]
    fn a_bad_request_is_answered_with_what_is_wrong() {
        let mut reports = Vec::new();
        serve(r#"{"file": "{}", "bounds": {}}"#, |r| reports.push(decode(&r)));
        assert!(matches!(&reports[..], [Some(Report::Failed { .. })]), "{reports:?}");
        let text = request(Subject::Cell("compare-pause-lease"), &Bounds::default()).replace(r#""budget":20000"#, r#""budget":"lots""#);
        assert_eq!(read_request(&text).err().map(|e| e.to_string()), Some("bounds.budget: must be a number".into()));
        let problem = |r: &str| read_request(r).err().map(|e| e.to_string());
        assert_eq!(problem(r#"{"stress": 1.5}"#), Some("stress: must be a whole number of events".into()));
        assert_eq!(problem(r#"{"stress": 5}"#), Some("stress: size must be between 100 and 200000 events, got 5".into()));
        assert_eq!(
            problem(r#"{"bounds": {}}"#),
            Some("file: is missing: name a scenario file's text, a comparison cell or a stress run".into())
        );
    }

    #[test]
    fn a_stress_run_is_searched_by_its_size() {
        let (read, _, _) = read_request(&request(Subject::Stress(2_000), &Bounds::default())).expect("reads back");
        assert_eq!(read, stress::stress(2_000).expect("a stress run").0);
    }
}
