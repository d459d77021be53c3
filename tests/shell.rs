//! The app's reducer, natively: what each kind of action does to the state, and which effects it
//! asks the browser for. Buttons and keys go through the one command table. (Native only: the
//! editor's part of the shell is built for the editor's page and natively, not the player's.)

#![cfg(not(target_arch = "wasm32"))]

use lockstep::diagram::layout::Room;
use lockstep::edit::input::Input;
use lockstep::search::wire::{self, Report};
use lockstep::ui::player::Playback;
use lockstep::ui::route::Target;
use lockstep::ui::shell::action::EditAction;
use lockstep::ui::shell::{binding, Action, AppState, Copied, Effect, Env, Export, Page, Preferences, View};

/// The reducer, with the effect that keeps the progress on the device left out (the tests of
/// progress look at it).
fn reduce(s: &AppState, action: Action) -> (Option<AppState>, Vec<Effect>) {
    let (next, effects) = lockstep::ui::shell::reduce(s, action);
    (next, effects.into_iter().filter(|e| !matches!(e, Effect::KeepProgress(_))).collect())
}

fn env(page: Page) -> Env {
    Env { page, room: Room::Fit(900.0), preferences: Preferences { predicting: false, ..Preferences::FIRST_VISIT } }
}

/// The state after `actions` from a page that opened `hash`, and every effect asked for.
fn after(page: Page, hash: &str, actions: impl IntoIterator<Item = Action>) -> (AppState, Vec<Effect>) {
    let mut state = AppState::empty(env(page));
    let mut effects = Vec::new();
    for action in std::iter::once(Action::Hash(hash.into())).chain(actions) {
        let (next, asked) = reduce(&state, action);
        state = next.unwrap_or(state);
        effects.extend(asked);
    }
    (state, effects)
}

#[test]
fn a_link_opens_its_lesson_at_its_step_and_the_hash_follows_the_player() {
    let (s, effects) = after(Page::Player, "#/lease-race-fenced/5", []);
    assert_eq!(s.run.as_ref().map(|r| r.scenario.id.as_str()), Some("lease-race-fenced"));
    assert_eq!((s.player.step, s.hash()), (5, "#/lease-race-fenced/5".to_string()));
    assert!(effects.is_empty(), "an embedded lesson needs no fetch: {effects:?}");
    let (s, _) = after(Page::Player, "#/lease-race-fenced/5", [binding::pressed("ArrowRight").unwrap()]);
    assert_eq!(s.hash(), "#/lease-race-fenced/6");
    let (same, _) = reduce(&s, Action::Hash(s.hash()));
    assert!(same.is_none(), "the page's own hash changes nothing");
}

#[test]
fn the_bare_address_opens_the_front_page_and_the_editor_s_the_first_lesson() {
    for hash in ["", "#", "#/"] {
        let (s, _) = after(Page::Player, hash, []);
        assert_eq!((s.view, s.current(), s.hash()), (Some(View::Home), Target::Home, String::new()), "{hash:?}");
        assert_eq!(s.notice, None);
        let (s, _) = after(Page::Editor, hash, []);
        assert_eq!(s.current(), lockstep::ui::shell::state::first_lesson(), "the editor's page at {hash:?}");
        assert!(s.run.is_some() && s.player.step == 0, "the editor's page at {hash:?} shows a run at its setup");
    }
}

#[test]
fn a_bad_link_shows_the_first_lesson_with_a_notice() {
    let (s, _) = after(Page::Player, "#/no-such-lesson/0", []);
    assert_eq!(s.current(), lockstep::ui::shell::state::first_lesson());
    assert!(s.notice.as_deref().is_some_and(|n| n.contains("no-such-lesson")), "{:?}", s.notice);
    let (s, _) = after(Page::Player, "#/lease-race-fenced/0", [Action::Dismiss]);
    assert_eq!(s.notice, None);
}

#[test]
fn a_prediction_stops_playback_before_the_outcome_and_an_answer_is_scored_and_kept() {
    let mut state = AppState::empty(Env { preferences: Preferences::FIRST_VISIT, ..env(Page::Player) });
    state = reduce(&state, Action::Hash("#/lease-race-fenced/0".into())).0.unwrap();
    let run = state.run.clone().unwrap();
    let asked = run.predictions.first().expect("the lesson asks a prediction").clone();
    state = reduce(&state, binding::clicked("to-end").unwrap()).0.unwrap();
    assert_eq!(state.player.step, asked.event, "End stops before the first write to predict");
    assert!(state.question().is_some());
    let (next, effects) = reduce(&state, binding::pressed(&(asked.answer + 1).to_string()).unwrap());
    let next = next.unwrap();
    assert_eq!(next.player.step, asked.event + 1, "the outcome is shown");
    assert_eq!(next.env.preferences.score, (1, 1));
    assert_eq!(effects, vec![Effect::Keep(next.env.preferences)]);
    let past: Vec<usize> = asked.evidence.iter().copied().filter(|&e| e <= asked.event).collect();
    assert_eq!(next.evidence(), past, "the diagram marks why, as far as it has happened");
    let choices = asked.choices.len();
    assert!(reduce(&state, Action::Answer(choices)).0.is_none(), "a choice the question does not offer does nothing");
}

#[test]
fn a_clicker_never_sticks_at_a_question_the_next_press_shows_the_answer_unscored() {
    let mut state = AppState::empty(Env { preferences: Preferences::FIRST_VISIT, ..env(Page::Player) });
    state = reduce(&state, Action::Hash("#/lease-race-unfenced/0".into())).0.unwrap();
    let run = state.run.clone().unwrap();
    let first = run.predictions[0].clone();
    for key in ["PageDown", " ", "ArrowRight", "End"] {
        let mut s = state.clone();
        // PageDown goes beat by beat up to the question; the first press that would pass it asks.
        while s.question().is_none() {
            s = reduce(&s, binding::pressed("PageDown").unwrap()).0.unwrap();
        }
        assert_eq!(s.player.step, first.event, "the run stops to ask before what the question is about");
        let shown = reduce(&s, binding::pressed(key).unwrap()).0.unwrap_or_else(|| panic!("{key:?} at a question moves on"));
        assert!(shown.question().is_none() && shown.player.step == first.event + 1, "{key:?} shows the answer");
        assert!(matches!(shown.ask(), lockstep::ui::panels::Ask::Answered { chosen: None, .. }), "{key:?}: shown, not chosen");
        assert_eq!(shown.env.preferences.score, (0, 0), "a shown answer is not scored");
        let on = reduce(&shown, binding::pressed("PageDown").unwrap()).0.unwrap();
        assert!(on.player.step > shown.player.step, "the next press goes on");
        let back = reduce(&on, binding::pressed("PageUp").unwrap()).0.unwrap();
        assert!(back.player.step < on.player.step, "PageUp goes back");
    }
}

#[test]
fn the_search_starts_and_ends_its_worker_through_effects() {
    let (s, effects) = after(Page::Player, "#/lease-race-unfenced/0", [Action::Find]);
    // The card comes into view, below the diagram on a narrow page.
    assert!(
        matches!(effects.as_slice(), [Effect::StartSearch(request), Effect::Focus("[data-testid=finder]")] if request.contains("lease-race-unfenced"))
    );
    assert!(s.finding.as_ref().is_some_and(|f| f.running));
    let report = Report::Nothing { searched: "everything".into() };
    let (done, effects) = reduce(&s, Action::Report(report.clone()));
    let done = done.unwrap();
    assert_eq!(effects, vec![Effect::StopSearch], "a finished search's worker is ended");
    assert_eq!(done.finding.as_ref().map(|f| (&f.report, f.running)), Some((&report, false)));
    let (closed, effects) = reduce(&done, Action::FindClose);
    assert!(closed.unwrap().finding.is_none() && effects == vec![Effect::StopSearch]);
}

#[test]
fn the_page_s_switches_and_exports_are_effects_and_leave_the_state() {
    let (s, _) = after(Page::Player, "#/lease-race-fenced/3", []);
    for (name, effect) in [("theme", Effect::Theme), ("menu", Effect::Menu(None)), ("keys", Effect::Keys)] {
        let (state, effects) = reduce(&s, binding::clicked(name).unwrap());
        assert!(state.is_none(), "{name} changes nothing on screen");
        assert_eq!(effects, vec![effect]);
    }
    // Presenter mode tells the run as a story, on an axis whose idle time is drawn shorter.
    let (presented, effects) = reduce(&s, binding::clicked("present").unwrap());
    let presented = presented.expect("presenting changes the run's layout");
    assert!(presented.presenting && presented.run.as_ref().is_some_and(|r| r.story) && effects == vec![Effect::Present(true)]);
    assert!(presented.run.as_ref().unwrap().layout.height < s.run.as_ref().unwrap().layout.height, "the story's axis is shorter");
    let (left, effects) = reduce(&presented, Action::Present(Some(false)));
    assert!(!left.unwrap().presenting && effects == vec![Effect::Present(false)]);
    let (_, effects) = reduce(&s, Action::Export(Export::Svg));
    match effects.as_slice() {
        [Effect::Download { name, mime, content }] => {
            assert_eq!((name.as_str(), *mime), ("lockstep-lease-race-fenced.svg", "image/svg+xml"));
            let mut text = String::new();
            content.write_to(&mut text).unwrap();
            assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
        }
        other => panic!("{other:?}"),
    }
    let (_, effects) = reduce(&s, binding::clicked("embed").unwrap());
    assert_eq!(effects, vec![Effect::CopyEmbed { title: s.run.as_ref().unwrap().scenario.title.clone() }]);
    let (copied, _) = reduce(&s, Action::Copied(Copied::Embed("<iframe>".into()), true));
    assert!(copied.unwrap().notice.unwrap().starts_with("The embed code is copied"));
}

#[test]
fn the_table_and_its_cells_open_and_a_link_in_the_menu_closes_it() {
    let (s, _) = after(Page::Player, "#/lease-race-fenced/0", []);
    let (table, effects) = reduce(&s, Action::Open(Target::Table, 0));
    let table = table.unwrap();
    assert!(table.table.is_some() && effects.first() == Some(&Effect::Menu(Some(false))));
    let (hidden, _) = reduce(&table, binding::pressed("ArrowRight").unwrap());
    assert!(hidden.is_none(), "keys do not drive a run hidden behind the table");
    let cell = Target::Compare { schedule: "clock_jump".into(), design: "redlock".into() };
    let (cell, _) = reduce(&table, Action::Open(cell, 0));
    let cell = cell.unwrap();
    assert!(cell.is_cell() && cell.table.is_none());
    assert_eq!(cell.current(), Target::Table, "a cell belongs to the table's entry");
}

#[test]
fn a_narrower_box_lays_the_run_out_again() {
    let (s, _) = after(Page::Player, "#/redlock-happy/0", []);
    let (narrow, _) = reduce(&s, Action::Refit(Room::Fit(600.0)));
    let narrow = narrow.unwrap();
    let (wide, narrowed) = (s.run.unwrap(), narrow.run.unwrap());
    assert!(narrowed.layout.width < wide.layout.width, "{} < {}", narrowed.layout.width, wide.layout.width);
    assert_eq!(narrow.env.room, Room::Fit(600.0));
}

#[test]
fn what_if_opens_the_editor_s_page_from_the_player_and_edits_there() {
    let (s, _) = after(Page::Player, "#/lease-race-fenced/4", []);
    assert_eq!(reduce(&s, binding::clicked("edit").unwrap()).1, vec![Effect::OpenEditor]);
    let (edited, effects) = after(Page::Player, "#/edit/1.abc/0", []);
    assert_eq!(effects, vec![Effect::OpenEditor], "an edited scenario's link goes to the editor's page");
    assert!(edited.editing.is_none());
    // On the editor's page a lesson opens for editing.
    let (s, _) = after(Page::Editor, "#/lease-race-fenced/4", []);
    assert!(s.editing.is_some(), "the editor's page edits the lesson it opens");
    let faults = s.run.as_ref().unwrap().scenario.faults.len();
    let at_ms = s.now_ms();
    let (added, _) = reduce(&s, binding::clicked("add-fault:crash").unwrap());
    let added = added.unwrap();
    assert_eq!(added.run.as_ref().unwrap().scenario.faults.len(), faults + 1);
    assert_eq!(added.now_ms(), at_ms, "the cursor stays at the same simulated time");
    assert!(added.hash().starts_with("#/edit/1."), "the edited scenario is in the link");
    let close = |s: &AppState| s.editing.as_ref().unwrap().close_link(s.run.as_ref().unwrap(), s.player.cursor());
    assert_eq!(close(&s), "../#/lease-race-fenced/4", "Close returns to the lesson at the same step");
    let step: usize = close(&added).rsplit('/').next().unwrap().parse().unwrap();
    let original = s.run.as_ref().unwrap();
    assert_eq!(original.trace.events[step - 1].at_ms.as_ms(), at_ms, "and, after an edit, at the same simulated time");
    let (undone, _) = reduce(&added, binding::clicked("undo").unwrap());
    assert_eq!(undone.unwrap().run.unwrap().scenario.faults.len(), faults);
    let field = EditAction::Field { path: "faults[0].for_ms".into(), kind: Input::Number, text: "-5".into() };
    let (refused, _) = reduce(&added, Action::Edit(field));
    let refused = refused.unwrap();
    let problem = refused.editing.as_ref().and_then(|e| e.problem.as_ref()).map(ToString::to_string);
    assert_eq!(problem.as_deref(), Some("faults[0].for_ms: must be ≥ 0"), "the edit is refused by its field path");
    assert_eq!(refused.editing.as_ref().and_then(|e| e.refused.as_deref()), Some("faults[0].for_ms"), "and names the field it refused");
    let (accepted, _) =
        reduce(&refused, Action::Edit(EditAction::Field { path: "faults[0].for_ms".into(), kind: Input::Number, text: "5".into() }));
    let accepted = accepted.unwrap();
    let editing = accepted.editing.as_ref().unwrap();
    assert!(editing.problem.is_none() && editing.refused.is_none(), "an edit that is made clears both");
}

#[test]
fn the_drill_opens_its_lessons_and_keeps_the_best_score() {
    let (s, effects) = after(Page::Player, "#/lease-race-fenced/0", [binding::clicked("drill-start").unwrap()]);
    assert!(s.drill.is_some() && effects.contains(&Effect::Menu(Some(false))));
    assert!(s.asking(), "a drill asks predictions even when they are off");
    let mut state = s;
    let mut kept = Vec::new();
    for _ in 0..200 {
        // Each lesson is played to its end, its first prediction answered on the way.
        for action in [binding::clicked("to-end").unwrap(), binding::pressed("1").unwrap(), binding::clicked("drill-next").unwrap()] {
            let (next, effects) = reduce(&state, action);
            state = next.unwrap_or(state);
            kept.extend(effects.into_iter().filter_map(|e| if let Effect::Keep(s) = e { Some(s) } else { None }));
        }
        if state.drill.is_some_and(|d| d.lesson_id().is_none()) {
            break;
        }
    }
    let drill = state.drill.expect("still in the drill");
    assert!(drill.lesson_id().is_none() && drill.answered > 0, "the drill comes to its end, with answers");
    assert_eq!(kept.last().and_then(|s| s.drill_best), Some((drill.right, drill.answered)), "its score is kept as the best");
    let (left, _) = reduce(&state, Action::DrillLeave);
    assert!(left.unwrap().drill.is_none());
}

#[test]
fn playback_moves_by_the_timer_and_stops_at_the_end() {
    let (s, _) = after(Page::Player, "#/lease-race-fenced/0", [Action::Play(Playback::TogglePlay)]);
    assert!(s.player.playing);
    let (s, _) = after(Page::Player, "#/lease-race-fenced/0", [Action::Play(Playback::TogglePlay), Action::Play(Playback::Tick)]);
    assert_eq!(s.player.step, 1);
}

#[test]
fn page_down_goes_beat_by_beat_then_to_the_end_and_on_to_the_drill_s_next_lesson() {
    let page_down = || binding::pressed("PageDown").unwrap();
    let (mut s, _) = after(Page::Player, "#/lease-race-fenced/0", []);
    let (run, steps) = (s.run.clone().unwrap(), s.player.steps);
    let last_beat = run.beats.last().expect("the lesson has beats").event + 1;
    assert!(last_beat < steps, "the lesson's last beat comes before its end");
    let mut visited = Vec::new();
    while s.player.step < steps {
        s = reduce(&s, page_down()).0.expect("PageDown moves before the end");
        visited.push(s.player.step);
    }
    let mut expected: Vec<usize> = run.beats.iter().map(|b| b.event + 1).collect();
    expected.push(steps);
    assert_eq!(visited, expected, "each beat, then the end, where the takeaway is");
    // From the end, the next lesson in the menu's order.
    let (next, effects) = reduce(&s, page_down());
    let next = next.expect("PageDown goes on from the end");
    assert_eq!(next.current(), Target::Lesson(lockstep::scenario::lessons::next("lease-race-fenced").unwrap().id.into()));
    assert_eq!((next.player.step, effects), (0, vec![Effect::Menu(Some(false)), Effect::ToTop]));
    // In a drill, PageDown at a lesson's end opens the question's next lesson.
    let (mut s, _) = after(Page::Player, "#/lease-race-fenced/0", [binding::clicked("drill-start").unwrap()]);
    let first = s.drill.unwrap();
    for _ in 0..200 {
        if s.drill.map(|d| d.lesson) != Some(first.lesson) {
            break;
        }
        let action = if s.question().is_some() { binding::pressed("1").unwrap() } else { page_down() };
        s = reduce(&s, action).0.expect("PageDown always moves in a drill");
    }
    assert_eq!(s.drill.map(|d| (d.question, d.lesson)), Some((first.question, first.lesson + 1)), "on to the next lesson");
    assert_eq!(s.player.step, 0);
}

#[test]
fn prove_starts_a_verification_and_the_table_is_verified_cell_after_cell() {
    let (s, effects) = after(Page::Player, "#/etcd-txn-guard/0", [Action::Prove]);
    assert!(matches!(effects.first(), Some(Effect::StartSearch(request)) if wire::verifies(request)), "{effects:?}");
    assert!(matches!(s.finding.as_ref().map(|f| &f.report), Some(Report::Proving { .. })));
    let proven = Report::Proven { safe: true, sentence: "Safe for every schedule".into(), faults: Vec::new(), link: None };
    let (done, _) = reduce(&s, Action::Report(proven.clone()));
    assert_eq!(done.unwrap().proof(), Some(&proven), "the run's panel keeps what was proved");
    let (table, effects) = after(Page::Player, "#/compare", [Action::VerifyTable]);
    let first = |effects: &[Effect]| match effects {
        [Effect::StartSearch(request)] => request.clone(),
        other => panic!("{other:?}"),
    };
    assert!(first(&effects).contains("compare-pause-lease") && wire::verifies(&first(&effects)));
    let (next, effects) = reduce(&table, Action::Report(proven.clone()));
    let next = next.unwrap();
    assert!(first(&effects).contains("compare-partition-lease"), "the next cell: {effects:?}");
    assert_eq!(next.proving.as_ref().map(|p| (p.said.len(), p.running)), Some((1, true)));
    let (stopped, effects) = reduce(&next, Action::FindClose);
    assert_eq!(stopped.unwrap().proving.as_ref().map(|p| (p.said.len(), p.running)), Some((1, false)));
    assert_eq!(effects, vec![Effect::StopSearch]);
}

#[test]
fn the_narration_s_band_is_measured_over_every_text_a_lesson_can_show() {
    use lockstep::ui::panels::narration;
    for id in ["lease-race-fenced", "redlock-pause", "k8s-clock-rate-tolerated", "conditional-write"] {
        for (predicting, choice) in [(false, "1"), (true, "1"), (true, "2")] {
            let preferences = Preferences { predicting, ..Preferences::FIRST_VISIT };
            let mut state = AppState::empty(Env { preferences, ..env(Page::Player) });
            state = reduce(&state, Action::Hash(format!("#/{id}/0"))).0.unwrap();
            let run = state.run.clone().unwrap();
            let (setup, steps) = run.narrations(state.next_lesson());
            assert!(steps.len() >= run.trace.events.len(), "{id}: a text for each event");
            for _ in 0..2 * run.trace.events.len() + 10 {
                let cursor = state.player.cursor();
                let shown = narration(
                    &run.scenario,
                    &run.trace,
                    &run.words(),
                    cursor,
                    cursor.and_then(|c| run.beat_at(c)),
                    state.ask(),
                    state.next_lesson(),
                );
                // Measured with the score at its widest.
                let shown = widest_score(&shown);
                let measured = if cursor.is_none() { &setup } else { &steps };
                assert!(
                    measured.contains(&shown),
                    "{id} at step {} (predictions {predicting}, answer {choice}): not measured:\n{shown}",
                    state.player.step
                );
                if state.player.step == state.player.steps && state.question().is_none() {
                    break;
                }
                let key = if state.question().is_some() { choice } else { "ArrowRight" };
                state = reduce(&state, binding::pressed(key).unwrap()).0.unwrap_or(state);
            }
            assert_eq!(state.player.step, state.player.steps, "{id}: stepped to the end");
        }
    }
}

/// Returns a narration with its score of predictions ("N of M right") as 99999 of 99999, the widest measured.
fn widest_score(text: &str) -> String {
    const SCORE: &str = "Your predictions: ";
    let Some(at) = text.find(SCORE).map(|i| i + SCORE.len()) else { return text.to_string() };
    let end = text[at..].find(" right").map_or(at, |i| at + i);
    format!("{}99999 of 99999{}", &text[..at], &text[end..])
}

#[test]
fn what_the_learner_does_is_kept_visited_finished_answered_and_where_a_course_stood() {
    let kept = |s: &AppState, action: Action| {
        let (next, effects) = lockstep::ui::shell::reduce(s, action);
        let next = next.expect("the action changes the page");
        let kept = effects.iter().find_map(|e| if let Effect::KeepProgress(p) = e { Some((**p).clone()) } else { None });
        (next, kept)
    };
    let empty = AppState::empty(Env { preferences: Preferences::FIRST_VISIT, ..env(Page::Player) });
    let (s, p) = kept(&empty, Action::Hash("#/lease-race-fenced/0".into()));
    let p = p.expect("opening a lesson is kept");
    assert_eq!((p.visited, p.finished.len(), p.last.as_deref()), (vec!["lease-race-fenced".to_string()], 0, Some("#/lease-race-fenced/0")));
    // A step within the page keeps nothing new.
    assert!(kept(&s, binding::pressed("ArrowRight").unwrap()).1.is_none(), "a step is not worth a write");
    let (s, _) = kept(&s, binding::pressed("End").unwrap());
    let (s, p) = kept(&s, binding::pressed("3").unwrap());
    assert_eq!(p.expect("an answer is kept").results, vec![("lease-race-fenced".to_string(), 0, 1)]);
    let mut s = s;
    while s.player.step < s.player.steps {
        s = reduce(&s, binding::pressed("PageDown").unwrap()).0.unwrap();
    }
    assert!(s.progress.finished.contains(&"lease-race-fenced".to_string()), "a lesson stepped to its end is finished");
    // A course's stop is kept, and the front page offers to go on from it.
    let (s, p) = kept(&s, Action::Course(lockstep::ui::shell::CourseMove::Start("class".into())));
    assert_eq!(p.and_then(|p| p.course), Some(("class".to_string(), 0)));
    let (s, _) = kept(&s, Action::Course(lockstep::ui::shell::CourseMove::Next));
    assert_eq!(s.progress.course, Some(("class".to_string(), 1)));
    let home = lockstep::ui::panels::home(&s.progress, s.env.preferences.score);
    assert!(home.contains("Continue “A 50-minute class”: stop 2 of 11") && home.contains("#/course/class/2/0"), "{home}");
    // The record is written and read back whole, and a damaged one is named, not trusted.
    let text = s.progress.write();
    assert_eq!(lockstep::ui::progress::Record::read(&text).unwrap(), *s.progress);
    let problem = |t: &str| lockstep::ui::progress::Record::read(t).unwrap_err().to_string();
    assert_eq!(problem(r#"{"version": 9}"#), "version: is 9; this version of Lockstep reads progress of version 1");
    assert_eq!(
        problem(r#"{"version": 1, "results": [{"lesson": "short-pause", "right": 3, "answered": 2}]}"#),
        "results[0]: says 3 right of 2 answered"
    );
    assert_eq!(problem("{"), "key must be a string at line 1 column 2");
    let unknown = lockstep::ui::progress::Record::read(r#"{"version": 1, "visited": ["short-pause", "no-such-lesson"]}"#).unwrap();
    assert_eq!(unknown.visited, vec!["short-pause".to_string()], "a lesson this build lacks is left out");
    // Clearing forgets it all.
    let (cleared, effects) = lockstep::ui::shell::reduce(&s, Action::ClearProgress);
    assert!(cleared.unwrap().progress.is_empty() && effects.contains(&Effect::ClearStorage));
}

#[test]
fn a_course_stop_asks_only_the_questions_it_names_and_the_card_numbers_them() {
    use lockstep::course::{format, Asking, Course, Open, Stop};
    let stop = |predict| Stop {
        open: Open::Lesson("lease-race-fenced".into()),
        step: 0,
        title: String::new(),
        notes: String::new(),
        predict,
        minutes: 5,
    };
    let course = Course {
        title: "Just the write".into(),
        audience: String::new(),
        intro: String::new(),
        stops: vec![stop(Asking::Only(vec![3])), stop(Asking::None)],
    };
    let link = format::to_link(&course).unwrap();
    let start = AppState::empty(Env { preferences: Preferences::FIRST_VISIT, ..env(Page::Player) });
    let mut s = reduce(&start, Action::Course(lockstep::ui::shell::CourseMove::Start(link))).0.unwrap();
    let run = s.run.clone().unwrap();
    s = reduce(&s, binding::pressed("End").unwrap()).0.unwrap();
    let (_, asked) = s.question().expect("the stop asks its third question");
    assert_eq!((asked.number, s.player.step), (3, run.predictions[2].event), "the first two are not asked");
    let card = lockstep::ui::panels::narration(&run.scenario, &run.trace, &run.words(), s.player.cursor(), None, s.ask(), None);
    assert!(card.contains("question 3"), "{card}");
    // The next stop asks none.
    s = reduce(&s, Action::Course(lockstep::ui::shell::CourseMove::Next)).0.unwrap();
    s = reduce(&s, binding::pressed("End").unwrap()).0.unwrap();
    assert!(s.question().is_none() && s.player.step == s.player.steps, "a stop that asks none plays through");
}
