//! The faults a search adds to a scenario: each with a time, a target and one magnitude that
//! shrinking can make smaller.

use crate::scenario::faults::{self, FaultDecl};
use crate::scenario::format::{Fault, Participant, Scenario};
use serde::Serialize;

/// The kinds of fault a search may add.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    Pause,
    DelayMessage,
    Partition,
    Crash,
    ClockJump,
    Drift,
}

impl Class {
    /// Every class, in the order they are listed and searched.
    pub const ALL: [Class; 6] = [Class::Pause, Class::DelayMessage, Class::Partition, Class::Crash, Class::ClockJump, Class::Drift];

    /// Returns the kind of fault the class adds, as scenario files declare it (a crash comes
    /// back with a restart); drift is a clock's rate, not a fault.
    pub fn fault(self) -> Option<&'static FaultDecl> {
        match self {
            Class::Pause => Some(&faults::PAUSE),
            Class::DelayMessage => Some(&faults::DELAY_MESSAGE),
            Class::Partition => Some(&faults::PARTITION),
            Class::Crash => Some(&faults::CRASH),
            Class::ClockJump => Some(&faults::CLOCK_JUMP),
            Class::Drift => None,
        }
    }

    /// Returns the class's name on the command line and in requests: its fault's tag.
    pub fn tag(self) -> &'static str {
        self.fault().map_or("drift", |k| k.tag)
    }

    /// Finds a class by its name.
    pub fn named(tag: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.tag() == tag)
    }

    /// Names the class in a sentence, plural.
    pub fn plural(self) -> String {
        match self {
            Class::Crash => format!("{} and {}", faults::CRASH.plural, faults::RESTART.plural),
            Class::Drift => "clock drift".into(),
            c => c.fault().map_or_else(String::new, |k| k.plural.to_string()),
        }
    }
}

/// Which way a partition cuts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cut {
    /// Nothing from the node reaches the others.
    Outgoing,
    /// Nothing from the others reaches the node.
    Incoming,
    Both,
}

/// One fault the search adds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "fault", rename_all = "snake_case")]
pub enum Added {
    /// The node stops the world for `ms`.
    Pause { at_ms: u64, node: String, ms: u64 },
    /// The next message from `from` to `to` sent at or after `at_ms` takes `ms` longer.
    DelayMessage { at_ms: u64, from: String, to: String, ms: u64 },
    /// The node is cut off from every other participant for `ms`.
    Partition { at_ms: u64, node: String, cut: Cut, ms: u64 },
    /// The node crashes and comes back after `ms` without its state.
    Crash { at_ms: u64, node: String, ms: u64 },
    /// The node's clock jumps by `ms` (negative: back).
    ClockJump { at_ms: u64, node: String, ms: i64 },
    /// The node's clock runs fast (or slow, negative) by `ppm` millionths, from the start.
    Drift { node: String, ppm: i64 },
}

impl Added {
    /// Returns the fault's class.
    pub fn class(&self) -> Class {
        match self {
            Added::Pause { .. } => Class::Pause,
            Added::DelayMessage { .. } => Class::DelayMessage,
            Added::Partition { .. } => Class::Partition,
            Added::Crash { .. } => Class::Crash,
            Added::ClockJump { .. } => Class::ClockJump,
            Added::Drift { .. } => Class::Drift,
        }
    }

    /// Returns when the fault starts (drift is there from the start).
    pub fn at_ms(&self) -> u64 {
        match *self {
            Added::Pause { at_ms, .. }
            | Added::DelayMessage { at_ms, .. }
            | Added::Partition { at_ms, .. }
            | Added::Crash { at_ms, .. }
            | Added::ClockJump { at_ms, .. } => at_ms,
            Added::Drift { .. } => 0,
        }
    }

    /// Returns the fault moved to `at_ms`.
    pub fn at(&self, t: u64) -> Added {
        let mut f = self.clone();
        match &mut f {
            Added::Pause { at_ms, .. }
            | Added::DelayMessage { at_ms, .. }
            | Added::Partition { at_ms, .. }
            | Added::Crash { at_ms, .. }
            | Added::ClockJump { at_ms, .. } => *at_ms = t,
            Added::Drift { .. } => {}
        }
        f
    }

    /// Returns the fault's size: a length, a delay, a jump or a drift, signed.
    pub fn magnitude(&self) -> i64 {
        match *self {
            Added::Pause { ms, .. } | Added::DelayMessage { ms, .. } | Added::Partition { ms, .. } | Added::Crash { ms, .. } => ms as i64,
            Added::ClockJump { ms, .. } => ms,
            Added::Drift { ppm, .. } => ppm,
        }
    }

    /// Returns the fault with another size.
    pub fn sized(&self, m: i64) -> Added {
        let mut f = self.clone();
        match &mut f {
            Added::Pause { ms, .. } | Added::DelayMessage { ms, .. } | Added::Partition { ms, .. } | Added::Crash { ms, .. } => {
                *ms = m.unsigned_abs()
            }
            Added::ClockJump { ms, .. } => *ms = m,
            Added::Drift { ppm, .. } => *ppm = m,
        }
        f
    }

    /// Adds the fault to a scenario, as the faults of its file would be written (nothing if it
    /// names a participant the scenario does not have: a search's faults never do).
    pub fn apply(&self, s: &mut Scenario) {
        let ids: Vec<String> = s.participants.iter().map(|p| p.id().to_string()).collect();
        let mut faults = Vec::new();
        if self.push_faults(&ids, |id| ids.iter().position(|i| i == id), &mut faults).is_some() {
            s.faults.extend(faults);
        }
        if let Some((node, ppm)) = self.drift() {
            if let Some(p) = s.participants.iter_mut().find(|p| p.id() == node) {
                let (Participant::Client { clock, .. } | Participant::LockService { clock, .. } | Participant::Resource { clock, .. }) = p;
                clock.drift_ppm = ppm;
            }
        }
    }

    /// Writes the faults this adds (none for a drift, which sets a clock's rate), naming each
    /// participant as `ids` does: `ids` lists every participant in the scenario's order (by id,
    /// or by node), and `place` finds one's place in it by its id. `None`, with nothing
    /// written, if the fault names a participant `place` does not find.
    pub fn push_faults<Id: Clone>(&self, ids: &[Id], place: impl Fn(&str) -> Option<usize>, out: &mut Vec<Fault<Id>>) -> Option<()> {
        let t = self.at_ms() as i64;
        let id = |name: &str| place(name).and_then(|i| ids.get(i)).cloned();
        match self {
            Added::Pause { node, ms, .. } => out.push(Fault::Pause { at_ms: t, node: id(node)?, for_ms: *ms as i64 }),
            Added::DelayMessage { from, to, ms, .. } => {
                out.push(Fault::DelayMessage { at_ms: t, from: id(from)?, to: id(to)?, extra_ms: *ms as i64 })
            }
            Added::Partition { node, cut, ms, .. } => {
                let at = place(node)?;
                let me = vec![ids.get(at)?.clone()];
                let others: Vec<Id> = ids.iter().enumerate().filter(|&(i, _)| i != at).map(|(_, id)| id.clone()).collect();
                let (from, to) = if *cut == Cut::Incoming { (others, me) } else { (me, others) };
                out.push(Fault::Partition { at_ms: t, from, to, two_way: *cut == Cut::Both, for_ms: *ms as i64 });
            }
            Added::Crash { node, ms, .. } => {
                let node = id(node)?;
                out.push(Fault::Crash { at_ms: t, node: node.clone() });
                out.push(Fault::Restart { at_ms: t + *ms as i64, node, keep_state: false });
            }
            Added::ClockJump { node, ms, .. } => out.push(Fault::ClockJump { at_ms: t, node: id(node)?, by_ms: *ms }),
            Added::Drift { .. } => {}
        }
        Some(())
    }

    /// The participant whose clock rate this sets, and the rate, if it is a drift.
    pub fn drift(&self) -> Option<(&str, i64)> {
        match self {
            Added::Drift { node, ppm } => Some((node, *ppm)),
            _ => None,
        }
    }

    /// Says what the fault does, naming its participants as the scenario does.
    pub fn describe(&self, s: &Scenario) -> String {
        let name = |id: &str| s.participants.iter().find(|p| p.id() == id).map_or(id.to_string(), |p| p.name().to_string());
        let at = crate::present::number::ms(self.at_ms());
        match self {
            Added::Pause { node, ms, .. } => format!("{} pauses at {at} for {}", name(node), crate::present::number::ms(*ms)),
            Added::DelayMessage { from, to, ms, .. } => {
                format!("the next message from {} to {} after {at} takes {} longer", name(from), name(to), crate::present::number::ms(*ms))
            }
            Added::Partition { node, cut, ms, .. } => {
                let how = match cut {
                    Cut::Outgoing => "nothing it sends arrives",
                    Cut::Incoming => "nothing sent to it arrives",
                    Cut::Both => "cut off both ways",
                };
                format!("{} is partitioned at {at} for {} ({how})", name(node), crate::present::number::ms(*ms))
            }
            Added::Crash { node, ms, .. } => {
                format!("{} crashes at {at} and restarts {} later without its state", name(node), crate::present::number::ms(*ms))
            }
            Added::ClockJump { node, ms, .. } => {
                let dir = if *ms < 0 { "back" } else { "forward" };
                format!("{}'s clock jumps {dir} by {} at {at}", name(node), crate::present::number::ms(ms.unsigned_abs()))
            }
            Added::Drift { node, ppm } => {
                // A percent to one decimal place, rounded half up, in whole numbers (no float
                // formatting in the worker): 10,000 ppm is 1%.
                let tenths = (ppm.unsigned_abs() + 500) / 1_000;
                format!("{}'s clock runs {} by {}.{}%", name(node), if *ppm < 0 { "slow" } else { "fast" }, tenths / 10, tenths % 10)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Added;
    use crate::scenario::lessons;

    #[test]
    fn a_drift_reads_as_a_percent_to_one_place() {
        let s = lessons::find("lease-race-unfenced").expect("a lesson").scenario;
        let drift = |ppm| Added::Drift { node: "A".into(), ppm }.describe(&s);
        assert_eq!(drift(500_000), "Client A's clock runs fast by 50.0%");
        assert_eq!(drift(-12_345), "Client A's clock runs slow by 1.2%");
        assert_eq!(drift(1_250), "Client A's clock runs fast by 0.1%");
        assert_eq!(drift(1_550), "Client A's clock runs fast by 0.2%");
    }
}
