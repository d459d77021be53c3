//! One input through every stage the app runs on it: load (read and validate, from a file or a
//! link), simulate and check, put in words, inspect, lay out, and export as text, JSON, SVG and
//! Mermaid. A stage may refuse the input with an error; what it returns must be well formed.

use lockstep::diagram::inspect::Timeline;
use lockstep::diagram::{layout, mermaid, svg};
use lockstep::edit::link;
use lockstep::engine::{self, Spec};
use lockstep::present::{trace_json, Words};
use lockstep::scenario::validate::load_doc;
use lockstep::scenario::{load, Scenario};

/// The words Mermaid's sequence grammar reserves, as `tools/mermaid-keywords.mjs` reads them from
/// the lexer of the Mermaid package the project installs (the end-to-end suite checks this copy).
const MERMAID_KEYWORDS: &str = include_str!("mermaid-keywords.txt");

/// How far an input got.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reached {
    Refused,
    RunStopped,
    Drawn,
}

/// Runs one input through the pipeline; `Err` says what was malformed.
pub fn pipeline(bytes: &[u8]) -> Result<Reached, String> {
    // As the browser reads a file: invalid UTF-8 becomes U+FFFD.
    let text = String::from_utf8_lossy(bytes);
    match load(&text) {
        Ok((scenario, spec)) => through(&scenario, &spec),
        Err(e) => message(&e.to_string()).map(|()| Reached::Refused),
    }
}

/// Runs one share link through the pipeline, as the browser opens one.
pub fn link_pipeline(text: &str) -> Result<Reached, String> {
    match link::decode(text).and_then(|doc| load_doc(&doc)) {
        Ok((scenario, spec)) => through(&scenario, &spec),
        Err(e) => message(&e.to_string()).map(|()| Reached::Refused),
    }
}

/// Everything after a scenario is read.
fn through(scenario: &Scenario, spec: &Spec) -> Result<Reached, String> {
    let trace = match engine::run(spec) {
        Ok(trace) => trace,
        Err(e) => return message(&lockstep::error::ScenarioError::from(e).to_string()).map(|()| Reached::RunStopped),
    };
    if trace.events.len() > spec.limits.max_events {
        return Err(format!("{} events, over the limit of {}", trace.events.len(), spec.limits.max_events));
    }
    if trace.events.windows(2).any(|w| w[0].at_ms > w[1].at_ms) {
        return Err("event times go backwards".into());
    }
    let words = Words::new(&trace, &*scenario.lock.design);
    for i in 0..trace.events.len() {
        message(&words.narrate(i))?;
        words.summary(i);
    }
    message(&words.to_text())?;
    let mut json = Vec::new();
    trace_json::write(&words, &mut json).map_err(|e| format!("the JSON trace was not written: {e}"))?;
    let read: serde_json::Value = serde_json::from_slice(&json).map_err(|e| format!("the JSON trace does not parse: {e}"))?;
    if read["events"].as_array().map(Vec::len) != Some(trace.events.len()) {
        return Err("the JSON trace lost events".into());
    }
    let timeline = Timeline::new(&trace);
    let n = trace.events.len();
    for i in [0, n / 2, n.saturating_sub(1), n] {
        timeline.at(&trace, i);
    }
    let drawn = layout(&words);
    let text = svg::render(&drawn, &scenario.title, true);
    roxmltree::Document::parse(&text).map_err(|e| format!("SVG is not well-formed XML: {e}"))?;
    well_formed_mermaid(&mermaid::render(&words))?;
    Ok(Reached::Drawn)
}

/// An error or narration must be a non-empty line of bounded length.
fn message(text: &str) -> Result<(), String> {
    if text.trim().is_empty() {
        return Err("an empty message".into());
    }
    Ok(())
}

/// Mermaid's parser runs on lessons and hostile names in the end-to-end test; here, the shape it
/// relies on: a header, then participants with unique, plain, non-keyword aliases, then
/// statements that name only those aliases, with no control character anywhere.
fn well_formed_mermaid(text: &str) -> Result<(), String> {
    let mut lines = text.lines();
    if lines.next() != Some("sequenceDiagram") {
        return Err("Mermaid text does not start with sequenceDiagram".into());
    }
    let mut aliases: Vec<&str> = Vec::new();
    for line in lines {
        if line.chars().any(char::is_control) {
            return Err(format!("control character in Mermaid line {line:?}"));
        }
        let line = line.trim_start();
        if let Some(rest) = line.strip_prefix("participant ") {
            let alias = rest.split(" as ").next().unwrap_or("");
            let plain =
                alias.starts_with(|c: char| c.is_ascii_alphabetic()) && alias.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !plain || aliases.contains(&alias) || MERMAID_KEYWORDS.lines().any(|k| k.eq_ignore_ascii_case(alias)) {
                return Err(format!("bad or repeated Mermaid alias {alias:?}"));
            }
            aliases.push(alias);
        } else if let Some(over) = line.strip_prefix("Note over ") {
            let names = over.split(':').next().unwrap_or("");
            if !names.split(',').all(|a| aliases.contains(&a.trim())) {
                return Err(format!("Mermaid note over an unknown alias: {line}"));
            }
        } else {
            let from = line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next().unwrap_or("");
            if !aliases.contains(&from) {
                return Err(format!("Mermaid statement from an unknown alias: {line}"));
            }
        }
    }
    Ok(())
}
