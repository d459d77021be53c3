//! The reducer: an action and the state before it give the state after it and the effects to
//! run. Pure: nothing here touches the browser; `ui::web` runs the effects.

use super::action::{Action, Copied, Export};
use super::effect::{Content, Effect};
use super::state::{AppState, Env, SearchState, TableProofs, FIT, ZOOMS};
use crate::scenario::compare;
use crate::search::wire::{self, Report, Subject};
use crate::search::Bounds;
use crate::ui::drill::Drill;
use crate::ui::player::{gate, Playback, Player};
use crate::ui::route::{self, Target};
use std::rc::Rc;

/// What an action did: the state after it (`None` when nothing on screen changed) and the
/// effects to run, in order.
pub type Reduced = (Option<AppState>, Vec<Effect>);

/// Applies one action. Besides the effects an action asks for, a lesson the state comes to await
/// is fetched, and preferences that changed are kept.
pub fn reduce(s: &AppState, action: Action) -> Reduced {
    let (state, mut effects) = act(s, action);
    if let Some(next) = &state {
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
            let state = match target {
                Target::Table => AppState { table: None, notice: None, pending: None, ..s.clone() }.with_table(),
                target => s.open(target, step),
            };
            // A link in the lesson menu closes it, and the page opened shows from its top.
            (Some(state), vec![Effect::Menu(Some(false)), Effect::ToTop])
        }
        // The page's own hash changes nothing, but an empty page opens even an empty address.
        Action::Hash(hash) if hash == s.hash() && !s.is_blank() => effects(Vec::new()),
        // On the player's page, an edited scenario's link is handed to the editor's page.
        Action::Hash(hash) if s.env.page == super::state::Page::Player && hash.starts_with(route::EDITED) => {
            effects(vec![Effect::OpenEditor])
        }
        Action::Hash(hash) => changed(s.follow(&hash)),
        Action::Fetched(id, file) => match s.arrived(id, file) {
            next @ AppState { prove_next: Some(_), run: Some(_), .. } => prove_arrived(next),
            next => changed(next),
        },
        Action::Answer(choice) => answer(s, Some(choice)),
        Action::Predict => {
            let preferences = super::preferences::Preferences { predicting: !s.env.preferences.predicting, ..s.env.preferences };
            changed(AppState { env: Env { preferences, ..s.env }, ..s.clone() })
        }
        Action::DrillStart => (Some(s.drill(Drill::default())), vec![Effect::Menu(Some(false))]),
        Action::DrillNext => changed(s.drill(s.drill.unwrap_or_default().next())),
        Action::DrillLeave => changed(AppState { drill: None, ..s.clone() }),
        Action::Zoom(by) => {
            let zoom = if by == 0 { FIT } else { s.zoom.saturating_add_signed(isize::from(by)).min(ZOOMS.len() - 1) };
            changed(AppState { zoom, ..s.clone() })
        }
        Action::Refit(room) => {
            let run = s.run.as_ref().map(|run| run.refitted(room));
            let editing = s.editing.as_ref().map(|e| Rc::new(e.in_room(room)));
            changed(AppState { env: Env { room, ..s.env }, run, editing, ..s.clone() })
        }
        Action::Dismiss => changed(AppState { notice: None, ..s.clone() }),
        Action::Find => find(s, None),
        Action::Prove => find(s, Some("")),
        Action::ProveLesson(what) => prove_lesson(s, &what),
        Action::VerifyTable => verify_table(s),
        Action::Report(report) => reported(s, report),
        Action::FindClose => (Some(AppState { finding: None, proving: stopped(s), ..s.clone() }), vec![Effect::StopSearch]),
        action @ (Action::Theme
        | Action::Present
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

/// The effects of an action that changes nothing on screen, only the browser's side of it: the
/// theme, presenter mode, the list of keys, the menu, the focus, copies and downloads.
fn browser_only(s: &AppState, action: Action) -> Vec<Effect> {
    match action {
        Action::Theme => vec![Effect::Theme],
        Action::Present => vec![Effect::Present],
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
    /// Moves the player as asked, stopping before an outcome still to be predicted.
    fn moved(&self, player: Player) -> Player {
        let Some(run) = self.run.as_ref().filter(|_| self.asking()) else { return player };
        let asks = run.predictions.iter().enumerate().filter(|(i, _)| !self.answered(*i)).map(|(_, p)| p.event);
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
            (None, Target::Lesson(_) | Target::Table | Target::Edited(_)) => None,
        }
    }
}

/// Goes to the next story beat (or, `forward` false, the one before). Past the last beat the
/// next is the end, where the takeaway is; from the end, the drill's next lesson if a drill is
/// on, else the next lesson: a clicker's one key goes through a whole lesson and on.
fn beat(s: &AppState, forward: bool) -> Reduced {
    let Some(run) = &s.run else { return (None, Vec::new()) };
    let at_end = s.player.step >= s.player.steps;
    let step = match run.beat_step(s.player.step, forward) {
        Some(step) => step,
        None if forward && !at_end => s.player.steps,
        None if forward && s.drill.is_some_and(|d| !d.over()) => return act(s, Action::DrillNext),
        None if forward => match s.next_lesson() {
            Some(e) => return act(s, Action::Open(Target::Lesson(e.id.into()), 0)),
            None => return (None, Vec::new()),
        },
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
    let preferences = right.map_or(s.env.preferences, |r| s.env.preferences.scored(r));
    let answers = Rc::new([s.answers.as_slice(), &[(i, choice)]].concat());
    let state = AppState {
        env: Env { preferences, ..s.env },
        player: s.player.apply(Playback::Seek(p.event + 1)),
        answers,
        drill: match right {
            Some(r) => s.drill.map(|d| d.scored(r)),
            None => s.drill,
        },
        ..s.clone()
    };
    (Some(state), Vec::new())
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
        (Copied::Embed(code), true) => format!("The embed code is copied: paste it into a slide, a course page or a post. {code}"),
        (Copied::Embed(code), false) => format!("Copy this into a slide, a course page or a post: {code}"),
        (Copied::Link, true) => "The link to this edited scenario is copied: it opens the same diagram at the same step.".into(),
        (Copied::Link, false) => "The link could not be copied here; copy it from the address bar.".into(),
    }
}
