//! Prints the failure search's figures natively: schedules per second for a lease lesson and two
//! Redlock lessons, on one thread and on every core, and the allocations each schedule makes;
//! and for each unsafe or stalling cell of the comparison table, searched from its design with
//! no faults for its column's kind of fault, the time to the first failure and to the shrunk
//! one, beside the same budget spent on random schedules alone (no systematic pass, no
//! shrinking): its time to a first failure and the size of what it found.

use lockstep::scenario::compare::{self, Outcome};
use lockstep::scenario::lessons;
use lockstep::search::{Added, Bounds, Class, Search, State, Threaded};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::time::Instant;

/// The system allocator, counting the allocations each thread makes. The count is the thread's
/// own: one counter shared by every thread would take its cache line from core to core on each
/// allocation, and slow the threads it is counting.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

/// Counts one allocation on this thread.
fn count() {
    ALLOCATIONS.with(|n| n.set(n.get() + 1));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Allocations (and reallocations) per schedule over 20,000 schedules of a lesson's search on
/// one thread (this one), counted after the search is set up.
fn allocations(id: &str) -> f64 {
    let lesson = lessons::find(id).expect("lesson");
    let mut search = Threaded::new(&lesson.scenario, Bounds::default(), 1).expect("bounds");
    let before = ALLOCATIONS.with(Cell::get);
    search.sample(20_000);
    (ALLOCATIONS.with(Cell::get) - before) as f64 / 20_000.0
}

/// Schedules per second over 20,000 schedules (the default budget) of a lesson's search on `threads` threads, best
/// of three.
fn rate(id: &str, threads: usize) -> f64 {
    let lesson = lessons::find(id).expect("lesson");
    (0..3)
        .map(|_| {
            let mut search = Threaded::new(&lesson.scenario, Bounds::default(), threads).expect("bounds");
            let start = Instant::now();
            search.sample(20_000);
            20_000.0 / start.elapsed().as_secs_f64()
        })
        .fold(0.0, f64::max)
}

/// A search's first failure: when it came, how long shrinking took, the schedule as found and
/// shrunk, and how many schedules it took.
#[derive(Clone)]
struct Timed {
    first_ms: f64,
    shrink_ms: f64,
    first: Vec<Added>,
    shrunk: Vec<Added>,
    runs: usize,
}

/// Searches one schedule at a time, to its first failure, if any.
fn timed(search: &mut Search) -> Option<Timed> {
    let start = Instant::now();
    loop {
        let before = Instant::now();
        match search.step(1) {
            State::Searching => {}
            State::Found(f) => {
                return Some(Timed {
                    first_ms: (before - start).as_secs_f64() * 1e3,
                    shrink_ms: before.elapsed().as_secs_f64() * 1e3,
                    first: f.first.clone(),
                    shrunk: f.added.clone(),
                    runs: f.runs_to_first,
                });
            }
            State::Exhausted => return None,
        }
    }
}

/// A schedule in a few words: how many faults, and their sizes.
fn size(faults: &[Added]) -> String {
    let sizes: Vec<String> = faults.iter().map(|f| format!("{} {}", f.class().tag(), f.magnitude())).collect();
    format!("{} fault{} ({})", faults.len(), if faults.len() == 1 { "" } else { "s" }, sizes.join(", "))
}

fn main() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    for id in ["lease-race-fenced", "redlock-pause", "redlock-happy"] {
        println!(
            "search: {id}: {:.0} schedules/s natively on one thread, {:.0} on {cores}; {:.1} allocations per schedule",
            rate(id, 1),
            rate(id, cores),
            allocations(id)
        );
    }
    println!("search: per cell, systematic + random with shrinking (seed 1) | random alone, no shrinking (budget 20,000)");
    let table = compare::table().expect("table");
    let (mut faster, mut cells) = (0, 0);
    for cell in table.iter().flatten().filter(|c| c.outcome != Outcome::Safe) {
        let (_, mut s, _) = compare::cell_by_id(&cell.id()).expect("cell");
        s.faults.clear();
        // The class of the fault the schedule adds has that fault's tag.
        let class = Class::named(cell.schedule.fault().tag).expect("a class for every schedule");
        let bounds = Bounds { classes: vec![class], budget: 20_000, seed: 1, ..Bounds::default() };
        let mut both = Search::new(&s, bounds.clone()).expect("bounds");
        let a = timed(&mut both);
        // Random alone is as lucky as its seed: its median over ten seeds.
        let mut runs: Vec<_> = (1..=10)
            .filter_map(|seed| timed(&mut Search::new(&s, Bounds { systematic: false, seed, ..bounds.clone() }).expect("bounds")))
            .collect();
        runs.sort_by_key(|r| r.runs);
        let b = runs.get(runs.len() / 2).cloned();
        let say = |r: &Option<Timed>, shrunk: bool| match r {
            Some(t) if shrunk => {
                format!("first {:.2} ms (schedule {}), shrunk {:.2} ms: {}", t.first_ms, t.runs, t.first_ms + t.shrink_ms, size(&t.shrunk))
            }
            Some(t) => format!("first {:.2} ms (schedule {}): {}", t.first_ms, t.runs, size(&t.first)),
            None => "nothing found".into(),
        };
        if let (Some(x), Some(y)) = (&a, &b) {
            faster += usize::from(x.runs <= y.runs);
        }
        cells += 1;
        println!("search: {:<32} {} | median of 10 seeds: {}", cell.id(), say(&a, true), say(&b, false));
    }
    println!("search: the systematic pass found the first failure in as few schedules as random alone (median of ten seeds), or fewer, in {faster} of {cells} cells");
}
