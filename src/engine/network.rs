//! The network: per-link latency and loss, partitions and slow links that come and go over time.
//!
//! Each pair of nodes talks over a connection, as over TCP. A link delivers in the order it was
//! sent. A partition holds what crosses it (the sender's kernel retransmits) and delivers it when
//! the partition heals, unless the sender's kernel has given up by then: that breaks the
//! connection and loses what it held. An end may close a connection (its reply is overdue):
//! what it sent still arrives, followed by its close, but nothing sent back on that connection
//! reaches it. Its next message opens a new connection.
//!
//! Simplified: a healed partition delivers what it held after the link's shortest latency, where
//! a real kernel retransmits on its own backoff, up to its longest retransmission timeout later.

use super::copy::field_clone;
use super::event::DropReason;
use super::fingerprint::hash_set;
use super::ids::NodeId;
use super::msg::Msg;
use super::rng::Rng;
use super::spec::{LinkSpec, NetworkSpec};
use super::time::Millis;
use std::hash::{Hash, Hasher};

/// A partition in force: messages from `from` to `to` (and back if two-way) are held.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Cut {
    id: usize,
    from: Vec<NodeId>,
    to: Vec<NodeId>,
    two_way: bool,
}

/// A window during which one link is slower.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Slow {
    from: NodeId,
    to: NodeId,
    extra_ms: Millis,
    start_ms: Millis,
    end_ms: Millis,
}

/// A fault waiting for the next message on one link: it drops it, or delays it by `extra_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Armed {
    fault: usize,
    from: NodeId,
    to: NodeId,
    extra_ms: Option<Millis>,
}

/// What the network decides for a message at send time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fate {
    Arrives {
        after_ms: Millis,
    },
    /// A partition cuts its link: the connection holds it.
    Held,
    Lost(DropReason),
}

/// How long a Linux kernel retransmits unacknowledged data before it breaks the connection:
/// about 924.6 s with the default `tcp_retries2 = 15`.
const RETRANSMIT_FOR_MS: Millis = Millis::from_ms(924_600);

/// How long it retransmits for a socket its application has closed: about 102 s with the
/// default `tcp_orphan_retries` (0, read as 8 retries from a 200 ms timeout).
const ORPHAN_RETRANSMIT_FOR_MS: Millis = Millis::from_ms(102_200);

/// A message a partition holds on its connection, or (`msg` is `None`) the sender's close.
#[derive(Clone, Debug, PartialEq)]
pub struct Held {
    pub msg_id: u64,
    pub from: NodeId,
    pub to: NodeId,
    /// The connection it was sent on: see [`Transport::connection`].
    pub conn: u32,
    pub msg: Option<Msg>,
    pub sent_at_ms: Millis,
}

/// A closed connection: the pair, its number, and the end that closed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Closed {
    pair: (NodeId, NodeId),
    conn: u32,
    by: NodeId,
}

/// What a connection does with a message that reaches its receiver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    Delivered,
    /// The receiver closed this connection: it reads nothing more from it.
    Closed,
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
    /// What partitions hold, in the order it was sent.
    held: Vec<Held>,
    /// Each pair's current connection number (0 until one is closed).
    conns: Vec<((NodeId, NodeId), u32)>,
    closed: Vec<Closed>,
}

field_clone!(Transport { spec, rng, cuts, slows, armed, last_arrival, held, conns, closed });

impl Transport {
    /// Feeds `h` its state as it bears on what happens from `from_ms` on, not its settings: a
    /// held message by what it carries, not by its number, which only names it in the trace; a
    /// link's latest arrival only if it is later (an arrival no sooner than one already past is
    /// no constraint), as a set; a slow window only if it has not ended.
    pub fn fingerprint(&self, h: &mut impl Hasher, from_ms: Millis) {
        let Transport { rng, cuts, slows, armed, last_arrival, held, conns, closed, .. } = self;
        (rng, cuts, armed, conns, closed).hash(h);
        hash_set(h, last_arrival.iter().filter(|l| l.1 > from_ms).copied());
        for s in slows.iter().filter(|s| s.end_ms > from_ms) {
            s.hash(h);
        }
        for m in held {
            (m.from, m.to, m.conn, &m.msg, m.sent_at_ms).hash(h);
        }
    }
}

/// The key of the connection between two nodes, whichever sends.
fn pair(a: NodeId, b: NodeId) -> (NodeId, NodeId) {
    if a.0 <= b.0 {
        (a, b)
    } else {
        (b, a)
    }
}

impl Transport {
    /// Builds a network with its own random stream.
    pub fn new(spec: NetworkSpec, rng: Rng) -> Self {
        Transport {
            spec,
            rng,
            cuts: Vec::new(),
            slows: Vec::new(),
            armed: Vec::new(),
            last_arrival: Vec::new(),
            held: Vec::new(),
            conns: Vec::new(),
            closed: Vec::new(),
        }
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
            return Fate::Held;
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

    /// Says whether messages from `from` to `to` are being held.
    pub fn is_cut(&self, from: NodeId, to: NodeId) -> bool {
        self.cuts
            .iter()
            .any(|c| (c.from.contains(&from) && c.to.contains(&to)) || (c.two_way && c.from.contains(&to) && c.to.contains(&from)))
    }

    /// Starts a partition identified by `id`.
    pub fn cut(&mut self, id: usize, from: Vec<NodeId>, to: Vec<NodeId>, two_way: bool) {
        self.cuts.push(Cut { id, from, to, two_way });
    }

    /// Ends the partition `id` and returns what it held on links now open, in the order it was
    /// sent: each with when it arrives (the link's shortest latency after now, in order behind
    /// anything already on its way; no random draw, so no other message changes), or `None` if
    /// the sender's kernel gave up retransmitting it first.
    pub fn heal(&mut self, id: usize, now_ms: Millis) -> Vec<(Option<Millis>, Held)> {
        self.cuts.retain(|c| c.id != id);
        let mut out = Vec::new();
        let mut k = 0;
        while k < self.held.len() {
            let h = &self.held[k];
            if self.is_cut(h.from, h.to) {
                k += 1;
                continue;
            }
            let orphaned = self.closed.iter().any(|c| c.pair == pair(h.from, h.to) && c.conn == h.conn && c.by == h.from);
            let gives_up_after = if orphaned { ORPHAN_RETRANSMIT_FOR_MS } else { RETRANSMIT_FOR_MS };
            let (from, to, gave_up) = (h.from, h.to, now_ms - h.sent_at_ms > gives_up_after);
            let due = now_ms + Millis::from_ms(self.link(from, to).latency.min_ms);
            let at = if gave_up { None } else { Some(self.in_order(from, to, due)) };
            out.push((at, self.held.remove(k)));
        }
        out
    }

    /// Holds a message a partition cuts off, until the partition heals or its connection breaks.
    pub fn hold(&mut self, held: Held) {
        self.held.push(held);
    }

    /// The number of the connection `from` sends on to `to` now.
    pub fn connection(&self, from: NodeId, to: NodeId) -> u32 {
        self.conns.iter().find(|c| c.0 == pair(from, to)).map_or(0, |c| c.1)
    }

    /// Says whether a partition holds anything on the current connection between `a` and `b`.
    pub fn stalled(&self, a: NodeId, b: NodeId) -> bool {
        let conn = self.connection(a, b);
        self.held.iter().any(|h| pair(h.from, h.to) == pair(a, b) && h.conn == conn)
    }

    /// `by` closes its current connection to `peer` (the next message opens a new one) and
    /// sends its close: returns when that arrives, or `None` if a partition holds it.
    pub fn close(&mut self, by: NodeId, peer: NodeId, now_ms: Millis) -> Option<Millis> {
        let conn = self.connection(by, peer);
        self.closed.push(Closed { pair: pair(by, peer), conn, by });
        match self.conns.iter_mut().find(|c| c.0 == pair(by, peer)) {
            Some(c) => c.1 += 1,
            None => self.conns.push((pair(by, peer), 1)),
        }
        self.notify(by, peer, conn, now_ms)
    }

    /// Sends `from`'s close (or reset) of connection `conn` to `to`: returns when it arrives,
    /// or `None` if a partition holds it.
    pub fn notify(&mut self, from: NodeId, to: NodeId, conn: u32, now_ms: Millis) -> Option<Millis> {
        if self.is_cut(from, to) {
            self.hold(Held { msg_id: 0, from, to, conn, msg: None, sent_at_ms: now_ms });
            return None;
        }
        let due = now_ms + Millis::from_ms(self.link(from, to).latency.min_ms);
        Some(self.in_order(from, to, due))
    }

    /// What becomes of a message sent on connection `conn` when it reaches `to`.
    pub fn arrival(&self, from: NodeId, to: NodeId, conn: u32) -> Arrival {
        if self.closed.iter().any(|c| c.pair == pair(from, to) && c.conn == conn && c.by == to) {
            Arrival::Closed
        } else {
            Arrival::Delivered
        }
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
