//! The page's chrome as text: the top bar (the skip link, the lesson menu's button, the name,
//! the run's exports, the presenter and theme switches, and the notice), and a run's heading
//! (where it comes from, its title, its buttons and its verdict so far). Buttons name their
//! command in `data-action` (see `ui::shell::binding`).

use super::Escaped;
use crate::engine::Trace;
use crate::ui::shell::binding::BINDINGS;
use std::fmt::Write;

/// The name of the tool, in the top bar: the way back to the front page.
const BRAND: &str = r#"<button class="brand" data-action="home" data-testid="home-link" title="The front page: the paths, and where you left off"><span class="brand-mark" aria-hidden="true">⟂</span><span class="brand-name">Lockstep</span><span class="brand-tag">distributed locks and fencing tokens, step by step</span></button>"#;

/// Names a key as its cap reads.
fn key_cap(key: &str) -> &str {
    match key {
        " " => "Space",
        "ArrowLeft" => "←",
        "ArrowRight" => "→",
        "PageDown" => "Page Down",
        "PageUp" => "Page Up",
        "Escape" => "Esc",
        key => key,
    }
}

/// The list of every key and what it does, read from the bindings, in a popover that `?` or
/// the top bar's button opens and Escape closes.
pub fn keys_list() -> String {
    let mut s = String::from(
        r#"<div id="keys" class="keys" popover data-testid="keys"><div class="keys-head"><h2>Keys</h2><button class="btn btn--small" popovertarget="keys" popovertargetaction="hide">Close</button></div><p class="muted">A clicker's Page Down and Page Up go through a lesson, a course or a drill by themselves.</p><dl>"#,
    );
    for b in BINDINGS.iter().filter(|b| !b.keys.is_empty()) {
        s.push_str("<dt>");
        for (i, key) in b.keys.iter().enumerate() {
            let _ = write!(s, "{}<kbd>{}</kbd>", if i > 0 { " " } else { "" }, Escaped(key_cap(key)));
        }
        let _ = write!(s, "</dt><dd>{}</dd>", Escaped(b.help));
    }
    s.push_str("</dl></div>");
    s
}

/// The presenter switch and the theme switch. The theme is the page's `data-theme`, set before
/// the first paint; the style sheet shows the labels that fit the page's state.
const SWITCHES: &str = r#"<button class="btn btn--ghost keys-button" popovertarget="keys" data-testid="keys-button" title="Every key (?)" aria-label="Keys">?</button><button class="btn btn--ghost" data-action="present" data-testid="present" title="Presenter mode: full screen, large type, no side panels (F; Escape leaves it)"><span class="present-on">▶ Present</span><span class="present-off">✕ Leave</span></button><button class="btn btn--ghost" data-action="theme" data-testid="theme" aria-label="Switch between light and dark theme"><span class="theme-to-light">☀ Light</span><span class="theme-to-dark">☾ Dark</span></button>"#;

/// The button that searches for a failure of the run on screen.
const FIND_BUTTON: &str = r#"<button class="btn" data-action="find" data-testid="find" title="Search fault schedules for one that makes this scenario fail, in the background">Find a failure</button>"#;

/// The button that checks every fault schedule on a grid for the run on screen.
const PROVE_BUTTON: &str = r#"<button class="btn" data-action="prove" data-testid="prove" title="Check every schedule of up to 2 pauses, partitions and crashes on a 100 ms grid: prove this scenario safe within those bounds, or find the first that is not">Prove</button>"#;

/// The button that adds the run on screen, at its step, to the course being made.
const ADD_BUTTON: &str = r#"<button class="btn" data-action="add-to-course" data-testid="add-to-course" title="Add this run, at the step on screen, to the course you are making (☰ Lessons → Make a course…)">+ Course</button>"#;

/// The button that opens the run on screen in the editor.
const EDIT_BUTTON: &str = r#"<button class="btn" data-action="edit" data-testid="edit" title="Change this scenario's numbers and faults and watch the run change">What if…</button>"#;

/// The run's exports (SVG, Mermaid, the scenario file when there is one, the embed code) in a
/// menu that opens from one button and closes on a choice, a click elsewhere or Escape; and,
/// shown only when embedded, a link to the full page.
fn exports(has_file: bool) -> String {
    // Each choice also closes the menu (`popovertargetaction="hide"`); its click still reaches the page.
    const HIDE: &str = r#"popovertarget="exports" popovertargetaction="hide""#;
    let item = |name: &str, label: &str, title: &str| {
        format!(r#"<button class="btn btn--ghost" data-action="{name}" data-testid="{name}" title="{title}" {HIDE}>{label}</button>"#)
    };
    let mut items = item("export-svg", "Diagram as SVG", "Download this diagram as an SVG file");
    items += &item("export-mermaid", "Run as Mermaid text", "Download the run as Mermaid sequenceDiagram text");
    if has_file {
        items += &item("export-json", "Scenario file (JSON)", "Download this scenario's file, which the editor opens");
    }
    items += &item("embed", "Embed code", "Copy the code that shows this run, its playback and narration in a slide, course page or post");
    format!(
        concat!(
            r#"<button class="btn btn--ghost" popovertarget="exports" data-testid="exports-button" title="Download the diagram, the run or the scenario, or embed it elsewhere">Export ▾</button>"#,
            r#"<div id="exports" class="exports" popover aria-label="Export" data-testid="exports">{}</div>"#,
            r#"<button class="btn btn--ghost embed-open" data-action="open-full" data-testid="open-full" title="Open this run in Lockstep, with the lessons, the editor and the rest">Open in Lockstep ↗</button>"#
        ),
        items
    )
}

/// The top of the page: the skip link, the bar with the name, the exports of the run on screen
/// (`run`: whether one is, and whether it has a file) and the switches, and the notice if there
/// is one.
pub fn top(run: Option<bool>, notice: Option<&str>) -> String {
    let exports = run.map(exports).unwrap_or_default();
    let mut s = format!(
        r#"<button class="skip-link" data-action="skip">Skip to playback</button>{}<header class="topbar"><button class="btn btn--ghost menu-button" data-action="menu" data-testid="menu" title="The lessons, the comparison and the interview questions">☰ Lessons</button>{BRAND}<div class="topbar-actions">{exports}{SWITCHES}</div></header>"#,
        keys_list()
    );
    if let Some(notice) = notice {
        let _ = write!(
            s,
            r#"<div class="notice" role="alert" data-testid="notice"><span>{}</span><button class="btn btn--ghost" data-action="dismiss" aria-label="Dismiss this message">✕</button></div>"#,
            Escaped(notice)
        );
    }
    s
}

/// Where a run's heading says it comes from.
pub enum From<'a> {
    /// A lesson, under its topic.
    Topic(&'a str),
    /// A cell of the comparison, with a link back to the table.
    Table,
    /// An edited scenario, from the run under this topic; `true` if it has a title of its own.
    Edited(&'a str, bool),
    /// A stop of a course: its title, the stop's number and how many there are.
    Course(&'a str, usize, usize),
}

/// The run's heading: where it comes from, its title, the "Find a failure" and "Prove" buttons
/// (every run can be searched and verified), the "What if…" button (`edit`), the button that
/// adds it to the course being made, and the verdict so far.
pub fn lesson_head(from: From, title: &str, edit: bool, verdict: &str) -> String {
    let (eyebrow, prefix) = match from {
        From::Table => (
            r##"<button class="eyebrow back-link" data-route="#/compare" data-testid="back-to-table">← Compare designs</button>"##
                .to_string(),
            "",
        ),
        From::Topic(topic) => (format!(r#"<p class="eyebrow">{}</p>"#, Escaped(topic)), ""),
        From::Edited(topic, own) => (format!(r#"<p class="eyebrow">Edited · {}</p>"#, Escaped(topic)), if own { "" } else { "What if: " }),
        From::Course(course, n, all) => {
            (format!(r#"<p class="eyebrow" data-testid="course-eyebrow">{} · {n} of {all}</p>"#, Escaped(course)), "")
        }
    };
    let (find, prove, edit) = (FIND_BUTTON, PROVE_BUTTON, if edit { EDIT_BUTTON } else { "" });
    format!(
        r#"<div class="lesson-head"><div>{eyebrow}<h1 id="lesson-title" data-testid="lesson-title">{prefix}{}</h1></div><div class="lesson-actions">{find}{prove}{edit}{ADD_BUTTON}{verdict}</div></div>"#,
        Escaped(title)
    )
}

/// The verdict as far as the cursor has got.
pub fn verdict_text(trace: &Trace, cursor: Option<usize>) -> String {
    let (class, text) = super::verdict(trace, cursor);
    format!(r#"<div class="verdict" role="status" data-testid="verdict"><span class="{class}">{}</span></div>"#, Escaped(&text))
}
