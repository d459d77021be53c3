//! The one error type for scenario problems: a field path and what is wrong there. Decoding,
//! validation, the designs' parameters, a run that hits a limit and the command line all speak it.

use crate::engine::RunError;
use crate::limits::{MAX_EVENTS, MAX_TIME_MS};
use crate::present::number::{group_u, ms};
use std::fmt;

/// A problem with a scenario, at a field path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// Where the problem is, like `participants[1].script[0]`; empty for the whole file.
    pub path: String,
    pub problem: String,
}

impl ScenarioError {
    /// Builds an error at `path`.
    pub fn new(path: impl Into<String>, problem: impl Into<String>) -> Self {
        ScenarioError { path: path.into(), problem: problem.into() }
    }
}

/// The most characters of user text an error quotes; longer text is cut with `…`.
pub const QUOTE_CHARS: usize = 40;

/// Quotes user text in an error, at most [`QUOTE_CHARS`] characters of it.
pub fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTE_CHARS) {
        Some((at, _)) => format!("“{}…”", &text[..at]),
        None => format!("“{text}”"),
    }
}

/// The error for a name that is not one of `known`: it quotes the name briefly and suggests the
/// (at most three) closest known names.
pub fn unknown(what: &str, wanted: &str, known: &[&str]) -> ScenarioError {
    let near = closest(wanted, known, 3);
    let hint = match near.as_slice() {
        [] => String::new(),
        [one] => format!("; did you mean {one}?"),
        [init @ .., last] => format!("; did you mean {} or {last}?", init.join(", ")),
    };
    ScenarioError::new("", format!("there is no {what} named {}{hint}", quote(wanted)))
}

/// The up to `n` names of `known` closest to `wanted` by edit distance, nearest first (ties in
/// `known` order). Names further away than a third of their length are not suggested. Only the first
/// [`QUOTE_CHARS`] characters of `wanted` count, so the cost is bounded for any input.
fn closest<'a>(wanted: &str, known: &[&'a str], n: usize) -> Vec<&'a str> {
    let wanted: Vec<char> = wanted.chars().take(QUOTE_CHARS).collect();
    let mut scored: Vec<(usize, &str)> = Vec::new();
    for k in known {
        let d = edit_distance(&wanted, &k.chars().collect::<Vec<_>>());
        if d <= k.chars().count().div_ceil(3) {
            scored.push((d, k));
        }
    }
    // Distance by distance, each in `known` order: a few passes over a short list, no sort.
    let mut near = Vec::with_capacity(n);
    for d in 0..=scored.iter().map(|s| s.0).max().unwrap_or(0) {
        for &(_, k) in scored.iter().filter(|s| s.0 == d) {
            if near.len() < n {
                near.push(k);
            }
        }
    }
    near
}

/// Levenshtein distance: the fewest insertions, deletions and substitutions from `a` to `b`.
fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (row[j + 1] + 1).min(row[j] + 1).min(diagonal + usize::from(ca != cb));
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.problem)
        } else {
            write!(f, "{}: {}", self.path, self.problem)
        }
    }
}

impl std::error::Error for ScenarioError {}

impl From<RunError> for ScenarioError {
    fn from(e: RunError) -> Self {
        match e {
            RunError::EventLimit { limit } => {
                let advice = if limit < MAX_EVENTS {
                    "shorten the scripts or raise the limit"
                } else {
                    "the most a run may have; shorten the scripts"
                };
                ScenarioError::new("limits.max_events", format!("the run passed {} events: {advice}", group_u(limit as u64)))
            }
            RunError::TimeLimit { limit_ms } => {
                let advice = if limit_ms.as_ms() < MAX_TIME_MS {
                    "is a client retrying or renewing forever?"
                } else {
                    "the most a run may last; is a client retrying or renewing forever?"
                };
                ScenarioError::new("limits.max_time_ms", format!("the run went past {} of simulated time: {advice}", ms(limit_ms)))
            }
            RunError::MissingRole => {
                ScenarioError::new("participants", "a run needs one resource, and a lock_service unless the lock design is none")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_the_closest_names() {
        let known = ["lease-race-fenced", "lease-race-unfenced", "short-pause", "redlock-pause"];
        assert_eq!(
            unknown("lesson", "lease-race-fence", &known).problem,
            "there is no lesson named “lease-race-fence”; did you mean lease-race-fenced or lease-race-unfenced?"
        );
        assert_eq!(
            unknown("lesson", "redlok-pause", &known).problem,
            "there is no lesson named “redlok-pause”; did you mean redlock-pause?"
        );
        assert_eq!(unknown("lesson", "zzzz", &known).problem, "there is no lesson named “zzzz”");
    }

    #[test]
    fn quotes_a_short_prefix() {
        let long = "x".repeat(100_000);
        let e = unknown("lesson", &long, &["short-pause"]).to_string();
        assert!(e.len() < 100, "{e}");
        assert_eq!(quote("abc"), "“abc”");
        assert_eq!(quote(&"é".repeat(41)), format!("“{}…”", "é".repeat(40)));
    }

    #[test]
    fn edit_distance_counts_edits() {
        let d = |a: &str, b: &str| edit_distance(&a.chars().collect::<Vec<_>>(), &b.chars().collect::<Vec<_>>());
        assert_eq!(d("kitten", "sitting"), 3);
        assert_eq!(d("", "abc"), 3);
        assert_eq!(d("same", "same"), 0);
    }
}
