//! Prints verification's figures natively, with the bounds of the tick model it is compared
//! with (the lease race, pauses only, a 100 ms grid, a 3 s horizon, up to 2 faults) and finer
//! ones: the time to the first counterexample on the unfenced race, the time to exhaust the
//! fenced race, the distinct states explored and their rate, and the memory the table of
//! states took. The races are the lessons' scenarios without their own pause, so every pause
//! comes from the verification. Times are medians of 7 runs (3 for runs over a second), on one
//! thread and on every core.

use lockstep::scenario::{lessons, Scenario};
use lockstep::search::Class;
use lockstep::verify::{report, threads, Grid, Proof, Verify};
use std::time::Instant;

/// A lesson's scenario without its own faults.
fn bare(id: &str) -> Scenario {
    let mut s = lessons::find(id).expect("a lesson").scenario;
    s.faults.clear();
    s
}

/// One verification of `s` within `grid` on `threads` threads: its seconds and the verifier,
/// finished.
fn once(s: &Scenario, grid: &Grid, threads: usize) -> (f64, Verify) {
    let start = Instant::now();
    let v = threads::verify(s, grid.clone(), threads, |_| true).expect("bounds");
    (start.elapsed().as_secs_f64(), v)
}

/// The median seconds of verifying `s` within `grid` several times on `threads` threads, with
/// the last verifier.
fn median(s: &Scenario, grid: &Grid, threads: usize) -> (f64, usize, Verify) {
    let (first, v) = once(s, grid, threads);
    let runs = if first > 1.0 { 3 } else { 7 };
    let mut times: Vec<f64> = std::iter::once(first).chain((1..runs).map(|_| once(s, grid, threads).0)).collect();
    times.sort_by(f64::total_cmp);
    (times[runs / 2], runs, v)
}

/// Verifies `s` within `grid` several times, on one thread and on every core, and prints the
/// median times with what it found.
fn measure(name: &str, s: &Scenario, grid: Grid) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (one, runs, v) = median(s, &grid, 1);
    let (all, _, w) = median(s, &grid, cores);
    let c = v.counts();
    let verdict = match v.proof() {
        Proof::Safe => "safe",
        Proof::Unsafe(_) => "counterexample",
        Proof::TooLarge | Proof::Running => "not verified",
    };
    assert_eq!(report::sentence(&v), report::sentence(&w), "{name}: one thread and {cores} differ");
    println!(
        "verify {name}: {verdict} in {:.1} ms on one thread, {:.1} ms on {cores} (medians of {runs}); {} states, {} runs, {:.0} and {:.0} states/s; table {:.1} MB\n    {}",
        one * 1e3,
        all * 1e3,
        c.states,
        c.runs,
        c.states as f64 / one,
        c.states as f64 / all,
        v.table_bytes() as f64 / 1e6,
        report::sentence(&v)
    );
}

fn main() {
    let pauses = |grid_ms: u64, horizon_ms: u64, max_faults: usize| Grid {
        classes: vec![Class::Pause],
        max_faults,
        grid_ms: Some(grid_ms),
        horizon_ms: Some(horizon_ms),
        ..Grid::default()
    };
    let (unfenced, fenced) = (bare("lease-race-unfenced"), bare("lease-race-fenced"));
    measure("unfenced race, first counterexample (pauses, 100 ms grid, 3 s, ≤ 2)", &unfenced, pauses(100, 3_000, 2));
    measure("fenced race, exhausted (pauses, 100 ms grid, 3 s, ≤ 2)", &fenced, pauses(100, 3_000, 2));
    measure("unfenced race, first counterexample (pauses, 10 ms grid, 3 s, ≤ 2)", &unfenced, pauses(10, 3_000, 2));
    measure("fenced race, exhausted (pauses, 10 ms grid, 3 s, ≤ 1)", &fenced, pauses(10, 3_000, 1));
    measure(
        "fenced race, exhausted (pauses up to 200 ms, 1 ms grid, 1.2 s, ≤ 1)",
        &fenced,
        Grid { longest_ms: Some(200), ..pauses(1, 1_200, 1) },
    );
    let drift = Grid { classes: vec![Class::Pause, Class::Drift], ..pauses(100, 3_000, 2) };
    measure("fenced race, exhausted (pauses and drift ±10–50%, 100 ms grid, 3 s, ≤ 2)", &fenced, drift);
    let lesson = lessons::find("etcd-txn-guard").expect("a lesson").scenario;
    measure("etcd-txn-guard, the Prove button's bounds", &lesson, Grid::default());
}
