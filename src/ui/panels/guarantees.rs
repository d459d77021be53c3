//! What the lesson's lock promises, under which assumptions, and the run's metrics.

use super::Escaped;
use crate::design::{Design, Guarantees, LockKind};
use crate::engine::spec::Guard;
use crate::engine::Trace;
use crate::present::number::capital;
use crate::present::phrases::{self, VERDICT_MEANS};
use std::fmt::Write;

/// The promises, assumptions and metrics of a run: what the lock is used for, and separately
/// whether this set-up (`guard`) meets the seed's definition of a correctness lock, and whether
/// this run harmed the data all the same.
pub fn guarantees(trace: &Trace, design: &dyn Design, g: &Guarantees, guard: Guard) -> String {
    let m = &trace.metrics;
    let (class, bar, still) = match (guard.meets(), trace.verdict.safe) {
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
        r#"<h2>{}<span class="pill pill--{}">{}</span></h2><p class="{class}" data-testid="guard"><strong>{bar}:</strong> {}.{still}</p><dl><dt>Safety</dt><dd>{}</dd><dt>If a holder dies</dt><dd>{}</dd>{clocks}<dt>Assumes</dt><dd>{}</dd></dl><h3>Whole run</h3><div class="metrics" data-testid="metrics">"#,
        if g.lock == LockKind::None { "What keeps the data safe" } else { "What this lock promises" },
        if g.lock == LockKind::Correctness { "correctness" } else { "efficiency" },
        g.lock.label(),
        phrases::guard(guard),
        Escaped(&g.safety),
        Escaped(&g.liveness),
        Escaped(&g.assumes)
    );
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
