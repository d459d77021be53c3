//! Findings in words: each one's short label and what it found, with who and which token, and
//! the verdict that lists them.

use super::number::ms;
use super::quoted::Quoted;
use super::words::Words;
use crate::engine::checker::{FindingKind, Found};
use crate::engine::event::EventKind;
use crate::engine::{Event, Finding, NodeId};

impl Words<'_> {
    /// Returns a finding kind's short label.
    pub fn finding_kind(kind: FindingKind) -> &'static str {
        match kind {
            FindingKind::LostUpdate => "lost update",
            FindingKind::OutOfOrder => "writes out of order",
            FindingKind::DuplicateEffect => "effect done twice",
            FindingKind::StaleWriteAccepted => "stale write accepted",
            FindingKind::TwoHolders => "two holders",
            FindingKind::StaleWriteRejected => "write rejected",
            FindingKind::HolderWriteRejected => "holder's write rejected",
        }
    }

    /// Tells what a finding found, with who and which token.
    pub fn finding(&self, f: &Finding) -> String {
        let n = |id: NodeId| self.name(id);
        match &f.found {
            Found::StaleWriteAccepted { writer, token } => {
                let said = format!(
                    "{}'s write ({}) was accepted although {} no longer held {}",
                    n(*writer),
                    self.token(*token),
                    n(*writer),
                    self.vocabulary().held()
                );
                // Alone it harms nothing: say why, so that broken exclusion is not read as lost data.
                if self.trace().verdict.findings.iter().any(|h| h.event == f.event && h.kind().is_harm()) {
                    said
                } else {
                    format!("{said}; it erased nothing: nobody had written under a later grant")
                }
            }
            Found::LostUpdate { writer, read, found, erased } => {
                let by: Vec<&str> = erased.iter().map(|&e| self.trace().events.get(e).map_or("", |e| self.write_by(e))).collect();
                format!(
                    "{}'s write was based on version {read}, but the data was at version {found}: the update{} of {} since {} lost",
                    n(*writer),
                    if by.len() == 1 { "" } else { "s" },
                    by.join(" and "),
                    if by.len() == 1 { "is" } else { "are" }
                )
            }
            Found::OutOfOrder { writer, token, newer_writer, newer_token, .. } => {
                match (self.vocabulary().token(*token), self.vocabulary().token(*newer_token)) {
                    (Some(t), Some(newer)) => {
                        format!("{}'s write ({t}) was applied after {}'s ({newer}) and erased it", n(*writer), n(*newer_writer))
                    }
                    _ => format!(
                        "{}'s write was applied after that of {}, a later holder of {}, and erased it",
                        n(*writer),
                        n(*newer_writer),
                        self.vocabulary().held()
                    ),
                }
            }
            Found::DuplicateEffect { writer, value, first } => format!(
                "{}'s {} was applied a second time (first at {})",
                n(*writer),
                Quoted(value),
                self.trace().events.get(*first).map_or(String::new(), |e| ms(e.at_ms))
            ),
            Found::TwoHolders { client, token, other, other_token } => format!(
                "{} ({}) and {} ({}) both believe they hold {}",
                n(*client),
                self.token(*token),
                n(*other),
                self.token(*other_token),
                self.vocabulary().held()
            ),
            Found::StaleWriteRejected { token, reason, .. } if self.has_lock() => {
                format!("the write ({}) was rejected: {}", self.token(*token), self.rejection(reason))
            }
            Found::StaleWriteRejected { reason, .. } => format!("the write was rejected: {}", self.rejection(reason)),
            Found::HolderWriteRejected { writer, token, reason } => format!(
                "{}'s write ({}) was rejected although {} holds {}: {}",
                n(*writer),
                self.token(*token),
                n(*writer),
                self.vocabulary().held(),
                self.rejection(reason)
            ),
        }
    }

    /// Names the writer of an accepted write's event.
    fn write_by(&self, e: &Event) -> &str {
        match e.kind {
            EventKind::WriteAccepted { writer, .. } => self.name(writer),
            _ => "",
        }
    }

    /// Renders the verdict as lines: `verdict: SAFE`, then one line per finding.
    pub fn verdict(&self) -> String {
        let v = &self.trace().verdict;
        let mut out = format!("verdict: {}\n", if v.safe { "SAFE" } else { "UNSAFE" });
        for f in &v.findings {
            out.push_str(&format!("  [{}] #{} at {}: {}\n", Words::finding_kind(f.kind()), f.event, ms(f.at_ms), self.finding(f)));
        }
        out
    }
}
