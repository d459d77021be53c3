//! The comparison table: every fault schedule against every design, each cell a button that
//! names, in [`ROUTE_ATTRIBUTE`], the link of its diagram.

use super::{Escaped, ROUTE_ATTRIBUTE};
use crate::scenario::compare::{Cell, Outcome, Schedule, SAFE_MEANS};
use crate::ui::route::{self, Route, Target};
use std::fmt::Write;

fn glyph(o: Outcome) -> &'static str {
    match o {
        Outcome::Safe => "✓",
        Outcome::Unsafe => "✗",
        Outcome::Stalls => "‖",
    }
}

/// The table with its introduction, schedule notes and key.
pub fn compare_table(rows: &[Vec<Cell>]) -> String {
    let mut s = String::from(concat!(
        r#"<p class="eyebrow">Compare designs</p><h1 id="lesson-title">One schedule, every design</h1>"#,
        r#"<p class="lede">The same two clients every time: A takes the lock and works, B wants it from 20 ms on, and every lease lasts 1,000 ms. "#,
        r#"Each column applies one fault to A or to the lock service. Choose a cell to watch that run step by step.</p>"#,
        r#"<p class="lede" data-testid="safe-means">"#,
    ));
    s.push_str(&Escaped(SAFE_MEANS).to_string());
    s.push_str(concat!(
        "</p>",
        r#"<p class="compare-hint">Swipe the table sideways for each schedule's verdict →</p>"#,
        r#"<div class="compare-scroll" tabindex="0" role="region" aria-label="The comparison"><table class="compare-table"><thead><tr><th scope="col">Design</th><th scope="col">Fencing token from</th>"#,
    ));
    for sc in Schedule::ALL {
        let _ = write!(s, r#"<th scope="col" title="{}">{}</th>"#, Escaped(sc.about()), Escaped(sc.title()));
    }
    s.push_str("</tr></thead><tbody>");
    for row in rows {
        let Some(first) = row.first() else { continue };
        let _ = write!(s, r#"<tr><th scope="row">{}</th><td class="token">{}</td>"#, Escaped(first.row.title), Escaped(first.row.token));
        for c in row {
            let outcome = c.outcome.label();
            let link =
                route::format(&Route { target: Target::Compare { schedule: c.schedule.id().into(), design: c.row.id.into() }, step: 0 });
            let _ = write!(
                s,
                r#"<td><button class="cell cell--{outcome}" title="{detail}" aria-label="{row} under “{schedule}”: {outcome}. {detail} Open the diagram." data-testid="cell-{id}" {ROUTE_ATTRIBUTE}="{link}"><span aria-hidden="true">{glyph}</span>{outcome}{dagger}</button><span class="cell-why" aria-hidden="true">{detail}</span></td>"#,
                detail = Escaped(&c.detail),
                row = Escaped(c.row.title),
                schedule = Escaped(c.schedule.title()),
                id = Escaped(&c.id()),
                link = Escaped(&link),
                glyph = glyph(c.outcome),
                dagger = if c.unaffected { r#"<sup aria-hidden="true">†</sup>"# } else { "" },
            );
        }
        s.push_str("</tr>");
    }
    s.push_str(r#"</tbody></table></div><dl class="schedule-notes">"#);
    for sc in Schedule::ALL {
        let _ = write!(s, "<dt>{}</dt><dd>{}</dd>", Escaped(sc.title()), Escaped(sc.about()));
    }
    s.push_str(concat!(
        r#"</dl><p class="compare-key"><span class="cell cell--safe">✓ safe</span> the data came to no harm "#,
        r#"<span class="cell cell--unsafe">✗ unsafe</span> an update was lost or writes were applied out of order "#,
        r#"<span class="cell cell--stalls">‖ stalls</span> safe, but B waited for A to come back"#,
        r#"<span class="compare-dagger">† the jump moves nothing in this design: its lock service times leases by elapsed time, not by the wall clock it steps</span></p>"#,
    ));
    s
}
