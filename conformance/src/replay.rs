//! The replay: a lesson's schedule followed on the real servers in real time, each request sent
//! when the model's service received it, each reply recorded as the client heard it.

use crate::schedule::{Heard, Replay, ReplayAction};
use lockstep::engine::msg::{DesignMsg, Msg};
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the clients heard on the real server, filled in as replies arrive (some arrive later
/// than their request, from threads that wait on the server).
/// Once closed (the replay is over), they hear nothing more.
#[derive(Clone, Default)]
pub struct Ears(Arc<Mutex<(Heard, bool)>>);

impl Ears {
    /// Starts listening for these clients.
    pub fn new<'a>(clients: impl IntoIterator<Item = &'a String>) -> Ears {
        let heard = clients.into_iter().map(|c| (c.clone(), Vec::new())).collect();
        Ears(Arc::new(Mutex::new((heard, false))))
    }

    /// Records what a client heard.
    pub fn hear(&self, client: &str, reply: Value) {
        let mut ears = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if !ears.1 {
            ears.0.entry(client.to_string()).or_default().push(reply);
        }
    }

    /// Stops listening and returns everything heard.
    fn close(&self) -> Heard {
        let mut ears = self.0.lock().unwrap_or_else(|e| e.into_inner());
        ears.1 = true;
        ears.0.clone()
    }
}

/// What a client asks a lock service, typed: the design's own message, or a write to data the
/// service keeps.
#[derive(Clone, Debug)]
pub enum Request<M> {
    Lock(M),
    Write { value: String },
}

impl<M: DesignMsg> Request<M> {
    /// Reads a request of the design whose messages are `M`; the error names anything else.
    pub fn of(msg: &Msg) -> Result<Request<M>, String> {
        match msg {
            Msg::Lock { msg: m } => m.get::<M>().cloned().map(Request::Lock).ok_or_else(|| format!("not this design's message: {msg:?}")),
            Msg::Write { value, .. } => Ok(Request::Write { value: value.to_string() }),
            other => Err(format!("no request for {other:?}")),
        }
    }
}

/// A reply that is the replay's own, not the server's: what went wrong.
pub fn error(message: String) -> Value {
    json!({"op": "error", "message": message})
}

/// A real lock service the replay drives: one per design.
pub trait Service {
    /// Sends a client's request to the server and records the reply (now, or when it comes).
    fn request(&mut self, client: &str, node: &str, msg: &Msg, ears: &Ears) -> Result<(), String>;
    /// Sends a request a partition held: into a stopped relay now, let through at `until`;
    /// the reply, if any, goes to `ears` when it comes.
    fn hold(&mut self, client: &str, node: &str, _msg: &Msg, _ears: Ears, _until: Instant) -> Result<(), String> {
        Err(format!("holding {client}'s request to {node} in a partition is not replayed for this design"))
    }
    /// Kills a server node at once.
    fn crash(&mut self, node: &str) -> Result<(), String> {
        Err(format!("crashing {node} is not replayed for this design"))
    }
    /// Starts a crashed node again, with or without its data.
    fn restart(&mut self, node: &str, keep_state: bool) -> Result<(), String> {
        Err(format!("restarting {node} (keep_state {keep_state}) is not replayed for this design"))
    }
    /// Makes a replica the primary.
    fn promote(&mut self, node: &str) -> Result<(), String> {
        Err(format!("promoting {node} is not replayed for this design"))
    }
    /// Steps a node's wall clock by `by_ms` real milliseconds.
    fn step_clock(&mut self, node: &str, by_ms: i64) -> Result<(), String> {
        Err(format!("stepping {node}'s wall clock by {by_ms} ms is not replayed for this design"))
    }
    /// Moves the replay's start to suit the server's own clock (by default, leaves it).
    fn align(&self, start: Instant) -> Instant {
        start
    }
    /// Stops or resumes everything a client's connection carries, heartbeats included.
    fn stop(&mut self, _client: &str, _stopped: bool) -> Result<(), String> {
        Ok(())
    }
    /// Waits for replies still owed, then ends the clients' sessions.
    fn finish(&mut self) {}
}

/// Follows a schedule on a service, `scale` real milliseconds to each model millisecond, and
/// returns what the clients heard.
pub fn run(schedule: &Replay, service: &mut dyn Service, scale: u64, ears: &Ears) -> Result<Heard, String> {
    let start = service.align(Instant::now() + Duration::from_millis(100));
    let at = |ms: u64| start + Duration::from_millis(ms * scale);
    for step in &schedule.steps {
        std::thread::sleep(at(step.at_ms).saturating_duration_since(Instant::now()));
        match &step.action {
            ReplayAction::Request { client, node, msg, answered: true } => service.request(client, node, msg, ears),
            // The server still gets it; the client, having hung up, hears nothing back.
            ReplayAction::Request { client, node, msg, answered: false } => service.request(client, node, msg, &Ears::new([])),
            ReplayAction::Hold { client, node, msg, answered, until_ms } => {
                let ears = if *answered { ears.clone() } else { Ears::new([]) };
                service.hold(client, node, msg, ears, at(*until_ms))
            }
            ReplayAction::Crash { node } => service.crash(node),
            ReplayAction::Restart { node, keep_state } => service.restart(node, *keep_state),
            ReplayAction::Promote { node } => service.promote(node),
            ReplayAction::StepClock { node, by_ms } => service.step_clock(node, by_ms.saturating_mul(scale as i64)),
            ReplayAction::Stop { client } => service.stop(client, true),
            ReplayAction::Go { client } => service.stop(client, false),
        }
        .map_err(|e| format!("at {} ms: {e}", step.at_ms))?;
    }
    std::thread::sleep(at(schedule.end_ms + 100).saturating_duration_since(Instant::now()));
    let heard = ears.close();
    service.finish();
    Ok(heard)
}
