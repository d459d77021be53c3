//! Prints simulated events per second for a long run: the stress scenario of ten clients
//! contending for one lease with renewals every 300 ms, about an hour of simulated time.

use lockstep::engine;
use lockstep::scenario::stress::stress;
use std::time::Instant;

fn main() {
    let (_, spec) = stress(120_000).expect("stress scenario is valid");
    let mut best = f64::MAX;
    let mut trace = None;
    for _ in 0..3 {
        let start = Instant::now();
        let t = engine::run(&spec).expect("bench run stays within limits");
        best = best.min(start.elapsed().as_secs_f64());
        trace = Some(t);
    }
    let t = trace.expect("ran three times");
    let events = t.events.len();
    let sim_ms = t.events.last().map_or(0, |e| e.at_ms.as_ms());
    println!("engine: {events} events over {:.1} min of simulated time", sim_ms as f64 / 60_000.0);
    println!("engine: best of 3 runs {:.3} s = {:.0} events/s", best, events as f64 / best);
    println!("engine: verdict {}", if t.verdict.safe { "safe" } else { "unsafe" });
}
