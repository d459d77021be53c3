//! Verification checked against itself: on small bounds, every schedule on the grid run from the
//! start gives the same verdict and the same kinds of harm; a branch stepped instant by instant
//! is the run from the start; random schedules on the grid find nothing verification does not.

use lockstep::engine::rng::Rng;
use lockstep::engine::sim::{simulate, Branch, Reuse};
use lockstep::engine::{check_run, FindingKind, Millis};
use lockstep::scenario::{compare, lessons, Scenario};
use lockstep::search::{Added, Class};
use lockstep::verify::{report, threads, Grid, Proof, Verify};

/// Small bounds: few instants (within 4 s), few sizes.
fn small(classes: &[Class], max_faults: usize, grid_ms: u64) -> Grid {
    let (horizon_ms, longest_ms) = (Some(4_000 / grid_ms * grid_ms), Some(2 * grid_ms));
    Grid { classes: classes.to_vec(), max_faults, grid_ms: Some(grid_ms), horizon_ms, longest_ms, jump_ms: grid_ms, ..Grid::default() }
}

/// Every single fault on the grid, in the order the verification tries them.
fn singles(v: &Verify) -> Vec<Added> {
    v.choices().singles().collect()
}

/// Every schedule of up to `k` of `singles`, in order.
fn schedules(singles: &[Added], k: usize) -> Vec<Vec<Added>> {
    let mut out = vec![Vec::new()];
    let mut level = vec![(Vec::new(), 0)];
    for _ in 0..k {
        let mut next = Vec::new();
        for (s, from) in &level {
            for (j, f) in singles.iter().enumerate().skip(*from) {
                let mut t: Vec<Added> = s.clone();
                t.push(f.clone());
                out.push(t.clone());
                next.push((t, j + 1));
            }
        }
        level = next;
    }
    out
}

/// The first harm of a schedule's run from the start, if it is a valid schedule.
fn harm(v: &Verify, schedule: &[Added]) -> Option<Option<FindingKind>> {
    let spec = v.search().spec_with(schedule)?;
    let run = check_run(&spec, &mut Reuse::default()).ok()?;
    Some(run.verdict.first_harm().map(|f| f.kind()))
}

/// Verifies `s` collecting every kind of harm, and compares with every schedule run from the
/// start; returns how many schedules there were.
fn same_as_brute_force(s: &Scenario, grid: Grid) -> usize {
    let k = grid.max_faults;
    let mut v = Verify::new(s, grid, true).expect("a verification");
    let all = schedules(&singles(&v), k);
    assert_eq!(all.len() as u128, v.choices().schedules(), "{}: the count of schedules", s.id);
    let mut brute: Vec<FindingKind> = all.iter().filter_map(|sch| harm(&v, sch).flatten()).collect();
    brute.sort();
    brute.dedup();
    v.run();
    let mut found = v.harms().to_vec();
    found.sort();
    let safe = matches!(v.proof(), Proof::Safe);
    assert_eq!(found, brute, "{}: the kinds of harm ({})", s.id, report::sentence(&v));
    assert_eq!(safe, brute.is_empty(), "{}: the verdict", s.id);
    all.len()
}

#[test]
fn every_lesson_verifies_as_every_schedule_runs() {
    let mut total = 0;
    for lesson in lessons::all() {
        let s = &lesson.scenario;
        total += same_as_brute_force(s, small(&[Class::Pause, Class::Crash], 2, 1_000));
        total += same_as_brute_force(s, small(&[Class::Partition, Class::ClockJump], 1, 700));
    }
    assert!(total > 10_000, "{total} schedules compared");
}

#[test]
fn drift_and_message_delays_verify_as_they_run() {
    for id in ["lease-race-fenced", "redis-clock-jump", "k8s-clock-rate", "etcd-txn-guard", "zk-session-expiry"] {
        let s = lessons::find(id).expect("a lesson").scenario;
        let grid = Grid { drift_step_ppm: 250_000, ..small(&[Class::Drift, Class::DelayMessage, Class::Pause], 2, 1_000) };
        same_as_brute_force(&s, grid);
    }
}

#[test]
fn every_comparison_cell_verifies_as_every_schedule_runs() {
    for row in compare::rows() {
        for schedule in compare::Schedule::ALL {
            let (_, s, _) = compare::cell(schedule, &row).expect("a cell");
            same_as_brute_force(&s, small(&[Class::Pause, Class::Partition], 1, 1_000));
        }
    }
}

/// Steps a branch as the verification does, adding each fault at its instant, to the end. With
/// `early`, each pause, partition and crash starts at its longest (a crash's at the longest that
/// restarts within the run's limit) and is ended early at the instant its length gives.
fn stepped(v: &Verify, schedule: &[Added], early: bool) -> Option<Vec<lockstep::engine::Event>> {
    let c = v.choices();
    let longest = c.lengths * c.grid_ms;
    let mut spec = v.search().spec_with(&[])?;
    let mut branch = Branch::start(&spec).ok()?;
    let (mut events, mut ends) = (Vec::new(), Vec::new());
    let mut t = 0;
    while t < c.horizon_ms || !ends.is_empty() {
        for f in schedule.iter().filter(|f| f.at_ms() == t && t < c.horizon_ms) {
            let from = spec.faults.len();
            let early = early && lockstep::verify::grid::ends_early(f);
            let added = if early { c.planned(f.sized(longest as i64), t, spec.limits.max_time_ms.as_ms()) } else { f.clone() };
            v.search().add_to(&mut spec, std::slice::from_ref(&added))?;
            if early {
                // A crash ends with its restart.
                let fault = if matches!(f, Added::Crash { .. }) { from + 1 } else { from };
                ends.push((fault, Millis::from_ms(t + added.magnitude() as u64), Millis::from_ms(t + f.magnitude() as u64)));
            }
            branch.add_faults(&spec, &mut events, from);
        }
        for &(fault, planned, end) in ends.iter().filter(|e| e.2 == Millis::from_ms(t) && e.2 < e.1) {
            branch.end_early(&spec, fault, planned, end);
        }
        ends.retain(|e| e.2 > Millis::from_ms(t) && e.2 < e.1);
        t += c.grid_ms;
        if (t < c.horizon_ms || !ends.is_empty()) && branch.run_until(&spec, &mut events, Millis::from_ms(t)).is_err() {
            return Some(events);
        }
    }
    let _ = branch.run_out(&spec, &mut events);
    Some(events)
}

/// Up to three of `singles` at random, in order.
fn random_schedule(rng: &mut Rng, singles: &[Added]) -> Vec<Added> {
    let n = rng.range_inclusive(1, 3) as usize;
    let mut picks: Vec<usize> = (0..n).map(|_| rng.range_inclusive(0, singles.len() as u64 - 1) as usize).collect();
    picks.sort();
    picks.dedup();
    picks.iter().map(|&i| singles[i].clone()).collect()
}

/// An event without what a pause or partition planned: one ended early began planned longer.
fn unplanned(e: &lockstep::engine::Event) -> lockstep::engine::Event {
    use lockstep::engine::EventKind;
    let mut e = e.clone();
    if let EventKind::PauseStart { until_ms } | EventKind::PartitionStart { until_ms, .. } = &mut e.kind {
        *until_ms = Millis::ZERO;
    }
    e
}

/// Steps 40 random schedules of each lesson within `grid` as the verification does ([`stepped`])
/// and compares every event with the same schedule run from the start; returns how many of their
/// faults were ended early.
fn steps_as_runs(grid: Grid, seed: u64, early: bool) -> usize {
    let mut rng = Rng::new(seed);
    let mut ended = 0;
    for lesson in lessons::all() {
        let v = Verify::new(&lesson.scenario, grid.clone(), false).expect("a verification");
        let (singles, longest) = (singles(&v), v.choices().lengths * v.choices().grid_ms);
        for _ in 0..40 {
            let schedule = random_schedule(&mut rng, &singles);
            let Some(spec) = v.search().spec_with(&schedule) else { continue };
            let shorter = |f: &&Added| lockstep::verify::grid::ends_early(f) && (f.magnitude() as u64) < longest;
            ended += if early { schedule.iter().filter(shorter).count() } else { 0 };
            // A fault ended early began planned longer, which only its start's event says.
            let seen = |e: &lockstep::engine::Event| if early { unplanned(e) } else { e.clone() };
            let fresh: Vec<_> = simulate(&spec, &mut Reuse::default()).expect("a run").events.iter().map(seen).collect();
            let branch: Vec<_> = stepped(&v, &schedule, early).expect("a branch").iter().map(seen).collect();
            let part = fresh.iter().zip(&branch).position(|(a, b)| a != b);
            assert!(fresh == branch, "{}: {schedule:?}: the runs part at event {part:?}", lesson.scenario.id);
        }
    }
    ended
}

#[test]
fn a_branch_stepped_instant_by_instant_is_the_run_from_the_start() {
    steps_as_runs(Grid { drift_step_ppm: 250_000, ..small(&Class::ALL, 3, 250) }, 7, false);
}

#[test]
fn a_fault_ended_early_runs_as_one_that_long() {
    let grid = Grid { longest_ms: Some(1_000), ..small(&[Class::Pause, Class::Partition, Class::Crash], 3, 250) };
    let ended = steps_as_runs(grid, 5, true);
    assert!(ended > 500, "only {ended} pauses, partitions and crashes were ended early");
}

#[test]
fn random_schedules_on_the_grid_find_no_harm_the_verification_misses() {
    let mut rng = Rng::new(11);
    for id in
        ["lease-race-unfenced", "redis-del-release", "zk-session-expiry-unchecked", "redlock-pause", "pg-external", "k8s-paused-leader"]
    {
        let s = lessons::find(id).expect("a lesson").scenario;
        let grid = small(&[Class::Pause, Class::Partition, Class::Crash], 2, 500);
        let mut v = Verify::new(&s, grid, true).expect("a verification");
        let singles = singles(&v);
        let mut random = Vec::new();
        for _ in 0..300 {
            let schedule: Vec<Added> = (0..rng.range_inclusive(1, 2))
                .map(|_| singles[rng.range_inclusive(0, singles.len() as u64 - 1) as usize].clone())
                .collect();
            if let Some(Some(kind)) = harm(&v, &schedule) {
                random.push(kind);
            }
        }
        v.run();
        for kind in random {
            assert!(v.harms().contains(&kind), "{id}: random schedules found {kind:?}, verification did not");
        }
    }
}

#[test]
fn a_verification_is_deterministic() {
    let s = lessons::find("lease-race-fenced").expect("a lesson").scenario;
    let grid = Grid { classes: vec![Class::Pause], grid_ms: Some(200), ..Grid::default() };
    let mut a = Verify::new(&s, grid.clone(), false).expect("a verification");
    let mut b = Verify::new(&s, grid, false).expect("a verification");
    a.run();
    b.step(1_000);
    b.run();
    assert!(matches!(a.proof(), Proof::Safe), "{}", report::sentence(&a));
    assert_eq!(a.counts(), b.counts());
    assert_eq!(report::sentence(&a), report::sentence(&b));
}

#[test]
fn the_fenced_race_is_safe_and_the_unfenced_one_is_not() {
    let grid = Grid { classes: vec![Class::Pause], grid_ms: Some(100), horizon_ms: Some(3_000), ..Grid::default() };
    let fenced = lessons::find("lease-race-fenced").expect("a lesson").scenario;
    let mut v = Verify::new(&fenced, grid.clone(), false).expect("a verification");
    v.run();
    let text = report::sentence(&v);
    assert!(
        text.starts_with("Safe for every schedule of ≤ 2 faults (pauses) on a 100 ms grid within 3,000 ms: 6,481,801 schedules"),
        "{text}"
    );
    let unfenced = lessons::find("lease-race-unfenced").expect("a lesson").scenario;
    let mut v = Verify::new(&unfenced, grid, false).expect("a verification");
    let Proof::Unsafe(found) = v.run().clone() else { panic!("unsafe: {}", report::sentence(&v)) };
    assert_eq!(found.failure, lockstep::search::Failure::Safety(FindingKind::OutOfOrder));
    assert!(
        report::sentence(&v).starts_with("Unsafe: Client A's write (token 41) was applied after Client B's (token 42)"),
        "{}",
        report::sentence(&v)
    );
}

#[test]
fn bounds_too_large_for_the_table_say_so() {
    let s = lessons::find("lease-race-fenced").expect("a lesson").scenario;
    let grid = Grid { classes: vec![Class::Pause], grid_ms: Some(100), max_states: 1_000, ..Grid::default() };
    let mut v = Verify::new(&s, grid, false).expect("a verification");
    assert!(matches!(v.run(), Proof::TooLarge));
    assert!(report::sentence(&v).starts_with("Not verified: the bounds are too large. 1,000 distinct states"), "{}", report::sentence(&v));
}

#[test]
fn bad_bounds_name_their_field() {
    let s = lessons::find("lease-race-fenced").expect("a lesson").scenario;
    let err = |g: Grid| Verify::new(&s, g, false).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err(Grid { max_faults: 0, ..Grid::default() }).contains("max_faults"));
    assert!(err(Grid { grid_ms: Some(0), ..Grid::default() }).contains("grid_ms"));
    assert!(err(Grid { classes: Vec::new(), ..Grid::default() }).contains("faults"));
    assert!(err(Grid { grid_ms: Some(1), horizon_ms: Some(100_000), ..Grid::default() }).contains("more than 1,000,000 can be verified"));
}

/// An event without the numbers that only name things in the trace (a message's).
fn unnamed(e: &lockstep::engine::Event) -> lockstep::engine::Event {
    use lockstep::engine::EventKind;
    let mut e = e.clone();
    if let EventKind::Send { msg_id, .. } | EventKind::Deliver { msg_id, .. } | EventKind::Drop { msg_id, .. } = &mut e.kind {
        *msg_id = 0;
    }
    e
}

#[test]
fn states_with_one_fingerprint_go_on_alike() {
    use std::collections::HashMap;
    let mut pairs = 0;
    for id in [
        "lease-race-fenced",
        "redis-safe-release",
        "zk-queue",
        "etcd-txn-guard",
        "pg-external",
        "k8s-fenced",
        "redlock-pause",
        "optimistic-version",
    ] {
        let s = lessons::find(id).expect("a lesson").scenario;
        let v = Verify::new(&s, small(&[Class::Pause, Class::Partition, Class::Crash], 1, 250), false).expect("a verification");
        let c = v.choices();
        // Every single fault, stepped to each later instant: states there, by fingerprint.
        let mut seen: HashMap<(u64, u128), (Vec<lockstep::engine::Event>, usize)> = HashMap::new();
        for f in singles(&v) {
            let Some(spec) = v.search().spec_with(std::slice::from_ref(&f)) else { continue };
            let base = v.search().spec_with(&[]).expect("a spec");
            let mut branch = Branch::start(&base).expect("a branch");
            let mut events = Vec::new();
            let mut t = 0;
            while t < f.at_ms() {
                t += c.grid_ms;
                branch.run_until(&base, &mut events, Millis::from_ms(t)).expect("within limits");
            }
            branch.add_faults(&spec, &mut events, 0);
            while t + c.grid_ms < c.horizon_ms {
                t += c.grid_ms;
                branch.run_until(&spec, &mut events, Millis::from_ms(t)).expect("within limits");
                let mut h = lockstep::engine::fingerprint::Fingerprint::default();
                branch.fingerprint(&spec, &mut h, Millis::from_ms(t), events.len(), &mut Vec::new());
                let mut rest = branch.clone();
                let mut future = events.clone();
                let now = future.len();
                let _ = rest.run_out(&spec, &mut future);
                let future: Vec<_> = future[now..].iter().map(unnamed).collect();
                match seen.get(&(t, h.finish128())) {
                    Some((other, _)) => {
                        pairs += 1;
                        assert_eq!(other, &future, "{id}: {f:?} at {t} ms has another state's fingerprint and goes on otherwise");
                    }
                    None => {
                        seen.insert((t, h.finish128()), (future, 0));
                    }
                }
            }
        }
    }
    assert!(pairs > 100, "{pairs} states met one with the same fingerprint");
}

#[test]
fn threads_give_one_thread_s_answer() {
    let pauses = Grid { classes: vec![Class::Pause], grid_ms: Some(200), ..Grid::default() };
    let cases = [
        ("lease-race-fenced", pauses.clone()),
        ("lease-race-unfenced", pauses.clone()),
        ("etcd-txn-guard", Grid::default()),
        ("zk-queue", Grid { max_faults: 1, ..Grid::default() }),
        ("redlock-pause", Grid { max_faults: 1, ..Grid::default() }),
        ("lease-race-fenced", Grid { max_states: 2_000, ..pauses }),
    ];
    let mut proofs = Vec::new();
    for (id, grid) in cases {
        let s = lessons::find(id).expect("a lesson").scenario;
        let mut one = Verify::new(&s, grid.clone(), false).expect("a verification");
        one.run();
        for n in [2, 3] {
            let many = threads::verify(&s, grid.clone(), n, |_| true).expect("a verification");
            assert_eq!(report::sentence(&many), report::sentence(&one), "{id} on {n} threads");
            assert_eq!(many.counts().states, one.counts().states, "{id} on {n} threads");
            if let (Proof::Unsafe(a), Proof::Unsafe(b)) = (many.proof(), one.proof()) {
                assert_eq!((&a.first, &a.added), (&b.first, &b.added), "{id} on {n} threads: the counterexample");
            }
        }
        proofs.push(std::mem::discriminant(one.proof()));
    }
    // Safe, unsafe and too large are each among them.
    proofs.sort_by_key(|d| format!("{d:?}"));
    proofs.dedup();
    assert_eq!(proofs.len(), 3, "the kinds of answer compared");
}

#[test]
fn a_verification_on_threads_stops_when_told() {
    let s = lessons::find("lease-race-fenced").expect("a lesson").scenario;
    let grid = Grid { classes: vec![Class::Pause], grid_ms: Some(100), horizon_ms: Some(3_000), ..Grid::default() };
    let mut looks = 0;
    let v = threads::verify(&s, grid, 2, |_| {
        looks += 1;
        looks < 3
    })
    .expect("a verification");
    assert!(matches!(v.proof(), Proof::Running), "{}", report::sentence(&v));
    assert_eq!(looks, 3);
}
