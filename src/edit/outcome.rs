//! What an edit changed: the edited run's verdict against the original's, in one sentence such
//! as "was safe → now unsafe: Client A's write (token 41) was accepted … at 1,560 ms".

use crate::engine::checker::{Finding, FindingKind};
use crate::engine::Trace;
use crate::present::number::ms;
use crate::present::Words;

/// The first violation of a run, if it has one.
fn first_violation(trace: &Trace) -> Option<&Finding> {
    trace.verdict.findings.iter().find(|f| f.kind().is_violation())
}

/// Tells how the edited run's outcome differs from the original's.
pub fn change(original: &Trace, edited: &Words) -> String {
    let trace = edited.trace();
    let was = if original.verdict.safe { "safe" } else { "unsafe" };
    match (original.verdict.safe, first_violation(trace)) {
        (_, Some(f)) => {
            let now = if original.verdict.safe { format!("was {was} → now unsafe") } else { "still unsafe".to_string() };
            format!("{now}: {} at {}", edited.finding(f), ms(f.at_ms))
        }
        (true, None) => "still safe".to_string(),
        // What saved it, if the resource refused a write.
        (false, None) => match trace.verdict.of(FindingKind::StaleWriteRejected).next() {
            Some(f) => format!("was unsafe → now safe: {} at {}", edited.finding(f), ms(f.at_ms)),
            None => "was unsafe → now safe".to_string(),
        },
    }
}
