//! Node identifiers and kinds: an index into the scenario's participant list, and what it is.

use serde::Serialize;
use std::fmt;

/// One participant of a run, in diagram order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct NodeId(pub usize);

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// What a participant is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    Client,
    LockService,
    Resource,
}

/// How many nodes a [`NodeMap`] makes room for when it first grows.
const NODE_ROOM: usize = 8;

/// Values by node id, in a vector: node ids are small and dense, so this is lighter than a tree
/// map and iterates the same way, in node order.
#[derive(Clone, Debug)]
pub struct NodeMap<T> {
    slots: Vec<Option<T>>,
}

impl<T> Default for NodeMap<T> {
    fn default() -> Self {
        NodeMap { slots: Vec::new() }
    }
}

impl<T> NodeMap<T> {
    pub fn get(&self, n: NodeId) -> Option<&T> {
        self.slots.get(n.0).and_then(Option::as_ref)
    }

    /// Sets `n`'s value, returning the one it replaces.
    pub fn insert(&mut self, n: NodeId, value: T) -> Option<T> {
        if self.slots.len() <= n.0 {
            // Room for a run's usual few nodes at once, rather than growing node by node.
            self.slots.reserve((n.0 + 1).max(NODE_ROOM) - self.slots.len());
            self.slots.resize_with(n.0 + 1, || None);
        }
        self.slots[n.0].replace(value)
    }

    pub fn remove(&mut self, n: NodeId) -> Option<T> {
        self.slots.get_mut(n.0).and_then(Option::take)
    }

    /// Returns `n`'s value, made from `T::default()` if it has none.
    pub fn or_default(&mut self, n: NodeId) -> &mut T
    where
        T: Default,
    {
        if self.get(n).is_none() {
            self.insert(n, T::default());
        }
        self.slots[n.0].as_mut().expect("the value was just set")
    }

    /// Empties the map, keeping its room.
    pub fn emptied(mut self) -> Self {
        self.slots.clear();
        self
    }

    /// Iterates over the nodes that have a value, in node order.
    pub fn iter(&self) -> impl Iterator<Item = (NodeId, &T)> {
        self.slots.iter().enumerate().filter_map(|(i, v)| v.as_ref().map(|v| (NodeId(i), v)))
    }

    /// Iterates mutably over the nodes that have a value, in node order.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (NodeId, &mut T)> {
        self.slots.iter_mut().enumerate().filter_map(|(i, v)| v.as_mut().map(|v| (NodeId(i), v)))
    }

    /// Consumes the map, yielding the nodes that have a value, in node order.
    pub fn into_entries(self) -> impl Iterator<Item = (NodeId, T)> {
        self.slots.into_iter().enumerate().filter_map(|(i, v)| v.map(|v| (NodeId(i), v)))
    }
}

impl<T> NodeMap<Vec<T>> {
    /// Empties the map, keeping its room and each node's list's: an empty list reads as none.
    pub fn lists_emptied(mut self) -> Self {
        self.slots.iter_mut().flatten().for_each(Vec::clear);
        self
    }
}
