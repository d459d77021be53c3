//! PostgreSQL behind PgBouncer in transaction pooling mode: each statement a client sends outside
//! a transaction runs on whichever server connection is free, the most recently used first
//! (PgBouncer's default, `server_round_robin = 0`), and the connection goes back to the pool when
//! the statement's transaction ends. A session-level advisory lock belongs to the server
//! connection that took it, not to the client: another client whose statement lands on that
//! connection finds the lock already its session's and stacks onto it, and a client's unlock may
//! land on a connection that holds nothing. PgBouncer's documentation lists session-level
//! advisory locks among the features transaction pooling breaks.
//!
//! Simplifications, said in the lesson: server connections never close, and a blocked lock call
//! keeps its connection until the lock is free.

use super::pg_wire::PgMsg;
use crate::engine::actor::{Actor, Cx, Timer};
use crate::engine::event::{EventKind, LockEnd};
use crate::engine::ids::NodeId;
use crate::engine::msg::Msg;
use std::collections::VecDeque;

/// A server connection, by its place in the pool.
type Conn = usize;

/// The lock as PostgreSQL sees it: which server connection's session holds it, how many times,
/// and the clients whose lock calls returned on it.
#[derive(Clone, Hash)]
struct Held {
    conn: Conn,
    count: u32,
    clients: Vec<NodeId>,
}

/// PgBouncer and the PostgreSQL server behind it, holding one advisory lock key.
#[derive(Clone, Hash)]
pub struct PooledServer {
    /// Free server connections; the last is the most recently used.
    idle: Vec<Conn>,
    held: Option<Held>,
    /// Lock calls blocked behind the holder, each on its own server connection.
    waiters: VecDeque<(NodeId, Conn)>,
    /// Statements that found no free server connection, in arrival order.
    queued: VecDeque<(NodeId, PgMsg)>,
}

impl PooledServer {
    /// Builds a pool of `size` server connections.
    pub fn new(size: usize) -> Self {
        PooledServer { idle: (0..size).rev().collect(), held: None, waiters: VecDeque::new(), queued: VecDeque::new() }
    }

    /// Gives a connection back to the pool, and runs a statement that waited for one.
    fn put_back(&mut self, cx: &mut Cx, conn: Conn) {
        self.idle.push(conn);
        if let Some((client, msg)) = self.queued.pop_front() {
            self.run(cx, client, &msg);
        }
    }

    fn grant(&mut self, cx: &mut Cx, client: NodeId, conn: Conn) {
        match self.held.as_mut() {
            Some(h) => {
                h.count += 1;
                h.clients.push(client);
            }
            None => self.held = Some(Held { conn, count: 1, clients: vec![client] }),
        }
        cx.note(EventKind::LockGranted { holder: client, token: 0, expires_local: None });
        cx.send(client, Msg::lock(PgMsg::Locked));
        self.put_back(cx, conn);
    }

    /// Runs one statement on the most recently used free connection, or queues it.
    fn run(&mut self, cx: &mut Cx, client: NodeId, msg: &PgMsg) {
        let Some(conn) = self.idle.pop() else {
            return self.queued.push_back((client, msg.clone()));
        };
        match msg {
            PgMsg::Lock => match &self.held {
                Some(h) if h.conn != conn => {
                    // Blocked: the statement keeps its connection until the lock is free.
                    self.waiters.push_back((client, conn));
                    cx.send(client, Msg::lock(PgMsg::Waiting));
                }
                // Free, or held by this very connection's session: requests stack.
                _ => self.grant(cx, client, conn),
            },
            PgMsg::Unlock | PgMsg::Commit => {
                // COMMIT never releases a session-level lock; an unlock only on the session that holds it.
                let commit = *msg == PgMsg::Commit;
                let done = !commit && self.held.as_ref().is_some_and(|h| h.conn == conn);
                if done {
                    self.unlock_once(cx);
                }
                cx.send(client, Msg::lock(PgMsg::Unlocked { done, commit }));
                self.put_back(cx, conn);
            }
            PgMsg::KeepAlive => {
                cx.send(client, Msg::lock(PgMsg::Alive));
                self.put_back(cx, conn);
            }
            PgMsg::Locked | PgMsg::Waiting | PgMsg::Alive | PgMsg::SessionEnded | PgMsg::Unlocked { .. } => self.put_back(cx, conn),
        }
    }

    /// Takes one level off the lock; at none it is free and the first blocked call gets it.
    fn unlock_once(&mut self, cx: &mut Cx) {
        let Some(h) = self.held.as_mut() else { return };
        h.count -= 1;
        if h.count > 0 {
            return;
        }
        for holder in std::mem::take(&mut h.clients) {
            cx.note(EventKind::LockEnded { holder, token: 0, how: LockEnd::Released });
        }
        self.held = None;
        if let Some((client, conn)) = self.waiters.pop_front() {
            self.grant(cx, client, conn);
        }
    }
}

impl Actor for PooledServer {
    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &Msg) {
        if let Msg::Lock { msg } = msg {
            if let Some(msg) = msg.get::<PgMsg>() {
                self.run(cx, from, msg);
            }
        }
    }

    fn on_timer(&mut self, _cx: &mut Cx, _timer: Timer) {}

    fn on_restart(&mut self, cx: &mut Cx, _keep_state: bool) {
        // A restarted server has no sessions: the lock is gone and blocked calls fail.
        let size = self.idle.len() + self.waiters.len();
        for (client, _) in std::mem::take(&mut self.waiters) {
            cx.send(client, Msg::lock(PgMsg::SessionEnded));
        }
        if let Some(h) = self.held.take() {
            for holder in h.clients {
                cx.note(EventKind::LockEnded { holder, token: 0, how: LockEnd::LostOnRestart });
            }
        }
        self.idle = (0..size).rev().collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::actor::testing::{call, sent};

    fn say(s: &mut PooledServer, now: i64, from: usize, msg: PgMsg) -> Vec<(usize, Msg)> {
        sent(&call(s, now, from, Msg::lock(msg)))
    }

    #[test]
    fn a_second_client_on_the_holders_connection_stacks_onto_its_lock() {
        let mut s = PooledServer::new(2);
        assert_eq!(say(&mut s, 0, 1, PgMsg::Lock), vec![(1, Msg::lock(PgMsg::Locked))]);
        // The most recently used connection is the holder's: client 2's lock call returns at once.
        assert_eq!(say(&mut s, 10, 2, PgMsg::Lock), vec![(2, Msg::lock(PgMsg::Locked))]);
        let unlocked = Msg::lock(PgMsg::Unlocked { done: true, commit: false });
        assert_eq!(say(&mut s, 20, 1, PgMsg::Unlock), vec![(1, unlocked.clone())]);
        assert_eq!(say(&mut s, 30, 2, PgMsg::Unlock), vec![(2, unlocked)]);
        assert!(s.held.is_none(), "two unlocks undo two stacked locks");
    }

    #[test]
    fn a_call_on_another_connection_blocks_and_an_unlock_there_frees_nothing() {
        let mut s = PooledServer::new(2);
        say(&mut s, 0, 1, PgMsg::Lock);
        // Client 3 keeps the holder's connection busy, so client 2's call lands on the other one.
        s.idle.retain(|&c| c != s.held.as_ref().map_or(9, |h| h.conn));
        assert_eq!(say(&mut s, 10, 2, PgMsg::Lock), vec![(2, Msg::lock(PgMsg::Waiting))]);
        assert!(s.idle.is_empty(), "the blocked call keeps its connection");
        assert_eq!(say(&mut s, 20, 1, PgMsg::KeepAlive), vec![], "no free connection: the statement waits");
    }
}
