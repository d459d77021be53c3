//! Prints simulated events per second for a long run: ten clients contending for one lease,
//! each holding it for five minutes with renewals every 300 ms, over about an hour of simulated time.

use lockstep::engine;
use lockstep::scenario::load;
use serde_json::json;
use std::time::Instant;

fn scenario() -> String {
    let mut participants = vec![
        json!({"role": "lock_service", "id": "L", "name": "Lock service"}),
        json!({"role": "resource", "id": "R", "name": "Resource", "mode": "fenced"}),
    ];
    for i in 0..10 {
        participants.push(json!({
            "role": "client", "id": format!("C{i}"), "name": format!("Client {i}"), "start_ms": i * 10,
            "acquire": {"retry_ms": 1000, "jitter_ms": 500, "max_attempts": 10000, "timeout_ms": 500},
            "renew": {"every_ms": 300, "on_failure": "abort"},
            "script": [
                {"step": "acquire"}, {"step": "work", "ms": 300000},
                {"step": "write", "value": format!("c{i}")}, {"step": "release", "mode": "safe"}
            ]
        }));
    }
    json!({
        "version": 1, "seed": 1,
        "lock": {"design": "lease", "ttl_ms": 1000, "first_token": 1},
        "network": {"latency_ms": {"min_ms": 1, "max_ms": 10}},
        "limits": {"max_events": 1000000, "max_time_ms": 7200000},
        "participants": participants
    })
    .to_string()
}

fn main() {
    let (_, spec) = load(&scenario()).expect("bench scenario is valid");
    let mut best = f64::MAX;
    let mut trace = None;
    for _ in 0..3 {
        let start = Instant::now();
        let t = engine::run(&spec).expect("bench run stays within limits");
        best = best.min(start.elapsed().as_secs_f64());
        trace = Some(t);
    }
    let t = trace.unwrap();
    let events = t.events.len();
    let sim_ms = t.events.last().map_or(0, |e| e.at_ms);
    println!("engine: {events} events over {:.1} min of simulated time", sim_ms as f64 / 60_000.0);
    println!("engine: best of 3 runs {:.3} s = {:.0} events/s", best, events as f64 / best);
    println!("engine: verdict {}", if t.verdict.safe { "safe" } else { "unsafe" });
}
