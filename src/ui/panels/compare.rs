//! The comparison table: every fault schedule against every design, each cell a button that
//! names, in [`ROUTE_ATTRIBUTE`], the link of its diagram; and, once the table is verified cell
//! by cell, what each cell's verification proved.

use super::{Escaped, ROUTE_ATTRIBUTE};
use crate::scenario::compare::{Cell, Outcome, Schedule, SAFE_MEANS};
use crate::search::wire::Report;
use crate::ui::route::{self, Route, Target};
use crate::ui::shell::TableProofs;
use std::fmt::Write;

fn glyph(o: Outcome) -> &'static str {
    match o {
        Outcome::Safe => "✓",
        Outcome::Unsafe => "✗",
        Outcome::Stalls => "‖",
    }
}

/// What a cell's verification proved, as a mark beside its verdict (`running`: it is being
/// verified now).
fn proof_mark(said: Option<&Report>, running: bool, id: &str) -> String {
    let (class, text, title, link) = match said {
        Some(Report::Proven { safe: true, sentence, .. }) => ("safe", "verified safe", sentence.as_str(), None),
        Some(Report::Proven { safe: false, sentence, link: Some(Ok(code)), .. }) => {
            ("unsafe", "counterexample ▸", sentence.as_str(), Some(code))
        }
        Some(Report::Proven { sentence, .. } | Report::Failed { message: sentence }) => {
            ("unknown", "not verified", sentence.as_str(), None)
        }
        _ if running => ("running", "verifying…", "", None),
        _ => return String::new(),
    };
    let (title, id) = (Escaped(title), Escaped(id));
    match link {
        Some(code) => {
            let hash = route::format(&Route { target: Target::Edited(code.clone()), step: 0 });
            format!(r#"<a class="proof proof--{class}" href="edit/{hash}" title="{title}" data-testid="proof-{id}">{text}</a>"#)
        }
        None => format!(r#"<span class="proof proof--{class}" title="{title}" data-testid="proof-{id}">{text}</span>"#),
    }
}

/// The table's verification: the button that starts it, its progress while it runs (the
/// worker's side writes the states explored), or what it proved.
fn verification(rows: &[Vec<Cell>], proofs: Option<&TableProofs>) -> String {
    let cells: Vec<&Cell> = rows.iter().flatten().collect();
    let button = |label: &str| {
        format!(
            r#"<button class="btn" data-action="verify-table" data-testid="verify-table" title="Check every schedule of up to 2 pauses, partitions and crashes on each cell's grid, one cell after another">{label}</button>"#
        )
    };
    match proofs {
        None => format!(
            r#"<p class="verify-table">{} Each cell below is one hand-written schedule. Verification checks every schedule of up to 2 pauses, partitions and crashes on the cell's grid, cell by cell: several minutes for the whole table.</p>"#,
            button("Verify every cell")
        ),
        Some(p) if p.running => {
            let at = p.said.len();
            let what =
                cells.get(at).map_or_else(String::new, |c| format!(": {} under “{}”", Escaped(c.row.title), Escaped(c.schedule.title())));
            format!(
                r#"<section class="card finder" data-testid="table-proving" aria-live="polite"><h2>Verifying cell {} of {}{what}</h2><p data-testid="find-progress">Starting…</p><progress max="1000" value="0"></progress><p><button class="btn" data-action="find-cancel" data-testid="find-cancel">Cancel</button></p></section>"#,
                at + 1,
                cells.len()
            )
        }
        Some(p) => {
            let count = |safe: bool, counterexample: bool| {
                p.said
                    .iter()
                    .filter(|r| matches!(r, Report::Proven { safe: s, link, .. } if *s == safe && link.is_some() == counterexample))
                    .count()
            };
            let (safe, unsafe_) = (count(true, false), count(false, true));
            let unknown = p.said.len() - safe - unsafe_;
            format!(
                r#"<p class="verify-table" data-testid="table-proved">Verified {} of {} cells: {safe} safe within their bounds, {unsafe_} with a counterexample, {unknown} not verified. {}</p>"#,
                p.said.len(),
                cells.len(),
                button("Verify again")
            )
        }
    }
}

/// The table with its introduction, schedule notes and key, and its verification so far.
pub fn compare_table(rows: &[Vec<Cell>], proofs: Option<&TableProofs>) -> String {
    let mut s = String::from(concat!(
        r#"<p class="eyebrow">Compare designs</p><h1 id="lesson-title">One schedule, every design</h1>"#,
        r#"<p class="lede">The same two clients every time: A takes the lock and works, B wants it from 20 ms on, and every lease lasts 1,000 ms. "#,
        r#"Each column applies one fault to A or to the lock service. Choose a cell to watch that run step by step.</p>"#,
        r#"<p class="lede" data-testid="safe-means">"#,
    ));
    s.push_str(&Escaped(SAFE_MEANS).to_string());
    s.push_str("</p>");
    s.push_str(&verification(rows, proofs));
    s.push_str(concat!(
        r#"<p class="compare-hint">Swipe the table sideways for each schedule's verdict →</p>"#,
        r#"<div class="compare-scroll" tabindex="0" role="region" aria-label="The comparison"><table class="compare-table"><thead><tr><th scope="col">Design</th><th scope="col">Fencing token from</th>"#,
    ));
    for sc in Schedule::ALL {
        let _ = write!(s, r#"<th scope="col" title="{}">{}</th>"#, Escaped(sc.about()), Escaped(sc.title()));
    }
    s.push_str("</tr></thead><tbody>");
    let mut index = 0;
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
            let said = proofs.and_then(|p| p.said.get(index));
            let now = proofs.is_some_and(|p| p.running && p.said.len() == index);
            s.insert_str(s.len() - "</td>".len(), &proof_mark(said, now, &c.id()));
            index += 1;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::compare::table;

    #[test]
    fn the_table_shows_each_cells_proof_and_the_one_being_verified() {
        let rows = table().expect("the table");
        assert!(compare_table(&rows, None).contains(r#"data-action="verify-table""#));
        let safe = Report::Proven { safe: true, sentence: "Safe for every schedule".into(), faults: Vec::new(), link: None };
        let unsafe_ =
            Report::Proven { safe: false, sentence: "Unsafe: …".into(), faults: vec!["A pauses".into()], link: Some(Ok("1.x".into())) };
        let running = TableProofs { said: vec![unsafe_.clone(), safe.clone()], running: true };
        let page = compare_table(&rows, Some(&running));
        let ids: Vec<String> = rows.iter().flatten().map(|c| c.id()).collect();
        assert!(
            page.contains(&format!(r##"href="edit/#/edit/1.x/0" title="Unsafe: …" data-testid="proof-{}">counterexample ▸"##, ids[0])),
            "{page}"
        );
        assert!(page.contains(&format!(r#"data-testid="proof-{}">verified safe"#, ids[1])));
        assert!(page.contains(&format!(r#"data-testid="proof-{}">verifying…"#, ids[2])));
        assert!(page.contains(&format!("Verifying cell 3 of {}", ids.len())) && page.contains("find-cancel"));
        let stopped = compare_table(&rows, Some(&TableProofs { said: vec![unsafe_, safe], running: false }));
        assert!(
            stopped.contains(&format!(
                "Verified 2 of {} cells: 1 safe within their bounds, 1 with a counterexample, 0 not verified.",
                ids.len()
            )),
            "{stopped}"
        );
    }
}
