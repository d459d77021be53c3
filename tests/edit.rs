//! Editing scenarios: edits at field paths, undo and redo, share links, and the sentence that
//! says how an edit changed the outcome.

#![cfg(not(target_arch = "wasm32"))]

mod support;

use lockstep::edit::{self, link, outcome, start, Edit, History};
use lockstep::engine::msg::ReleaseMode;
use lockstep::engine::spec::Step;
use lockstep::engine::FindingKind::*;
use lockstep::scenario::format::{Fault, Participant, Scenario};
use lockstep::scenario::json::{self, Value};
use lockstep::scenario::{encode, lessons, validate};
use support::*;

fn lesson(id: &str) -> Scenario {
    lessons::find(id).expect("lesson").scenario
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

/// Runs a scenario the way the page does: validate, simulate.
fn run(s: &Scenario) -> Ran {
    let spec = validate::compile(s).expect("the edited scenario is valid");
    Ran { trace: lockstep::engine::run(&spec).expect("it runs"), design: s.lock.design.clone() }
}

/// The link of a scenario, read back as the page reads one.
fn through_link(s: &Scenario) -> Scenario {
    validate::load_doc(&link::decode(&link::encode(&encode::scenario(s)).unwrap()).unwrap()).unwrap().0
}

fn script(s: &Scenario, i: usize) -> &[Step] {
    match &s.participants[i] {
        Participant::Client { script, .. } => script,
        _ => panic!("participant {i} is no client"),
    }
}

#[test]
fn shortening_the_pause_makes_the_unfenced_race_safe_and_lengthening_it_unsafe_again() {
    let original = lesson("lease-race-unfenced");
    let short = edit::apply(&original, &set("faults[0].for_ms", number(500))).unwrap();
    let t = run(&short);
    assert!(t.verdict.safe);
    assert_eq!(writes(&t), vec![ok(555, "Client A", 41, "A", 1), ok(1_165, "Client B", 42, "B", 2)]);
    assert_eq!(outcome::change(&run_lesson("lease-race-unfenced"), &t.words(), true), "was unsafe → now safe");

    let long = edit::apply(&short, &set("faults[0].for_ms", number(1_500))).unwrap();
    assert_eq!(long, original, "the same numbers give the same scenario");
    let t = run(&long);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_110), (StaleWriteAccepted, 1_555), (OutOfOrder, 1_555)]);
}

#[test]
fn fencing_the_resource_rejects_a_write_with_token_41() {
    let original = lesson("lease-race-unfenced");
    let fenced = edit::apply(&original, &set("participants[2].mode", text("fenced"))).unwrap();
    let t = run(&fenced);
    assert_eq!(writes(&t), vec![ok(1_165, "Client B", 42, "B", 1), rejected(1_555, "Client A", 41, "A", "token 41 < 42")]);
    assert_eq!(
        outcome::change(&run_lesson("lease-race-unfenced"), &t.words(), true),
        "was unsafe → now safe: the write (token 41) was rejected: token 41 < 42 at 1,555 ms"
    );
    let unfenced = run(&original);
    assert_eq!(
        outcome::change(&t, &unfenced.words(), true),
        "was safe → now unsafe: Client A's write (token 41) was applied after Client B's (token 42) and erased it at 1,555 ms"
    );
    assert_eq!(outcome::change(&t, &t.words(), true), "still safe");
    // The verdict stays, but the story changed: a shorter pause leaves no stale write to refuse.
    let short = run(&edit::apply(&fenced, &set("faults[0].for_ms", number(500))).unwrap());
    assert_eq!(
        outcome::change(&t, &short.words(), true),
        "still safe; two clients no longer hold the lock at once; no stale write reaches the resource to be refused"
    );
    // A run opened unchanged (a failure the search found) is told as it is.
    assert!(outcome::change(&t, &unfenced.words(), false).starts_with("the same scenario; unsafe: Client A's write (token 41)"));
}

#[test]
fn faults_and_steps_are_added_replaced_and_removed() {
    let original = lesson("lease-race-fenced");
    let jump = Fault::ClockJump { at_ms: 20, node: "L".to_string(), by_ms: 2_000 };
    let with = edit::apply(&original, &Edit::AddFault(jump.clone())).unwrap();
    assert_eq!(with.faults.last(), Some(&jump), "a new fault comes last");
    let without = edit::apply(&with, &Edit::Remove { path: "faults[0]".into() }).unwrap();
    assert_eq!(without.faults, vec![jump]);
    run(&without);

    let read = edit::apply(&original, &Edit::AddStep { client: 0, step: Step::Read }).unwrap();
    assert_eq!(script(&read, 0).last(), Some(&Step::Read));
    let first = edit::apply(&read, &Edit::ReplaceStep { path: "participants[0].script[0]".into(), step: Step::Read }).unwrap();
    assert_eq!(script(&first, 0)[0], Step::Read);
    let gone = edit::apply(&first, &Edit::Remove { path: "participants[0].script[0]".into() }).unwrap();
    assert_eq!(script(&gone, 0).len(), script(&first, 0).len() - 1);
    let seed = edit::apply(&original, &set("seed", number(7))).unwrap();
    assert_eq!(seed.seed, 7);
    assert_eq!(edit::apply(&seed, &set("seed", None)).unwrap().seed, 1, "a field set to nothing takes its default");
}

#[test]
fn a_bad_edit_names_its_path_and_what_is_wrong_as_a_file_s_reader_would() {
    let original = lesson("lease-race-fenced");
    let problem = |e: Edit| edit::apply(&original, &e).unwrap_err().to_string();
    assert_eq!(problem(set("faults[3].for_ms", number(1))), "faults[3].for_ms: has no element 3; the list has 1");
    assert_eq!(problem(set("lock.nothing.deeper", number(1))), "lock.nothing.deeper: is not a field the editor can change");
    assert_eq!(problem(set("lock.nothing", number(1))), "lock.nothing: lease has no setting `nothing`");
    assert_eq!(problem(set("faults[x]", number(1))), "“faults[x]” is not a field path");
    assert_eq!(problem(set("", number(1))), "“” is not a field path");
    assert_eq!(problem(set("lock..ttl_ms", number(1))), "“lock..ttl_ms” is not a field path");
    assert_eq!(problem(set("faults[0]x", number(1))), "“faults[0]x” is not a field path");
    assert_eq!(problem(Edit::Remove { path: "faults[5]".into() }), "faults[5]: has no element 5; the list has 1");
    assert_eq!(problem(Edit::Remove { path: "seed".into() }), "seed: cannot be removed");
    assert_eq!(problem(Edit::AddStep { client: 1, step: Step::Read }), "participants[1].script: is not a client's script");
    // A value out of its range or of the wrong type is refused with the reader's words.
    assert_eq!(problem(set("faults[0].for_ms", number(-5))), "faults[0].for_ms: must be ≥ 0");
    assert!(problem(set("lock.ttl_ms", number(0))).starts_with("lock.ttl_ms: must be between 1 and"));
    assert_eq!(problem(set("lock.ttl_ms", text("soon"))), "lock.ttl_ms: invalid type: string \"soon\", expected a whole number");
    assert_eq!(problem(set("faults[0].for_ms", None)), "faults[0].for_ms: needs a value");
    // The edit itself is fine; the scenario it makes is not, and validation says where.
    let late = edit::apply(&original, &set("faults[0].at_ms", number(86_400_000))).unwrap();
    let limited = edit::apply(&late, &set("participants[0].name", text(" "))).unwrap();
    assert_eq!(validate::compile(&limited).unwrap_err().to_string(), "participants[0].name: is blank: give the participant a name to show");
}

#[test]
fn undo_redo_and_reset_walk_the_edits_and_forget_the_oldest_past_the_limit() {
    let original = lesson("lease-race-unfenced");
    let mut h = History::new(original.clone());
    assert!(!h.edited() && !h.undo() && !h.redo());
    let a = edit::apply(&original, &set("faults[0].for_ms", number(500))).unwrap();
    let b = edit::apply(&a, &set("participants[2].mode", text("fenced"))).unwrap();
    h.push(a.clone());
    h.push(a.clone());
    h.push(b.clone());
    assert_eq!(h.depth(), (2, 0), "pushing the same scenario again is no edit");
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
    assert!(matches!(h.now().faults[0], Fault::Pause { for_ms: 49, .. }), "the oldest edits are forgotten");
    assert_eq!(h.original(), &original);
}

#[test]
fn every_lesson_survives_writing_exporting_and_a_link() {
    for lesson in lessons::all() {
        let written = encode::scenario(&lesson.scenario);
        for indent in [None, Some(2)] {
            assert_eq!(json::parse(&json::write(&written, indent)).unwrap(), written, "{} written", lesson.id());
        }
        let text = link::encode(&written).unwrap();
        assert!(text.len() < 4_000, "{}: a {}-character link", lesson.id(), text.len());
        assert!(text.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b)), "URL-safe: {text}");
        let back = through_link(&lesson.scenario);
        assert_eq!(back, lesson.scenario, "{}: the same scenario from the link", lesson.id());
        let (a, b) = (run(&back), run_lesson(lesson.id()));
        assert_eq!(a.words().to_text(), b.words().to_text(), "{}: the same run from the link", lesson.id());
    }
}

#[test]
fn names_with_markup_quotes_and_control_characters_survive_a_link() {
    let name = "<img src=x onerror=alert(1)> \"A\" \\ \u{1}\t\n é 名前";
    let odd = edit::apply(&lesson("lease-race-fenced"), &set("participants[0].name", text(name))).unwrap();
    let back = link::decode(&link::encode(&encode::scenario(&odd)).unwrap()).unwrap();
    assert_eq!(validate::parse(&json::write(&back, None)).unwrap().participants[0].name(), name);
}

#[test]
fn bad_links_say_what_is_wrong() {
    let problem = |text: &str| link::decode(text).unwrap_err().to_string();
    let good = link::encode(&encode::scenario(&lesson("lease-race-fenced"))).unwrap();
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
    // Incompressible text: a long intro of varied characters.
    let noise: String = (0..9_000u32).map(|i| char::from_u32(0x4e00 + (i * 7919) % 20_000).unwrap()).collect();
    let long = edit::apply(&lesson("lease-race-fenced"), &set("intro", text(&noise))).unwrap();
    let e = link::encode(&encode::scenario(&long)).unwrap_err().to_string();
    assert!(
        e.starts_with("link: this scenario makes a link of ")
            && e.ends_with("characters, and links hold at most 8,192: export it as a file instead"),
        "{e}"
    );
}

#[test]
fn every_kind_of_new_fault_fits_every_lesson_that_has_its_node() {
    let mut refused = Vec::new();
    for lesson in lessons::all() {
        for kind in lockstep::scenario::faults::FAULTS.iter().map(|k| k.tag) {
            let Some(fault) = start::fault(kind, &lesson.scenario, 100, None) else { continue };
            let with = edit::apply(&lesson.scenario, &Edit::AddFault(fault)).unwrap();
            if let Err(e) = validate::compile(&with) {
                refused.push(format!("{} + {kind}: {e}", lesson.id()));
            }
        }
    }
    assert_eq!(refused, Vec::<String>::new());
}

#[test]
fn clients_are_added_and_removed_with_what_names_them_and_steps_change_kind() {
    let original = lesson("lease-race-unfenced");
    let added = edit::apply(&original, &Edit::AddParticipant(start::client(&original, 200))).unwrap();
    assert_eq!(added.participants[4].id(), "C", "the first free id");
    let t = run(&added);
    assert_eq!(grants(&t).iter().map(|g| g.1.as_str()).collect::<Vec<_>>(), ["Client A", "Client C", "Client B"]);

    // Removing Client A takes its pause with it; a partition loses only the removed side.
    let partition = start::fault("partition", &original, 10, None).unwrap();
    let with = edit::apply(&original, &Edit::AddFault(partition)).unwrap();
    let without_a = edit::apply(&with, &Edit::Remove { path: "participants[0]".into() }).unwrap();
    assert_eq!(without_a.faults, Vec::new(), "A's pause and A's partition go");
    assert_eq!(writes(&run(&without_a)), vec![ok(1_165, "Client B", 41, "B", 1)], "B alone takes the first token");
    let without_b = start::without_participant(&with, 3).unwrap();
    assert_eq!(without_b.faults[1], with.faults[1], "B is on no side of it");
    run(&without_b);
    assert_eq!(start::without_participant(&with, 9), None);

    let write = start::step("write", ReleaseMode::Safe).unwrap();
    assert_eq!(write, Step::Write { value: "X".into(), to: None });
    assert_eq!(start::step("release", ReleaseMode::Commit), Some(Step::Release { mode: ReleaseMode::Commit }));
    assert_eq!(start::step("dance", ReleaseMode::Safe), None);
    let rewritten = edit::apply(&original, &Edit::ReplaceStep { path: "participants[0].script[1]".into(), step: write }).unwrap();
    let t = run(&rewritten);
    assert_eq!(writes(&t)[0].3, "X", "A's work became a write of X");
}

#[test]
fn every_lesson_switches_to_every_design_and_says_what_changed() {
    let mut failed = Vec::new();
    for lesson in lessons::all() {
        for kind in lockstep::design::registry::REGISTRY {
            match edit::switch::switch(&lesson.scenario, kind.tag()) {
                Ok((switched, _)) => {
                    let spec = validate::compile(&switched).unwrap();
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
    let original = lesson("lease-race-unfenced");
    let (redlock, notes) = edit::switch::switch(&original, "redlock").unwrap();
    let t = run(&redlock);
    assert_eq!(
        (t.participants.len(), t.quorum),
        (8, 3),
        "two clients, the lock service and four more masters, the resource; a majority of three"
    );
    assert!(notes.iter().any(|n| n.starts_with("Lock service 2 is added: Redlock")), "{notes:?}");
    assert!(notes.iter().any(|n| n.starts_with("The lesson's own statement of guarantees is dropped")), "{notes:?}");
    let (lease, notes) = edit::switch::switch(&lesson("pg-same-database"), "lease").unwrap();
    assert!(notes.contains(&"A protected resource is added; it checks nothing (unfenced) until you change it.".to_string()), "{notes:?}");
    run(&lease);
    let (etcd, _) = edit::switch::switch(&original, "etcd").unwrap();
    assert_eq!(etcd.participants, original.participants, "clients, service and resource stay");
    assert_eq!(etcd.lock.kind.tag(), "etcd");
    let (none, notes) = edit::switch::switch(&original, "none").unwrap();
    assert!(notes.iter().any(|n| n == "Client A's script loses its acquire and release: there is no lock."), "{notes:?}");
    assert!(notes.iter().any(|n| n.starts_with("Lock service is removed")), "{notes:?}");
    run(&none);
    assert_eq!(edit::switch::switch(&original, "paxos").unwrap_err().to_string().split(':').next(), Some("lock.design"));
}

#[test]
fn a_blank_scenario_runs_for_every_design() {
    for kind in lockstep::design::registry::REGISTRY {
        let (blank, _) = edit::switch::blank(kind.tag()).unwrap_or_else(|e| panic!("{}: {e}", kind.tag()));
        assert_eq!(blank.lock.kind.tag(), kind.tag());
        let t = run(&blank);
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
