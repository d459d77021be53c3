//! One plain sentence per event, written for a learner.

use super::ids::NodeId;
use super::msg::{group, lease_name, ms, short, token_name, until_local as until, Msg, ReleaseMode};
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
            EventKind::LeaseGranted { token: 0, holder, expires_local: i64::MAX } => {
                format!("{me} gives the lock to {}; it does not expire on its own. There is no fencing token.", n(*holder))
            }
            EventKind::LeaseGranted { token: 0, holder, expires_local } => format!(
                "{me} gives the lock to {}; it expires when {me}'s clock reads {}. There is no fencing token.",
                n(*holder),
                group(*expires_local)
            ),
            EventKind::LeaseGranted { token, holder, expires_local } => format!(
                "{me} grants the lock to {} with fencing token {token}; the lease ends when {me}'s clock reads {}.",
                n(*holder),
                group(*expires_local)
            ),
            EventKind::LeaseRenewed { token, holder, expires_local } => format!(
                "{me} extends {}'s {} to local {}.",
                n(*holder),
                lease_name(*token),
                group(*expires_local)
            ),
            EventKind::LeaseEnded { token, holder, how } => match how {
                LeaseEnd::Expired => format!(
                    "{} expires on {me}'s clock. Nobody tells {}: it may still think the lock is its own.",
                    capital(&lease_name(*token)),
                    n(*holder)
                ),
                LeaseEnd::Released => format!("{} released {}; the lock is free.", n(*holder), lease_name(*token)),
                LeaseEnd::DeletedByOther => format!(
                    "An unchecked release deletes {}, which belongs to {}: the lock is free while {} still works.",
                    lease_name(*token),
                    n(*holder),
                    n(*holder)
                ),
                LeaseEnd::LostOnRestart => {
                    format!("{} of {} is lost with {me}'s memory.", capital(&lease_name(*token)), n(*holder))
                }
            },
            EventKind::KeyReplicated { token, holder } => {
                format!("{me} stores its copy of {} held by {}.", lease_name(*token), n(*holder))
            }
            EventKind::Promoted => format!(
                "{me} is promoted to primary (as Sentinel would do). Any key the old primary granted but never replicated does not exist here."
            ),
            EventKind::BeliefStart { token, until_local } => format!(
                "{me} believes it holds the lock ({}), {} on its own clock.",
                token_name(*token),
                until(*until_local)
            ),
            EventKind::BeliefExtended { until_local, .. } => {
                format!("{me} now believes the lock is its own, {} on its own clock.", until(*until_local))
            }
            EventKind::BeliefEnd { token, why } => match why {
                BeliefEnd::Released => format!("{me} is done with {} and lets the lock go.", lease_name(*token)),
                BeliefEnd::RenewalFailed => format!(
                    "{me} could not renew {}, so it stops working before touching the resource.",
                    lease_name(*token)
                ),
                BeliefEnd::Crashed => format!("{me}'s belief in {} dies with the process.", lease_name(*token)),
            },
            EventKind::RenewalFailed { token, abort: true } => {
                format!("{me}'s renewal of {} failed; its policy is to abort.", lease_name(*token))
            }
            EventKind::RenewalFailed { token, abort: false } => {
                format!("{me}'s renewal of {} failed, but its policy is to carry on regardless.", lease_name(*token))
            }
            EventKind::GaveUp { attempts } => format!("{me} gives up on the lock after {attempts} attempts."),
            EventKind::WriteAccepted { writer, token, value, version } => format!(
                "{me} accepts {value:?} from {} ({}); the data is now at version {version}.",
                n(*writer),
                token_name(*token)
            ),
            EventKind::WriteRejected { writer, value, reason, .. } => {
                format!("{me} rejects {value:?} from {}: {reason}. The resource itself stopped a stale writer.", n(*writer))
            }
            EventKind::Done => format!("{me} has finished its script."),
        }
    }

    fn sending(&self, me: &str, to: &str, msg: &Msg) -> String {
        match msg {
            Msg::Acquire { value, px_ms: None } => format!("{me} asks {to} for the lock (random value {}).", short(*value)),
            Msg::Acquire { value, px_ms: Some(px) } => format!(
                "{me} runs SET lock {} NX PX {px} on {to}: set the key only if nobody holds it, expiring in {}.",
                short(*value),
                ms(*px)
            ),
            Msg::Granted { token: 0, .. } => format!("{me} answers {to}: OK, the key is set."),
            Msg::Granted { token, ttl_ms } => {
                format!("{me} tells {to}: the lock is yours, token {token}, for {}.", ms(*ttl_ms))
            }
            Msg::Busy => format!("{me} tells {to} the lock is taken."),
            Msg::Renew { token, .. } => format!("{me} asks {to} to extend {}.", lease_name(*token)),
            Msg::Write { token: 0, value, expected_version: None } => {
                format!("{me} sends a write of {value:?} to {to}; it has no token to carry.")
            }
            Msg::Write { token, value, expected_version: None } => {
                format!("{me} sends a write of {value:?} to {to}, carrying token {token}.")
            }
            Msg::Write { value, expected_version: Some(v), .. } => {
                format!("{me} sends a write of {value:?} to {to}, based on version {v}, which it read; a store that checks versions takes it only if the data is still at version {v}.")
            }
            Msg::Release { token: 0, value: 0, mode: ReleaseMode::Safe } => format!("{me} asks {to} to unlock."),
            Msg::Release { token: 0, value, mode: ReleaseMode::Safe } => format!(
                "{me} runs the compare-and-delete script on {to}: delete the key only if it still holds {}.",
                short(*value)
            ),
            Msg::Release { token, mode: ReleaseMode::Safe, .. } => {
                format!("{me} asks {to} to release the lock, but only if token {token} is still the holder.")
            }
            Msg::Release { mode: ReleaseMode::Unsafe, .. } => {
                format!("{me} deletes the lock on {to} without checking whose it is.")
            }
            Msg::Release { mode: ReleaseMode::Commit, .. } => {
                format!("{me} commits its transaction on {to}; the commit releases every transaction-level advisory lock it took.")
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
