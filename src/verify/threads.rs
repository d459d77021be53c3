//! Verification on several threads. Each pass is split between explorers, one per
//! thread, that share one table of states explored: each walks the start's run (the schedule
//! with no fault) and takes the branches from it in turn ([`Shared::claim`]), skipping a state
//! any of them explored already.
//!
//! Why the answer is the same as one thread's: a safe verification explores every state it can
//! reach, each with the most faults left it can have there, whichever explorer reaches it
//! first; so the distinct states, and the distinct runs judged, are the same sets. (How many
//! runs and branches were made depends on that order; they are figures, not the answer.) Which
//! failure is found first does depend on the order, so once an explorer finds one, or the table
//! fills, all stop and one thread verifies again from the start: the counterexample, shrunk, is
//! the one a single thread finds.

use super::explore::Verify;
use super::grid::Grid;
use super::outcome::{Counts, Proof};
use super::shared::Shared;
use crate::error::ScenarioError;
use crate::scenario::format::Scenario;
use crate::scenario::{encode, json, validate};
use std::sync::Arc;

/// Steps an explorer takes between looks at whether to stop.
const STEPS: usize = 2_000;

/// Verifies `base` within `grid` on `threads` threads (one: this thread alone). `watch` is
/// called on this thread's explorer every so many steps; when it returns false, every explorer
/// stops and the verification is returned as far as it got.
pub fn verify(base: &Scenario, grid: Grid, threads: usize, mut watch: impl FnMut(&Verify) -> bool) -> Result<Verify, ScenarioError> {
    if threads > 1 {
        if let Some(v) = side_by_side(base, &grid, threads, &mut watch)? {
            return Ok(v);
        }
    }
    let mut v = Verify::new(base, grid, false)?;
    while matches!(v.step(STEPS), Proof::Running) && watch(&v) {}
    Ok(v)
}

/// Verifies pass by pass with explorers on `threads` threads. `None` if one found a failure or
/// the table filled: the answer is then one thread's.
fn side_by_side(
    base: &Scenario,
    grid: &Grid,
    threads: usize,
    watch: &mut dyn FnMut(&Verify) -> bool,
) -> Result<Option<Verify>, ScenarioError> {
    let shared = Arc::new(Shared::new(grid.max_states));
    // A scenario shares some of its parts within a thread: each helper reads its own from text.
    let text = json::write(&encode::scenario(base), None);
    let mut main = Verify::sharing(base, grid.clone(), false, shared.clone())?;
    let mut others = Counts::default();
    let mut watched = true;
    for pass in 0..=grid.max_faults {
        let counts = std::thread::scope(|scope| {
            // A thread that cannot be started (none can in a browser's Web Worker) leaves its
            // share to the others.
            let helpers: Vec<_> = (1..threads)
                .filter_map(|_| {
                    let (shared, text) = (shared.clone(), &text);
                    std::thread::Builder::new()
                        .spawn_scoped(scope, move || {
                            let base = validate::parse(text).ok()?;
                            let mut v = Verify::sharing(&base, grid.clone(), false, shared.clone()).ok()?;
                            v.explore_pass(pass);
                            explore(&mut v, &shared, &mut |_| true);
                            Some(v.counts())
                        })
                        .ok()
                })
                .collect();
            main.explore_pass(pass);
            watched = explore(&mut main, &shared, watch);
            helpers.into_iter().map(|h| h.join().ok().flatten()).collect::<Option<Vec<Counts>>>()
        });
        if !watched {
            return Ok(Some(main));
        }
        match counts {
            Some(counts) if !shared.stopped() => {
                for c in counts {
                    (others.runs, others.branches) = (others.runs + c.runs, others.branches + c.branches);
                }
            }
            _ => return Ok(None),
        }
    }
    main.end_safe(others);
    Ok(Some(main))
}

/// Explores `v`'s share of its pass until it ends or an explorer says stop; says stop itself
/// unless its share was safe. Returns false if `watch` said stop.
fn explore(v: &mut Verify, shared: &Shared, watch: &mut dyn FnMut(&Verify) -> bool) -> bool {
    let mut watched = true;
    while matches!(v.step(STEPS), Proof::Running) && !shared.stopped() {
        watched = watch(v);
        if !watched {
            break;
        }
    }
    if !matches!(v.proof(), Proof::Safe) {
        shared.stop();
    }
    watched
}
