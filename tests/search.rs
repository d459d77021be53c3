//! The failure search: it finds a failure in every unsafe cell of the comparison table from the
//! cell's design with no faults, none where the store's own transaction guards the data, the
//! PostgreSQL stall as a liveness failure, and shrinks the lease race to a single pause of the
//! holder.

use lockstep::engine::{self, EventKind, FindingKind};
use lockstep::scenario::compare::{self, Outcome};
use lockstep::scenario::Scenario;
use lockstep::search::{Added, Bounds, Class, Failure, Liveness, Search, Shrunk, State};

/// A cell's scenario without its schedule's faults.
fn base(cell_id: &str) -> Scenario {
    let (_, mut s, _) = compare::cell_by_id(cell_id).expect("cell");
    s.faults.clear();
    s
}

/// The search's class of a comparison schedule: both are named by the tag of the fault they add.
fn class_of(schedule: &str) -> Class {
    Class::named(schedule).unwrap_or_else(|| panic!("no class for {schedule}"))
}

/// Runs a search to its end.
fn search(s: &Scenario, bounds: Bounds) -> (Option<Shrunk>, usize) {
    let mut search = Search::new(s, bounds).expect("valid bounds");
    while matches!(search.step(500), State::Searching) {}
    let tried = search.tried();
    match search.step(0) {
        State::Found(f) => (Some((**f).clone()), tried),
        _ => (None, tried),
    }
}

/// The budget and seed every table test uses.
fn bounds(classes: Vec<Class>) -> Bounds {
    Bounds { classes, budget: 4_000, seed: 7, ..Bounds::default() }
}

#[test]
fn every_unsafe_or_stalling_cell_is_found_from_its_design_without_faults() {
    let table = compare::table().expect("table");
    let mut checked = 0;
    for cell in table.iter().flatten().filter(|c| c.outcome != Outcome::Safe) {
        let s = base(&cell.id());
        let (found, tried) = search(&s, bounds(vec![class_of(cell.schedule.fault().tag)]));
        let found = found.unwrap_or_else(|| panic!("{}: nothing found in {tried} schedules", cell.id()));
        match cell.outcome {
            Outcome::Unsafe => assert!(
                matches!(found.failure, Failure::Safety(FindingKind::OutOfOrder | FindingKind::LostUpdate)),
                "{}: {:?}",
                cell.id(),
                found.failure
            ),
            _ => assert_eq!(found.failure, Failure::Liveness(Liveness::Stalled), "{}", cell.id()),
        }
        assert!(found.added.len() <= found.first.len());
        checked += 1;
    }
    assert_eq!(checked, 34, "the table's unsafe and stalling cells");
}

#[test]
fn no_violation_is_found_where_the_stores_own_transaction_guards_the_data() {
    // Safety only: a wait of a minute is past anything these bounds can cause. (A holder cut
    // off from hearing the server keeps its PostgreSQL session busy, so a waiter does wait.)
    for row in ["etcd-txn", "pg-same"] {
        let s = base(&compare::id("pause", row));
        let (found, tried) = search(&s, Bounds { stall_ms: 60_000, ..bounds(Class::ALL.to_vec()) });
        assert!(found.is_none(), "{row}: {:?}", found.map(|f| (f.failure, f.added)));
        assert_eq!(tried, 4_000);
    }
}

#[test]
fn the_unfenced_lease_shrinks_to_one_pause_of_the_holder_that_carries_its_write_past_the_lease() {
    let s = base(&compare::id("pause", "lease"));
    let (found, _) = search(&s, Bounds { seed: 3, ..Bounds::default() });
    let found = found.expect("a failure");
    assert_eq!(found.failure, Failure::Safety(FindingKind::OutOfOrder));
    let [Added::Pause { at_ms, node, ms }] = found.added.as_slice() else { panic!("not one pause: {:?}", found.added) };
    assert_eq!(node, "A", "the holder pauses");
    // In the found run: the lease ends while A is paused (its renewal never went out), and A's
    // write, sent after the pause and the work left, lands after that end and after B's write,
    // which it erases.
    let run = engine::run(&lockstep::scenario::validate::compile(&found.scenario).expect("compiles")).expect("runs");
    let a = run.participants.iter().position(|p| p.key == "A").expect("A");
    let lease_end = run
        .events
        .iter()
        .find_map(|e| matches!(e.kind, EventKind::LockEnded { holder, .. } if holder.0 == a).then_some(e.at_ms.as_ms()))
        .expect("A's lease ends");
    let stale_write = run
        .events
        .iter()
        .find_map(|e| matches!(e.kind, EventKind::WriteAccepted { writer, .. } if writer.0 == a).then_some(e.at_ms.as_ms()))
        .expect("A's write is accepted");
    let b_write = run
        .events
        .iter()
        .find_map(|e| matches!(e.kind, EventKind::WriteAccepted { writer, .. } if writer.0 != a).then_some(e.at_ms.as_ms()))
        .expect("B's write is accepted");
    assert!(*at_ms < lease_end && lease_end < at_ms + ms + 200, "the lease runs out during or just after the pause");
    assert!(stale_write >= lease_end && stale_write >= b_write, "A's write lands once the lease is over, after B's");
    // One millisecond shorter no longer fails: the shrink found the edge.
    let shorter = Added::Pause { at_ms: *at_ms, node: node.clone(), ms: ms - 1 };
    let (again, _) = search(&with(&s, &shorter), Bounds { budget: 1, ..Bounds::default() });
    assert!(again.is_none(), "a pause of {} ms is not enough", ms - 1);
}

/// The scenario with one fault added.
fn with(s: &Scenario, f: &Added) -> Scenario {
    let mut s = s.clone();
    f.apply(&mut s);
    s
}

#[test]
fn the_same_seed_finds_the_same_failure() {
    let s = base(&compare::id("partition", "redlock"));
    let b = Bounds { classes: vec![Class::Partition, Class::Pause], budget: 3_000, seed: 11, ..Bounds::default() };
    let (a, _) = search(&s, b.clone());
    let (c, _) = search(&s, b);
    let (a, c) = (a.expect("found"), c.expect("found"));
    assert_eq!((a.added, a.first, a.runs_to_first), (c.added, c.first, c.runs_to_first));
}

#[test]
fn bad_bounds_are_named() {
    let s = base(&compare::id("pause", "lease"));
    let err = |b: Bounds| Search::new(&s, b).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err(Bounds { classes: vec![], ..Bounds::default() }).starts_with("faults"));
    assert!(err(Bounds { max_faults: 9, ..Bounds::default() }).contains("max_faults"));
    assert!(err(Bounds { budget: 0, ..Bounds::default() }).contains("budget"));
    assert!(err(Bounds { drift_ppm: 900_000, ..Bounds::default() }).contains("drift_ppm"));
}

/// A lesson's scenario without its faults.
fn lesson(id: &str) -> Scenario {
    let (mut s, _) = lockstep::scenario::lessons::read(
        lockstep::scenario::lessons::entry(id).unwrap(),
        lockstep::scenario::lessons::embedded(id).unwrap(),
    )
    .unwrap();
    s.faults.clear();
    s
}

#[test]
fn a_fenced_or_compare_and_set_resource_under_blind_writes_is_never_found_to_lose_data() {
    // Safety only: a stall is another question. The writes are blind, so a stale write let in
    // before the new holder's first is applied in token order, and harms nothing. Whatever keeps
    // the tokens (pauses, delays, partitions, clocks) finds nothing; a lock service that restarts
    // with its state lost hands a token out again, and the only harm found then is a repeated one.
    let durable = vec![Class::Pause, Class::DelayMessage, Class::Partition, Class::ClockJump, Class::Drift];
    let mut found_any = Vec::new();
    for id in [
        "lease-race-fenced",
        "short-pause",
        "clock-jump",
        "network-delay",
        "zk-session-expiry",
        "etcd-lease-expires",
        "k8s-fenced",
        "redis-incr-token",
        "etcd-txn-guard",
        "pg-same-database",
    ] {
        let (found, tried) = search(&lesson(id), Bounds { stall_ms: 600_000, budget: 1_500, ..bounds(durable.clone()) });
        match found {
            Some(f) => found_any.push(format!("{id} after {tried}: {:?} {:?}", f.failure, f.added)),
            None => assert_eq!(tried, 1_500, "{id}"),
        }
        let (found, _) = search(&lesson(id), Bounds { stall_ms: 600_000, budget: 1_500, ..bounds(vec![Class::Crash]) });
        if let Some(f) = found {
            let run = engine::run(&lockstep::scenario::validate::compile(&f.scenario).unwrap()).unwrap();
            let harm = run.verdict.first_harm().expect("harm");
            let repeated = matches!(harm.found, lockstep::engine::Found::OutOfOrder { token, newer_token, .. } if token == newer_token);
            let lost_state = run.events.iter().any(|e| matches!(e.kind, EventKind::Restart { keep_state: false }));
            assert!(repeated && lost_state, "{id}: {harm:?}");
        }
    }
    assert!(found_any.is_empty(), "{}", found_any.join("\n"));
}

#[test]
fn compare_and_set_is_never_reported_as_failing() {
    for id in ["conditional-write", "optimistic-version", "redlock-pause-checked"] {
        let (found, tried) = search(&lesson(id), Bounds { stall_ms: 600_000, budget: 2_000, ..bounds(Class::ALL.to_vec()) });
        assert!(found.is_none(), "{id}: {:?}", found.map(|f| (f.failure, f.added)));
        assert_eq!(tried, 2_000, "{id}");
    }
}

#[test]
fn a_fenced_read_modify_write_loses_the_update_when_the_stale_write_lands_first_and_shrinks_to_the_holder_s_pause() {
    // The lesson's clients read before they write; without its faults the run is safe.
    let s = lesson("lease-fenced-first-write");
    let clean = engine::run(&lockstep::scenario::validate::compile(&s).unwrap()).unwrap();
    assert!(clean.verdict.safe, "no faults, no harm");
    let (found, _) = search(&s, Bounds { classes: vec![Class::Pause], stall_ms: 600_000, ..bounds(vec![Class::Pause]) });
    let found = found.expect("the lost update is found");
    assert_eq!(found.failure, Failure::Safety(FindingKind::LostUpdate));
    let [Added::Pause { node, .. }] = found.added.as_slice() else { panic!("not one pause: {:?}", found.added) };
    assert_eq!(node, "A", "shrunk to a pause of the first holder");
    // The found run: A's stale write lands between B's read and B's write, which erases it.
    let run = engine::run(&lockstep::scenario::validate::compile(&found.scenario).unwrap()).unwrap();
    let lost = run.verdict.first_harm().expect("harm");
    let lockstep::engine::Found::LostUpdate { read, found: at, erased, .. } = &lost.found else { panic!("{lost:?}") };
    assert_eq!((*read, *at, erased.len()), (0, 1, 1), "B read version 0; A's write made version 1, and B's erased it");
}

#[test]
fn faults_added_to_a_spec_compiled_once_run_as_the_scenario_compiled_with_them() {
    use lockstep::scenario::validate::compile;
    use lockstep::search::Cut;
    for id in ["lease-race-fenced", "redis-renewal-abort", "zk-session-expiry", "etcd-txn-guard", "pg-no-timeout"] {
        let base = lesson(id);
        let search = Search::new(&base, Bounds::default()).expect("a search");
        let service =
            base.participants.iter().find(|p| matches!(p, lockstep::scenario::format::Participant::LockService { .. })).unwrap().id();
        let added = [
            Added::Pause { at_ms: 120, node: "A".into(), ms: 1_500 },
            Added::Partition { at_ms: 300, node: "B".into(), cut: Cut::Both, ms: 2_000 },
            Added::Crash { at_ms: 50, node: service.into(), ms: 400 },
            Added::ClockJump { at_ms: 200, node: service.into(), ms: 1_200 },
            Added::DelayMessage { at_ms: 0, from: "A".into(), to: service.into(), ms: 700 },
            Added::Drift { node: "A".into(), ppm: 250_000 },
        ];
        for pair in added.windows(2) {
            let mut scenario = base.clone();
            for f in pair {
                f.apply(&mut scenario);
            }
            let mut spec = compile(&scenario).unwrap();
            // The search's spec runs within its own limits.
            spec.limits = search.spec_with(&[]).unwrap().limits;
            let (a, b) = (engine::run(&spec).unwrap(), engine::run(&search.spec_with(pair).unwrap()).unwrap());
            assert_eq!(a.events, b.events, "{id} with {pair:?}");
        }
    }
}

#[test]
fn a_search_on_several_threads_finds_what_one_thread_finds_schedule_for_schedule() {
    let cells = [("partition", "redlock"), ("pause", "lease"), ("pause", "lease-fenced"), ("clock_jump", "redlock")];
    let mut found = 0;
    for (schedule, design) in cells {
        let s = base(&compare::id(schedule, design));
        let b = Bounds { classes: vec![class_of(schedule), Class::Pause], budget: 1_500, seed: 5, ..Bounds::default() };
        // One schedule at a time on one thread.
        let mut one = Search::new(&s, b.clone()).expect("valid bounds");
        while matches!(one.step(1), State::Searching) {}
        let what = |state: &State| match state {
            State::Found(f) => Some((f.added.clone(), f.first.clone(), f.runs_to_first, f.sentence.clone())),
            _ => None,
        };
        let a = what(one.step(0));
        found += usize::from(a.is_some());
        // Batches of odd sizes shared among three threads: within one chunk, and over many.
        for batch in [97, 997] {
            let mut three = lockstep::search::Threaded::new(&s, b.clone(), 3).expect("valid bounds");
            while matches!(three.step(batch), State::Searching) {}
            assert_eq!(a, what(three.step(0)), "{schedule} × {design}, batches of {batch}");
            assert_eq!(one.tried(), three.search().tried(), "{schedule} × {design}, batches of {batch}");
        }
    }
    assert!((1..cells.len()).contains(&found), "some cells fail and some do not: {found} of {} failed", cells.len());
}
