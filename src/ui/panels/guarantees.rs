//! What the lesson's lock promises, under which assumptions, what a verification proved of it,
//! and the run's metrics.

use super::Escaped;
use crate::design::{Design, Guarantees, LockKind};
use crate::engine::spec::Guard;
use crate::engine::Trace;
use crate::present::number::capital;
use crate::present::phrases::{self, VERDICT_MEANS};
use crate::search::wire::Report;
use crate::ui::route::{self, Route, Target};
use std::fmt::Write;

/// What a verification of the run's scenario proved (`proof`, its last report), or that none has.
fn proven(proof: Option<&Report>) -> String {
    let (what, sentence) = match proof {
        Some(Report::Proven { safe: true, sentence, .. }) => ("Verified safe within its bounds", sentence.as_str()),
        Some(Report::Proven { safe: false, sentence, link: Some(_), .. }) => ("Unsafe (counterexample)", sentence.as_str()),
        Some(Report::Proven { sentence, .. }) => ("Not verified", sentence.as_str()),
        _ => ("Not verified", "Prove checks every schedule of up to 2 pauses, partitions and crashes on a grid."),
    };
    let open = match proof {
        Some(Report::Proven { link: Some(Ok(code)), .. }) => {
            let hash = route::format(&Route { target: Target::Edited(code.clone()), step: 0 });
            format!(r#" <a href="edit/{hash}" data-testid="proven-open">Open the counterexample ▸</a>"#)
        }
        _ => String::new(),
    };
    format!(r#"<dt>Proven</dt><dd data-testid="proven"><strong>{what}.</strong> {}{open}</dd>"#, Escaped(sentence))
}

/// The promises, assumptions and metrics of a run: what the lock is used for, and separately
/// whether this set-up (`guard`) meets the seed's definition of a correctness lock, and whether
/// this run harmed the data all the same; and what a verification of it proved (`proof`).
/// While the run's outcome is still to be predicted (`untold`), nothing of it is said: not the
/// harm, not the whole run's figures.
pub fn guarantees(trace: &Trace, design: &dyn Design, g: &Guarantees, guard: Guard, proof: Option<&Report>, untold: bool) -> String {
    let m = &trace.metrics;
    let (class, bar, still) = match (guard.meets(), trace.verdict.safe || untold) {
        (true, true) => ("guard guard--meets", "Meets the bar for correctness", ""),
        (true, false) => (
            "guard guard--short",
            "Meets the bar for correctness, and still harmed here",
            " The check has a gap, and this run falls into it: see Safety.",
        ),
        (false, _) => ("guard guard--short", "Falls short of a correctness lock", ""),
    };
    // What a clock step and a broken connection do here, where there is a lock service.
    let clocks = match trace.quorum {
        0 => String::new(),
        _ => format!(
            "<dt>Clocks</dt><dd>{}.</dd><dt>Connections</dt><dd>{}.</dd>",
            capital(phrases::what_a_step_moves(design.service_clock())),
            capital(design.connections())
        ),
    };
    let mut s = format!(
        r#"<h2>{}<span class="pill pill--{}">{}</span></h2><p class="{class}" data-testid="guard"><strong>{bar}:</strong> {}.{still}</p><dl><dt>Safety</dt><dd>{}</dd><dt>If a holder dies</dt><dd>{}</dd>{clocks}<dt>Assumes</dt><dd>{}</dd>{}</dl><h3>Whole run</h3><div class="metrics" data-testid="metrics">"#,
        if g.lock == LockKind::None { "What keeps the data safe" } else { "What this lock promises" },
        if g.lock == LockKind::Correctness { "correctness" } else { "efficiency" },
        g.lock.label(),
        phrases::guard(guard),
        Escaped(&g.safety),
        Escaped(&g.liveness),
        Escaped(&g.assumes),
        proven(proof)
    );
    if untold {
        let _ = write!(
            s,
            r#"</div><p class="muted" data-testid="metrics-later">The whole run's figures show at its end.</p><p class="verdict-means" data-testid="verdict-means">{}</p>"#,
            Escaped(VERDICT_MEANS)
        );
        return s;
    }
    let mut metric = |label: &str, value: u32, bad: bool| {
        let class = if bad && value > 0 { "metric metric--bad" } else { "metric" };
        let _ = write!(
            s,
            r#"<div class="{class}"><span class="metric-value">{value}</span><span class="metric-label">{}</span></div>"#,
            Escaped(label)
        );
    };
    let lock = trace.quorum > 0;
    if lock {
        metric(design.acquires(), m.acquire_requests, false);
        metric("refused", m.contended, false);
        if m.wake_ups > 0 {
            metric("watch wake-ups", m.wake_ups, false);
        }
        metric(design.expiries(), m.expiries, false);
        metric(&format!("{} failures", design.renewal()), m.renewal_failures, true);
    }
    metric("harm to the data", trace.verdict.findings.iter().filter(|f| f.kind().is_harm()).count() as u32, true);
    metric("duplicate work", m.duplicate_work, true);
    if lock {
        metric("stale writes accepted", m.stale_writes_accepted, false);
        metric("stale writes rejected", m.stale_writes_rejected, false);
    } else {
        metric("writes refused", m.stale_writes_rejected, false);
    }
    let _ = write!(s, r#"</div><p class="verdict-means" data-testid="verdict-means">{}</p>"#, Escaped(VERDICT_MEANS));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_panel_says_what_was_proved_or_that_nothing_was() {
        assert!(proven(None).contains("<strong>Not verified.</strong> Prove checks every schedule"));
        let safe =
            Report::Proven { safe: true, sentence: "Safe for every schedule of ≤ 2 faults".into(), faults: Vec::new(), link: None };
        assert!(proven(Some(&safe)).contains("<strong>Verified safe within its bounds.</strong> Safe for every schedule of ≤ 2 faults"));
        let unsafe_ = Report::Proven { safe: false, sentence: "Unsafe: …".into(), faults: Vec::new(), link: Some(Ok("1.x".into())) };
        let text = proven(Some(&unsafe_));
        assert!(text.contains("Unsafe (counterexample).") && text.contains(r##"href="edit/#/edit/1.x/0""##), "{text}");
    }
}
