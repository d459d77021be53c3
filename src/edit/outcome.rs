//! What an edit changed: the edited run's verdict against the original's, in one sentence such
//! as "was safe → now unsafe: Client A's write (token 41) was accepted … at 1,560 ms", and, when
//! the verdict stays, what did change: two holders gone or come, a stale write now refused or let
//! in.

use crate::engine::checker::{Finding, FindingKind};
use crate::engine::Trace;
use crate::present::number::ms;
use crate::present::Words;

/// The first finding of a kind, if the run has one.
fn first(trace: &Trace, kind: FindingKind) -> Option<&Finding> {
    trace.verdict.of(kind).next()
}

/// The first violation of a run, if it has one.
fn first_violation(trace: &Trace) -> Option<&Finding> {
    trace.verdict.findings.iter().find(|f| f.kind().is_harm())
}

/// Tells how the edited run's outcome differs from the original's; `edited` says whether the
/// scenario differs from the original (a failure the search found opens as it was found, and an
/// edit can be undone by hand: either is told as it is, not as "still" anything).
pub fn change(original: &Trace, words: &Words, edited: bool) -> String {
    let trace = words.trace();
    let told = |f: &Finding| format!("{} at {}", words.finding(f), ms(f.at_ms));
    if !edited {
        return match first_violation(trace) {
            Some(f) => format!("the same scenario; unsafe: {}", told(f)),
            None => format!("the same scenario; {}", if trace.verdict.safe { "safe" } else { "unsafe" }),
        };
    }
    let verdict = match (original.verdict.safe, first_violation(trace)) {
        (true, Some(f)) => format!("was safe → now unsafe: {}", told(f)),
        (false, Some(f)) => format!("still unsafe: {}", told(f)),
        (true, None) => "still safe".to_string(),
        // What saved it, if the resource refused a write.
        (false, None) => match first(trace, FindingKind::StaleWriteRejected) {
            Some(f) => format!("was unsafe → now safe: {}", told(f)),
            None => "was unsafe → now safe".to_string(),
        },
    };
    // What else changed, when the verdict alone does not say it.
    let mut also = Vec::new();
    if original.verdict.safe == trace.verdict.safe {
        match (first(original, FindingKind::TwoHolders), first(trace, FindingKind::TwoHolders)) {
            (Some(_), None) => also.push("two clients no longer hold the lock at once".to_string()),
            (None, Some(f)) => also.push(format!("two clients now hold the lock at once ({})", told(f))),
            _ => {}
        }
        let let_in = first(trace, FindingKind::StaleWriteAccepted).filter(|_| trace.verdict.safe);
        match (first(original, FindingKind::StaleWriteRejected), first(trace, FindingKind::StaleWriteRejected), let_in) {
            (Some(_), None, Some(f)) => also.push(format!("a stale write is now let in, and harms nothing ({})", told(f))),
            (Some(_), None, None) if trace.verdict.safe => also.push("no stale write reaches the resource to be refused".to_string()),
            (None, Some(f), _) => also.push(format!("the resource now refuses a stale write ({})", told(f))),
            _ => {}
        }
    }
    if also.is_empty() {
        verdict
    } else {
        format!("{verdict}; {}", also.join("; "))
    }
}
