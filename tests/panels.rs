//! The side panels' text: well-formed for any name, names shown as text and never as markup,
//! and the comparison table's cells linking to their own diagrams.

#![cfg(not(target_arch = "wasm32"))]

use lockstep::diagram::inspect::Timeline;
use lockstep::engine;
use lockstep::present::Words;
use lockstep::scenario::compare;
use lockstep::ui::panels;
use lockstep::ui::route::{self, Route, Target};

const HOSTILE: &str = include_str!("hostile/names.json");

/// Parses panel text as XML (the panels write it well-formed) and returns its text nodes, joined.
fn texts(panel: &str) -> String {
    let wrapped = format!("<div>{panel}</div>");
    let doc = roxmltree::Document::parse(&wrapped).unwrap_or_else(|e| panic!("{e}: {panel}"));
    for node in doc.descendants().filter(|n| n.is_element()) {
        let tag = node.tag_name().name();
        assert!(!["img", "script", "b"].contains(&tag), "a name became a <{tag}> element: {panel}");
    }
    doc.descendants().filter_map(|n| n.text()).collect()
}

#[test]
fn panels_show_hostile_names_as_text_at_every_step() {
    let (scenario, spec) = lockstep::scenario::load(HOSTILE).expect("valid");
    let trace = engine::run(&spec).expect("runs");
    let words = Words::new(&trace, &*scenario.lock.design);
    let timeline = Timeline::new(&trace);
    let before = texts(&panels::state(&trace, &words, None));
    assert!(before.contains("<img src=x onerror=alert(1)>") && before.contains("名前 <名 & <script>"), "{before}");
    assert!(texts(&panels::narration(&scenario, &trace, &words, None, None, panels::Ask::Offer(true), None)).contains("The setup"));
    let mut shown = String::new();
    for i in 0..trace.events.len() {
        shown += &texts(&panels::state(&trace, &words, Some(&timeline.at(&trace, i))));
        shown += &texts(&panels::narration(
            &scenario,
            &trace,
            &words,
            Some(i),
            words.beats().iter().find(|b| b.event == i),
            panels::Ask::Nothing,
            None,
        ));
    }
    assert!(shown.contains("<b>x</b>;%%{init}%%"), "a written value is shown as text: {shown}");
    assert!(!shown.contains('\u{1}'), "characters XML cannot hold are replaced");
    let g = texts(&panels::guarantees(&trace, &*scenario.lock.design, &scenario.guarantees(), scenario.guard(), None, false));
    assert!(g.starts_with("What this lock promises") && g.contains("stale writes accepted"), "{g}");
}

/// The text of a lesson's "what this lock promises" panel.
fn promises(id: &str) -> String {
    let lesson = lockstep::scenario::lessons::find(id).expect("lesson");
    let trace = engine::run(&lesson.spec).expect("runs");
    texts(&panels::guarantees(&trace, &*lesson.scenario.lock.design, &lesson.scenario.guarantees(), lesson.scenario.guard(), None, false))
}

#[test]
fn what_the_lock_is_used_for_and_whether_the_set_up_meets_the_bar_are_said_apart() {
    let unfenced = promises("lease-race-unfenced");
    assert!(
        unfenced.contains("used for correctness") && unfenced.contains("Falls short of a correctness lock: nothing at the resource checks"),
        "{unfenced}"
    );
    assert!(promises("lease-race-fenced").contains("Meets the bar for correctness: the resource checks the fencing token"));
    assert!(promises("redis-value-not-token")
        .contains("Falls short of a correctness lock: the resource would check a token, but this lock hands out none"));
    assert!(promises("etcd-txn-guard").contains("Meets the bar for correctness: the data lives in the lock's own store"));
    assert!(promises("optimistic-version").contains("Meets the bar for correctness: the resource compares versions itself"));
    assert!(promises("pg-external").contains("Falls short"), "the X1 lessons say so");
    // A set-up that meets the bar says so, and that this run harmed the data all the same.
    for id in ["lease-fenced-first-write", "redis-incr-failover"] {
        assert!(
            promises(id).contains(
                "Meets the bar for correctness, and still harmed here: the resource checks the fencing token. The check has a gap"
            ),
            "{id}"
        );
    }
}

#[test]
fn the_state_panel_names_each_node_and_what_it_holds() {
    let lesson = lockstep::scenario::lessons::find("lease-race-fenced").expect("lesson");
    let trace = engine::run(&lesson.spec).expect("runs");
    let words = Words::new(&trace, &*lesson.scenario.lock.design);
    let last = trace.events.len() - 1;
    let text = texts(&panels::state(&trace, &words, Some(&Timeline::new(&trace).at(&trace, last))));
    assert!(text.starts_with("State at 1,570 ms"), "{text}");
    assert!(text.contains("data \"B\" (by Client B, token 42), version 1, highest seen: token 42"), "{text}");
    let (class, verdict) = panels::verdict(&trace, Some(last));
    assert_eq!((class, verdict.as_str()), ("badge badge--safe", "Safe: data intact, though two clients held it at once"));
    assert_eq!(panels::verdict(&trace, None).1, "No harm so far");
}

#[test]
fn every_comparison_cell_links_to_its_own_diagram() {
    let rows = compare::table().expect("the table runs");
    let text = format!("<div>{}</div>", panels::compare_table(&rows, None));
    let doc = roxmltree::Document::parse(&text).expect("well-formed");
    let links: Vec<(&str, &str)> =
        doc.descendants().filter_map(|n| Some((n.attribute("data-testid")?, n.attribute(panels::ROUTE_ATTRIBUTE)?))).collect();
    let cells: Vec<&compare::Cell> = rows.iter().flatten().collect();
    assert_eq!(links.len(), cells.len());
    for ((testid, link), cell) in links.iter().zip(cells) {
        assert_eq!(*testid, format!("cell-{}", cell.id()));
        let Ok(Some(Route { target: Target::Compare { schedule, design }, step: 0 })) = route::parse(link) else { panic!("{link}") };
        assert_eq!((schedule.as_str(), design.as_str()), (cell.schedule.id(), cell.row.id));
    }
}

#[test]
fn the_picker_offers_every_lesson_once_under_its_topic_and_then_the_explorations() {
    let text = panels::picker();
    let doc = roxmltree::Document::parse(&text).expect("well-formed");
    let buttons: Vec<(&str, Target, String)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("button"))
        .map(|n| {
            let link = n.attribute(panels::ROUTE_ATTRIBUTE).expect("every entry names its link");
            let Ok(Some(Route { target, step: 0 })) = route::parse(link) else { panic!("{link}") };
            let topic = n.ancestors().find(|a| a.has_tag_name("section")).and_then(|s| s.first_element_child()).and_then(|h| h.text());
            (topic.expect("under a topic heading"), target, n.text().unwrap_or_default().to_string())
        })
        .collect();
    let index = lockstep::scenario::lessons::index();
    assert_eq!(buttons.len(), index.len() + 2);
    for (entry, (topic, target, title)) in index.iter().zip(&buttons) {
        assert_eq!((*topic, target, title.as_str()), (entry.topic, &Target::Lesson(entry.id.to_string()), entry.title));
    }
    let explore: Vec<(&str, &Target)> = buttons[index.len()..].iter().map(|(topic, target, _)| (*topic, target)).collect();
    assert_eq!(explore, [("Explore", &Target::Table), ("Explore", &Target::Stress(1_000))]);
    assert!(!text.contains(panels::CURRENT_CLASS), "the page marks the current entry, not the text");
}

#[test]
fn every_editor_field_can_be_set_to_what_it_shows_and_hostile_names_stay_text() {
    use lockstep::edit::input::Input;
    for lesson in lockstep::scenario::lessons::all() {
        let state = panels::EditorState {
            outcome: "still safe",
            problem: None,
            refused: None,
            link_problem: None,
            depth: (0, 0),
            edited: false,
            close: "../",
            notes: &[],
            touched: None,
            selected: Some(0),
            tool: Some("pause"),
            message: Some((3, "A → L: acquire".into())),
            beside: Some(lockstep::edit::variant::Variant::Mode(lockstep::engine::spec::ResourceMode::Fenced)),
        };
        let parts = panels::editor(&lesson.scenario, &state);
        // Each part is whole HTML: the page puts each in as it is.
        for part in &parts {
            roxmltree::Document::parse(&format!("<div>{part}</div>")).unwrap_or_else(|e| panic!("{}: a part: {e}", lesson.id()));
        }
        let wrapped = format!("<div>{}</div>", parts.concat());
        let page = roxmltree::Document::parse(&wrapped).unwrap_or_else(|e| panic!("{}: {e}", lesson.id()));
        let fields: Vec<_> = page.descendants().filter(|n| n.attribute(panels::EDIT_ATTRIBUTE).is_some()).collect();
        assert!(fields.len() >= 8, "{}: {} fields", lesson.id(), fields.len());
        for field in fields {
            // Every field of the scenario the editor shows can be set to what it shows, which
            // changes nothing.
            let path = field.attribute(panels::EDIT_ATTRIBUTE).unwrap_or_default();
            let input = Input::parse(field.attribute("data-kind").unwrap_or_default());
            if matches!(input, Input::Design | Input::Tool | Input::Beside | Input::New) {
                continue;
            }
            let shown = match field.tag_name().name() {
                "select" => {
                    field.descendants().find(|o| o.attribute("selected").is_some()).and_then(|o| o.attribute("value")).unwrap_or_default()
                }
                "textarea" => field.text().unwrap_or_default(),
                _ if input == Input::Flag => {
                    if field.attribute("checked").is_some() {
                        "true"
                    } else {
                        "false"
                    }
                }
                _ => field.attribute("value").unwrap_or_default(),
            };
            let edit = input.edit(path.to_string(), shown).unwrap_or_else(|| panic!("{}: {path} makes no edit", lesson.id()));
            let set = lockstep::edit::apply(&lesson.scenario, &edit).unwrap_or_else(|e| panic!("{}: {path}: {e}", lesson.id()));
            assert!(set == lesson.scenario, "{}: setting {path} to {shown:?}, as shown, changes the scenario", lesson.id());
        }
        for kind in lockstep::scenario::faults::FAULTS.iter().filter(|k| k.listed).map(|k| k.tag) {
            assert!(wrapped.contains(&format!(r#"data-action="add-fault:{kind}""#)), "{}: add {kind}", lesson.id());
        }
    }
    let hostile = lockstep::scenario::load(HOSTILE).expect("the hostile scenario is valid").0;
    let problem = lockstep::error::ScenarioError::new("participants[0].name", "<script>alert(1)</script>");
    let state = panels::EditorState {
        outcome: "<b>x</b>",
        problem: Some(&problem),
        refused: Some("participants[0].name"),
        link_problem: None,
        depth: (1, 1),
        edited: true,
        close: "../\"><img>",
        notes: &["<i>changed</i>".to_string()],
        touched: Some("participants[0].script[0]"),
        selected: None,
        tool: None,
        message: Some((1, "<u>message</u>".into())),
        beside: None,
    };
    let text = panels::editor(&hostile, &state).concat();
    // The field whose change was refused, and it alone, is marked and points to the problem.
    let wrapped = format!("<div>{text}</div>");
    let page = roxmltree::Document::parse(&wrapped).expect("whole HTML");
    let invalid: Vec<_> =
        page.descendants().filter(|n| n.attribute("aria-invalid") == Some("true")).map(|n| n.attribute(panels::EDIT_ATTRIBUTE)).collect();
    assert_eq!(invalid, [Some("participants[0].name")]);
    // A problem that names no field (a whole script) marks the field whose change it refused.
    let whole = lockstep::error::ScenarioError::new("participants[0].script", "must have a step");
    let marked = |state: &panels::EditorState| {
        let page = format!("<div>{}</div>", panels::editor(&hostile, state).concat());
        let page = roxmltree::Document::parse(&page).expect("whole HTML");
        let marked: Vec<String> = page
            .descendants()
            .filter(|n| n.attribute("aria-invalid") == Some("true"))
            .filter_map(|n| n.attribute(panels::EDIT_ATTRIBUTE).map(str::to_string))
            .collect();
        assert!(
            !page.descendants().any(|n| n.attribute(panels::EDIT_ATTRIBUTE) == Some("participants[0].script")),
            "the script is no field"
        );
        marked
    };
    assert_eq!(marked(&panels::EditorState { problem: Some(&whole), ..state }), ["participants[0].name"]);
    assert!(page.descendants().any(|n| n.attribute("id") == Some("edit-problem") && n.attribute("role") == Some("alert")));
    let shown = texts(&text);
    assert!(
        shown.contains("<b>x</b>")
            && shown.contains("<script>alert(1)</script>")
            && shown.contains("<i>changed</i>")
            && shown.contains("<u>message</u>"),
        "{shown}"
    );
}

#[test]
fn the_drill_card_asks_the_question_then_shows_its_answer_after_the_last_lesson() {
    use lockstep::scenario::questions::QUESTIONS;
    use lockstep::ui::drill::Drill;
    use lockstep::ui::panels::drill_card;
    let start = Drill::default();
    let s = drill_card(&start, false, None);
    assert!(s.contains(&format!("question 1 of {}", QUESTIONS.len())) && s.contains(QUESTIONS[0].question), "{s}");
    assert!(s.contains("Lesson 1 of 3: The same race without fencing") && s.contains("0 of 0 predictions right"), "{s}");
    assert!(!s.contains("drill-next") && !s.contains(QUESTIONS[0].answer), "nothing to go on to, and no answer, before the lesson's end");
    let at_end = drill_card(&start, true, None);
    assert!(at_end.contains("Next lesson ▸") && !at_end.contains(QUESTIONS[0].answer), "{at_end}");
    let last = Drill { lesson: 2, ..start }.scored(true);
    let s = drill_card(&last, true, None);
    assert!(s.contains(QUESTIONS[0].answer) && s.contains("Next question ▸") && s.contains("1 of 1 predictions right"), "{s}");
    let done = Drill { question: QUESTIONS.len(), ..last };
    let s = drill_card(&done, false, Some((7, 9)));
    assert!(s.contains("Interview drill: done") && s.contains("1 of 1 predictions right") && s.contains("best drill: 7 of 9"), "{s}");
}

#[test]
fn each_design_says_what_breaks_a_connection_with_the_real_names() {
    for (id, names) in [
        ("redis-partition-long", ["socket timeout", "tcp-keepalive"]),
        ("zk-safe-mode", ["Disconnected", "Expired"]),
        ("etcd-lease-expires", ["keep-alive", "TTL/3"]),
        ("pg-no-timeout", ["pg_advisory_unlock_all", "tcp_user_timeout"]),
        ("k8s-fenced", ["client-go", "leaseDurationSeconds"]),
        ("partitioned-queue", ["request.timeout.ms", "session.timeout.ms"]),
    ] {
        let g = promises(id);
        assert!(g.contains("Connections"), "{id}: {g}");
        for name in names {
            assert!(g.contains(name), "{id} names {name}: {g}");
        }
    }
}
