//! Prints verification's figures natively, with the bounds of the tick model it is compared
//! with (the lease race, pauses only, a 100 ms grid, a 3 s horizon, up to 2 faults) and finer
//! ones: the time to the first counterexample on the unfenced race, the time to exhaust the
//! fenced race, the distinct states explored and their rate, and the memory the table of
//! states took. The races are the lessons' scenarios without their own pause, so every pause
//! comes from the verification. Times are medians of 7 runs (3 for runs over a second).

use lockstep::scenario::{lessons, Scenario};
use lockstep::search::Class;
use lockstep::verify::{report, Grid, Proof, Verify};
use std::time::Instant;

/// A lesson's scenario without its own faults.
fn bare(id: &str) -> Scenario {
    let mut s = lessons::find(id).expect("a lesson").scenario;
    s.faults.clear();
    s
}

/// One verification of `s` within `grid`: its seconds and the verifier, finished.
fn once(s: &Scenario, grid: &Grid) -> (f64, Verify) {
    let start = Instant::now();
    let mut v = Verify::new(s, grid.clone(), false).expect("bounds");
    v.run();
    (start.elapsed().as_secs_f64(), v)
}

/// Verifies `s` within `grid` several times and prints the median time with what it found.
fn measure(name: &str, s: &Scenario, grid: Grid) {
    let (first, v) = once(s, &grid);
    let runs = if first > 1.0 { 3 } else { 7 };
    let mut times: Vec<f64> = std::iter::once(first).chain((1..runs).map(|_| once(s, &grid).0)).collect();
    times.sort_by(f64::total_cmp);
    let median = times[runs / 2];
    let c = v.counts();
    let verdict = match v.proof() {
        Proof::Safe => "safe",
        Proof::Unsafe(_) => "counterexample",
        Proof::TooLarge | Proof::Running => "not verified",
    };
    println!(
        "verify {name}: {verdict} in {:.1} ms (median of {runs}); {} states, {} runs, {:.0} states/s; table {:.1} MB\n    {}",
        median * 1e3,
        c.states,
        c.runs,
        c.states as f64 / median,
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
