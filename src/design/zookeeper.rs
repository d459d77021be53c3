//! The ZooKeeper lock recipe (`zookeeper-docs` recipes): each contender creates an
//! EPHEMERAL|SEQUENTIAL znode `lock-%010d` under the lock node, lists the children, and owns the
//! lock if its sequence is the lowest; otherwise it watches only its immediate predecessor and
//! lists again when the watch fires. Sessions are kept alive by client heartbeats and expired by
//! the ensemble, which then deletes the session's ephemeral znodes. The owner's znode `czxid` is
//! the fencing token. The herd variant watches the whole lock node instead, so every waiter wakes
//! on every deletion.
//!
//! Simplification, said in the lessons: the ensemble is one linearizable service.

use super::param::{choice, settings};
use super::{Design, Factory, Guarantees, Kind, LockKind, Row, Rows, Services, Settings, Summary, Values};
use crate::engine::actor::{Actor, Cx, Timer};
use crate::engine::event::{EventKind, LockEnd};
use crate::engine::ids::NodeId;
use crate::engine::msg::{DesignMsg, LockMsg, Msg, MsgKind, ReleaseMode};
use crate::engine::protocol::{ClientView, LockClient, Progress, Protocol, Release};
use crate::engine::spec::ResourceMode;
use crate::error::ScenarioError;
use crate::present::number::{group, local, ms};
use crate::present::{Names, Vocabulary};
use serde::Serialize;
use std::rc::Rc;

/// The registry entry.
pub struct Zookeeper;

choice! {
    /// What a waiting contender watches.
    pub enum Watch {
        /// each waiter watches only the znode just before its own (the recipe)
        Predecessor = "predecessor",
        /// every waiter watches the whole lock node (the herd effect)
        LockNode = "lock_node",
    }
}

settings! {
    /// How the ZooKeeper recipe is set up.
    pub struct ZookeeperSettings {
        required {
            /// The ensemble's basic time unit; session timeouts are 2 to 20 ticks.
            tick_time_ms: u64 = number("ms", 1..=60_000),
            /// How long the ensemble waits without a heartbeat before expiring a session.
            session_timeout_ms: u64 = number("ms", 1..=1_200_000),
        }
        /// What a waiting contender watches.
        watch: Watch = choice(Watch::Predecessor),
    }
}

/// The design as the registry lists it.
static SUMMARY: Summary = Summary::of::<ZookeeperSettings>(
    "zookeeper",
    "ZooKeeper lock recipe",
    "Ephemeral sequential znodes: the lowest owns the lock, each waiter watches its predecessor, the owner's czxid fences.",
);

impl Factory for ZookeeperSettings {
    fn build(&self) -> Result<Rc<dyn Design>, ScenarioError> {
        let (tick, timeout) = (self.tick_time_ms, self.session_timeout_ms);
        // The server clamps what a client asks for to 2..=20 ticks; a scenario must say what it gets.
        if timeout < 2 * tick || timeout > 20 * tick {
            return Err(ScenarioError::new(
                Self::session_timeout_ms.path(),
                format!("must be between {} and {} (2 to 20 ticks of {tick} ms), got {timeout}", 2 * tick, 20 * tick),
            ));
        }
        Ok(Rc::new(ZkDesign { values: self.to_values(), tick_ms: tick, session_timeout_ms: timeout, herd: self.watch == Watch::LockNode }))
    }
}

impl Kind for Zookeeper {
    fn summary(&self) -> &'static Summary {
        &SUMMARY
    }

    fn rows(&self, ttl_ms: u64) -> Vec<Row> {
        // A session timeout must be 2 to 20 ticks: 100 ms ticks where that fits, longer or
        // shorter ones where it does not, and at most 20 ticks of a minute.
        let session = ttl_ms.clamp(2, 1_200_000);
        let tick = (session / 2).min(100).max(session.div_ceil(20));
        let design = ZookeeperSettings::new(tick, session).configure();
        let rows = Rows { design, services: 1, service_name: "ZooKeeper", elapsed_timers: true };
        vec![
            rows.row("zookeeper", "ZooKeeper recipe", "czxid, unchecked", Some(ResourceMode::Unfenced)),
            rows.row("zookeeper-fenced", "ZooKeeper + czxid check", "czxid of the lock znode", Some(ResourceMode::Fenced)),
        ]
    }
}

/// The ZooKeeper recipe, configured.
#[derive(Debug)]
pub struct ZkDesign {
    values: Values,
    tick_ms: u64,
    session_timeout_ms: u64,
    herd: bool,
}

impl Protocol for ZkDesign {
    fn service(&self, _index: usize, _nodes: &[NodeId]) -> Option<Box<dyn Actor>> {
        Some(Box::new(Ensemble::new(self.tick_ms, self.session_timeout_ms, self.herd)))
    }

    fn client(&self, nodes: &[NodeId]) -> Option<Box<dyn LockClient>> {
        Some(Box::new(ZkClient {
            ensemble: nodes[0],
            session_timeout_ms: self.session_timeout_ms,
            seq: None,
            acquire_sent_at: 0,
            renew_sent_at: 0,
        }))
    }
}

impl Design for ZkDesign {
    fn kind(&self) -> &'static dyn Kind {
        &Zookeeper
    }

    fn values(&self) -> &Values {
        &self.values
    }

    fn guarantees(&self) -> Guarantees {
        Guarantees {
            lock: LockKind::Correctness,
            safety: "The ensemble orders contenders by sequence number and deletes a session's ephemeral znode when it expires the session, so at most one live session owns the lock. A client that has lost its session may not know yet; the znode's czxid, checked at the resource, fences it.".into(),
            liveness: format!(
                "If a holder dies, the ensemble expires its session after the session timeout ({}), deletes its znode, and the next contender's watch fires.",
                ms(self.session_timeout_ms)
            ),
            assumes: "The resource checks the czxid it is given. The model treats the ensemble as one linearizable service.".into(),
        }
    }

    fn services(&self) -> Services {
        Services { count: 1..=1, what: "one ensemble" }
    }

    fn release_modes(&self) -> &'static [ReleaseMode] {
        &[ReleaseMode::Safe]
    }
}

/// Formats a sequential znode's name, as ZooKeeper does: `lock-` and ten digits.
pub fn znode_name(seq: u64) -> String {
    format!("lock-{seq:010}")
}

impl Vocabulary for ZkDesign {
    fn token(&self, token: u64) -> Option<String> {
        Some(format!("czxid {token}"))
    }

    fn lock(&self, token: u64) -> String {
        format!("the znode (czxid {token})")
    }

    fn how_ended(&self, how: LockEnd) -> &'static str {
        match how {
            LockEnd::Expired => "session expired",
            LockEnd::Released => "deleted by its owner",
            LockEnd::DeletedByOther => "deleted by another client",
            LockEnd::LostOnRestart | LockEnd::Resynced => "lost on restart",
            LockEnd::Replaced => "replaced",
        }
    }

    fn label(&self, msg: &LockMsg, _names: Names) -> String {
        let Some(msg) = msg.get::<ZkMsg>() else { return String::new() };
        match *msg {
            ZkMsg::Create => "create lock- (ephemeral, sequential)".into(),
            ZkMsg::Owner { seq, .. } => format!("{} is first: you own the lock", znode_name(seq)),
            ZkMsg::Waiting { seq, watching: Some(w) } => format!("{} not first; watch {}", znode_name(seq), znode_name(w)),
            ZkMsg::Waiting { seq, watching: None } => format!("{} not first; watch the lock node", znode_name(seq)),
            ZkMsg::WatchFired { deleted } => format!("watch fired: {} deleted", znode_name(deleted)),
            ZkMsg::ChildAdded { created } => format!("watch fired: {} created", znode_name(created)),
            ZkMsg::GetChildren => "getChildren".into(),
            ZkMsg::Ping => "heartbeat".into(),
            ZkMsg::Pong => "session alive".into(),
            ZkMsg::SessionExpired => "session expired".into(),
            ZkMsg::Delete { seq } => format!("delete {}", znode_name(seq)),
            ZkMsg::Deleted { done: true } => "deleted".into(),
            ZkMsg::Deleted { done: false } => "no such znode".into(),
        }
    }

    fn sending(&self, msg: &LockMsg, me: &str, to: &str, _names: Names) -> String {
        let Some(msg) = msg.get::<ZkMsg>() else { return String::new() };
        match *msg {
            ZkMsg::Create => format!("{me} asks {to} to create an ephemeral, sequential znode under the lock node."),
            ZkMsg::Owner { seq, czxid } => format!(
                "{me} answers {to} with its new znode {} and the lock node's children: it is the lowest, so {to}, following the recipe, owns the lock; the znode's czxid is {czxid}.",
                znode_name(seq)
            ),
            ZkMsg::Waiting { seq, watching: Some(w) } => format!(
                "{me} answers {to} with its new znode {} and the lock node's children: it is not the lowest, so {to}, following the recipe, watches {}, the znode just before its own, and waits.",
                znode_name(seq),
                znode_name(w)
            ),
            ZkMsg::Waiting { seq, watching: None } => {
                format!(
                    "{me} answers {to} with its new znode {} and the lock node's children: it is not the lowest, so {to} watches the whole lock node and waits.",
                    znode_name(seq)
                )
            }
            ZkMsg::WatchFired { deleted } => format!("{me} notifies {to} that {} was deleted: its watch fires.", znode_name(deleted)),
            ZkMsg::ChildAdded { created } => format!(
                "{me} notifies {to} that {} was created under the lock node: a watch on the children fires for any change, not only when a holder leaves. It fires once; {to} sets it again when it lists the children.",
                znode_name(created)
            ),
            ZkMsg::GetChildren => format!("{me} lists the lock node's children on {to} again, to see whether it is now first."),
            ZkMsg::Ping => format!("{me} sends {to} a heartbeat to keep its session alive."),
            ZkMsg::Pong => format!("{me} answers {to}'s heartbeat: the session is alive."),
            ZkMsg::SessionExpired => format!("{me} tells {to}: its session has expired, and its ephemeral znode is gone."),
            ZkMsg::Delete { seq } => format!("{me} deletes its znode {} on {to}, giving the lock up.", znode_name(seq)),
            ZkMsg::Deleted { done: true } => format!("{me} answers {to}: the znode is deleted."),
            ZkMsg::Deleted { done: false } => format!("{me} answers {to}: there is no such znode (its session already ended)."),
        }
    }

    fn lasts(&self, expires_local: Option<i64>) -> String {
        match expires_local {
            Some(t) => format!("while its session lives (ending at {} without a heartbeat)", local(t)),
            None => "while its session lives".into(),
        }
    }

    fn believes(&self, until_local: Option<i64>) -> String {
        match until_local {
            Some(t) => {
                format!("as long as it thinks its session is alive: until {} on its own clock unless a heartbeat is answered", local(t))
            }
            None => "as long as its session lives".into(),
        }
    }

    fn granted(&self, me: &str, holder: &str, token: u64, expires_local: Option<i64>) -> String {
        let session = expires_local.map_or_else(String::new, |t| {
            format!(" The znode is ephemeral: it lives as long as {holder}'s session, which {me} ends when its clock reads {} unless a heartbeat arrives.", group(t))
        });
        format!("{holder}'s znode is the lowest child of the lock node: {holder} owns the lock, and its czxid, {token}, can serve as a fencing token.{session}")
    }

    fn ended(&self, me: &str, holder: &str, token: u64, how: LockEnd) -> String {
        match how {
            LockEnd::Expired => format!(
                "{me} expires {holder}'s session and deletes its ephemeral znode (czxid {token}). {holder} is not told: it learns only when it next reaches the ensemble."
            ),
            LockEnd::Released => format!("{holder}'s znode (czxid {token}) is deleted; the lock passes to the next contender."),
            LockEnd::DeletedByOther | LockEnd::LostOnRestart | LockEnd::Replaced | LockEnd::Resynced => {
                format!("{holder}'s znode (czxid {token}) is gone: {}.", self.how_ended(how))
            }
        }
    }

    fn renewal(&self) -> &'static str {
        "heartbeat"
    }

    fn expiries(&self) -> &'static str {
        "session expiries"
    }
}

/// ZooKeeper requests and replies, as the recipe uses them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum ZkMsg {
    /// `create("<locknode>/lock-", EPHEMERAL|SEQUENTIAL)`, then `getChildren()`.
    Create,
    /// Your znode is the lowest: you own the lock.
    Owner {
        seq: u64,
        czxid: u64,
    },
    /// Your znode is not first; you now watch `watching` (or, if none, the lock node).
    Waiting {
        seq: u64,
        watching: Option<u64>,
    },
    /// The znode you watched was deleted.
    WatchFired {
        deleted: u64,
    },
    /// A child was added to the lock node whose children you watch (the herd's watch fires on
    /// every change, a contender arriving as well as a holder leaving).
    ChildAdded {
        created: u64,
    },
    /// List the lock node's children again.
    GetChildren,
    /// A heartbeat keeping the session alive.
    Ping,
    Pong,
    /// That session no longer exists.
    SessionExpired,
    /// Delete my znode.
    Delete {
        seq: u64,
    },
    Deleted {
        done: bool,
    },
}

impl DesignMsg for ZkMsg {
    fn kind(&self) -> MsgKind {
        match self {
            ZkMsg::Create => MsgKind::Acquire,
            ZkMsg::GetChildren | ZkMsg::Ping | ZkMsg::Delete { .. } => MsgKind::Request,
            ZkMsg::Owner { .. } | ZkMsg::Waiting { .. } | ZkMsg::Pong | ZkMsg::Deleted { done: true } => MsgKind::Reply,
            ZkMsg::WatchFired { .. } | ZkMsg::ChildAdded { .. } => MsgKind::WakeUp,
            ZkMsg::SessionExpired | ZkMsg::Deleted { done: false } => MsgKind::Refusal,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Znode {
    holder: NodeId,
    seq: u64,
    czxid: u64,
    owner: bool,
}

/// A ZooKeeper ensemble, as one service.
pub struct Ensemble {
    tick_ms: u64,
    session_timeout_ms: u64,
    herd: bool,
    zxid: u64,
    next_seq: u64,
    /// Live sessions: (client, expires at local ms).
    sessions: Vec<(NodeId, i64)>,
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
    pub fn new(tick_ms: u64, session_timeout_ms: u64, herd: bool) -> Self {
        let tick_ms = tick_ms.max(1);
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
        let tick = self.tick_ms as i64;
        let expires = ((cx.now + self.session_timeout_ms as i64) / tick + 1) * tick;
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
                cx.send(client, Msg::lock(ZkMsg::Owner { seq: z.seq, czxid: z.czxid }));
            }
            return;
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
            ZkMsg::Create if self.children.iter().any(|z| z.holder == from) => {}
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

/// A client's side of the recipe.
struct ZkClient {
    ensemble: NodeId,
    session_timeout_ms: u64,
    /// The sequence of its znode, once the ensemble has said.
    seq: Option<u64>,
    acquire_sent_at: i64,
    renew_sent_at: i64,
}

impl LockClient for ZkClient {
    fn acquire(&mut self, cx: &mut Cx, timeout_ms: u64) {
        self.acquire_sent_at = cx.now;
        cx.send(self.ensemble, Msg::lock(ZkMsg::Create));
        cx.after(Timer::Timeout, timeout_ms);
    }

    fn on_message(&mut self, cx: &mut Cx, _from: NodeId, msg: &LockMsg, view: ClientView) -> Progress {
        let Some(msg) = msg.get::<ZkMsg>() else { return Progress::Pending };
        match *msg {
            ZkMsg::Owner { seq, czxid } => {
                self.seq = Some(seq);
                // A queued client's session was last extended by its latest heartbeat.
                let since = if view.queued { self.acquire_sent_at.max(self.renew_sent_at) } else { self.acquire_sent_at };
                Progress::Granted { token: czxid, until_local: Some(since + self.session_timeout_ms as i64) }
            }
            ZkMsg::Waiting { seq, .. } => {
                self.seq = Some(seq);
                Progress::Queued
            }
            // The watch fired: list the children again.
            ZkMsg::WatchFired { .. } | ZkMsg::ChildAdded { .. } if view.acquiring => {
                cx.send(self.ensemble, Msg::lock(ZkMsg::GetChildren));
                Progress::Pending
            }
            ZkMsg::Pong => Progress::Renewed { until_local: Some(self.renew_sent_at + self.session_timeout_ms as i64) },
            // Its delete failed with the session, whose znode is already gone.
            ZkMsg::SessionExpired if view.held.is_none() && !view.acquiring => Progress::Released,
            ZkMsg::SessionExpired => Progress::Lost,
            ZkMsg::Deleted { .. } => Progress::Released,
            ZkMsg::WatchFired { .. }
            | ZkMsg::ChildAdded { .. }
            | ZkMsg::Create
            | ZkMsg::GetChildren
            | ZkMsg::Ping
            | ZkMsg::Delete { .. } => Progress::Pending,
        }
    }

    fn on_timeout(&mut self, _cx: &mut Cx, _timeout_ms: u64) -> Progress {
        Progress::Refused
    }

    fn session_outlives_work(&self) -> bool {
        true
    }

    fn renew(&mut self, cx: &mut Cx, _held: Option<u64>) {
        self.renew_sent_at = cx.now;
        cx.send(self.ensemble, Msg::lock(ZkMsg::Ping));
    }

    fn release(&mut self, cx: &mut Cx, held: Option<u64>, _last: u64, _mode: ReleaseMode) -> Release {
        match (held, self.seq) {
            (Some(_), Some(seq)) => {
                cx.send(self.ensemble, Msg::lock(ZkMsg::Delete { seq }));
                Release::AwaitReply
            }
            (Some(_) | None, _) => Release::Nothing,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::actor::testing::{self, sent};

    fn call(node: &mut Ensemble, now: i64, from: usize, msg: ZkMsg) -> Vec<(usize, Msg)> {
        sent(&testing::call(node, now, from, Msg::lock(msg)))
    }

    fn to(client: usize, msg: ZkMsg) -> (usize, Msg) {
        (client, Msg::lock(msg))
    }

    #[test]
    fn each_waiter_watches_its_predecessor_and_one_wakes_per_release() {
        let mut zk = Ensemble::new(100, 1000, false);
        assert_eq!(call(&mut zk, 0, 1, ZkMsg::Create), vec![to(1, ZkMsg::Owner { seq: 0, czxid: 1 })]);
        assert_eq!(call(&mut zk, 1, 2, ZkMsg::Create), vec![to(2, ZkMsg::Waiting { seq: 1, watching: Some(0) })]);
        assert_eq!(call(&mut zk, 2, 3, ZkMsg::Create), vec![to(3, ZkMsg::Waiting { seq: 2, watching: Some(1) })]);
        let out = call(&mut zk, 10, 1, ZkMsg::Delete { seq: 0 });
        assert_eq!(out, vec![to(2, ZkMsg::WatchFired { deleted: 0 }), to(1, ZkMsg::Deleted { done: true })], "only the successor wakes");
        // The woken client lists again and finds itself first; its czxid (2) is its token.
        assert_eq!(call(&mut zk, 11, 2, ZkMsg::GetChildren), vec![to(2, ZkMsg::Owner { seq: 1, czxid: 2 })]);
    }

    #[test]
    fn the_herd_variant_wakes_every_waiter_on_every_change() {
        let mut zk = Ensemble::new(100, 1000, true);
        let woken = |out: Vec<(usize, Msg)>| {
            let mut w: Vec<usize> = out.iter().filter(|(_, m)| m.kind() == MsgKind::WakeUp).map(|(to, _)| *to).collect();
            w.sort_unstable();
            w
        };
        call(&mut zk, 1, 1, ZkMsg::Create);
        call(&mut zk, 2, 2, ZkMsg::Create);
        // A contender arriving fires the watch of the one waiting; a watch is spent when it fires,
        // so the woken client lists the children again, which sets it anew.
        assert_eq!(woken(call(&mut zk, 3, 3, ZkMsg::Create)), vec![2]);
        call(&mut zk, 4, 2, ZkMsg::GetChildren);
        assert_eq!(woken(call(&mut zk, 5, 4, ZkMsg::Create)), vec![2, 3]);
        call(&mut zk, 6, 2, ZkMsg::GetChildren);
        call(&mut zk, 6, 3, ZkMsg::GetChildren);
        assert_eq!(woken(call(&mut zk, 10, 1, ZkMsg::Delete { seq: 0 })), vec![2, 3, 4], "a release wakes them all");
    }

    #[test]
    fn the_ensemble_expires_a_silent_session_on_a_tick_and_deletes_its_znode() {
        let mut zk = Ensemble::new(100, 1000, false);
        call(&mut zk, 5, 1, ZkMsg::Create);
        call(&mut zk, 6, 2, ZkMsg::Create);
        // Heard at 5: due at 1,005, expired at the next tick, 1,100.
        assert!(!call(&mut zk, 1099, 2, ZkMsg::Ping).contains(&to(2, ZkMsg::WatchFired { deleted: 0 })));
        assert!(call(&mut zk, 1100, 2, ZkMsg::Ping).contains(&to(2, ZkMsg::WatchFired { deleted: 0 })));
        // Client 1 learns of the expiry only when it next talks to the ensemble, and nothing
        // more runs on that session.
        assert_eq!(call(&mut zk, 1500, 1, ZkMsg::Ping), vec![to(1, ZkMsg::SessionExpired)]);
        assert_eq!(call(&mut zk, 1600, 1, ZkMsg::Delete { seq: 0 }), vec![to(1, ZkMsg::SessionExpired)]);
        assert_eq!(call(&mut zk, 1700, 1, ZkMsg::Create), vec![to(1, ZkMsg::SessionExpired)]);
    }

    #[test]
    fn every_request_keeps_the_session_alive() {
        let mut zk = Ensemble::new(100, 1000, false);
        call(&mut zk, 0, 1, ZkMsg::Create);
        call(&mut zk, 0, 2, ZkMsg::Create);
        call(&mut zk, 900, 1, ZkMsg::GetChildren);
        assert_eq!(call(&mut zk, 1500, 1, ZkMsg::Ping), vec![to(1, ZkMsg::Pong)], "listing the children counted as a heartbeat");
    }

    #[test]
    fn znodes_are_named_with_ten_digits() {
        assert_eq!(znode_name(7), "lock-0000000007");
    }
}
