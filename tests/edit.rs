//! Editing scenarios: edits at field paths, undo and redo, share links, and the sentence that
//! says how an edit changed the outcome.

#![cfg(not(target_arch = "wasm32"))]

mod support;

use lockstep::edit::{self, doc, link, outcome, Edit, History};
use lockstep::engine::FindingKind::*;
use lockstep::scenario::json::{self, Value};
use lockstep::scenario::{lessons, validate};
use support::*;

fn lesson_doc(id: &str) -> Value {
    json::parse(lessons::find(id).expect("lesson").source).expect("lesson JSON")
}

fn number(n: i64) -> Option<Value> {
    Some(Value::Number(n.to_string()))
}

fn text(s: &str) -> Option<Value> {
    Some(Value::String(s.into()))
}

fn set(path: &str, value: Option<Value>) -> Edit {
    Edit::Set { path: path.into(), value }
}

/// Runs a document the way the page does: read, validate, simulate.
fn run_doc(doc: &Value) -> Ran {
    let (scenario, spec) = validate::load_doc(doc).expect("the edited scenario is valid");
    Ran { trace: lockstep::engine::run(&spec).expect("it runs"), design: scenario.lock.design }
}

#[test]
fn shortening_the_pause_makes_the_unfenced_race_safe_and_lengthening_it_unsafe_again() {
    let original = lesson_doc("lease-race-unfenced");
    let short = edit::apply(&original, &set("faults[0].for_ms", number(500))).unwrap();
    let t = run_doc(&short);
    assert!(t.verdict.safe);
    assert_eq!(writes(&t), vec![ok(555, "Client A", 41, "A", 1), ok(1_165, "Client B", 42, "B", 2)]);
    assert_eq!(outcome::change(&run_lesson("lease-race-unfenced"), &t.words(), true), "was unsafe → now safe");

    let long = edit::apply(&short, &set("faults[0].for_ms", number(1_500))).unwrap();
    assert_eq!(long, original, "the same numbers give the same document");
    let t = run_doc(&long);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_110), (StaleWriteAccepted, 1_555), (OutOfOrder, 1_555)]);
}

#[test]
fn fencing_the_resource_rejects_a_write_with_token_41() {
    let original = lesson_doc("lease-race-unfenced");
    let fenced = edit::apply(&original, &set("participants[2].mode", text("fenced"))).unwrap();
    let t = run_doc(&fenced);
    assert_eq!(writes(&t), vec![ok(1_165, "Client B", 42, "B", 1), rejected(1_555, "Client A", 41, "A", "token 41 < 42")]);
    assert_eq!(
        outcome::change(&run_lesson("lease-race-unfenced"), &t.words(), true),
        "was unsafe → now safe: the write (token 41) was rejected: token 41 < 42 at 1,555 ms"
    );
    let unfenced = run_doc(&original);
    assert_eq!(
        outcome::change(&t, &unfenced.words(), true),
        "was safe → now unsafe: Client A's write (token 41) was applied after Client B's (token 42) and erased it at 1,555 ms"
    );
    assert_eq!(outcome::change(&t, &t.words(), true), "still safe");
    // The verdict stays, but the story changed: a shorter pause leaves no stale write to refuse.
    let short = run_doc(&edit::apply(&fenced, &set("faults[0].for_ms", number(500))).unwrap());
    assert_eq!(
        outcome::change(&t, &short.words(), true),
        "still safe; two clients no longer hold the lock at once; no stale write reaches the resource to be refused"
    );
    // A run opened unchanged (a failure the search found) is told as it is.
    assert!(outcome::change(&t, &unfenced.words(), false).starts_with("the same scenario; unsafe: Client A's write (token 41)"));
}

#[test]
fn faults_and_steps_are_added_and_removed_and_missing_lists_are_created() {
    let original = lesson_doc("lease-race-fenced");
    let jump: Value = json::parse(r#"{"fault": "clock_jump", "at_ms": 20, "node": "L", "by_ms": 2000}"#).unwrap();
    let with = edit::apply(&original, &Edit::Insert { path: "faults".into(), index: 99, value: jump.clone() }).unwrap();
    assert_eq!(doc::get(&with, "faults[1]"), Some(&jump), "an index past the end appends");
    let without = edit::apply(&with, &Edit::Remove { path: "faults[0]".into() }).unwrap();
    assert_eq!(doc::get(&without, "faults[0]"), Some(&jump));
    run_doc(&without);

    let no_faults = edit::apply(&original, &set("faults", None)).unwrap();
    assert_eq!(doc::get(&no_faults, "faults"), None, "a field set to nothing is removed, and its default applies");
    let again = edit::apply(&no_faults, &Edit::Insert { path: "faults".into(), index: 0, value: jump.clone() }).unwrap();
    assert_eq!(doc::get(&again, "faults[0]"), Some(&jump), "inserting into a missing list creates it");

    let read = Value::Object(vec![("step".into(), Value::String("read".into()))]);
    let script = edit::apply(&original, &Edit::Insert { path: "participants[0].script".into(), index: 1, value: read.clone() }).unwrap();
    assert_eq!(doc::get(&script, "participants[0].script[1]"), Some(&read));
    let seed = edit::apply(&original, &set("seed", number(7))).unwrap();
    assert_eq!(doc::get(&seed, "seed"), Some(&Value::Number("7".into())));
}

#[test]
fn a_bad_edit_names_its_path_and_an_invalid_result_is_caught_by_validation() {
    let original = lesson_doc("lease-race-fenced");
    let problem = |e: Edit| edit::apply(&original, &e).unwrap_err().to_string();
    assert_eq!(problem(set("faults[3].for_ms", number(1))), "faults[3].for_ms: has no element 3; the list has 1");
    assert_eq!(problem(set("lock.nothing.deeper", number(1))), "lock.nothing.deeper: has no field `nothing` to change");
    assert_eq!(problem(set("faults[x]", number(1))), "“faults[x]” is not a field path");
    assert_eq!(problem(set("", number(1))), "“” is not a field path");
    assert_eq!(problem(set("lock..ttl_ms", number(1))), "“lock..ttl_ms” is not a field path");
    assert_eq!(problem(set("faults[0]x", number(1))), "“faults[0]x” is not a field path");
    assert_eq!(problem(Edit::Remove { path: "faults[5]".into() }), "faults[5]: has no element 5; the list has 1");
    assert_eq!(problem(Edit::Remove { path: "seed".into() }), "seed: cannot be changed that way");

    // The edit itself is fine; the scenario it makes is not, and the reader says where.
    let negative = edit::apply(&original, &set("faults[0].for_ms", number(-5))).unwrap();
    assert_eq!(validate::load_doc(&negative).unwrap_err().to_string(), "faults[0].for_ms: must be ≥ 0");
    let ttl = edit::apply(&original, &set("lock.ttl_ms", number(0))).unwrap();
    assert!(validate::load_doc(&ttl).unwrap_err().to_string().starts_with("lock.ttl_ms: must be between 1 and"));
    let word = edit::apply(&original, &set("lock.ttl_ms", text("soon"))).unwrap();
    assert_eq!(validate::load_doc(&word).unwrap_err().to_string(), "lock.ttl_ms: invalid type: string \"soon\", expected a whole number");
}

#[test]
fn undo_redo_and_reset_walk_the_edits_and_forget_the_oldest_past_the_limit() {
    let original = lesson_doc("lease-race-unfenced");
    let mut h = History::new(original.clone());
    assert!(!h.edited() && !h.undo() && !h.redo());
    let a = edit::apply(&original, &set("faults[0].for_ms", number(500))).unwrap();
    let b = edit::apply(&a, &set("participants[2].mode", text("fenced"))).unwrap();
    h.push(a.clone());
    h.push(a.clone());
    h.push(b.clone());
    assert_eq!(h.depth(), (2, 0), "pushing the same document again is no edit");
    assert!(h.undo());
    assert_eq!(h.now(), &a);
    assert!(h.redo());
    assert_eq!(h.now(), &b);
    h.reset();
    assert_eq!((h.now(), h.edited()), (&original, false));
    assert!(h.undo(), "reset can be undone");
    assert_eq!(h.now(), &b);
    assert!(h.undo());
    h.push(original.clone());
    assert_eq!(h.depth(), (2, 0), "a new edit forgets what was undone");

    for ms in 0..(lockstep::limits::MAX_UNDO_STEPS as i64 + 50) {
        h.push(edit::apply(h.now(), &set("faults[0].for_ms", number(ms))).unwrap());
    }
    assert_eq!(h.depth().0, lockstep::limits::MAX_UNDO_STEPS);
    while h.undo() {}
    assert_eq!(doc::get(h.now(), "faults[0].for_ms"), Some(&Value::Number("49".into())), "the oldest edits are forgotten");
    assert_eq!(h.original(), &original);
}

#[test]
fn every_lesson_survives_writing_exporting_and_a_link() {
    for lesson in lessons::all() {
        let original = json::parse(lesson.source).unwrap();
        for indent in [None, Some(2)] {
            assert_eq!(json::parse(&doc::write(&original, indent)).unwrap(), original, "{} written", lesson.id());
        }
        let text = link::encode(&original).unwrap();
        assert!(text.len() < 4_000, "{}: a {}-character link", lesson.id(), text.len());
        assert!(text.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b)), "URL-safe: {text}");
        let back = link::decode(&text).unwrap();
        assert_eq!(back, original, "{}", lesson.id());
        let (a, b) = (run_doc(&back), run_lesson(lesson.id()));
        assert_eq!(a.words().to_text(), b.words().to_text(), "{}: the same run from the link", lesson.id());
    }
}

#[test]
fn names_with_markup_quotes_and_control_characters_survive_a_link() {
    let original = lesson_doc("lease-race-fenced");
    let name = "<img src=x onerror=alert(1)> \"A\" \\ \u{1}\t\n é 名前";
    let odd = edit::apply(&original, &set("participants[0].name", text(name))).unwrap();
    let back = link::decode(&link::encode(&odd).unwrap()).unwrap();
    assert_eq!(doc::get(&back, "participants[0].name"), Some(&Value::String(name.into())));
}

#[test]
fn bad_links_say_what_is_wrong() {
    let problem = |text: &str| link::decode(text).unwrap_err().to_string();
    let good = link::encode(&lesson_doc("lease-race-fenced")).unwrap();
    assert_eq!(problem("2.AAAA"), "link: the link is format version 2; this version of Lockstep reads version 1");
    assert_eq!(problem("hello"), "link: the link's scenario is not in a form Lockstep writes (it should start with “1.”)");
    assert_eq!(problem("1.AB$C"), "link: the link has a character base64 does not use at position 5");
    assert_eq!(problem(&good[..good.len() / 2]), "link: the link is cut short or damaged: its scenario cannot be unpacked");
    assert_eq!(problem("1."), "link: the link is cut short or damaged: its scenario cannot be unpacked");
    assert_eq!(
        problem(&format!("1.{}", "A".repeat(lockstep::limits::MAX_LINK_CHARS))),
        "link: the link is 8,194 characters long; at most 8,192 are read (a longer scenario is shared as a file)"
    );
    // A link that claims a huge scenario is refused before anything is unpacked.
    assert_eq!(problem("1._____w"), "link: the link unpacks to 4,294,967,295 bytes; at most 1048576 (1 MiB) are read");
}

#[test]
fn a_scenario_too_big_for_a_link_is_refused_with_advice() {
    let mut doc = lesson_doc("lease-race-fenced");
    // Incompressible text: a long intro of varied characters.
    let noise: String = (0..9_000u32).map(|i| char::from_u32(0x4e00 + (i * 7919) % 20_000).unwrap()).collect();
    doc = edit::apply(&doc, &set("intro", text(&noise))).unwrap();
    let e = link::encode(&doc).unwrap_err().to_string();
    assert!(
        e.starts_with("link: this scenario makes a link of ")
            && e.ends_with("characters, and links hold at most 8,192: export it as a file instead"),
        "{e}"
    );
}

#[test]
fn the_editor_starts_from_the_same_scenario_with_its_defaults_written_out() {
    for lesson in lessons::all() {
        let doc = json::parse(lesson.source).unwrap();
        let start = edit::start::editable(&doc, &lesson.scenario);
        for path in ["network.latency_ms.min_ms", "network.latency_ms.max_ms", "network.loss", "participants[0].clock.drift_ppm"] {
            assert!(doc::get(&start, path).is_some(), "{}: {path}", lesson.id());
        }
        assert_eq!(run_doc(&start).words().to_text(), run_lesson(lesson.id()).words().to_text(), "{}", lesson.id());
        assert_eq!(edit::start::editable(&start, &lesson.scenario), start, "{}: nothing more to write out", lesson.id());
    }
}

#[test]
fn every_kind_of_new_fault_fits_every_lesson_that_has_its_node() {
    let mut refused = Vec::new();
    for lesson in lessons::all() {
        let doc = json::parse(lesson.source).unwrap();
        for kind in lockstep::scenario::faults::FAULTS.iter().map(|k| k.tag) {
            let Some(fault) = edit::start::fault(kind, &lesson.scenario, 100, None) else { continue };
            let with = edit::apply(&doc, &Edit::Insert { path: "faults".into(), index: usize::MAX, value: fault }).unwrap();
            if let Err(e) = validate::load_doc(&with) {
                refused.push(format!("{} + {kind}: {e}", lesson.id()));
            }
        }
    }
    assert_eq!(refused, Vec::<String>::new());
}

#[test]
fn clients_are_added_and_removed_with_what_names_them_and_steps_change_kind() {
    let lesson = lessons::find("lease-race-unfenced").unwrap();
    let doc = json::parse(lesson.source).unwrap();
    let added = edit::apply(
        &doc,
        &Edit::Insert { path: "participants".into(), index: usize::MAX, value: edit::start::client(&doc, &lesson.scenario, 200) },
    )
    .unwrap();
    assert_eq!(doc::get(&added, "participants[4].id"), Some(&Value::String("C".into())), "the first free id");
    let t = run_doc(&added);
    assert_eq!(grants(&t).iter().map(|g| g.1.as_str()).collect::<Vec<_>>(), ["Client A", "Client C", "Client B"]);

    // Removing Client A takes its pause with it; a partition loses only the removed side.
    let partition = edit::start::fault("partition", &lesson.scenario, 10, None).unwrap();
    let with = edit::apply(&doc, &Edit::Insert { path: "faults".into(), index: usize::MAX, value: partition }).unwrap();
    let without_a = edit::start::without_participant(&with, &lesson.scenario, 0).unwrap();
    assert_eq!(doc::get(&without_a, "faults"), Some(&Value::Array(Vec::new())), "A's pause and A's partition go");
    assert_eq!(writes(&run_doc(&without_a)), vec![ok(1_165, "Client B", 41, "B", 1)], "B alone takes the first token");
    let (scenario, _) = validate::load_doc(&with).unwrap();
    let without_b = edit::start::without_participant(&with, &scenario, 3).unwrap();
    assert_eq!(doc::get(&without_b, "faults[1].from"), doc::get(&with, "faults[1].from"), "B is on no side of it");
    run_doc(&without_b);
    assert_eq!(edit::start::without_participant(&with, &scenario, 9), None);

    let write = edit::input::Input::Step(lockstep::engine::msg::ReleaseMode::Safe).value("write").unwrap();
    assert_eq!(doc::write(&write, None), r#"{"step":"write","value":"X"}"#);
    assert_eq!(
        edit::input::Input::Step(lockstep::engine::msg::ReleaseMode::Commit).value("release").map(|v| doc::write(&v, None)),
        Some(r#"{"step":"release","mode":"commit"}"#.into())
    );
    assert_eq!(edit::input::Input::Step(lockstep::engine::msg::ReleaseMode::Safe).value("dance"), None);
    let rewritten = edit::apply(&doc, &set("participants[0].script[1]", Some(write))).unwrap();
    let t = run_doc(&rewritten);
    assert_eq!(writes(&t)[0].3, "X", "A's work became a write of X");
}

#[test]
fn every_lesson_switches_to_every_design_and_says_what_changed() {
    let mut failed = Vec::new();
    for lesson in lessons::all() {
        let doc = json::parse(lesson.source).unwrap();
        for kind in lockstep::design::registry::REGISTRY {
            match edit::switch::switch(&doc, &lesson.scenario, kind.tag()) {
                Ok((switched, _)) => {
                    let (_, spec) = validate::load_doc(&switched).unwrap();
                    if let Err(e) = lockstep::engine::run(&spec) {
                        failed.push(format!("{} → {}: runs into {e:?}", lesson.id(), kind.tag()));
                    }
                }
                Err(e) => failed.push(format!("{} → {}: {e}", lesson.id(), kind.tag())),
            }
        }
    }
    // In pg-xact-lock, Client A acquires twice: PostgreSQL stacks a session's locks, but under a
    // lock that does not, A waits for itself until the run reaches its event limit (and the
    // editor says so, instead of showing the run).
    // (A consumer group's second JoinGroup from a member is a rejoin, which a rebalance answers.)
    // The saga writes to two resources by name; a design that keeps the data itself has none,
    // and the switch says so rather than guess where each write should go.
    let names_resources: Vec<String> = ["saga-compensation → postgres", "saga-compensation → consumer_group"]
        .iter()
        .map(|switch| format!("{switch}: participants[0].script[0].to: the data lives in the lock service here: name no resource"))
        .collect();
    let waits_for_itself = ["pg-xact-lock → lease", "pg-xact-lock → zookeeper", "pg-xact-lock → etcd"]
        .iter()
        .map(|switch| format!("{switch}: runs into EventLimit {{ limit: 200000 }}"));
    assert_eq!(failed, names_resources.into_iter().chain(waits_for_itself).collect::<Vec<_>>());
}

#[test]
fn switching_designs_keeps_the_clients_and_adds_or_removes_what_the_design_needs() {
    let lesson = lessons::find("lease-race-unfenced").unwrap();
    let doc = json::parse(lesson.source).unwrap();
    let (redlock, notes) = edit::switch::switch(&doc, &lesson.scenario, "redlock").unwrap();
    let t = run_doc(&redlock);
    assert_eq!(
        (t.participants.len(), t.quorum),
        (8, 3),
        "two clients, the lock service and four more masters, the resource; a majority of three"
    );
    assert!(notes.iter().any(|n| n.starts_with("Lock service 2 is added: Redlock")), "{notes:?}");
    assert!(notes.iter().any(|n| n.starts_with("The lesson's own statement of guarantees is dropped")), "{notes:?}");
    let pg = lessons::find("pg-same-database").unwrap();
    let (lease, notes) = edit::switch::switch(&json::parse(pg.source).unwrap(), &pg.scenario, "lease").unwrap();
    assert!(notes.contains(&"A protected resource is added; it checks nothing (unfenced) until you change it.".to_string()), "{notes:?}");
    run_doc(&lease);
    let (etcd, _) = edit::switch::switch(&doc, &lesson.scenario, "etcd").unwrap();
    assert_eq!(doc::get(&etcd, "participants"), doc::get(&doc, "participants"), "clients, service and resource stay");
    assert_eq!(doc::get(&etcd, "lock.design"), Some(&Value::String("etcd".into())));
    let (none, notes) = edit::switch::switch(&doc, &lesson.scenario, "none").unwrap();
    assert!(notes.iter().any(|n| n == "Client A's script loses its acquire and release: there is no lock."), "{notes:?}");
    assert!(notes.iter().any(|n| n.starts_with("Lock service is removed")), "{notes:?}");
    run_doc(&none);
    assert_eq!(edit::switch::switch(&doc, &lesson.scenario, "paxos").unwrap_err().to_string().split(':').next(), Some("lock.design"));
}

#[test]
fn a_blank_scenario_runs_for_every_design() {
    for kind in lockstep::design::registry::REGISTRY {
        let (blank, _) = edit::switch::blank(kind.tag()).unwrap_or_else(|e| panic!("{}: {e}", kind.tag()));
        assert_eq!(doc::get(&blank, "lock.design"), Some(&Value::String(kind.tag().into())));
        let t = run_doc(&blank);
        assert!(!t.events.is_empty(), "{}", kind.tag());
    }
}

#[test]
fn every_lesson_and_comparison_cell_written_as_a_document_reads_back_the_same() {
    use lockstep::scenario::compare;
    use lockstep::scenario::encode::scenario as written;
    let mut scenarios: Vec<(String, lockstep::scenario::Scenario)> =
        lessons::all().into_iter().map(|l| (l.id().to_string(), l.scenario)).collect();
    for row in compare::rows() {
        for schedule in compare::Schedule::ALL {
            let (cell, scenario, _) = compare::cell(schedule, &row).unwrap();
            scenarios.push((cell.id(), scenario));
        }
    }
    for (id, scenario) in scenarios {
        let doc = written(&scenario);
        let (back, spec) = validate::load_doc(&doc).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(written(&back), doc, "{id}: writing what was read changes nothing");
        let original = validate::compile(&scenario).unwrap();
        let (a, b) = (lockstep::engine::run(&spec).unwrap(), lockstep::engine::run(&original).unwrap());
        assert_eq!(
            lockstep::present::Words::new(&a, &*back.lock.design).to_text(),
            lockstep::present::Words::new(&b, &*scenario.lock.design).to_text(),
            "{id}: the same run"
        );
    }
}
