//! What a learner has done, kept on the device between visits: the lessons visited and
//! finished, each lesson's predictions and how many were right, where a course or the drill
//! stood, and the last run opened. Read back from its file with every problem named, so a file
//! that is damaged or from another version is set aside, never trusted. Plain state, tested
//! natively; `ui::web` keeps it in the browser's storage.

use crate::error::ScenarioError;
use crate::limits::MAX_KEPT_ADDRESS_CHARS;
use crate::scenario::decode::Obj;
use crate::scenario::json::{self, Value};
use crate::scenario::lessons;
use crate::ui::drill::Drill;

/// The version of the progress file this build reads and writes.
pub const VERSION: u64 = 1;

/// What the learner has done.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Lessons opened, by id, in the order first opened.
    pub visited: Vec<String>,
    /// Lessons stepped through to their end, by id.
    pub finished: Vec<String>,
    /// Each lesson's questions answered: its id, how many right, how many answered.
    pub results: Vec<(String, u32, u32)>,
    /// The course being taken: how its link names it, and its stop.
    pub course: Option<(String, usize)>,
    /// The drill, if one was left unfinished.
    pub drill: Option<Drill>,
    /// The address of the last run opened.
    pub last: Option<String>,
}

impl Record {
    /// Returns the progress with lesson `id` visited, and finished if `finished`.
    pub fn visit(&self, id: &str, finished: bool) -> Record {
        let mut p = self.clone();
        if !p.visited.iter().any(|v| v == id) {
            p.visited.push(id.to_string());
        }
        if finished && !p.finished.iter().any(|v| v == id) {
            p.finished.push(id.to_string());
        }
        p
    }

    /// Returns the progress with one more of lesson `id`'s questions answered.
    pub fn answered(&self, id: &str, right: bool) -> Record {
        let mut p = self.clone();
        match p.results.iter_mut().find(|r| r.0 == id) {
            Some(r) => (r.1, r.2) = (r.1 + u32::from(right), r.2 + 1),
            None => p.results.push((id.to_string(), u32::from(right), 1)),
        }
        p
    }

    /// Says whether nothing has been done yet.
    pub fn is_empty(&self) -> bool {
        *self == Record::default()
    }

    /// Writes the progress as its file's text.
    pub fn write(&self) -> String {
        let s = |t: &str| Value::String(t.to_string());
        let n = |v: u64| Value::Number(v.to_string());
        let ids = |list: &[String]| Value::Array(list.iter().map(|id| s(id)).collect());
        let mut m = vec![
            ("version".to_string(), n(VERSION)),
            ("visited".to_string(), ids(&self.visited)),
            ("finished".to_string(), ids(&self.finished)),
            (
                "results".to_string(),
                Value::Array(
                    self.results
                        .iter()
                        .map(|(id, right, all)| {
                            Value::Object(vec![
                                ("lesson".into(), s(id)),
                                ("right".into(), n(u64::from(*right))),
                                ("answered".into(), n(u64::from(*all))),
                            ])
                        })
                        .collect(),
                ),
            ),
        ];
        if let Some((course, stop)) = &self.course {
            m.push(("course".into(), Value::Object(vec![("link".into(), s(course)), ("stop".into(), n(*stop as u64))])));
        }
        if let Some(d) = &self.drill {
            let drill = [("question", d.question), ("lesson", d.lesson), ("right", d.right as usize), ("answered", d.answered as usize)];
            m.push(("drill".into(), Value::Object(drill.iter().map(|(k, v)| (k.to_string(), n(*v as u64))).collect())));
        }
        if let Some(last) = &self.last {
            m.push(("last".into(), s(last)));
        }
        json::write(&Value::Object(m), Some(2))
    }

    /// Reads a progress file's text. Lessons this build does not have are left out (a file from
    /// a build with other lessons); anything else that does not fit is an error naming its field.
    pub fn read(text: &str) -> Result<Record, ScenarioError> {
        let doc = json::parse(text)?;
        let o = Obj::new(&doc, "")?;
        o.only(&["version", "visited", "finished", "results", "course", "drill", "last"])?;
        let version: u64 = o.req("version")?;
        if version != VERSION {
            return Err(ScenarioError::new(
                "version",
                format!("is {version}; this version of Lockstep reads progress of version {VERSION}"),
            ));
        }
        let known = |id: &String| lessons::entry(id).is_ok();
        let ids = |name: &str| -> Result<Vec<String>, ScenarioError> {
            let mut list: Vec<String> = o.or(name, Vec::new())?;
            list.retain(known);
            list.dedup();
            Ok(list)
        };
        let mut results = Vec::new();
        if let Some(Value::Array(items)) = o.get("results") {
            for (i, item) in items.iter().enumerate() {
                let path = format!("results[{i}]");
                let r = Obj::new(item, &path)?;
                r.only(&["lesson", "right", "answered"])?;
                let (id, right, answered): (String, u32, u32) = (r.req("lesson")?, r.req("right")?, r.req("answered")?);
                if right > answered {
                    return Err(ScenarioError::new(path, format!("says {right} right of {answered} answered")));
                }
                if known(&id) {
                    results.push((id, right, answered));
                }
            }
        }
        let course = match o.get("course") {
            Some(v) => {
                let c = Obj::new(v, "course")?;
                c.only(&["link", "stop"])?;
                let link: String = c.req("link")?;
                let stop: u64 = c.req("stop")?;
                (link.len() <= MAX_KEPT_ADDRESS_CHARS).then(|| (link, usize::try_from(stop).unwrap_or(usize::MAX)))
            }
            None => None,
        };
        let drill = match o.get("drill") {
            Some(v) => {
                let d = Obj::new(v, "drill")?;
                d.only(&["question", "lesson", "right", "answered"])?;
                let whole = |name: &str| -> Result<usize, ScenarioError> { Ok(usize::try_from(d.req::<u64>(name)?).unwrap_or(usize::MAX)) };
                Some(Drill { question: whole("question")?, lesson: whole("lesson")?, right: d.req("right")?, answered: d.req("answered")? })
            }
            None => None,
        };
        let last: Option<String> = o.opt("last")?;
        Ok(Record {
            visited: ids("visited")?,
            finished: ids("finished")?,
            results,
            course,
            drill,
            last: last.filter(|l| l.len() <= MAX_KEPT_ADDRESS_CHARS),
        })
    }
}
