//! The failure search's card: progress while it runs, then the failure it found (with a link
//! that opens the shrunk scenario in the editor) or exactly what it searched.

use super::Escaped;
use crate::present::number::group_u;
use crate::search::wire::Report;
use crate::ui::route::{self, Route, Target};
use std::fmt::Write;

/// Says how far the search has gone.
pub fn progress_text(tried: usize, budget: usize) -> String {
    format!("{} of {} fault schedules tried", group_u(tried as u64), group_u(budget as u64))
}

/// Writes the card for the search's latest report; `from_player` says whether the editor is a
/// page away (`edit/`) rather than this page.
pub fn finder_card(report: &Report, from_player: bool) -> String {
    let close = r#"<button class="btn btn--ghost" data-action="find-cancel" data-testid="find-close">Close</button>"#;
    let mut s = String::from(r#"<section class="card finder" data-testid="finder" aria-live="polite">"#);
    match report {
        Report::Progress { tried, budget } => {
            let _ = write!(
                s,
                r#"<h2>Looking for a failure…</h2><p data-testid="find-progress">{}</p><progress max="{budget}" value="{tried}"></progress><p><button class="btn" data-action="find-cancel" data-testid="find-cancel">Cancel</button></p>"#,
                progress_text(*tried, *budget)
            );
        }
        Report::Found { sentence, faults, tried, link } => {
            let _ = write!(s, r#"<h2>Found a failure</h2><p data-testid="find-found">{}</p>"#, Escaped(sentence));
            if faults.is_empty() {
                s.push_str("<p>No fault needed: the scenario fails as it is.</p>");
            } else {
                s.push_str("<p>Caused by:</p><ul>");
                for f in faults {
                    let _ = write!(s, "<li>{}</li>", Escaped(f));
                }
                s.push_str("</ul>");
            }
            if *tried == 1 {
                s.push_str(r#"<p class="muted">Found in the first schedule run: the scenario as it is.</p>"#);
            } else {
                let _ = write!(
                    s,
                    r#"<p class="muted">Found among {} schedules, then shrunk to the fewest, smallest faults.</p>"#,
                    group_u(*tried as u64)
                );
            }
            match link {
                Ok(code) => {
                    let hash = route::format(&Route { target: Target::Edited(code.clone()), step: 0 });
                    let page = if from_player { "edit/" } else { "" };
                    let _ = write!(
                        s,
                        r#"<p class="finder-actions"><a class="btn btn--primary" href="{page}{hash}" data-testid="find-open">Open it in the editor ▸</a> {close}</p>"#
                    );
                }
                Err(why) => {
                    let _ = write!(s, "<p>{}</p><p>{close}</p>", Escaped(why));
                }
            }
        }
        Report::Nothing { searched } => {
            let _ = write!(s, r#"<h2>No failure found</h2><p data-testid="find-nothing">{}</p><p>{close}</p>"#, Escaped(searched));
        }
        Report::Sampled { tried, failed } => {
            let _ = write!(
                s,
                "<h2>Sampled</h2><p>{} schedules run, {} failed.</p><p>{close}</p>",
                group_u(*tried as u64),
                group_u(*failed as u64)
            );
        }
        Report::Failed { message } => {
            let _ = write!(s, r#"<h2>The search could not start</h2><p>{}</p><p>{close}</p>"#, Escaped(message));
        }
    }
    s.push_str("</section>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_then_a_found_failure_with_a_link_to_the_editor() {
        let p = finder_card(&Report::Progress { tried: 1_250, budget: 20_000 }, true);
        assert!(p.contains("1,250 of 20,000") && p.contains(r#"data-action="find-cancel""#));
        let found =
            Report::Found { sentence: "A's <write> landed.".into(), faults: vec!["A pauses".into()], tried: 7, link: Ok("1.abc".into()) };
        let card = finder_card(&found, true);
        assert!(card.contains("A&#39;s &lt;write&gt; landed.") || card.contains("A's &lt;write&gt; landed."), "{card}");
        assert!(card.contains(r#"href="edit/#/edit/1.abc/0""#), "{card}");
        assert!(finder_card(&found, false).contains(r##"href="#/edit/1.abc/0""##));
        assert!(card.contains("Found among 7 schedules, then shrunk"), "{card}");
        let at_once = Report::Found { sentence: "A's write landed.".into(), faults: Vec::new(), tried: 1, link: Ok("1.abc".into()) };
        assert!(finder_card(&at_once, true).contains("Found in the first schedule run: the scenario as it is."));
    }
}
