//! The ZooKeeper lock recipe (`zookeeper-docs` recipes): each contender creates an
//! EPHEMERAL|SEQUENTIAL znode `lock-%010d` under the lock node, lists the children, and owns the
//! lock if its sequence is the lowest; otherwise it watches only its immediate predecessor and
//! lists again when the watch fires. Sessions are kept alive by client heartbeats and expired by
//! the cluster, which then deletes the session's ephemeral znodes. The owner's znode `czxid` is
//! the fencing token. The herd variant watches the whole lock node instead, so every waiter wakes
//! on every deletion.
//!
//! Simplification, said in the lessons: the ensemble is one linearizable service.

use crate::engine::actor::{Actor, Cx, Timer};
use crate::engine::ids::NodeId;
use crate::engine::msg::Msg;
use crate::engine::trace::{EventKind, LeaseEnd};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Znode {
    holder: NodeId,
    seq: u64,
    czxid: u64,
    owner: bool,
}

/// A ZooKeeper ensemble, as one service.
pub struct ZkLock {
    session_timeout_ms: u64,
    herd: bool,
    zxid: u64,
    next_seq: u64,
    /// Live sessions: (client, expires at local ms).
    sessions: Vec<(NodeId, i64)>,
    /// Children of the lock node, in sequence order.
    children: Vec<Znode>,
    /// Waiters and the sequence they watch (`None`: the whole lock node).
    watches: Vec<(NodeId, Option<u64>)>,
}

impl ZkLock {
    /// Builds an ensemble with sessions of `session_timeout_ms`; `herd` watches the lock node.
    pub fn new(session_timeout_ms: u64, herd: bool) -> Self {
        ZkLock { session_timeout_ms, herd, zxid: 0, next_seq: 0, sessions: Vec::new(), children: Vec::new(), watches: Vec::new() }
    }

    /// Lists the children for `client`: it owns the lock if its znode is first, else it watches.
    fn check(&mut self, cx: &mut Cx, client: NodeId) {
        let Some(i) = self.children.iter().position(|z| z.holder == client) else { return };
        if i == 0 {
            let z = &mut self.children[0];
            if !z.owner {
                z.owner = true;
                let expires_local = self.sessions.iter().find(|s| s.0 == client).map_or(cx.now, |s| s.1);
                cx.note(EventKind::LeaseGranted { token: z.czxid, holder: client, expires_local });
                cx.send(client, Msg::Granted { token: z.czxid, ttl_ms: self.session_timeout_ms });
            }
            return;
        }
        let watching = if self.herd { None } else { Some(self.children[i - 1].seq) };
        self.watches.push((client, watching));
        cx.send(client, Msg::Waiting { znode: self.children[i].seq, watching });
    }

    /// Deletes a client's znode and fires the watches on it.
    fn delete(&mut self, cx: &mut Cx, client: NodeId, how: LeaseEnd) {
        let Some(i) = self.children.iter().position(|z| z.holder == client) else { return };
        let z = self.children.remove(i);
        self.zxid += 1;
        if z.owner {
            cx.note(EventKind::LeaseEnded { token: z.czxid, holder: client, how });
        }
        let (fired, kept): (Vec<_>, Vec<_>) = self.watches.drain(..).partition(|w| w.1.is_none_or(|seq| seq == z.seq));
        self.watches = kept;
        for (watcher, _) in fired {
            cx.send(watcher, Msg::WatchFired { deleted: z.seq });
        }
    }

    fn expire_sessions(&mut self, cx: &mut Cx) {
        let due: Vec<NodeId> = self.sessions.iter().filter(|s| cx.now >= s.1).map(|s| s.0).collect();
        for client in due {
            self.sessions.retain(|s| s.0 != client);
            self.watches.retain(|w| w.0 != client);
            self.delete(cx, client, LeaseEnd::Expired);
        }
    }
}

impl Actor for ZkLock {
    fn on_start(&mut self, _cx: &mut Cx) {}

    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &Msg) {
        self.expire_sessions(cx);
        let session = self.sessions.iter().position(|s| s.0 == from);
        match *msg {
            Msg::Acquire { .. } if self.children.iter().any(|z| z.holder == from) => {}
            Msg::Acquire { .. } => {
                let expires = cx.now + self.session_timeout_ms as i64;
                match session {
                    Some(i) => self.sessions[i].1 = expires,
                    None => self.sessions.push((from, expires)),
                }
                cx.at(Timer::LeaseExpiry(from.0 as u64), expires);
                self.zxid += 1;
                self.children.push(Znode { holder: from, seq: self.next_seq, czxid: self.zxid, owner: false });
                self.next_seq += 1;
                self.check(cx, from);
            }
            Msg::Relist => self.check(cx, from),
            // A heartbeat keeps the session alive; after expiry the client is told so.
            Msg::KeepAlive => match session {
                Some(i) => {
                    self.sessions[i].1 = cx.now + self.session_timeout_ms as i64;
                    cx.at(Timer::LeaseExpiry(from.0 as u64), self.sessions[i].1);
                    cx.send(from, Msg::Renewed { token: 0, ttl_ms: self.session_timeout_ms });
                }
                None => cx.send(from, Msg::SessionExpired),
            },
            Msg::Release { token, .. } => {
                let mine = self.children.iter().any(|z| z.holder == from && z.czxid == token);
                if mine {
                    self.delete(cx, from, LeaseEnd::Released);
                }
                cx.send(from, Msg::ReleaseResult { token, released: mine });
            }
            _ => {}
        }
    }

    fn on_timer(&mut self, cx: &mut Cx, timer: Timer) {
        if let Timer::LeaseExpiry(_) = timer {
            self.expire_sessions(cx);
        }
    }

    fn on_crash(&mut self, _cx: &mut Cx) {}

    fn on_restart(&mut self, cx: &mut Cx, _keep_state: bool) {
        // The ensemble's state is replicated: it survives one member's restart.
        for &(client, expires) in &self.sessions {
            cx.at(Timer::LeaseExpiry(client.0 as u64), expires);
        }
    }
}

/// Formats a sequential znode's name, as ZooKeeper does: `lock-` and ten digits.
pub fn znode_name(seq: u64) -> String {
    format!("lock-{seq:010}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::msg::ReleaseMode;
    use crate::engine::lock::testing::{self, sent};

    fn call(node: &mut ZkLock, now: i64, from: usize, msg: Msg) -> Vec<(usize, Msg)> {
        sent(&testing::call(node, now, from, msg))
    }

    fn acquire() -> Msg {
        Msg::Acquire { value: 0, px_ms: None }
    }

    #[test]
    fn each_waiter_watches_its_predecessor_and_one_wakes_per_release() {
        let mut zk = ZkLock::new(1000, false);
        assert_eq!(call(&mut zk, 0, 1, acquire()), vec![(1, Msg::Granted { token: 1, ttl_ms: 1000 })]);
        assert_eq!(call(&mut zk, 1, 2, acquire()), vec![(2, Msg::Waiting { znode: 1, watching: Some(0) })]);
        assert_eq!(call(&mut zk, 2, 3, acquire()), vec![(3, Msg::Waiting { znode: 2, watching: Some(1) })]);
        let out = call(&mut zk, 10, 1, Msg::Release { token: 1, value: 0, mode: ReleaseMode::Safe });
        assert_eq!(out[0], (2, Msg::WatchFired { deleted: 0 }), "only the successor wakes");
        assert_eq!(out.len(), 2);
        // The woken client lists again and finds itself first; its czxid (2) is its token.
        assert_eq!(call(&mut zk, 11, 2, Msg::Relist), vec![(2, Msg::Granted { token: 2, ttl_ms: 1000 })]);
    }

    #[test]
    fn the_herd_variant_wakes_every_waiter() {
        let mut zk = ZkLock::new(1000, true);
        for c in 1..=4 {
            call(&mut zk, c as i64, c, acquire());
        }
        let out = call(&mut zk, 10, 1, Msg::Release { token: 1, value: 0, mode: ReleaseMode::Safe });
        let woken: Vec<usize> = out.iter().filter(|(_, m)| matches!(m, Msg::WatchFired { .. })).map(|(to, _)| *to).collect();
        assert_eq!(woken, vec![2, 3, 4]);
    }

    #[test]
    fn the_cluster_expires_a_silent_session_and_deletes_its_znode() {
        let mut zk = ZkLock::new(1000, false);
        call(&mut zk, 0, 1, acquire());
        call(&mut zk, 0, 2, acquire());
        call(&mut zk, 900, 2, Msg::KeepAlive);
        let out = call(&mut zk, 1000, 2, Msg::KeepAlive);
        assert!(out.contains(&(2, Msg::WatchFired { deleted: 0 })));
        // Client 1 learns of the expiry only when it next talks to the ensemble.
        assert_eq!(call(&mut zk, 1500, 1, Msg::KeepAlive), vec![(1, Msg::SessionExpired)]);
    }

    #[test]
    fn znodes_are_named_with_ten_digits() {
        assert_eq!(znode_name(7), "lock-0000000007");
    }
}
