//! What the model's run asks of the lock service, and what each client hears back: the
//! schedule a replay drives the real server through, and the outcome it is compared with.

use lockstep::engine::event::EventKind;
use lockstep::engine::ids::NodeId;
use lockstep::engine::ids::NodeKind;
use lockstep::engine::msg::{DesignMsg, Msg};
use lockstep::engine::trace::Trace;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

/// One thing the replay does at a model time.
#[derive(Clone, Debug, PartialEq)]
pub enum ReplayAction {
    /// A client's request reached a lock-service node: send it to the real server now. Unless
    /// `answered`, the client had hung up on the connection it came on, and hears no answer.
    Request { client: String, node: String, msg: Msg, answered: bool },
    /// A client's request that a partition held: send it now into a stopped relay, which lets
    /// it through at `until_ms` (when the model delivered it), as the partition heals.
    Hold { client: String, node: String, msg: Msg, answered: bool, until_ms: u64 },
    /// A lock-service node crashed: kill its process.
    Crash { node: String },
    /// A lock-service node restarted, with or without its data.
    Restart { node: String, keep_state: bool },
    /// A replica became the primary.
    Promote { node: String },
    /// A lock-service node's wall clock stepped by `by_ms` (model milliseconds).
    StepClock { node: String, by_ms: i64 },
    /// A client stopped (paused, or cut off from the service): its connection carries nothing.
    Stop { client: String },
    /// The client runs (or reaches the service) again.
    Go { client: String },
}

/// A timed action.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayStep {
    pub at_ms: u64,
    pub action: ReplayAction,
}

/// What each client heard from the lock service, in order, by client key.
pub type Heard = BTreeMap<String, Vec<Value>>;

/// A lesson's run as a replay needs it.
pub struct Replay {
    pub steps: Vec<ReplayStep>,
    /// What each client heard from the model's lock service.
    pub heard: Heard,
    /// Why the schedule cannot be replayed on one machine, if it cannot.
    pub unreplayable: Option<String>,
    /// What the replay leaves out because, in the model, it changes nothing the server does.
    pub left_out: Option<String>,
    /// When the run's last event happened.
    pub end_ms: u64,
}

/// Reads a trace into the schedule a replay follows.
pub fn of(trace: &Trace) -> Replay {
    let key = |id: lockstep::engine::ids::NodeId| trace.participants[id.0].key.clone();
    let role = |id: lockstep::engine::ids::NodeId| trace.participants[id.0].role;
    let mut steps = Vec::new();
    let mut heard = Heard::new();
    let mut left_out = None;
    // The suite steps a server's wall clock but cannot change the rate its clocks run at.
    let unreplayable = trace.participants.iter().find(|p| p.role == NodeKind::LockService && p.clock.drift_ppm != 0).map(|p| {
        format!("{}'s clock runs at another rate ({} ppm); a server's clock rate cannot be changed here", p.name, p.clock.drift_ppm)
    });
    for p in trace.participants.iter().filter(|p| p.role == NodeKind::Client) {
        heard.insert(p.key.clone(), Vec::new());
    }
    let mut step = |at_ms, action| steps.push(ReplayStep { at_ms, action });
    let links = Links::of(trace);
    for (i, e) in trace.events.iter().enumerate() {
        let node = key(e.node);
        let at = e.at_ms.as_ms();
        let service = role(e.node) == NodeKind::LockService;
        match &e.kind {
            EventKind::Send { msg_id, to, msg } if links.held.contains(msg_id) => {
                if let Some(&(k, until_ms)) = links.delivered.get(msg_id) {
                    let answered = links.answered(*msg_id, k);
                    step(at, ReplayAction::Hold { client: node, node: key(*to), msg: msg.clone(), answered, until_ms })
                }
            }
            EventKind::Deliver { from, msg, msg_id, .. } if service && role(*from) == NodeKind::Client && !links.held.contains(msg_id) => {
                step(at, ReplayAction::Request { client: key(*from), node, msg: msg.clone(), answered: links.answered(*msg_id, i) })
            }
            // What a client heard: a reply on a connection it had closed never reaches it.
            EventKind::Deliver { from, msg, .. } if role(e.node) == NodeKind::Client && role(*from) == NodeKind::LockService => {
                heard.entry(node.clone()).or_default().push(message(msg))
            }
            EventKind::Crash if service => step(at, ReplayAction::Crash { node }),
            EventKind::Restart { keep_state } if service => step(at, ReplayAction::Restart { node, keep_state: *keep_state }),
            EventKind::Promoted => step(at, ReplayAction::Promote { node }),
            EventKind::ClockJump { by_ms, elapsed: true } if service => {
                left_out = Some(format!(
                    "{} steps its wall clock by {by_ms} ms, which moves none of its timers (they read elapsed time): the server's clock is not stepped",
                    trace.participants[e.node.0].name
                ))
            }
            EventKind::ClockJump { by_ms, elapsed: false } if service => step(at, ReplayAction::StepClock { node, by_ms: *by_ms }),
            EventKind::PauseStart { .. } if !service => step(at, ReplayAction::Stop { client: node }),
            EventKind::PauseEnd if !service => step(at, ReplayAction::Go { client: node }),
            EventKind::PartitionStart { from, to, .. } => {
                for c in cut_clients(trace, from, to) {
                    step(at, ReplayAction::Stop { client: c });
                }
            }
            EventKind::PartitionEnd { from, to } => {
                for c in cut_clients(trace, from, to) {
                    step(at, ReplayAction::Go { client: c });
                }
            }
            _ => {}
        }
    }
    let end_ms = trace.events.last().map_or(0, |e| e.at_ms.as_ms());
    Replay { steps, heard, unreplayable, left_out, end_ms }
}

/// What the network did to each client's requests: which a partition held, where each was sent
/// and delivered, and the clients' hang-ups.
struct Links {
    /// The requests a partition held: sent across a cut, or in flight when one began.
    held: BTreeSet<u64>,
    /// Each request to a lock service: the event that sent it, its client and the node.
    sent: BTreeMap<u64, (usize, NodeId, NodeId)>,
    /// Each request a lock service received: the event and its time.
    delivered: BTreeMap<u64, (usize, u64)>,
    /// Each hang-up: its event, the client, and the node it hung up on.
    hung_up: Vec<(usize, NodeId, NodeId)>,
}

impl Links {
    fn of(trace: &Trace) -> Links {
        let service = |id: NodeId| trace.participants[id.0].role == NodeKind::LockService;
        let client = |id: NodeId| trace.participants[id.0].role == NodeKind::Client;
        let mut links = Links { held: BTreeSet::new(), sent: BTreeMap::new(), delivered: BTreeMap::new(), hung_up: Vec::new() };
        let mut cuts: Vec<(Vec<NodeId>, Vec<NodeId>, bool)> = Vec::new();
        let cut = |cuts: &[(Vec<NodeId>, Vec<NodeId>, bool)], a: NodeId, b: NodeId| {
            cuts.iter().any(|(f, t, two)| (f.contains(&a) && t.contains(&b)) || (*two && f.contains(&b) && t.contains(&a)))
        };
        let mut in_flight: BTreeMap<u64, (NodeId, NodeId)> = BTreeMap::new();
        for (i, e) in trace.events.iter().enumerate() {
            match &e.kind {
                EventKind::Send { msg_id, to, .. } if client(e.node) && service(*to) => {
                    links.sent.insert(*msg_id, (i, e.node, *to));
                    if cut(&cuts, e.node, *to) {
                        links.held.insert(*msg_id);
                    } else {
                        in_flight.insert(*msg_id, (e.node, *to));
                    }
                }
                EventKind::Deliver { msg_id, from, .. } if service(e.node) && client(*from) => {
                    in_flight.remove(msg_id);
                    links.delivered.insert(*msg_id, (i, e.at_ms.as_ms()));
                }
                EventKind::PartitionStart { from, to, two_way, .. } => {
                    cuts.push((from.clone(), to.clone(), *two_way));
                    let caught: Vec<u64> = in_flight.iter().filter(|(_, &(a, b))| cut(&cuts, a, b)).map(|(&m, _)| m).collect();
                    for m in caught {
                        in_flight.remove(&m);
                        links.held.insert(m);
                    }
                }
                EventKind::PartitionEnd { from, to } => {
                    if let Some(k) = cuts.iter().position(|(f, t, _)| f == from && t == to) {
                        cuts.remove(k);
                    }
                }
                EventKind::HungUp { peer } => links.hung_up.push((i, e.node, *peer)),
                _ => {}
            }
        }
        links
    }

    /// Whether the answer to request `msg_id`, received at event `at`, reaches its client: not
    /// if the client hung up on the node, and so on the connection it went on, in between.
    fn answered(&self, msg_id: u64, at: usize) -> bool {
        let Some(&(since, client, node)) = self.sent.get(&msg_id) else { return true };
        !self.hung_up.iter().any(|&(k, who, peer)| who == client && peer == node && k > since && k < at)
    }
}

/// The clients a partition cuts off from a lock service.
fn cut_clients(trace: &Trace, from: &[lockstep::engine::ids::NodeId], to: &[lockstep::engine::ids::NodeId]) -> Vec<String> {
    let role = |id: &lockstep::engine::ids::NodeId| trace.participants[id.0].role;
    let has_service = |side: &[lockstep::engine::ids::NodeId]| side.iter().any(|n| role(n) == NodeKind::LockService);
    let clients = |side: &[lockstep::engine::ids::NodeId]| {
        side.iter().filter(|n| role(n) == NodeKind::Client).map(|n| trace.participants[n.0].key.clone()).collect::<Vec<_>>()
    };
    let mut cut = Vec::new();
    if has_service(to) {
        cut.extend(clients(from));
    }
    if has_service(from) {
        cut.extend(clients(to));
    }
    cut
}

/// A design's message as a client hears it: what a replay of the real server says, in the form
/// the model's replies are compared in. Built from the design's own message type, so a renamed
/// message does not compile.
pub fn reply(msg: impl DesignMsg) -> Value {
    message(&Msg::lock(msg))
}

/// A message as JSON, as a client hears it: a design's own message as the design serializes it,
/// and a reply about data the service keeps as `{"op": "write_accepted"}` or
/// `{"op": "write_rejected", "why": …}`.
pub fn message(msg: &Msg) -> Value {
    match msg {
        Msg::Lock { msg } => serde_json::to_value(msg).unwrap_or(Value::Null),
        Msg::Write { token, value, .. } => json!({"op": "write", "token": token, "value": value}),
        Msg::Undo { value } => json!({"op": "undo", "value": value}),
        Msg::WriteAccepted { .. } => json!({"op": "write_accepted"}),
        Msg::WriteRejected { reason } => json!({"op": "write_rejected", "why": serde_json::to_value(reason).unwrap_or(Value::Null)["why"]}),
        Msg::Read => json!({"op": "read"}),
        Msg::ReadResult { .. } => json!({"op": "read_result"}),
    }
}

#[cfg(test)]
mod tests {
    use super::{of, ReplayAction};
    use lockstep::scenario::lessons;

    fn replay(id: &str) -> super::Replay {
        let lesson = lessons::find(id).expect("a lesson");
        of(&lockstep::engine::run(&lesson.spec).expect("the lesson runs"))
    }

    #[test]
    fn a_step_of_a_wall_clock_server_is_replayed_and_one_of_an_elapsed_time_server_left_out() {
        let redis = replay("redis-clock-jump");
        assert!(redis.steps.iter().any(|s| s.at_ms == 400 && s.action == ReplayAction::StepClock { node: "L".into(), by_ms: 2_000 }));
        assert_eq!((redis.unreplayable, redis.left_out), (None, None));
        let etcd = replay("etcd-clock-jump");
        assert!(!etcd.steps.iter().any(|s| matches!(s.action, ReplayAction::StepClock { .. })));
        assert!(etcd.left_out.is_some_and(|why| why.starts_with("etcd steps its wall clock by 2000 ms")));
    }

    #[test]
    fn a_server_whose_clock_drifts_is_reasoned_not_replayed() {
        let mut lesson = lessons::find("redis-safe-release").expect("a lesson");
        std::rc::Rc::make_mut(&mut lesson.spec.nodes).iter_mut().find(|n| &*n.key == "L").expect("Redis").clock.drift_ppm = 100_000;
        let replay = of(&lockstep::engine::run(&lesson.spec).expect("the lesson runs"));
        assert_eq!(
            replay.unreplayable.as_deref(),
            Some("Redis's clock runs at another rate (100000 ppm); a server's clock rate cannot be changed here")
        );
    }

    #[test]
    fn a_request_sent_across_a_cut_is_held_until_the_model_delivered_it_and_a_hung_up_one_is_unanswered() {
        let held = |id: &str| {
            replay(id)
                .steps
                .into_iter()
                .filter_map(|s| match s.action {
                    ReplayAction::Hold { client, answered, until_ms, .. } => Some((s.at_ms, client, answered, until_ms)),
                    _ => None,
                })
                .collect::<Vec<_>>()
        };
        // A's SET, sent at 100 ms into the cut, reaches Redis at 1,055 ms; A still waits for it.
        assert_eq!(held("redis-partition-short"), vec![(100, "A".to_string(), true, 1_055)]);
        // After a 5 s cut A has hung up: the SET still lands at 5,055 ms, and A hears nothing.
        assert_eq!(held("redis-partition-long"), vec![(100, "A".to_string(), false, 5_055)]);
        let sets_at_delivery = replay("redis-partition-long")
            .steps
            .iter()
            .filter(|s| matches!(&s.action, ReplayAction::Request { client, .. } if client == "A"))
            .count();
        assert_eq!(sets_at_delivery, 0, "a held request is sent once, into the relay");
    }
}
