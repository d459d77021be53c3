//! A run that goes on from a base run's kept state is the run from the start, event for event:
//! checked on every lesson and comparison cell, with the search's own schedules of up to four
//! faults of every kind (clock jumps and drift included).

use lockstep::engine::sim::{simulate, simulate_forked, Reuse, Simulated};
use lockstep::scenario::{compare, lessons, Scenario};
use lockstep::search::{Bounds, Search};

/// Runs `n` of the search's schedules on `s` both ways and compares everything each run did.
fn same_both_ways(s: &Scenario, n: usize) {
    let bounds = Bounds { max_faults: 4, budget: n, ..Bounds::default() };
    let mut search = Search::new(s, bounds).expect("a search");
    let mut forked = Reuse::default();
    forked.fork_from(&search.spec_with(&[]).expect("the base spec")).expect("the base run");
    for added in search.draw(n) {
        let Some(spec) = search.spec_with(&added) else { continue };
        let fresh = simulate(&spec, &mut Reuse::default());
        let resumed = simulate_forked(&spec, &mut forked);
        let (Ok(a), Ok(b)) = (&fresh, &resumed) else {
            assert_eq!(fresh.err(), resumed.err(), "{}: {added:?}", s.id);
            continue;
        };
        let first = a.events.iter().zip(&b.events).position(|(x, y)| x != y);
        assert!(
            a.events == b.events,
            "{}: {added:?}: the runs part at event {first:?} of {} and {}:\n{:?}\n{:?}",
            s.id,
            a.events.len(),
            b.events.len(),
            first.map(|i| &a.events[i]),
            first.and_then(|i| b.events.get(i))
        );
        let Simulated { fault_events, stopped, .. } = b;
        assert_eq!((&a.fault_events, &a.stopped), (fault_events, stopped), "{}: {added:?}", s.id);
    }
}

#[test]
fn every_lesson_runs_the_same_from_a_kept_state() {
    for lesson in lessons::all() {
        same_both_ways(&lesson.scenario, 1_500);
    }
}

#[test]
fn every_comparison_cell_runs_the_same_from_a_kept_state() {
    for row in compare::rows() {
        for schedule in compare::Schedule::ALL {
            let (_, s, _) = compare::cell(schedule, &row).expect("a cell");
            same_both_ways(&s, 300);
        }
    }
}
