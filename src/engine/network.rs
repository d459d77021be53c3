//! The network: per-link latency and loss, partitions and slow links that come and go over time.
//! Each link delivers in the order it was sent, as a connection does.

use super::event::DropReason;
use super::ids::NodeId;
use super::rng::Rng;
use super::spec::{LinkSpec, NetworkSpec};
use super::time::Millis;

/// A partition in force: messages from `from` to `to` (and back if two-way) are dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Cut {
    id: usize,
    from: Vec<NodeId>,
    to: Vec<NodeId>,
    two_way: bool,
}

/// A window during which one link is slower.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slow {
    from: NodeId,
    to: NodeId,
    extra_ms: Millis,
    start_ms: Millis,
    end_ms: Millis,
}

/// A fault waiting for the next message on one link: it drops it, or delays it by `extra_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Armed {
    fault: usize,
    from: NodeId,
    to: NodeId,
    extra_ms: Option<Millis>,
}

/// What the network decides for a message at send time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fate {
    Arrives { after_ms: Millis },
    Lost(DropReason),
}

/// Link state over time.
pub struct Transport {
    spec: NetworkSpec,
    rng: Rng,
    cuts: Vec<Cut>,
    slows: Vec<Slow>,
    armed: Vec<Armed>,
    /// The latest arrival scheduled on each link: a link delivers in order, as a TCP
    /// connection does, so a delayed message holds back those sent after it.
    last_arrival: Vec<((NodeId, NodeId), Millis)>,
}

impl Transport {
    /// Builds a network with its own random stream.
    pub fn new(spec: NetworkSpec, rng: Rng) -> Self {
        Transport { spec, rng, cuts: Vec::new(), slows: Vec::new(), armed: Vec::new(), last_arrival: Vec::new() }
    }

    fn link(&self, from: NodeId, to: NodeId) -> LinkSpec {
        self.spec.links.iter().find(|(f, t, _)| *f == from && *t == to).map_or(self.spec.default, |(_, _, l)| *l)
    }

    /// Decides whether a message sent now arrives, and after how long, and names the fault
    /// scheduled for this one message, if one was waiting. (The random draws are the same with
    /// or without such a fault, so it changes no other message.)
    pub fn send(&mut self, from: NodeId, to: NodeId, now_ms: Millis) -> (Fate, Option<usize>) {
        let armed = self.armed.iter().position(|a| a.from == from && a.to == to).map(|k| self.armed.remove(k));
        let fate = match (self.fate(from, to, now_ms), armed.map(|a| a.extra_ms)) {
            (_, Some(None)) => Fate::Lost(DropReason::Dropped),
            (Fate::Arrives { after_ms }, Some(Some(extra))) => Fate::Arrives { after_ms: after_ms + extra },
            (fate, _) => fate,
        };
        let fate = match fate {
            Fate::Arrives { after_ms } => Fate::Arrives { after_ms: self.in_order(from, to, now_ms + after_ms) - now_ms },
            lost => lost,
        };
        (fate, armed.map(|a| a.fault))
    }

    /// Returns when a message due at `due_ms` arrives: no sooner than the last one on its link.
    fn in_order(&mut self, from: NodeId, to: NodeId, due_ms: Millis) -> Millis {
        match self.last_arrival.iter_mut().find(|l| l.0 == (from, to)) {
            Some(l) => {
                l.1 = l.1.max(due_ms);
                l.1
            }
            None => {
                self.last_arrival.push(((from, to), due_ms));
                due_ms
            }
        }
    }

    fn fate(&mut self, from: NodeId, to: NodeId, now_ms: Millis) -> Fate {
        if self.is_cut(from, to) {
            return Fate::Lost(DropReason::Partitioned);
        }
        let link = self.link(from, to);
        if self.rng.chance(link.loss) {
            return Fate::Lost(DropReason::Lost);
        }
        let base = Millis::from_ms(self.rng.range_inclusive(link.latency.min_ms, link.latency.max_ms));
        let extra: Millis = self
            .slows
            .iter()
            .filter(|s| s.from == from && s.to == to && (s.start_ms..s.end_ms).contains(&now_ms))
            .map(|s| s.extra_ms)
            .sum();
        Fate::Arrives { after_ms: base + extra }
    }

    /// Says whether messages from `from` to `to` are being dropped.
    pub fn is_cut(&self, from: NodeId, to: NodeId) -> bool {
        self.cuts
            .iter()
            .any(|c| (c.from.contains(&from) && c.to.contains(&to)) || (c.two_way && c.from.contains(&to) && c.to.contains(&from)))
    }

    /// Starts a partition identified by `id`.
    pub fn cut(&mut self, id: usize, from: Vec<NodeId>, to: Vec<NodeId>, two_way: bool) {
        self.cuts.push(Cut { id, from, to, two_way });
    }

    /// Ends the partition `id`.
    pub fn heal(&mut self, id: usize) {
        self.cuts.retain(|c| c.id != id);
    }

    /// Waits for the next message from `from` to `to`: fault `fault` drops it (`extra_ms` is
    /// `None`) or delays it.
    pub fn arm(&mut self, fault: usize, from: NodeId, to: NodeId, extra_ms: Option<Millis>) {
        self.armed.push(Armed { fault, from, to, extra_ms });
    }

    /// Slows one link for messages sent in `start_ms..end_ms`.
    pub fn slow(&mut self, from: NodeId, to: NodeId, extra_ms: Millis, start_ms: Millis, end_ms: Millis) {
        self.slows.push(Slow { from, to, extra_ms, start_ms, end_ms });
    }
}
