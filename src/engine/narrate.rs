//! One plain sentence per event, written for a learner.

use super::ids::NodeId;
use super::msg::{group, ms, Msg, ReleaseMode};
use super::spec::Spec;
use super::trace::{BeliefEnd, EventKind, LeaseEnd};

/// Writes narration with the run's participant names.
pub struct Narrator {
    names: Vec<String>,
}

impl Narrator {
    /// Takes the names from a spec.
    pub fn new(spec: &Spec) -> Self {
        Narrator { names: spec.nodes.iter().map(|n| n.name.clone()).collect() }
    }

    /// Returns a participant's display name.
    pub fn name(&self, id: NodeId) -> &str {
        &self.names[id.0]
    }

    /// Narrates an event that happens at `at`.
    pub fn narrate(&self, at: NodeId, kind: &EventKind) -> String {
        let me = self.name(at);
        let n = |id: NodeId| self.name(id);
        match kind {
            EventKind::Send { to, msg, .. } => self.sending(me, n(*to), msg),
            EventKind::Deliver { from, msg, .. } => format!("{me} receives {} from {}.", quote(msg), n(*from)),
            EventKind::Drop { from, msg, reason, .. } => {
                format!("{} from {} never reaches {me}: {reason}.", capital(&quote(msg)), n(*from))
            }
            EventKind::PauseStart { until_ms } => format!(
                "{me} stops the world (think of a long GC pause) until {}: it handles nothing and cannot notice time passing.",
                ms(*until_ms)
            ),
            EventKind::PauseEnd => format!("{me} resumes exactly where it stopped, unaware that it was paused."),
            EventKind::Crash => format!("{me} crashes: everything in its memory is gone."),
            EventKind::Restart { keep_state: true } => format!("{me} restarts and reloads its saved state."),
            EventKind::Restart { keep_state: false } => format!("{me} restarts empty: nothing was persisted."),
            EventKind::ClockJump { by_ms } => format!(
                "{me}'s clock jumps {} by {} (an NTP step or an operator's fix); true time is unchanged.",
                if *by_ms >= 0 { "forward" } else { "back" },
                ms(by_ms.unsigned_abs())
            ),
            EventKind::PartitionStart { from, to, two_way, until_ms } => format!(
                "The network splits: messages from {} to {}{} are dropped until {}.",
                self.list(from),
                self.list(to),
                if *two_way { " and back" } else { "" },
                ms(*until_ms)
            ),
            EventKind::PartitionEnd { from, to } => {
                format!("The partition between {} and {} heals.", self.list(from), self.list(to))
            }
            EventKind::LinkSlow { to, extra_ms, until_ms } => format!(
                "Messages from {me} to {} now take {} longer (until {}).",
                n(*to),
                ms(*extra_ms),
                ms(*until_ms)
            ),
            EventKind::LeaseGranted { token, holder, expires_local } => format!(
                "{me} grants the lock to {} with fencing token {token}; the lease ends when {me}'s clock reads {}.",
                n(*holder),
                group(*expires_local)
            ),
            EventKind::LeaseRenewed { token, holder, expires_local } => format!(
                "{me} extends {}'s lease {token} to local {}.",
                n(*holder),
                group(*expires_local)
            ),
            EventKind::LeaseEnded { token, holder, how } => match how {
                LeaseEnd::Expired => format!(
                    "Lease {token} expires on {me}'s clock. Nobody tells {}: it may still think the lock is its own.",
                    n(*holder)
                ),
                LeaseEnd::Released => format!("{} released lease {token}; the lock is free.", n(*holder)),
                LeaseEnd::DeletedByOther => format!(
                    "An unchecked release deletes lease {token}, which belongs to {}: the lock is free while {} still works.",
                    n(*holder),
                    n(*holder)
                ),
                LeaseEnd::LostOnRestart => format!("Lease {token} of {} is lost with {me}'s memory.", n(*holder)),
            },
            EventKind::BeliefStart { token, until_local } => format!(
                "{me} believes it holds the lock with token {token} until its own clock reads {}.",
                group(*until_local)
            ),
            EventKind::BeliefExtended { token, until_local } => {
                format!("{me} now believes token {token} is good until its clock reads {}.", group(*until_local))
            }
            EventKind::BeliefEnd { token, why } => match why {
                BeliefEnd::Released => format!("{me} is done with token {token} and lets the lock go."),
                BeliefEnd::RenewalFailed => {
                    format!("{me} could not renew token {token}, so it stops working before touching the resource.")
                }
                BeliefEnd::Crashed => format!("{me}'s belief in token {token} dies with the process."),
            },
            EventKind::RenewalFailed { token, abort: true } => {
                format!("{me}'s renewal of token {token} failed; its policy is to abort.")
            }
            EventKind::RenewalFailed { token, abort: false } => {
                format!("{me}'s renewal of token {token} failed, but its policy is to carry on regardless.")
            }
            EventKind::GaveUp { attempts } => format!("{me} gives up on the lock after {attempts} attempts."),
            EventKind::WriteAccepted { writer, token, value, version } => format!(
                "{me} accepts {value:?} from {} (token {token}); the data is now at version {version}.",
                n(*writer)
            ),
            EventKind::WriteRejected { writer, value, reason, .. } => {
                format!("{me} rejects {value:?} from {}: {reason}. The resource itself stopped a stale writer.", n(*writer))
            }
            EventKind::Done => format!("{me} has finished its script."),
        }
    }

    fn sending(&self, me: &str, to: &str, msg: &Msg) -> String {
        match msg {
            Msg::Acquire { value } => format!("{me} asks {to} for the lock (random value {:04x}).", value & 0xffff),
            Msg::Granted { token, ttl_ms } => {
                format!("{me} tells {to}: the lock is yours, token {token}, for {}.", ms(*ttl_ms))
            }
            Msg::Busy => format!("{me} tells {to} the lock is taken."),
            Msg::Renew { token, .. } => format!("{me} asks {to} to extend lease {token}."),
            Msg::Write { token, value, expected_version: None } => {
                format!("{me} sends a write of {value:?} to {to}, carrying token {token}.")
            }
            Msg::Write { value, expected_version: Some(v), .. } => {
                format!("{me} sends a write of {value:?} to {to}, valid only if the data is still at version {v}.")
            }
            Msg::Release { token, mode: ReleaseMode::Safe, .. } => {
                format!("{me} asks {to} to release the lock, but only if token {token} is still the holder.")
            }
            Msg::Release { mode: ReleaseMode::Unsafe, .. } => {
                format!("{me} deletes the lock on {to} without checking whose it is.")
            }
            other => format!("{me} replies to {to}: {}.", other.label()),
        }
    }

    fn list(&self, ids: &[NodeId]) -> String {
        ids.iter().map(|id| self.name(*id)).collect::<Vec<_>>().join(" and ")
    }
}

fn quote(msg: &Msg) -> String {
    format!("“{}”", msg.label())
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}
