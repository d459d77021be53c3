//! A Redis primary's replication links and the `WAIT` command, as Redis has them.
//!
//! Every change the primary makes gets the next replication offset and goes down each replica's
//! link after that link's lag, asynchronously: a crash of the primary loses what a link still
//! holds. `WAIT numreplicas timeout` blocks the client until that many replicas have
//! acknowledged the offset of its last write, or until the timeout, and answers how many did.
//! While a `WAIT` is blocked the primary asks its replicas for their offsets
//! (`REPLCONF GETACK`, sent down the link like any change), and each answers `REPLCONF ACK`.
//! `WAIT` rolls nothing back: a write acknowledged by fewer replicas stays on the primary.
//!
//! A promoted replica links to the other replicas and sends each its whole dataset (a full
//! resync, as a replica that is ahead of its new primary gets in Redis): what they had beyond the
//! new primary is gone. Redis starts that transfer only after `repl-diskless-sync-delay` (5 s by
//! default, waiting for more replicas to join it), and a replica acknowledges nothing until then.

use super::redis_wire::{Key, RedisMsg};
use crate::engine::actor::{Cx, DesignTimer, Timer};
use crate::engine::ids::NodeId;
use crate::engine::msg::Msg;
use crate::engine::time::{LocalMillis, Millis};

/// Most replicas a primary streams to.
pub const MOST_REPLICAS: usize = 2;

/// The primary's replication timers: a link's changes are due, or a blocked `WAIT` times out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ReplicationTimer {
    /// What link `i` holds is due at its replica.
    Flush(usize),
    /// The earliest blocked `WAIT`'s timeout.
    Wait,
}

impl DesignTimer for ReplicationTimer {
    fn slot(self) -> u8 {
        match self {
            ReplicationTimer::Flush(i) => i as u8,
            ReplicationTimer::Wait => MOST_REPLICAS as u8,
        }
    }

    fn of_slot(slot: u8) -> Option<Self> {
        match usize::from(slot) {
            i if i < MOST_REPLICAS => Some(ReplicationTimer::Flush(i)),
            MOST_REPLICAS => Some(ReplicationTimer::Wait),
            _ => None,
        }
    }
}

/// A change on its way down a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Change {
    Set(Key, u64),
    Delete(u64, u64),
    GetAck,
    /// The whole dataset: the key, if any, and the counter.
    Sync(Option<Key>, u64),
}

/// One replica's link: where it goes, its lag, what it still holds, what the replica has acked.
#[derive(Clone, Debug, Hash)]
struct Link {
    node: NodeId,
    lag_ms: Millis,
    held: Vec<Change>,
    acked: u64,
}

/// A client blocked in `WAIT`.
#[derive(Clone, Copy, Debug, Hash)]
struct Wait {
    client: NodeId,
    offset: u64,
    replicas: u64,
    deadline: LocalMillis,
}

/// A primary's side of replication.
#[derive(Clone, Debug, Default, Hash)]
pub struct Replication {
    links: Vec<Link>,
    /// The offset of the primary's latest change.
    offset: u64,
    /// Each client's latest write offset, as `WAIT` counts from it.
    writes: Vec<(NodeId, u64)>,
    waits: Vec<Wait>,
}

impl Replication {
    /// Links to these replicas, each with its lag in ms, counting on from `offset`.
    pub fn new(replicas: &[(NodeId, Millis)], offset: u64) -> Self {
        let links = replicas.iter().map(|&(node, lag_ms)| Link { node, lag_ms, held: Vec::new(), acked: 0 }).collect();
        Replication { links, offset, ..Replication::default() }
    }

    /// Sends every replica the whole dataset, replacing whatever it has, `delay_ms` from now
    /// (plus each link's lag).
    pub fn resync(&mut self, cx: &mut Cx, key: Option<Key>, counter: u64, delay_ms: Millis) {
        self.push(cx, Change::Sync(key, counter));
        for (i, link) in self.links.iter().enumerate() {
            cx.after(Timer::service(ReplicationTimer::Flush(i)), link.lag_ms + delay_ms);
        }
    }

    /// Streams a new value of the key, written by `client`.
    pub fn set(&mut self, cx: &mut Cx, client: NodeId, key: Key) {
        let offset = self.write(client);
        self.push(cx, Change::Set(key, offset));
    }

    /// Streams the key's deletion, done by `client` (or by the primary itself, on expiry).
    pub fn delete(&mut self, cx: &mut Cx, client: NodeId, value: u64) {
        let offset = self.write(client);
        self.push(cx, Change::Delete(value, offset));
    }

    fn write(&mut self, client: NodeId) -> u64 {
        self.offset += 1;
        match self.writes.iter_mut().find(|(c, _)| *c == client) {
            Some(w) => w.1 = self.offset,
            None => self.writes.push((client, self.offset)),
        }
        self.offset
    }

    /// Queues a change on every link; a link's batch leaves its lag after its first change.
    fn push(&mut self, cx: &mut Cx, change: Change) {
        for (i, link) in self.links.iter_mut().enumerate() {
            if link.held.is_empty() {
                cx.after(Timer::service(ReplicationTimer::Flush(i)), link.lag_ms);
            }
            link.held.push(change);
        }
    }

    /// `WAIT replicas timeout_ms` from `client`: answers at once if enough replicas have its
    /// last write, else blocks it and asks the replicas for their offsets.
    pub fn wait(&mut self, cx: &mut Cx, client: NodeId, replicas: u64, timeout_ms: Millis) {
        let offset = self.writes.iter().find(|(c, _)| *c == client).map_or(0, |w| w.1);
        let wait = Wait { client, offset, replicas, deadline: cx.now + timeout_ms };
        if self.acked(offset) >= replicas {
            return self.answer(cx, wait);
        }
        if !self.links.iter().any(|l| l.held.contains(&Change::GetAck)) {
            self.push(cx, Change::GetAck);
        }
        self.waits.push(wait);
        self.arm(cx);
    }

    /// A replica's `REPLCONF ACK`: answers every `WAIT` it satisfies.
    pub fn ack(&mut self, cx: &mut Cx, from: NodeId, offset: u64) {
        if let Some(link) = self.links.iter_mut().find(|l| l.node == from) {
            link.acked = link.acked.max(offset);
        }
        self.settle(cx, |r, w| r.acked(w.offset) >= w.replicas);
    }

    /// Handles a replication or `WAIT` timer.
    pub fn on_timer(&mut self, cx: &mut Cx, timer: Timer) {
        match timer.as_service() {
            Some(ReplicationTimer::Wait) => {
                let now = cx.now;
                self.settle(cx, |_, w| w.deadline <= now)
            }
            Some(ReplicationTimer::Flush(i)) if i < self.links.len() => self.flush(cx, i),
            _ => {}
        }
    }

    /// Sends what link `i` holds.
    fn flush(&mut self, cx: &mut Cx, i: usize) {
        let link = &mut self.links[i];
        for change in std::mem::take(&mut link.held) {
            let msg = match change {
                Change::Set(k, offset) => {
                    RedisMsg::Replicate { holder: k.holder, value: k.value, token: k.token, expires_at: k.expires_local, offset }
                }
                Change::Delete(value, offset) => RedisMsg::ReplicateDel { value, offset },
                Change::GetAck => RedisMsg::GetAck,
                Change::Sync(key, counter) => RedisMsg::FullSync { key, counter, offset: self.offset },
            };
            cx.send(link.node, Msg::lock(msg));
        }
    }

    /// Answers the blocked `WAIT`s for which `done` holds, and re-arms the timer for the rest.
    fn settle(&mut self, cx: &mut Cx, done: impl Fn(&Replication, &Wait) -> bool) {
        let (ready, blocked): (Vec<Wait>, Vec<Wait>) = self.waits.iter().partition(|w| done(self, w));
        self.waits = blocked;
        for w in ready {
            self.answer(cx, w);
        }
        self.arm(cx);
    }

    fn arm(&mut self, cx: &mut Cx) {
        match self.waits.iter().map(|w| w.deadline).min() {
            Some(at) => cx.at(Timer::service(ReplicationTimer::Wait), at),
            None => cx.cancel(Timer::service(ReplicationTimer::Wait)),
        }
    }

    fn answer(&self, cx: &mut Cx, w: Wait) {
        cx.send(w.client, Msg::lock(RedisMsg::Acked { replicas: self.acked(w.offset) }));
    }

    /// How many replicas have acknowledged `offset`.
    fn acked(&self, offset: u64) -> u64 {
        self.links.iter().filter(|l| l.acked >= offset).count() as u64
    }

    /// A crash loses what the links still hold and drops the blocked clients' connections.
    pub fn crash(&mut self) {
        for link in &mut self.links {
            link.held.clear();
        }
        self.waits.clear();
    }
}
