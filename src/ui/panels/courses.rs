//! Courses on the page, as text: the front page (the paths a newcomer can take, how long each
//! takes and where it starts, where the last visit stopped, and what this device keeps), the
//! paths at the top of the lesson menu, and the card of the course being taken.

use super::{Escaped, ROUTE_ATTRIBUTE};
use crate::course::{BuiltIn, Course, Open, BUILT_IN};
use crate::scenario::lessons;
use crate::ui::course::Taking;
use crate::ui::progress::Record;
use crate::ui::route::{self, Route, Target};
use std::fmt::Write;

/// Names what a stop opens, as the page titles it: its own title, else its lesson's.
pub fn stop_title(course: &Course, at: usize) -> String {
    let stop = &course.stops[at];
    if !stop.title.is_empty() {
        return stop.title.clone();
    }
    match &stop.open {
        Open::Lesson(id) => lessons::entry(id).map_or(id.clone(), |e| e.title.to_string()),
        Open::Cell(cell) => format!("The comparison's cell {cell}"),
        Open::Edited(_) => "An edited scenario".to_string(),
    }
}

/// Returns each shipped course that reads (all do; the tests check), with its id.
fn shipped() -> impl Iterator<Item = (&'static BuiltIn, Course)> {
    BUILT_IN.iter().filter_map(|b| Some((b, b.course().ok()?)))
}

/// One path of the front page: what it is, for whom, how long it takes, where it starts, and
/// the buttons that start it or present it.
fn path_card(s: &mut String, b: &BuiltIn, c: &Course, first: bool) {
    let _ = write!(
        s,
        r#"<li class="path{}" data-testid="path-{}"><h3>{}</h3><p class="path-meta">{} · {} stops · about {} minutes</p><p>{}</p><p class="path-first">Starts with: <strong>{}</strong></p><div class="path-actions"><button class="btn {}" data-action="course:{}" data-testid="start-{}">{} ▸</button><button class="btn btn--ghost" data-action="course-present:{}" title="Start it in presenter mode, full screen, for a class">▶ Present it</button></div></li>"#,
        if first { " path--first" } else { "" },
        b.id,
        Escaped(&c.title),
        Escaped(&c.audience),
        c.stops.len(),
        c.minutes(),
        Escaped(&c.intro),
        Escaped(&stop_title(c, 0)),
        if first { "btn--primary" } else { "" },
        b.id,
        b.id,
        if first { "Start here" } else { "Start" },
        b.id
    );
}

/// Where the last visit stopped, as a card with the way back, if anything was left unfinished.
fn continue_card(s: &mut String, p: &Record) {
    let mut ways = Vec::new();
    if let Some((reference, at)) = &p.course {
        if let Ok(t) = Taking::named(reference, *at) {
            let link = t.link(0);
            ways.push(format!(
                r#"<button class="btn btn--primary" {ROUTE_ATTRIBUTE}="{}" data-testid="continue-course">Continue “{}”: stop {} of {} ▸</button>"#,
                Escaped(&link),
                Escaped(&t.course.title),
                t.at + 1,
                t.course.stops.len()
            ));
        }
    }
    if let Some(d) = &p.drill {
        ways.push(format!(
            r#"<button class="btn" data-action="drill-continue" data-testid="continue-drill">Continue the interview drill: question {} ▸</button>"#,
            d.question + 1
        ));
    }
    if let Some(last) = p.last.as_deref().filter(|l| !l.starts_with(route::COURSE)) {
        if let Ok(Some(Route { target: Target::Lesson(id), .. })) = route::parse(last) {
            if let Ok(e) = lessons::entry(&id) {
                ways.push(format!(
                    r#"<button class="btn" {ROUTE_ATTRIBUTE}="{}" data-testid="continue-lesson">Back to “{}” ▸</button>"#,
                    Escaped(last),
                    Escaped(e.title)
                ));
            }
        }
    }
    if !ways.is_empty() {
        let _ = write!(
            s,
            r#"<section class="card continue" data-testid="continue"><h2>Welcome back</h2><div class="continue-ways">{}</div></section>"#,
            ways.join("")
        );
    }
}

/// What this device keeps of the learner's progress, with its export, import and clearing.
fn progress_card(s: &mut String, p: &Record, score: (u32, u32)) {
    let all = lessons::index().len();
    let (right, answered) = score;
    let _ = write!(
        s,
        r#"<section class="card progress" data-testid="progress"><h2>Your progress on this device</h2><p>{} of {all} lessons visited, {} stepped through to the end; {right} of {answered} predictions right.</p><p class="muted">It stays in this browser only. Take it to another with a file.</p><div class="progress-actions"><button class="btn" data-action="export-progress" data-testid="export-progress">Export as a file</button><label class="btn file-button">Import a file…<input type="file" accept=".json,application/json" data-pick="progress" data-testid="import-progress"></label><button class="btn btn--ghost" data-action="clear-progress" data-testid="clear-progress">Clear everything kept</button></div></section>"#,
        p.visited.len(),
        p.finished.len()
    );
}

/// The front page: the paths first (the first is where a newcomer starts), where the last
/// visit stopped, the other ways in, and the progress kept on this device.
pub fn home(p: &Record, score: (u32, u32)) -> String {
    let mut s = String::from(
        r#"<section class="home" data-testid="home"><div class="home-hero"><h1 id="lesson-title">Why distributed locks fail, and how fencing tokens save them</h1><p class="lede">Clients, a lock service and the data they protect, stepped through one event at a time as sequence diagrams: pauses, expiring leases, slow networks, clocks that jump, crashes and failovers, in Redis, Redlock, ZooKeeper, etcd, PostgreSQL, Kubernetes and more. Each run stops to ask what happens next before it shows you.</p></div>"#,
    );
    continue_card(&mut s, p);
    s.push_str(r#"<h2 class="paths-head">Pick a path</h2><ol class="paths" data-testid="paths">"#);
    for (i, (b, c)) in shipped().enumerate() {
        path_card(&mut s, b, &c, i == 0);
    }
    let lessons = lessons::index().len();
    let _ = write!(
        s,
        r##"</ol><p class="home-more">Or open any of the {lessons} lessons from <button class="link" data-action="menu">☰ Lessons</button>, <button class="link" {ROUTE_ATTRIBUTE}="#/compare">compare every design under one fault</button>, <button class="link" data-action="drill-start">drill the interview questions</button>, <button class="link" {ROUTE_ATTRIBUTE}="#/make">make a course of your own</button>, or present one a teacher sent you: <label class="link file-button">open a course file…<input type="file" accept=".json,application/json" data-pick="course" data-testid="open-course"></label>. Press <kbd>?</kbd> for the keys.</p>"##
    );
    progress_card(&mut s, p, score);
    s.push_str("</section>");
    s
}

/// The paths, for the top of the lesson menu, each naming its link.
pub fn menu_paths() -> String {
    let mut s = String::from(r#"<section class="topic paths-menu" data-testid="menu-paths"><h2>Paths</h2><ul>"#);
    for (b, c) in shipped() {
        let link = route::format(&Route { target: Target::Course { course: b.id.into(), stop: 0 }, step: 0 });
        let _ = write!(
            s,
            r#"<li><button class="lesson-link" {ROUTE_ATTRIBUTE}="{}" data-testid="menu-path-{}">{} <span class="muted">· {} min</span></button></li>"#,
            Escaped(&link),
            b.id,
            Escaped(&c.title),
            c.minutes()
        );
    }
    s.push_str(
        r##"<li><button class="lesson-link" data-route="#/make" data-testid="menu-make">Make a course…</button></li></ul></section>"##,
    );
    s
}

/// The card of the course being taken: where it stands, the stop's notes for whoever teaches
/// it (folded while the run's outcomes are to be predicted), and the ways on.
pub fn course_card(t: &Taking, setup: bool, predicting: bool) -> String {
    let (n, all) = (t.at + 1, t.course.stops.len());
    let stop = t.stop();
    let mut s = format!(
        r#"<section class="card course" data-testid="course"><h2>{} · stop {n} of {all}</h2><p class="course-stop">{}</p><p class="muted">About {} minutes; {} left after this stop.</p>"#,
        Escaped(&t.course.title),
        Escaped(&stop_title(&t.course, t.at)),
        stop.minutes,
        t.minutes_left()
    );
    if setup && t.at == 0 && !t.course.intro.is_empty() {
        let _ = write!(s, r#"<p class="course-intro">{}</p>"#, Escaped(&t.course.intro));
    }
    // Notes may tell the outcome: while it is to be predicted they wait folded.
    if !stop.notes.is_empty() {
        let (open, summary) = if predicting { ("", "Notes (they may tell the outcome)") } else { (" open", "Notes") };
        let _ = write!(
            s,
            r#"<details class="course-notes" data-testid="course-notes"{open}><summary>{summary}</summary><p>{}</p></details>"#,
            Escaped(&stop.notes)
        );
    }
    let _ = write!(
        s,
        r#"<div class="course-actions"><button class="btn btn--small" data-action="course-previous" data-testid="course-previous"{}>◂ Stop before</button><button class="btn btn--small btn--primary" data-action="course-next" data-testid="course-next"{}>Next stop ▸</button><button class="btn btn--small btn--ghost" data-action="course-notes" data-testid="course-notes-window" title="The notes of each stop in a window of their own, for a second screen">Notes window</button><button class="btn btn--small btn--ghost" data-action="course-leave" data-testid="course-leave">Leave the course</button></div></section>"#,
        if t.at == 0 { " disabled" } else { "" },
        if n == all { " disabled" } else { "" }
    );
    s
}

/// The page of notes (opened from a course's card, for a second screen): the notes of the stop
/// the course is at in this browser, and what comes next; it follows the course as it moves.
pub fn notes_page(p: &Record) -> String {
    let taking = p.course.as_ref().and_then(|(reference, at)| Taking::named(reference, *at).ok());
    let Some(t) = taking else {
        return r#"<section class="notes-page" data-testid="notes-page"><h1 id="lesson-title">Notes for the teacher</h1><p>No course is being taken in this browser. Start one in the other window, and the notes of each stop follow here.</p></section>"#.into();
    };
    let stop = t.stop();
    let next = t.next().map_or("This is the last stop.".to_string(), |n| format!("Next: {}", stop_title(&n.course, n.at)));
    format!(
        r#"<section class="notes-page" data-testid="notes-page"><p class="eyebrow">{} · stop {} of {} · about {} minutes</p><h1 id="lesson-title">{}</h1><p class="notes-text" data-testid="notes-text">{}</p><p class="muted">{}</p></section>"#,
        Escaped(&t.course.title),
        t.at + 1,
        t.course.stops.len(),
        stop.minutes,
        Escaped(&stop_title(&t.course, t.at)),
        if stop.notes.is_empty() { "No notes for this stop.".to_string() } else { Escaped(&stop.notes).to_string() },
        Escaped(&next)
    )
}
