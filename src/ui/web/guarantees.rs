//! What the lesson's lock promises, under which assumptions, and the run's metrics.

use super::run::RunRef;
use crate::design::LockKind;
use yew::prelude::*;

/// The promises, assumptions and metrics of a run.
pub fn guarantees(run: &RunRef) -> Html {
    let m = &run.trace.metrics;
    let vocab = run.design();
    let lock = run.trace.quorum > 0;
    let g = run.scenario.guarantees();
    let metric = |label: String, value: u32, bad: bool| {
        html! {
            <div class={classes!("metric", (bad && value > 0).then_some("metric--bad"))}>
                <span class="metric-value">{value}</span>
                <span class="metric-label">{label}</span>
            </div>
        }
    };
    html! {
        <section class="card guarantees" data-testid="guarantees">
            <h2>
                { if g.lock == LockKind::None { "What keeps the data safe" } else { "What this lock promises" } }
                <span class={classes!("pill", if g.lock == LockKind::Correctness { "pill--correctness" } else { "pill--efficiency" })}>
                    { g.lock.label() }
                </span>
            </h2>
            <dl>
                <dt>{"Safety"}</dt><dd>{&g.safety}</dd>
                <dt>{"If a holder dies"}</dt><dd>{&g.liveness}</dd>
                <dt>{"Assumes"}</dt><dd>{&g.assumes}</dd>
            </dl>
            <h3>{"Whole run"}</h3>
            <div class="metrics" data-testid="metrics">
                if lock {
                    { metric(vocab.acquires().into(), m.acquire_requests, false) }
                    { metric("refused".into(), m.contended, false) }
                    if m.wake_ups > 0 { { metric("watch wake-ups".into(), m.wake_ups, false) } }
                    { metric(vocab.expiries().into(), m.expiries, false) }
                    { metric(format!("{} failures", vocab.renewal()), m.renewal_failures, true) }
                }
                { metric("duplicate work".into(), m.duplicate_work, true) }
                if lock {
                    { metric("stale writes accepted".into(), m.stale_writes_accepted, true) }
                    { metric("stale writes rejected".into(), m.stale_writes_rejected, false) }
                } else {
                    { metric("writes refused".into(), m.stale_writes_rejected, false) }
                }
            </div>
        </section>
    }
}
