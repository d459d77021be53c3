//! The failure search's card: progress while it runs, then the failure it found (with a link
//! that opens the shrunk scenario in the editor) or exactly what it searched. A verification
//! shows in the same card: states explored, then proven safe within its bounds, unsafe with
//! its counterexample, or not verified.

use super::Escaped;
use crate::present::number::group_u;
use crate::search::wire::Report;
use crate::ui::route::{self, Route, Target};
use std::fmt::Write;

/// Says how far the search has gone.
pub fn progress_text(tried: usize, budget: usize) -> String {
    format!("{} of {} fault schedules tried", group_u(tried as u64), group_u(budget as u64))
}

/// Says how far a verification has gone.
pub fn proving_text(states: usize) -> String {
    format!("{} distinct states explored", group_u(states as u64))
}

/// The button that opens a found scenario in the editor, and the close button.
fn open_buttons(link: &Result<String, String>, from_player: bool, close: &str) -> String {
    match link {
        Ok(code) => {
            let hash = route::format(&Route { target: Target::Edited(code.clone()), step: 0 });
            let page = if from_player { "edit/" } else { "" };
            format!(
                r#"<p class="finder-actions"><a class="btn btn--primary" href="{page}{hash}" data-testid="find-open">Open it in the editor ▸</a> {close}</p>"#
            )
        }
        Err(why) => format!("<p>{}</p><p>{close}</p>", Escaped(why)),
    }
}

/// The faults of a failure, as a list.
fn fault_list(faults: &[String]) -> String {
    if faults.is_empty() {
        return "<p>No fault needed: the scenario fails as it is.</p>".into();
    }
    let items: String = faults.iter().map(|f| format!("<li>{}</li>", Escaped(f))).collect();
    format!("<p>Caused by:</p><ul>{items}</ul>")
}

/// Writes the card for the search's latest report; `from_player` says whether the editor is a
/// page away (`edit/`) rather than this page.
pub fn finder_card(report: &Report, from_player: bool) -> String {
    let close = r#"<button class="btn btn--ghost" data-action="find-cancel" data-testid="find-close">Close</button>"#;
    let mut s = String::from(r#"<section class="card finder" data-testid="finder" aria-live="polite" tabindex="-1">"#);
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
            s.push_str(&fault_list(faults));
            if *tried == 1 {
                s.push_str(r#"<p class="muted">Found in the first schedule run: the scenario as it is.</p>"#);
            } else {
                let _ = write!(
                    s,
                    r#"<p class="muted">Found among {} schedules, then shrunk to the fewest, smallest faults.</p>"#,
                    group_u(*tried as u64)
                );
            }
            s.push_str(&open_buttons(link, from_player, close));
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
        Report::Proving { states, permille } => {
            let _ = write!(
                s,
                r#"<h2>Proving…</h2><p data-testid="find-progress">{}</p><progress max="1000" value="{permille}"></progress><p><button class="btn" data-action="find-cancel" data-testid="find-cancel">Cancel</button></p>"#,
                proving_text(*states)
            );
        }
        Report::Proven { safe: true, sentence, .. } => {
            let _ = write!(s, r#"<h2>Verified safe</h2><p data-testid="proof">{}</p><p>{close}</p>"#, Escaped(sentence));
        }
        Report::Proven { safe: false, sentence, faults, link: Some(link) } => {
            let _ = write!(s, r#"<h2>Unsafe: a counterexample</h2><p data-testid="proof">{}</p>"#, Escaped(sentence));
            s.push_str(&fault_list(faults));
            s.push_str(&open_buttons(link, from_player, close));
        }
        Report::Proven { safe: false, sentence, link: None, .. } => {
            let _ = write!(s, r#"<h2>Not verified</h2><p data-testid="proof">{}</p><p>{close}</p>"#, Escaped(sentence));
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

    #[test]
    fn a_verification_shows_its_states_then_what_it_proved() {
        let p = finder_card(&Report::Proving { states: 12_345, permille: 250 }, true);
        assert!(p.contains("12,345 distinct states explored") && p.contains(r#"value="250""#) && p.contains("find-cancel"), "{p}");
        let safe =
            Report::Proven { safe: true, sentence: "Safe for every schedule of ≤ 2 faults".into(), faults: Vec::new(), link: None };
        assert!(finder_card(&safe, true).contains("<h2>Verified safe</h2>"));
        let unsafe_ =
            Report::Proven { safe: false, sentence: "Unsafe: …".into(), faults: vec!["A pauses".into()], link: Some(Ok("1.x".into())) };
        let card = finder_card(&unsafe_, true);
        assert!(card.contains("Unsafe: a counterexample") && card.contains("<li>A pauses</li>") && card.contains("find-open"), "{card}");
        let unknown = Report::Proven { safe: false, sentence: "Not verified: …".into(), faults: Vec::new(), link: None };
        assert!(finder_card(&unknown, true).contains("<h2>Not verified</h2>"));
    }
}
