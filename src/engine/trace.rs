//! The trace: every event of a run, in order, with true and local time and a sentence for a learner.

use super::checker::Verdict;
use super::metrics::Metrics;
use super::clock::Clock;
use super::ids::NodeId;
use super::msg::{group, lease_name, token_name, until_local as until, Msg};
use serde::Serialize;

/// Why a lease stopped existing at the lock service.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LeaseEnd {
    Expired,
    Released,
    /// Deleted by someone else's unchecked release.
    DeletedByOther,
    /// Lost when the lock service restarted without its state.
    LostOnRestart,
}

/// Why a client stopped believing it holds the lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BeliefEnd {
    Released,
    RenewalFailed,
    Crashed,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EventKind {
    Send { msg_id: u64, to: NodeId, msg: Msg },
    Deliver { msg_id: u64, from: NodeId, msg: Msg, sent_at_ms: u64 },
    Drop { msg_id: u64, from: NodeId, msg: Msg, sent_at_ms: u64, reason: String },
    PauseStart { until_ms: u64 },
    PauseEnd,
    Crash,
    Restart { keep_state: bool },
    ClockJump { by_ms: i64 },
    PartitionStart { from: Vec<NodeId>, to: Vec<NodeId>, two_way: bool, until_ms: u64 },
    PartitionEnd { from: Vec<NodeId>, to: Vec<NodeId> },
    LinkSlow { to: NodeId, extra_ms: u64, until_ms: u64 },
    LeaseGranted { token: u64, holder: NodeId, expires_local: i64 },
    LeaseRenewed { token: u64, holder: NodeId, expires_local: i64 },
    LeaseEnded { token: u64, holder: NodeId, how: LeaseEnd },
    /// A replica now keeps a copy of a holder's key.
    KeyReplicated { token: u64, holder: NodeId },
    /// A replica became the primary; keys it never received are gone.
    Promoted,
    BeliefStart { token: u64, until_local: i64 },
    BeliefExtended { token: u64, until_local: i64 },
    BeliefEnd { token: u64, why: BeliefEnd },
    RenewalFailed { token: u64, abort: bool },
    GaveUp { attempts: u32 },
    WriteAccepted { writer: NodeId, token: u64, value: String, version: u64 },
    WriteRejected { writer: NodeId, token: u64, value: String, reason: String },
    Done,
}

/// One entry of the trace.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Event {
    pub at_ms: u64,
    /// The node the event happens at.
    pub node: NodeId,
    /// That node's clock reading at `at_ms`.
    pub local_ms: i64,
    #[serde(flatten)]
    pub kind: EventKind,
    /// One sentence for a learner.
    pub text: String,
}

/// One participant as the trace shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Participant {
    pub key: String,
    pub name: String,
    pub role: &'static str,
    pub clock: Clock,
}

/// A whole run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Trace {
    pub seed: u64,
    pub participants: Vec<Participant>,
    pub ttl_ms: u64,
    /// How many lock-service nodes must hold a client's key for it to hold the lock.
    pub quorum: usize,
    pub events: Vec<Event>,
    pub verdict: Verdict,
    pub metrics: Metrics,
}

impl Trace {
    /// Returns a participant's display name.
    pub fn name(&self, id: NodeId) -> &str {
        &self.participants[id.0].name
    }

    /// Renders the compact fixed-column text form used by snapshots and the command line.
    pub fn to_text(&self) -> String {
        let width = self.participants.iter().map(|p| p.name.len()).max().unwrap_or(4).max(4);
        let mut out = format!("{:>4} {:>9} {:<width$} {:>9}  event\n", "#", "true_ms", "node", "local_ms");
        for (i, e) in self.events.iter().enumerate() {
            out.push_str(&format!(
                "{:>4} {:>9} {:<width$} {:>9}  {}\n",
                i,
                group(e.at_ms as i64),
                self.name(e.node),
                group(e.local_ms),
                self.summary(e)
            ));
        }
        out.push_str(&self.verdict.to_text());
        out.push_str(&self.metrics.to_text());
        out
    }

    /// Describes an event in a few words for the text form and the event log.
    pub fn summary(&self, e: &Event) -> String {
        let n = |id: NodeId| self.name(id);
        match &e.kind {
            EventKind::Send { to, msg, .. } => format!("send → {}: {}", n(*to), msg.label()),
            EventKind::Deliver { from, msg, .. } => format!("recv ← {}: {}", n(*from), msg.label()),
            EventKind::Drop { from, msg, reason, .. } => format!("DROP ← {}: {} ({reason})", n(*from), msg.label()),
            EventKind::PauseStart { until_ms } => format!("pause until {} ms", group(*until_ms as i64)),
            EventKind::PauseEnd => "resume".into(),
            EventKind::Crash => "crash".into(),
            EventKind::Restart { keep_state: true } => "restart with saved state".into(),
            EventKind::Restart { keep_state: false } => "restart, state lost".into(),
            EventKind::ClockJump { by_ms } => format!("clock jumps {:+} ms", by_ms),
            EventKind::PartitionStart { from, to, two_way, until_ms } => format!(
                "partition {} {} {} until {} ms",
                names(self, from),
                if *two_way { "⇹" } else { "→" },
                names(self, to),
                group(*until_ms as i64)
            ),
            EventKind::PartitionEnd { from, to } => format!("heal {} / {}", names(self, from), names(self, to)),
            EventKind::LinkSlow { to, extra_ms, until_ms } => {
                format!("link to {} slowed by {} ms until {} ms", n(*to), group(*extra_ms as i64), group(*until_ms as i64))
            }
            EventKind::LeaseGranted { token, holder, expires_local } => {
                format!("{} → {} {}", lease_name(*token), n(*holder), until(*expires_local))
            }
            EventKind::LeaseRenewed { token, expires_local, .. } => {
                format!("{} renewed until local {}", lease_name(*token), group(*expires_local))
            }
            EventKind::LeaseEnded { token, holder, how } => format!("{} of {} ended: {how:?}", lease_name(*token), n(*holder)),
            EventKind::KeyReplicated { token, holder } => format!("copy of {} of {}", lease_name(*token), n(*holder)),
            EventKind::Promoted => "promoted to primary".into(),
            EventKind::BeliefStart { token, until_local } => {
                format!("believes: holds {} {}", lease_name(*token), until(*until_local))
            }
            EventKind::BeliefExtended { token, until_local } => {
                format!("believes: holds {} {}", lease_name(*token), until(*until_local))
            }
            EventKind::BeliefEnd { token, why } => format!("stops believing it holds {}: {why:?}", lease_name(*token)),
            EventKind::RenewalFailed { token, abort } => {
                format!("renewal of {} failed: {}", lease_name(*token), if *abort { "abort" } else { "carry on" })
            }
            EventKind::GaveUp { attempts } => format!("gives up after {attempts} attempts"),
            EventKind::WriteAccepted { writer, token, value, version } => {
                format!("ACCEPT {value:?} from {} {} → version {version}", n(*writer), token_name(*token))
            }
            EventKind::WriteRejected { writer, token, value, reason } => {
                format!("REJECT {value:?} from {} {}: {reason}", n(*writer), token_name(*token))
            }
            EventKind::Done => "script done".into(),
        }
    }
}

fn names(trace: &Trace, ids: &[NodeId]) -> String {
    ids.iter().map(|id| trace.name(*id)).collect::<Vec<_>>().join("+")
}
