//! The course format: a course's title, audience and introduction, and its stops in order,
//! each a lesson, a comparison cell or an edited scenario opened at a step, with a title and
//! notes of its own, which of its questions it asks the class, and how long it takes. Read from JSON
//! with every problem named by its field path, and written back the same way; a course is
//! shared as a file or, packed like a scenario, in a link.

use crate::edit::link;
use crate::error::ScenarioError;
use crate::limits::{MAX_COURSE_STOPS, MAX_COURSE_TEXT_CHARS, MAX_COURSE_TITLE_CHARS, MAX_STOP_MINUTES};
use crate::scenario::decode::Obj;
use crate::scenario::json::{self, Value};
use crate::scenario::{compare, lessons, validate};

type Result<T> = std::result::Result<T, ScenarioError>;

/// The version of the course format this build reads and writes.
pub const VERSION: u64 = 1;

/// How long a stop takes when its course does not say.
pub const STOP_MINUTES: u32 = 5;

/// A course: stops to take in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Course {
    pub title: String,
    /// Whom it is for.
    pub audience: String,
    /// What the course is about, shown before its first stop.
    pub intro: String,
    pub stops: Vec<Stop>,
}

/// One stop of a course.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stop {
    pub open: Open,
    /// The step it opens at: 0 for the setup, or a key moment's.
    pub step: u64,
    /// Its title, if not the run's own.
    pub title: String,
    /// Notes for whoever teaches it.
    pub notes: String,
    /// Which of its run's questions it asks the class.
    pub predict: Asking,
    pub minutes: u32,
}

/// Which of a run's questions a stop asks: all (the default), none, or only these, numbered
/// from 1 in the order the run asks them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Asking {
    All,
    None,
    Only(Vec<u32>),
}

/// The most questions a stop names to ask.
const MAX_ASKED: usize = 32;

impl Asking {
    /// Says whether the question at `place` (from 0) of the run's is asked.
    pub fn asks(&self, place: usize) -> bool {
        match self {
            Asking::All => true,
            Asking::None => false,
            Asking::Only(numbers) => numbers.iter().any(|&n| n as usize == place + 1),
        }
    }

    /// Reads what a person typed: `all`, `none`, or the questions' numbers (`1, 3`).
    pub fn typed(text: &str) -> std::result::Result<Asking, String> {
        match text.trim().to_lowercase().as_str() {
            "" | "all" => return Ok(Asking::All),
            "none" | "no" => return Ok(Asking::None),
            _ => {}
        }
        let numbers = text
            .split(',')
            .map(|n| n.trim().parse::<u32>().ok().filter(|&n| n >= 1))
            .collect::<Option<Vec<u32>>>()
            .filter(|n| n.len() <= MAX_ASKED)
            .ok_or_else(|| {
                format!("say all, none, or the questions' numbers from 1 (1, 3), not “{}”", text.chars().take(24).collect::<String>())
            })?;
        Ok(Asking::Only(numbers))
    }

    /// Says it as a person types it.
    pub fn said(&self) -> String {
        match self {
            Asking::All => "all".into(),
            Asking::None => "none".into(),
            Asking::Only(numbers) => numbers.iter().map(u32::to_string).collect::<Vec<_>>().join(", "),
        }
    }
}

/// What a stop opens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Open {
    /// A lesson, by its id.
    Lesson(String),
    /// A cell of the comparison, as `schedule/design`.
    Cell(String),
    /// An edited scenario, as its link text.
    Edited(String),
}

/// The title a new course starts with.
pub const UNTITLED: &str = "My course";

impl Course {
    /// Returns a new course with no stops yet.
    pub fn untitled() -> Course {
        Course { title: UNTITLED.into(), audience: String::new(), intro: String::new(), stops: Vec::new() }
    }

    /// Returns how long the course takes: the sum of its stops' minutes.
    pub fn minutes(&self) -> u32 {
        self.stops.iter().map(|s| s.minutes).sum()
    }
}

impl Open {
    /// The field that names what a stop opens, and the text it holds.
    fn field(&self) -> (&'static str, &str) {
        match self {
            Open::Lesson(id) => ("lesson", id),
            Open::Cell(cell) => ("cell", cell),
            Open::Edited(link) => ("edited", link),
        }
    }
}

/// Reads a text no longer than `most` characters.
fn text(o: &Obj, name: &str, most: usize) -> Result<String> {
    let text: String = o.or(name, String::new())?;
    match text.chars().count() {
        n if n > most => Err(ScenarioError::new(o.at(name), format!("is {n} characters long; at most {most} are taken"))),
        _ => Ok(text),
    }
}

/// Reads a course from its JSON document.
pub fn read(v: &Value) -> Result<Course> {
    let o = Obj::new(v, "")?;
    o.only(&["version", "course", "audience", "intro", "stops"])?;
    let version: u64 = o.req("version")?;
    if version != VERSION {
        return Err(ScenarioError::new("version", format!("is {version}; this version of Lockstep reads courses of version {VERSION}")));
    }
    let title = text(&o, "course", MAX_COURSE_TITLE_CHARS)?;
    if title.trim().is_empty() {
        return Err(ScenarioError::new("course", "the course needs a title"));
    }
    let Some(Value::Array(items)) = o.get("stops") else {
        return Err(ScenarioError::new("stops", "a course lists its stops in an array"));
    };
    if items.is_empty() || items.len() > MAX_COURSE_STOPS {
        return Err(ScenarioError::new("stops", format!("has {} stops; a course has 1 to {MAX_COURSE_STOPS}", items.len())));
    }
    let stops = items.iter().enumerate().map(|(i, item)| stop(item, &format!("stops[{i}]"))).collect::<Result<Vec<_>>>()?;
    Ok(Course { title, audience: text(&o, "audience", MAX_COURSE_TITLE_CHARS)?, intro: text(&o, "intro", MAX_COURSE_TEXT_CHARS)?, stops })
}

/// Reads one stop at `path`.
fn stop(v: &Value, path: &str) -> Result<Stop> {
    let o = Obj::new(v, path)?;
    o.only(&["lesson", "cell", "edited", "step", "title", "notes", "predict", "minutes"])?;
    let named: Vec<&str> = ["lesson", "cell", "edited"].into_iter().filter(|n| o.get(n).is_some()).collect();
    let open = match named.as_slice() {
        ["lesson"] => {
            let id: String = o.req("lesson")?;
            lessons::entry(&id).map_err(|e| ScenarioError::new(o.at("lesson"), e.problem))?;
            Open::Lesson(id)
        }
        ["cell"] => {
            let cell: String = o.req("cell")?;
            let (schedule, design) =
                cell.split_once('/').ok_or_else(|| ScenarioError::new(o.at("cell"), "names a cell as schedule/design"))?;
            compare::schedule(schedule).and(compare::row(design)).map_err(|e| ScenarioError::new(o.at("cell"), e.problem))?;
            Open::Cell(cell)
        }
        ["edited"] => {
            let text: String = o.req("edited")?;
            link::decode(&text).and_then(|doc| validate::load_doc(&doc)).map_err(|e| ScenarioError::new(o.at("edited"), e.to_string()))?;
            Open::Edited(text)
        }
        [] => return Err(ScenarioError::new(path, "a stop opens a `lesson`, a `cell` or an `edited` scenario, and names none")),
        _ => return Err(ScenarioError::new(path, format!("a stop opens one thing, and this names {}", named.join(" and ")))),
    };
    let minutes: u32 = o.or("minutes", STOP_MINUTES)?;
    if !(1..=MAX_STOP_MINUTES).contains(&minutes) {
        return Err(ScenarioError::new(o.at("minutes"), format!("is {minutes}; a stop takes 1 to {MAX_STOP_MINUTES} minutes")));
    }
    Ok(Stop {
        open,
        step: o.or("step", 0)?,
        title: text(&o, "title", MAX_COURSE_TITLE_CHARS)?,
        notes: text(&o, "notes", MAX_COURSE_TEXT_CHARS)?,
        predict: asking(o.get("predict"), &o.at("predict"))?,
        minutes,
    })
}

/// Reads which questions a stop asks: `true` (all), `false` (none), or their numbers.
fn asking(v: Option<&Value>, path: &str) -> Result<Asking> {
    let problem = |p: &str| ScenarioError::new(path, p);
    match v {
        None | Some(Value::Bool(true)) => Ok(Asking::All),
        Some(Value::Bool(false)) => Ok(Asking::None),
        Some(Value::Array(items)) if items.len() <= MAX_ASKED => items
            .iter()
            .map(|n| match n {
                Value::Number(t) => t.parse::<u32>().ok().filter(|&n| n >= 1).ok_or_else(|| problem("numbers each question from 1")),
                _ => Err(problem("lists the questions to ask by their numbers")),
            })
            .collect::<Result<Vec<u32>>>()
            .map(Asking::Only),
        Some(Value::Array(_)) => Err(problem(&format!("names at most {MAX_ASKED} questions"))),
        Some(_) => Err(problem("is true (every question), false (none), or the numbers of the questions to ask")),
    }
}

/// Reads a course from a file's text.
pub fn parse(text: &str) -> Result<Course> {
    read(&json::parse(text)?)
}

/// Writes a course as its JSON document; fields at their defaults are left out.
pub fn write(c: &Course) -> Value {
    let string = |s: &str| Value::String(s.to_string());
    let number = |n: u64| Value::Number(n.to_string());
    let mut members = vec![("version".to_string(), number(VERSION)), ("course".to_string(), string(&c.title))];
    for (name, value) in [("audience", &c.audience), ("intro", &c.intro)] {
        if !value.is_empty() {
            members.push((name.to_string(), string(value)));
        }
    }
    let stops = c.stops.iter().map(|s| {
        let (field, named) = s.open.field();
        let mut m = vec![(field.to_string(), string(named))];
        let optional = [
            ("step", (s.step != 0).then(|| number(s.step))),
            ("title", (!s.title.is_empty()).then(|| string(&s.title))),
            ("notes", (!s.notes.is_empty()).then(|| string(&s.notes))),
            (
                "predict",
                match &s.predict {
                    Asking::All => None,
                    Asking::None => Some(Value::Bool(false)),
                    Asking::Only(numbers) => Some(Value::Array(numbers.iter().map(|n| number(u64::from(*n))).collect())),
                },
            ),
            ("minutes", (s.minutes != STOP_MINUTES).then(|| number(u64::from(s.minutes)))),
        ];
        m.extend(optional.into_iter().filter_map(|(name, v)| Some((name.to_string(), v?))));
        Value::Object(m)
    });
    members.push(("stops".to_string(), Value::Array(stops.collect())));
    Value::Object(members)
}

/// Writes a course as link text, or says why it is too long for a link.
pub fn to_link(c: &Course) -> Result<String> {
    link::encode_as(&write(c), "course")
}

/// Reads a course back from its link text.
pub fn from_link(text: &str) -> Result<Course> {
    read(&link::decode_as(text, "course")?)
}
