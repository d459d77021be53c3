//! Who holds the lock according to the lock services, derived from the trace's lock events.
//!
//! A client holds the lock while it holds keys on at least `quorum` lock-service nodes (one for
//! single-node designs, a majority for Redlock). The checker, the diagram and the inspector all
//! read holdership through this one place.

use super::event::{Event, EventKind};
use super::ids::{NodeId, NodeMap};

/// A change in who holds the lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Change {
    /// `holder` now holds the lock under `token`.
    Gained { holder: NodeId, token: u64 },
    /// `holder` no longer holds it.
    Lost { holder: NodeId, token: u64 },
}

/// The changes one event makes: at most one, but for a failover, which can end several holds.
pub type Changes = std::iter::Chain<std::option::IntoIter<Change>, std::vec::IntoIter<Change>>;

/// Changes of at most one.
fn one(change: Option<Change>) -> Changes {
    change.into_iter().chain(Vec::new())
}

/// Tracks each client's keys across lock-service nodes.
#[derive(Clone, Debug)]
pub struct Holdings {
    quorum: usize,
    /// By client: the lock-service nodes holding a key for it.
    keys: NodeMap<Vec<NodeId>>,
    /// By client: the token it holds the lock under.
    held: NodeMap<u64>,
}

impl Holdings {
    /// Starts with nobody holding anything.
    pub fn new(quorum: usize) -> Self {
        Holdings { quorum: quorum.max(1), keys: NodeMap::default(), held: NodeMap::default() }
    }

    /// Starts again with nobody holding anything, keeping the maps' room.
    pub fn emptied(self, quorum: usize) -> Self {
        Holdings { quorum: quorum.max(1), keys: self.keys.lists_emptied(), held: self.held.emptied() }
    }

    /// Applies one event, reporting each client that crosses the quorum either way.
    pub fn apply(&mut self, e: &Event) -> Changes {
        match e.kind {
            EventKind::LockGranted { token, holder, .. } | EventKind::LockReplicated { token, holder, .. } => {
                let keys = self.keys.or_default(holder);
                if !keys.contains(&e.node) {
                    keys.push(e.node);
                }
                if keys.len() >= self.quorum && self.held.get(holder).is_none() {
                    self.held.insert(holder, token);
                    return one(Some(Change::Gained { holder, token }));
                }
                // A grant again to the holder names its token (a Redis key set, then its INCR).
                if self.held.get(holder).is_some() {
                    self.held.insert(holder, token);
                }
                one(None)
            }
            EventKind::LockEnded { holder, .. } => {
                self.keys.or_default(holder).retain(|n| *n != e.node);
                one(self.settle(holder))
            }
            // After a failover only the new primary's keys count.
            EventKind::Promoted => {
                let mut holders = Vec::new();
                for (h, keys) in self.keys.iter_mut() {
                    keys.retain(|n| *n == e.node);
                    holders.push(h);
                }
                let ended: Vec<Change> = holders.into_iter().filter_map(|h| self.settle(h)).collect();
                None.into_iter().chain(ended)
            }
            EventKind::Send { .. }
            | EventKind::Deliver { .. }
            | EventKind::Drop { .. }
            | EventKind::PauseStart { .. }
            | EventKind::PauseEnd
            | EventKind::Crash
            | EventKind::Restart { .. }
            | EventKind::ClockJump { .. }
            | EventKind::PartitionStart { .. }
            | EventKind::PartitionEnd { .. }
            | EventKind::LinkSlow { .. }
            | EventKind::HungUp { .. }
            | EventKind::LockExtended { .. }
            | EventKind::BeliefStart { .. }
            | EventKind::BeliefExtended { .. }
            | EventKind::BeliefEnd { .. }
            | EventKind::RenewalFailed { .. }
            | EventKind::GaveUp { .. }
            | EventKind::WriteAccepted { .. }
            | EventKind::WriteRejected { .. }
            | EventKind::WriteUndone { .. }
            | EventKind::LockChecked { .. }
            | EventKind::Done => one(None),
        }
    }

    fn settle(&mut self, holder: NodeId) -> Option<Change> {
        if self.keys_of(holder) < self.quorum {
            if let Some(token) = self.held.remove(holder) {
                return Some(Change::Lost { holder, token });
            }
        }
        None
    }

    /// Returns the token under which `client` holds the lock now, if it does.
    pub fn token_of(&self, client: NodeId) -> Option<u64> {
        self.held.get(client).copied()
    }

    /// Returns how many lock-service nodes hold a key for `client`.
    pub fn keys_of(&self, client: NodeId) -> usize {
        self.keys.get(client).map_or(0, Vec::len)
    }
}
