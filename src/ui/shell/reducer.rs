//! The reducer: an action and the state before it give the state after it and the effects to
//! run. Pure: nothing here touches the browser; `ui::web` runs the effects.

use super::action::{Action, Copied, CourseMove, Export};
use super::effect::{Content, Effect, Reduced};
use super::state::{AppState, Env, SearchState, TableProofs, FIT, ZOOMS};
use crate::present::Asks;
use crate::scenario::compare;
use crate::search::wire::{self, Report, Subject};
use crate::search::Bounds;
use crate::ui::player::{gate, Playback, Player};
use crate::ui::progress::Record;
use crate::ui::route::{self, Target};
use std::rc::Rc;

/// Applies one action. Besides the effects an action asks for, a lesson the state comes to await
/// is fetched, and preferences and progress that changed are kept.
pub fn reduce(s: &AppState, action: Action) -> Reduced {
    let (mut state, mut effects) = act(s, action);
    // An answer kept for the end is scored there.
    if let Some(next) = state.take() {
        state = Some(match next.deferred {
            Some(right) if next.player.step >= next.player.steps => AppState { deferred: None, ..next }.scored(right),
            _ => next,
        });
    }
    if let Some(next) = &mut state {
        let progress = next.tracked();
        // The page of notes only follows what the course's page keeps.
        if progress != *s.progress && next.env.page != super::state::Page::Notes {
            next.progress = Rc::new(progress);
            effects.push(Effect::KeepProgress(next.progress.clone()));
        }
        if let Some((entry, _)) = next.pending.filter(|(e, _)| s.pending.is_none_or(|(was, _)| was.id != e.id)) {
            effects.push(Effect::Fetch(entry.id));
        }
        if next.env.preferences != s.env.preferences {
            effects.push(Effect::Keep(next.env.preferences));
        }
    }
    (state, effects)
}

/// What one action does and the effects it asks for by itself.
fn act(s: &AppState, action: Action) -> Reduced {
    let changed = |state: AppState| (Some(state), Vec::new());
    let effects = |effects: Vec<Effect>| (None, effects);
    match action {
        // The keyboard does not drive a run hidden behind the table.
        Action::Play(_) | Action::Beat(_) if s.table.is_some() => effects(Vec::new()),
        // A clicker's key at an open question reveals its answer: the class has said theirs aloud.
        Action::Play(Playback::Forward | Playback::TogglePlay | Playback::ToEnd) | Action::Beat(true) if s.question().is_some() => {
            answer(s, None)
        }
        Action::Play(playback) => match s.moved(s.player.apply(playback)) {
            player if player == s.player => effects(Vec::new()),
            player => changed(AppState { player, ..s.clone() }),
        },
        Action::Beat(forward) => beat(s, forward),
        Action::Open(target, step) => {
            // A link followed leaves the drill or course the run belonged to.
            let left = AppState { drill: None, course: None, ..s.clone() };
            let state = match target {
                Target::Table => AppState { table: None, notice: None, pending: None, view: None, ..left }.with_table(),
                target => left.open(target, step),
            };
            // A link in the lesson menu closes it, and the page opened shows from its top.
            (Some(state), vec![Effect::Menu(Some(false)), Effect::ToTop])
        }
        Action::Hash(hash) => followed(s, &hash),
        action @ (Action::Course(_)
        | Action::DrillStart
        | Action::DrillNext
        | Action::DrillContinue
        | Action::DrillLeave
        | Action::Picked(..)
        | Action::ExportProgress
        | Action::ClearProgress
        | Action::Draft(_)
        | Action::UseDraft(_)) => super::learning::learning(s, action),
        Action::Fetched(id, file) => match s.arrived(id, file) {
            next @ AppState { prove_next: Some(_), run: Some(_), .. } => prove_arrived(next),
            next => changed(next),
        },
        Action::Answer(choice) => answer(s, Some(choice)),
        Action::Predict => {
            let preferences = super::preferences::Preferences { predicting: !s.env.preferences.predicting, ..s.env.preferences };
            changed(AppState { env: Env { preferences, ..s.env }, ..s.clone() })
        }
        action @ (Action::Zoom(_) | Action::Refit(_) | Action::Present(_)) => laid_out(s, action),
        Action::Dismiss => changed(AppState { notice: None, ..s.clone() }),
        Action::Notice(notice) => changed(AppState { notice: Some(notice), ..s.clone() }),
        Action::Kept(progress) => changed(AppState { progress, ..s.clone() }),
        Action::Find => find(s, None),
        Action::Prove => find(s, Some("")),
        Action::ProveLesson(what) => prove_lesson(s, &what),
        Action::VerifyTable => verify_table(s),
        Action::Report(report) => reported(s, report),
        Action::FindClose => (Some(AppState { finding: None, proving: stopped(s), ..s.clone() }), vec![Effect::StopSearch]),
        action @ (Action::Theme
        | Action::NotesWindow
        | Action::Keys
        | Action::Menu(_)
        | Action::Elsewhere
        | Action::Skip
        | Action::Embed
        | Action::OpenFull
        | Action::Export(_)) => effects(browser_only(s, action)),
        Action::Copied(what, ok) => changed(AppState { notice: Some(copied(&what, ok)), ..s.clone() }),
        #[cfg(editing)]
        Action::WhatIf if s.env.page == super::state::Page::Editor => changed(s.start_editing()),
        Action::WhatIf => effects(vec![Effect::OpenEditor]),
        #[cfg(editing)]
        Action::Edit(super::action::EditAction::CopyLink) => effects(vec![Effect::CopyLink]),
        #[cfg(editing)]
        Action::Edit(edit) => changed(s.edit(edit)),
    }
}

/// Follows the address's hash: the page's own changes nothing (but an empty page opens even an
/// empty address); each page hands the other the links that are its (an edited scenario's to
/// the editor's page, a course's to the player's); any other opens what it names.
fn followed(s: &AppState, hash: &str) -> Reduced {
    let page = s.env.page;
    if hash == s.hash() && !s.is_blank() {
        (None, Vec::new())
    } else if page == super::state::Page::Player && hash.starts_with(route::EDITED) {
        (None, vec![Effect::OpenEditor])
    } else if page == super::state::Page::Editor && hash.starts_with(route::COURSE) {
        (None, vec![Effect::OpenPlayer])
    } else {
        (Some(s.follow(hash)), Vec::new())
    }
}

/// What an action on how the run is laid out does: the zoom, the room the page gives it, and
/// presenter mode, which tells it on its story's axis.
fn laid_out(s: &AppState, action: Action) -> Reduced {
    match action {
        Action::Zoom(by) => {
            let zoom = if by == 0 { FIT } else { s.zoom.saturating_add_signed(isize::from(by)).min(ZOOMS.len() - 1) };
            (Some(AppState { zoom, ..s.clone() }), Vec::new())
        }
        Action::Refit(room) => {
            let run = s.run.as_ref().map(|run| run.fitted(room, s.presenting));
            let editing = s.editing.as_ref().map(|e| Rc::new(e.in_room(room)));
            (Some(AppState { env: Env { room, ..s.env }, run, editing, ..s.clone() }), Vec::new())
        }
        Action::Present(on) => {
            let presenting = on.unwrap_or(!s.presenting);
            let run = s.run.as_ref().map(|run| run.fitted(run.room, presenting));
            (Some(AppState { presenting, run, ..s.clone() }), vec![Effect::Present(presenting)])
        }
        _ => (None, Vec::new()),
    }
}

/// The effects of an action that changes nothing on screen, only the browser's side of it: the
/// theme, presenter mode, the list of keys, the menu, the focus, copies and downloads.
fn browser_only(s: &AppState, action: Action) -> Vec<Effect> {
    match action {
        Action::Theme => vec![Effect::Theme],
        Action::NotesWindow => vec![Effect::NotesWindow],
        Action::Keys => vec![Effect::Keys],
        Action::Menu(open) => vec![Effect::Menu(open)],
        Action::Elsewhere => vec![Effect::Menu(Some(false))],
        Action::Skip => vec![Effect::Focus("[data-testid=play]")],
        Action::Embed => s.run.iter().map(|run| Effect::CopyEmbed { title: run.scenario.title.clone() }).collect(),
        Action::OpenFull => vec![Effect::OpenFull],
        Action::Export(kind) => s.run.as_ref().and_then(|run| export(run, kind)).into_iter().collect(),
        _ => Vec::new(),
    }
}

impl AppState {
    /// Returns the progress with what is on screen counted: a lesson visited (and finished at
    /// its end), where a course or the drill stands, and the page as the one to come back to.
    fn tracked(&self) -> Record {
        let mut p = (*self.progress).clone();
        let (Some(run), None, None) = (&self.run, &self.pending, self.view) else { return p };
        if let Target::Lesson(id) = &run.target {
            p = p.visit(id, self.player.step >= self.player.steps);
        }
        if let Some(c) = &self.course {
            p.course = Some((c.reference.to_string(), c.at));
        }
        if let Some(d) = self.drill {
            p.drill = (!d.over()).then_some(d);
        }
        if self.editing.is_none() && self.table.is_none() {
            let shown = self.hash();
            // The page, not its step: a step taken is not worth a write to the device.
            let page = shown.rsplit_once('/').map_or(shown.as_str(), |(page, _)| page);
            p.last = Some(format!("{page}/0"));
        }
        p
    }

    /// Moves the player as asked, stopping before an outcome still to be predicted.
    fn moved(&self, player: Player) -> Player {
        let Some(run) = self.run.as_ref().filter(|_| self.asking()) else { return player };
        let asks = run.predictions.iter().enumerate().filter(|(i, _)| self.to_ask(*i)).map(|(_, p)| p.event);
        match gate(self.player.step, player.step, asks) {
            Some(step) => Player { step, playing: false, ..player },
            None => player,
        }
    }

    /// The failure search's request for what is on screen: the edited scenario, a lesson's
    /// file, a comparison cell or a stress run.
    fn search_request(&self) -> Option<String> {
        #[cfg(editing)]
        if let Some(e) = &self.editing {
            return Some(wire::request(
                Subject::File(&crate::scenario::json::write(&crate::scenario::encode::scenario(e.history.now()), None)),
                &Bounds::default(),
            ));
        }
        let run = self.run.as_ref()?;
        match (&run.source, &run.target) {
            (Some(text), _) => Some(wire::request(Subject::File(text), &Bounds::default())),
            (None, Target::Compare { schedule, design }) => {
                Some(wire::request(Subject::Cell(&compare::id(schedule, design)), &Bounds::default()))
            }
            (None, Target::Stress(events)) => Some(wire::request(Subject::Stress(*events), &Bounds::default())),
            (None, _) => None,
        }
    }
}

/// Goes to the next story beat (or, `forward` false, the one before). Past the last beat the
/// next is the end, where the takeaway is; from the end, the drill's next lesson if a drill is
/// on, else the next lesson: a clicker's one key goes through a whole lesson and on.
fn beat(s: &AppState, forward: bool) -> Reduced {
    let Some(run) = &s.run else { return (None, Vec::new()) };
    let (at_start, at_end) = (s.player.step == 0, s.player.step >= s.player.steps);
    let step = match run.beat_step(s.player.step, forward) {
        Some(step) => step,
        None if forward && !at_end => s.player.steps,
        None if forward && s.drill.is_some_and(|d| !d.over()) => return act(s, Action::DrillNext),
        None if forward && s.course.is_some() => return super::learning::course(s, CourseMove::Next),
        None if forward => match s.next_lesson() {
            Some(e) => return act(s, Action::Open(Target::Lesson(e.id.into()), 0)),
            None => return (None, Vec::new()),
        },
        // Back from the first beat is the setup; from the setup, a course's stop before.
        None if !at_start => 0,
        None if s.course.is_some() => return super::learning::course(s, CourseMove::Previous),
        None => return (None, Vec::new()),
    };
    (Some(AppState { player: s.moved(s.player.apply(Playback::Seek(step))), ..s.clone() }), Vec::new())
}

/// Answers the question asked with a choice (kept and scored), or reveals its answer (`None`:
/// kept, not scored); the event it was about is shown. A choice it does not offer does nothing.
fn answer(s: &AppState, choice: Option<usize>) -> Reduced {
    let Some((i, p)) = s.question() else { return (None, Vec::new()) };
    if choice.is_some_and(|c| c >= p.choices.len()) {
        return (None, Vec::new());
    }
    let right = choice.map(|c| c == p.answer);
    let answers = Rc::new([s.answers.as_slice(), &[(i, choice)]].concat());
    let shown = AppState { player: s.player.apply(Playback::Seek(p.event + 1)), answers, ..s.clone() };
    // A question about the end is scored at the end, so no score tells its answer before.
    let state = match (right, p.asks) {
        (Some(r), Asks::Data) => AppState { deferred: Some(r), ..shown },
        (Some(r), _) => shown.scored(r),
        (None, _) => shown,
    };
    (Some(state), Vec::new())
}

impl AppState {
    /// Returns the state with one more answer counted, right or not: in the score, the
    /// lesson's progress and the drill.
    fn scored(self, right: bool) -> AppState {
        let preferences = self.env.preferences.scored(right);
        let progress = match self.run.as_ref().map(|r| &r.target) {
            Some(Target::Lesson(id)) => Rc::new(self.progress.answered(id, right)),
            _ => self.progress.clone(),
        };
        AppState { env: Env { preferences, ..self.env }, progress, drill: self.drill.map(|d| d.scored(right)), ..self }
    }
}

/// Opens a lesson (`what`: its id, a colon and the kinds of fault) and verifies it once it is on
/// screen.
fn prove_lesson(s: &AppState, what: &str) -> Reduced {
    let (id, kinds) = what.split_once(':').unwrap_or((what, ""));
    let next = s.follow(&route::format(&route::Route { target: Target::Lesson(id.to_string()), step: 0 }));
    let next = AppState { prove_next: Some(kinds.to_string()), ..next };
    match next.pending {
        Some(_) => (Some(next), vec![Effect::Menu(Some(false))]),
        None => prove_arrived(next),
    }
}

/// Verifies the lesson that has just come on screen for the kinds of fault it was asked for.
fn prove_arrived(next: AppState) -> Reduced {
    let kinds = next.prove_next.clone().unwrap_or_default();
    let (state, mut effects) = find(&AppState { prove_next: None, ..next }, Some(&kinds));
    effects.push(Effect::Menu(Some(false)));
    (state, effects)
}

/// Starts a search of the run on screen, or (`prove`: the kinds of fault, none for the default
/// ones) a verification; one that runs ends: a new worker replaces it.
fn find(s: &AppState, prove: Option<&str>) -> Reduced {
    let Some(request) = s.search_request() else {
        let notice = Some("Only a lesson, a comparison cell or an edited scenario can be searched.".to_string());
        return (Some(AppState { notice, ..s.clone() }), Vec::new());
    };
    let (report, request) = match prove {
        Some(kinds) => (Report::Proving { states: 0, permille: 0 }, wire::to_verify(&request, kinds)),
        None => (Report::Progress { tried: 0, budget: Bounds::default().budget }, request),
    };
    // Its worker replaces the table's verification's, which stops.
    let state = AppState { finding: Some(SearchState { report, running: true }), proving: stopped(s), ..s.clone() };
    // Its card comes into view: on a narrow page it is below the diagram.
    (Some(state), vec![Effect::StartSearch(request), Effect::Focus("[data-testid=finder]")])
}

/// The table's verification, stopped where it is.
fn stopped(s: &AppState) -> Option<Rc<TableProofs>> {
    s.proving.as_ref().map(|p| Rc::new(TableProofs { running: false, ..(**p).clone() }))
}

/// Takes a report from the worker: the search's or verification's card shows it (the worker is
/// kept while it reports progress, and ended once it is done), or the table's verification does.
fn reported(s: &AppState, report: Report) -> Reduced {
    match (&s.finding, &s.proving) {
        (Some(_), _) => {
            let running = matches!(report, Report::Progress { .. } | Report::Proving { .. });
            let stop = if running { Vec::new() } else { vec![Effect::StopSearch] };
            // What a verification proved stays with the run, in its panel.
            let proofs = match (&report, s.proof_key()) {
                (Report::Proven { .. }, Some(key)) => {
                    let mut kept: Vec<(String, Report)> = s.proofs.iter().filter(|(k, _)| *k != key).cloned().collect();
                    kept.push((key, report.clone()));
                    Rc::new(kept)
                }
                _ => s.proofs.clone(),
            };
            (Some(AppState { finding: Some(SearchState { report, running }), proofs, ..s.clone() }), stop)
        }
        (None, Some(p)) if p.running => table_report(s, p, report),
        _ => (None, Vec::new()),
    }
}

/// The request that verifies the comparison table's `i`th cell (row by row), if it has one.
fn cell_request(i: usize) -> Option<String> {
    let n = compare::Schedule::ALL.len();
    let row = compare::rows().into_iter().nth(i / n)?;
    let id = compare::id(compare::Schedule::ALL[i % n].id(), row.id);
    Some(wire::to_verify(&wire::request(Subject::Cell(&id), &Bounds::default()), ""))
}

/// Starts verifying the comparison table, from its first cell.
fn verify_table(s: &AppState) -> Reduced {
    let Some(request) = cell_request(0) else { return (None, Vec::new()) };
    let proving = Some(Rc::new(TableProofs { said: Vec::new(), running: true }));
    (Some(AppState { proving, finding: None, ..s.clone() }), vec![Effect::StartSearch(request)])
}

/// Takes a report of the table's verification: a cell's verdict, then the next cell's request,
/// until the last. (Progress is written into the page by the worker's side.)
fn table_report(s: &AppState, p: &TableProofs, report: Report) -> Reduced {
    if matches!(report, Report::Proving { .. } | Report::Progress { .. }) {
        return (None, Vec::new());
    }
    let mut said = p.said.clone();
    said.push(report);
    let (effect, running) = match cell_request(said.len()) {
        Some(request) => (Effect::StartSearch(request), true),
        None => (Effect::StopSearch, false),
    };
    (Some(AppState { proving: Some(Rc::new(TableProofs { said, running })), ..s.clone() }), vec![effect])
}

/// The download of a run as an SVG file, Mermaid text or its scenario file (if it has one).
fn export(run: &super::run::RunRef, kind: Export) -> Option<Effect> {
    let id = &run.scenario.id;
    let (name, mime, content) = match kind {
        Export::Svg => (format!("lockstep-{id}.svg"), "image/svg+xml", Content::Svg(run.clone())),
        Export::Mermaid => (format!("lockstep-{id}.mmd"), "text/plain", Content::Mermaid(run.clone())),
        Export::Json => (format!("{id}.json"), "application/json", Content::Text(run.source.as_deref()?.to_string())),
    };
    Some(Effect::Download { name, mime, content })
}

/// What the page says once the browser copied (or could not copy) text.
fn copied(what: &Copied, ok: bool) -> String {
    match (what, ok) {
        (Copied::Embed(code), true) => {
            format!("The embed code is copied: paste it into a slide, a course page or a post; it works at any size from 640×480. {code}")
        }
        (Copied::Embed(code), false) => format!("Copy this into a slide, a course page or a post: {code}"),
        (Copied::Link, true) => "The link to this edited scenario is copied: it opens the same diagram at the same step.".into(),
        (Copied::Link, false) => "The link could not be copied here; copy it from the address bar.".into(),
        (Copied::CourseLink(link), true) => {
            format!("The link to your course is copied: it opens the course in presenter mode, with the same keys. {link}")
        }
        (Copied::CourseLink(link), false) => format!("Copy this link to your course; it opens the course in presenter mode: {link}"),
    }
}
