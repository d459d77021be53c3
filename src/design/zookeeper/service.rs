//! The ensemble: sessions and their expiry, the ephemeral sequential znodes, and the watches.

use super::ZkMsg;
use crate::engine::actor::{Actor, Cx, Timer};
use crate::engine::event::{EventKind, LockEnd};
use crate::engine::ids::NodeId;
use crate::engine::msg::Msg;
use crate::engine::time::{LocalMillis, Millis};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Znode {
    holder: NodeId,
    seq: u64,
    czxid: u64,
    owner: bool,
}

/// A ZooKeeper ensemble, as one service.
#[derive(Clone, Hash)]
pub struct Ensemble {
    tick_ms: Millis,
    session_timeout_ms: Millis,
    herd: bool,
    zxid: u64,
    next_seq: u64,
    /// Live sessions: (client, expires at local ms).
    sessions: Vec<(NodeId, LocalMillis)>,
    /// Clients whose session expired.
    expired: Vec<NodeId>,
    /// Children of the lock node, in sequence order.
    children: Vec<Znode>,
    /// Waiters and the sequence they watch (`None`: the whole lock node).
    watches: Vec<(NodeId, Option<u64>)>,
}

impl Ensemble {
    /// Builds an ensemble ticking every `tick_ms`, with sessions of `session_timeout_ms`; `herd`
    /// watches the lock node.
    pub fn new(tick_ms: Millis, session_timeout_ms: Millis, herd: bool) -> Self {
        let tick_ms = tick_ms.max(Millis::from_ms(1));
        Ensemble {
            tick_ms,
            session_timeout_ms,
            herd,
            zxid: 0,
            next_seq: 0,
            sessions: Vec::new(),
            expired: Vec::new(),
            children: Vec::new(),
            watches: Vec::new(),
        }
    }

    /// Hearing from a client keeps its session alive: it now expires at the first tick after a
    /// whole timeout from now, as ZooKeeper's session tracker rounds it.
    fn touch(&mut self, cx: &mut Cx, client: NodeId) {
        let tick = LocalMillis::perfect(self.tick_ms).as_ms();
        let expires = LocalMillis::from_ms(((cx.now + self.session_timeout_ms).as_ms() / tick + 1) * tick);
        match self.sessions.iter_mut().find(|s| s.0 == client) {
            Some(s) => s.1 = expires,
            None => self.sessions.push((client, expires)),
        }
        cx.at(Timer::Expiry(client.0 as u64), expires);
    }

    /// Lists the children for `client`: it owns the lock if its znode is first, else it watches.
    fn check(&mut self, cx: &mut Cx, client: NodeId) {
        let Some(i) = self.children.iter().position(|z| z.holder == client) else { return };
        if i == 0 {
            let z = &mut self.children[0];
            if !z.owner {
                z.owner = true;
                let expires_local = self.sessions.iter().find(|s| s.0 == client).map_or(cx.now, |s| s.1);
                cx.note(EventKind::LockGranted { holder: client, token: z.czxid, expires_local: Some(expires_local) });
            }
            return cx.send(client, Msg::lock(ZkMsg::Owner { seq: z.seq, czxid: z.czxid }));
        }
        let watching = if self.herd { None } else { Some(self.children[i - 1].seq) };
        self.watches.push((client, watching));
        cx.send(client, Msg::lock(ZkMsg::Waiting { seq: self.children[i].seq, watching }));
    }

    /// Deletes a client's znode and fires the watches on it.
    fn delete(&mut self, cx: &mut Cx, client: NodeId, how: LockEnd) {
        let Some(i) = self.children.iter().position(|z| z.holder == client) else { return };
        let z = self.children.remove(i);
        self.zxid += 1;
        if z.owner {
            cx.note(EventKind::LockEnded { holder: client, token: z.czxid, how });
        }
        let (fired, kept): (Vec<_>, Vec<_>) = self.watches.drain(..).partition(|w| w.1.is_none_or(|seq| seq == z.seq));
        self.watches = kept;
        for (watcher, _) in fired {
            cx.send(watcher, Msg::lock(ZkMsg::WatchFired { deleted: z.seq }));
        }
    }

    fn expire_sessions(&mut self, cx: &mut Cx) {
        let due: Vec<NodeId> = self.sessions.iter().filter(|s| cx.now >= s.1).map(|s| s.0).collect();
        for client in due {
            self.sessions.retain(|s| s.0 != client);
            self.expired.push(client);
            self.watches.retain(|w| w.0 != client);
            self.delete(cx, client, LockEnd::Expired);
        }
    }

    fn handle(&mut self, cx: &mut Cx, from: NodeId, msg: &ZkMsg) {
        let live = self.sessions.iter().any(|s| s.0 == from);
        // A client opens its session with its first request; once expired, a session is dead
        // and everything sent on it fails (a new one would be needed).
        if !live && (self.expired.contains(&from) || *msg != ZkMsg::Create) {
            return cx.send(from, Msg::lock(ZkMsg::SessionExpired));
        }
        self.touch(cx, from);
        match *msg {
            // The recipe's lock is not reentrant: a second create from a session with a znode
            // makes one that waits behind its own first, for ever. (The model does not keep that
            // second znode; nothing could ever reach it.)
            ZkMsg::Create if let Some(own) = self.children.iter().find(|z| z.holder == from).map(|z| z.seq) => {
                self.zxid += 1;
                let seq = self.next_seq;
                self.next_seq += 1;
                cx.send(from, Msg::lock(ZkMsg::Waiting { seq, watching: Some(own) }));
            }
            ZkMsg::Create => {
                self.zxid += 1;
                let seq = self.next_seq;
                self.children.push(Znode { holder: from, seq, czxid: self.zxid, owner: false });
                self.next_seq += 1;
                // Watches on the lock node's children fire on a new child too; each is spent.
                let (fired, kept): (Vec<_>, Vec<_>) = self.watches.drain(..).partition(|w| w.1.is_none());
                self.watches = kept;
                for (watcher, _) in fired {
                    cx.send(watcher, Msg::lock(ZkMsg::ChildAdded { created: seq }));
                }
                self.check(cx, from);
            }
            ZkMsg::GetChildren => self.check(cx, from),
            ZkMsg::Ping => cx.send(from, Msg::lock(ZkMsg::Pong)),
            ZkMsg::Delete { seq } => {
                let mine = self.children.iter().any(|z| z.holder == from && z.seq == seq);
                if mine {
                    self.delete(cx, from, LockEnd::Released);
                }
                cx.send(from, Msg::lock(ZkMsg::Deleted { done: mine }));
            }
            ZkMsg::Owner { .. }
            | ZkMsg::Waiting { .. }
            | ZkMsg::WatchFired { .. }
            | ZkMsg::ChildAdded { .. }
            | ZkMsg::Pong
            | ZkMsg::SessionExpired
            | ZkMsg::Deleted { .. } => {}
        }
    }
}

impl Actor for Ensemble {
    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &Msg) {
        self.expire_sessions(cx);
        if let Msg::Lock { msg } = msg {
            if let Some(msg) = msg.get::<ZkMsg>() {
                self.handle(cx, from, msg);
            }
        }
    }

    fn on_timer(&mut self, cx: &mut Cx, timer: Timer) {
        if let Timer::Expiry(_) = timer {
            self.expire_sessions(cx);
        }
    }

    fn on_restart(&mut self, cx: &mut Cx, _keep_state: bool) {
        // The ensemble's state is replicated: it survives one member's restart.
        for &(client, expires) in &self.sessions {
            cx.at(Timer::Expiry(client.0 as u64), expires);
        }
    }
}
