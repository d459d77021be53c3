//! etcd's concurrency `Mutex` over a lease, modelled on `client/v3/concurrency`: each contender
//! holds a session lease kept alive by the client and puts the key `prefix/<lease id>`; contenders
//! are ordered by the key's create revision; the lowest owns the lock, and each waiter waits for
//! the deletion of the key just before its own. The owner's create revision is the fencing token.
//!
//! When the protected data is a key in etcd (`data_in_etcd`), a write is a transaction
//! `If(CreateRevision(lock key) == token).Then(Put(data))`: it commits only while the writer's
//! lock key still exists with the create revision it was granted under.
//!
//! Simplifications, said in the lessons: the cluster is one linearizable service; the session
//! grant and the lock transaction are one request; a waiter's watch and its re-check of ownership
//! arrive as one notification.

use super::param::settings;
use super::{Design, Factory, Guarantees, Kind, LockKind, Row, Rows, Services, Settings, Summary, Values};
use crate::engine::actor::{Actor, Cx, Timer};
use crate::engine::event::{EventKind, LockEnd};
use crate::engine::ids::NodeId;
use crate::engine::msg::{DesignMsg, LockMsg, Msg, MsgKind, Rejection, ReleaseMode};
use crate::engine::protocol::{ClientView, LockClient, Progress, Protocol, Release};
use crate::engine::spec::ResourceMode;
use crate::error::ScenarioError;
use crate::present::number::{group, local, ms};
use crate::present::quoted::Quoted;
use crate::present::{Names, Vocabulary};
use serde::Serialize;
use std::rc::Rc;

/// The registry entry.
pub struct Etcd;

settings! {
    /// How the etcd mutex is set up.
    pub struct EtcdSettings {
        required {
            /// The session lease's TTL: how long etcd waits for a keep-alive before revoking it.
            ttl_ms: u64 = number("ms", 1..=3_600_000),
        }
        /// The revision of the first write in the run.
        first_revision: u64 = number_or("", 1..=u32::MAX as u64, 1),
        /// The protected data is a key in etcd, written by a transaction guarded by the lock key.
        data_in_etcd: bool = flag(false),
    }
}

/// The design as the registry lists it.
static SUMMARY: Summary = Summary::of::<EtcdSettings>(
    "etcd",
    "etcd mutex",
    "Keys under a prefix attached to session leases: the lowest create revision owns the lock and is its fencing token.",
);

impl Factory for EtcdSettings {
    fn build(&self) -> Result<Rc<dyn Design>, ScenarioError> {
        Ok(Rc::new(EtcdDesign {
            values: self.to_values(),
            ttl_ms: self.ttl_ms,
            first_revision: self.first_revision,
            data_in_etcd: self.data_in_etcd,
        }))
    }
}

impl Kind for Etcd {
    fn summary(&self) -> &'static Summary {
        &SUMMARY
    }

    fn rows(&self, ttl_ms: u64) -> Vec<Row> {
        let rows = |data_in_etcd| Rows {
            design: EtcdSettings { first_revision: 33, data_in_etcd, ..EtcdSettings::new(ttl_ms) }.configure(),
            services: 1,
            service_name: "etcd",
            elapsed_timers: true,
        };
        let separate = rows(false);
        vec![
            separate.row("etcd", "etcd mutex", "create revision, unchecked", Some(ResourceMode::Unfenced)),
            separate.row("etcd-fenced", "etcd + revision check", "create revision", Some(ResourceMode::Fenced)),
            rows(true).row("etcd-txn", "etcd, data in etcd (txn guard)", "create revision, compared in the txn", None),
        ]
    }
}

/// The etcd mutex, configured.
#[derive(Debug)]
pub struct EtcdDesign {
    values: Values,
    ttl_ms: u64,
    first_revision: u64,
    data_in_etcd: bool,
}

impl Protocol for EtcdDesign {
    fn service(&self, _index: usize, _nodes: &[NodeId]) -> Option<Box<dyn Actor>> {
        Some(Box::new(EtcdNode::new(self.ttl_ms, self.first_revision)))
    }

    fn client(&self, nodes: &[NodeId]) -> Option<Box<dyn LockClient>> {
        Some(Box::new(EtcdClient { etcd: nodes[0], ttl_ms: self.ttl_ms, acquire_sent_at: 0, renew_sent_at: 0 }))
    }

    fn data_in_service(&self) -> bool {
        self.data_in_etcd
    }
}

impl Design for EtcdDesign {
    fn kind(&self) -> &'static dyn Kind {
        &Etcd
    }

    fn values(&self) -> &Values {
        &self.values
    }

    fn guarantees(&self) -> Guarantees {
        let safety = if self.data_in_etcd {
            "The write and the lock check are one transaction: it commits only while the writer's lock key still exists with its create revision, so a writer whose session expired cannot commit."
        } else {
            "Contenders are ordered by create revision and a key dies with its session lease, so at most one live session owns the lock. A holder whose lease expired may not know yet; the create revision, checked at the resource, fences it."
        };
        Guarantees {
            lock: LockKind::Correctness,
            safety: safety.into(),
            liveness: format!(
                "If a holder dies, its session lease expires after {} without a keep-alive, its key is deleted and the next waiter owns the lock.",
                ms(self.ttl_ms)
            ),
            assumes: if self.data_in_etcd {
                "The data lives in etcd and every write goes through the guarded transaction.".into()
            } else {
                "The resource checks the revision it is given; etcd alone cannot stop a stale client from writing to another system.".into()
            },
        }
    }

    fn services(&self) -> Services {
        Services { count: 1..=1, what: "one etcd cluster" }
    }

    fn release_modes(&self) -> &'static [ReleaseMode] {
        &[ReleaseMode::Safe]
    }
}

impl Vocabulary for EtcdDesign {
    fn token(&self, token: u64) -> Option<String> {
        Some(format!("revision {token}"))
    }

    fn lock(&self, token: u64) -> String {
        format!("the lock key (revision {token})")
    }

    fn how_ended(&self, how: LockEnd) -> &'static str {
        match how {
            LockEnd::Expired => "session lease expired",
            LockEnd::Released => "unlocked",
            LockEnd::DeletedByOther => "deleted by another client",
            LockEnd::LostOnRestart | LockEnd::Resynced => "lost on restart",
            LockEnd::Replaced => "replaced",
        }
    }

    fn label(&self, msg: &LockMsg, _names: Names) -> String {
        let Some(msg) = msg.get::<EtcdMsg>() else { return String::new() };
        match *msg {
            EtcdMsg::Lock => "lock: put key with session lease".into(),
            EtcdMsg::Owner { revision } => format!("owner: create revision {revision}"),
            EtcdMsg::Queued { revision, behind } => format!("queued at revision {revision}, watching {behind}"),
            EtcdMsg::KeepAlive => "lease keep-alive".into(),
            EtcdMsg::KeptAlive { ttl_ms } => format!("lease TTL {}", ms(ttl_ms)),
            EtcdMsg::LeaseNotFound => "lease not found".into(),
            EtcdMsg::Unlock { revision } => format!("unlock: delete key (revision {revision})"),
            EtcdMsg::Unlocked { done: true } => "deleted".into(),
            EtcdMsg::Unlocked { done: false } => "no such key".into(),
        }
    }

    fn sending(&self, msg: &LockMsg, me: &str, to: &str, _names: Names) -> String {
        let Some(msg) = msg.get::<EtcdMsg>() else { return String::new() };
        match *msg {
            EtcdMsg::Lock => format!("{me} asks {to} to lock: grant a session lease and put its key under the lock prefix, attached to that lease."),
            EtcdMsg::Owner { revision } => format!(
                "{me} answers {to}: its key has the lowest create revision, {revision}, so {to} owns the lock; the revision is its fencing token."
            ),
            EtcdMsg::Queued { revision, behind } => format!(
                "{me} answers {to}: its key has create revision {revision}; {to} waits for the key with revision {behind}, just before its own, to be deleted."
            ),
            EtcdMsg::KeepAlive => format!("{me} sends {to} a keep-alive for its session lease."),
            EtcdMsg::KeptAlive { ttl_ms } => format!("{me} answers {to}: the session lease runs another {}.", ms(ttl_ms)),
            EtcdMsg::LeaseNotFound => format!("{me} answers {to}: lease not found; its session has expired and its key is gone."),
            EtcdMsg::Unlock { revision } => format!("{me} unlocks on {to}: delete its lock key (revision {revision})."),
            EtcdMsg::Unlocked { done: true } => format!("{me} answers {to}: the key is deleted."),
            EtcdMsg::Unlocked { done: false } => format!("{me} answers {to}: there is no such key (its session already ended)."),
        }
    }

    fn lasts(&self, expires_local: Option<i64>) -> String {
        match expires_local {
            Some(t) => format!("while its session lease lives (ending at {} without a keep-alive)", local(t)),
            None => "while its session lease lives".into(),
        }
    }

    fn believes(&self, until_local: Option<i64>) -> String {
        match until_local {
            Some(t) => format!(
                "as long as it thinks its session lease is alive: until {} on its own clock unless a keep-alive is answered",
                local(t)
            ),
            None => "as long as its session lease lives".into(),
        }
    }

    fn granted(&self, me: &str, holder: &str, token: u64, expires_local: Option<i64>) -> String {
        let lease = expires_local.map_or_else(String::new, |t| {
            format!(
                " The key is attached to {holder}'s session lease, which {me} revokes when its clock reads {} unless a keep-alive arrives.",
                group(t)
            )
        });
        format!("{holder}'s key has the lowest create revision under the lock prefix: {holder} owns the lock, and revision {token} is its fencing token.{lease}")
    }

    fn extended(&self, me: &str, holder: &str, _token: u64, expires_local: Option<i64>) -> String {
        let until = expires_local.map_or_else(String::new, |t| format!(": it now ends at {}", local(t)));
        format!("A keep-alive from {holder} extends its session lease on {me}{until}.")
    }

    fn ended(&self, me: &str, holder: &str, token: u64, how: LockEnd) -> String {
        match how {
            LockEnd::Expired => format!(
                "{holder}'s session lease expires on {me}'s clock, so {me} deletes its lock key (revision {token}). Nobody tells {holder}: it may still think the lock is its own."
            ),
            LockEnd::Released => format!("{holder}'s lock key (revision {token}) is deleted; the next waiter sees the deletion."),
            LockEnd::DeletedByOther | LockEnd::LostOnRestart | LockEnd::Replaced | LockEnd::Resynced => {
                format!("{holder}'s lock key (revision {token}) is gone: {}.", self.how_ended(how))
            }
        }
    }

    fn renewal(&self) -> &'static str {
        "keep-alive"
    }

    fn write_to_service(&self, token: u64, value: &str) -> String {
        format!("txn: if create_revision(lock key) = {token} then put {value_q}", value_q = Quoted(value))
    }

    fn guard_refused(&self, token: u64) -> String {
        format!("txn failed: no lock key with create revision {token}")
    }

    fn expiries(&self) -> &'static str {
        "session lease expiries"
    }

    fn data_kept_by(&self) -> &'static str {
        "data_in_etcd is true"
    }
}

/// etcd requests and replies, as the mutex uses them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum EtcdMsg {
    /// Grant a session lease and put this client's key under the lock prefix, attached to it.
    Lock,
    /// Your key has the lowest create revision: you own the lock.
    Owner {
        revision: u64,
    },
    /// Your key has this create revision; wait for the deletion of the one before it.
    Queued {
        revision: u64,
        behind: u64,
    },
    /// Keep my session lease alive.
    KeepAlive,
    KeptAlive {
        ttl_ms: u64,
    },
    /// That lease no longer exists.
    LeaseNotFound,
    /// Delete my lock key.
    Unlock {
        revision: u64,
    },
    Unlocked {
        done: bool,
    },
}

impl DesignMsg for EtcdMsg {
    fn kind(&self) -> MsgKind {
        match self {
            EtcdMsg::Lock => MsgKind::Acquire,
            EtcdMsg::KeepAlive | EtcdMsg::Unlock { .. } => MsgKind::Request,
            EtcdMsg::Owner { .. } | EtcdMsg::Queued { .. } | EtcdMsg::KeptAlive { .. } | EtcdMsg::Unlocked { done: true } => MsgKind::Reply,
            EtcdMsg::LeaseNotFound | EtcdMsg::Unlocked { done: false } => MsgKind::Refusal,
        }
    }
}

/// One contender's key, attached to its session lease.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Key {
    holder: NodeId,
    create_revision: u64,
    lease_expires_local: i64,
    /// Whether the holder has been told it owns the lock.
    owner: bool,
}

/// An etcd node (the whole cluster, as one linearizable service).
pub struct EtcdNode {
    ttl_ms: u64,
    revision: u64,
    /// Contenders in create-revision order.
    keys: Vec<Key>,
    /// How many times the data key has been put.
    data_version: u64,
}

impl EtcdNode {
    /// Builds a cluster whose next write gets `first_revision`.
    pub fn new(ttl_ms: u64, first_revision: u64) -> Self {
        EtcdNode { ttl_ms, revision: first_revision.saturating_sub(1), keys: Vec::new(), data_version: 0 }
    }

    /// Deletes a key (its lease ended) and hands the lock on if the owner went.
    fn delete(&mut self, cx: &mut Cx, holder: NodeId, how: LockEnd) {
        let Some(i) = self.keys.iter().position(|k| k.holder == holder) else { return };
        let k = self.keys.remove(i);
        self.revision += 1;
        cx.cancel(Timer::Expiry(k.create_revision));
        if k.owner {
            cx.note(EventKind::LockEnded { holder, token: k.create_revision, how });
        }
        self.promote_first(cx);
    }

    /// Tells the first contender it owns the lock, if it has not been told.
    fn promote_first(&mut self, cx: &mut Cx) {
        if let Some(first) = self.keys.first_mut().filter(|k| !k.owner) {
            first.owner = true;
            let (holder, token) = (first.holder, first.create_revision);
            cx.note(EventKind::LockGranted { holder, token, expires_local: Some(first.lease_expires_local) });
            cx.send(holder, Msg::lock(EtcdMsg::Owner { revision: token }));
        }
    }

    fn expire_due(&mut self, cx: &mut Cx) {
        let due: Vec<NodeId> = self.keys.iter().filter(|k| cx.now >= k.lease_expires_local).map(|k| k.holder).collect();
        for holder in due {
            self.delete(cx, holder, LockEnd::Expired);
        }
    }

    fn handle(&mut self, cx: &mut Cx, from: NodeId, msg: &EtcdMsg) {
        match *msg {
            EtcdMsg::Lock if self.keys.iter().any(|k| k.holder == from) => {}
            EtcdMsg::Lock => {
                self.revision += 1;
                let key =
                    Key { holder: from, create_revision: self.revision, lease_expires_local: cx.now + self.ttl_ms as i64, owner: false };
                cx.at(Timer::Expiry(key.create_revision), key.lease_expires_local);
                self.keys.push(key);
                if self.keys.len() == 1 {
                    self.promote_first(cx);
                } else {
                    let behind = self.keys[self.keys.len() - 2].create_revision;
                    cx.send(from, Msg::lock(EtcdMsg::Queued { revision: key.create_revision, behind }));
                }
            }
            // A keep-alive extends the session lease, whether or not the lock is owned yet.
            EtcdMsg::KeepAlive => match self.keys.iter_mut().find(|k| k.holder == from) {
                Some(k) => {
                    k.lease_expires_local = cx.now + self.ttl_ms as i64;
                    let (expires_local, rev, owner) = (k.lease_expires_local, k.create_revision, k.owner);
                    cx.at(Timer::Expiry(rev), expires_local);
                    if owner {
                        cx.note(EventKind::LockExtended { holder: from, token: rev, expires_local: Some(expires_local) });
                    }
                    cx.send(from, Msg::lock(EtcdMsg::KeptAlive { ttl_ms: self.ttl_ms }));
                }
                None => cx.send(from, Msg::lock(EtcdMsg::LeaseNotFound)),
            },
            EtcdMsg::Unlock { revision } => {
                let mine = self.keys.iter().any(|k| k.holder == from && k.create_revision == revision);
                if mine {
                    self.delete(cx, from, LockEnd::Released);
                }
                cx.send(from, Msg::lock(EtcdMsg::Unlocked { done: mine }));
            }
            EtcdMsg::Owner { .. }
            | EtcdMsg::Queued { .. }
            | EtcdMsg::KeptAlive { .. }
            | EtcdMsg::LeaseNotFound
            | EtcdMsg::Unlocked { .. } => {}
        }
    }

    /// Runs `If(CreateRevision(lock key) == token).Then(Put(data))` for `from`.
    fn guarded_put(&mut self, cx: &mut Cx, from: NodeId, token: u64, value: &str) {
        let guard_holds = self.keys.iter().any(|k| k.holder == from && k.owner && k.create_revision == token);
        let value = value.to_string();
        if guard_holds {
            self.revision += 1;
            self.data_version += 1;
            let version = self.data_version;
            cx.note(EventKind::WriteAccepted { writer: from, token, value, version });
            cx.send(from, Msg::WriteAccepted { version });
        } else {
            let reason = Rejection::Guard { token };
            cx.note(EventKind::WriteRejected { writer: from, token, value, reason: reason.clone() });
            cx.send(from, Msg::WriteRejected { reason });
        }
    }
}

impl Actor for EtcdNode {
    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &Msg) {
        self.expire_due(cx);
        match msg {
            Msg::Lock { msg } => {
                if let Some(msg) = msg.get::<EtcdMsg>() {
                    self.handle(cx, from, msg);
                }
            }
            Msg::Write { token, value, .. } => self.guarded_put(cx, from, *token, value),
            Msg::Read | Msg::ReadResult { .. } | Msg::Undo { .. } | Msg::WriteAccepted { .. } | Msg::WriteRejected { .. } => {}
        }
    }

    fn on_timer(&mut self, cx: &mut Cx, timer: Timer) {
        if let Timer::Expiry(_) = timer {
            self.expire_due(cx);
        }
    }

    fn on_restart(&mut self, cx: &mut Cx, _keep_state: bool) {
        // The model's etcd is a replicated cluster: its state survives a member's restart.
        for k in &self.keys {
            cx.at(Timer::Expiry(k.create_revision), k.lease_expires_local);
        }
    }
}

/// A client's side of the mutex: a session kept alive by keep-alives.
struct EtcdClient {
    etcd: NodeId,
    ttl_ms: u64,
    acquire_sent_at: i64,
    renew_sent_at: i64,
}

impl LockClient for EtcdClient {
    fn acquire(&mut self, cx: &mut Cx, timeout_ms: u64) {
        self.acquire_sent_at = cx.now;
        cx.send(self.etcd, Msg::lock(EtcdMsg::Lock));
        cx.after(Timer::Timeout, timeout_ms);
    }

    fn on_message(&mut self, _cx: &mut Cx, _from: NodeId, msg: &LockMsg, view: ClientView) -> Progress {
        let Some(msg) = msg.get::<EtcdMsg>() else { return Progress::Pending };
        match *msg {
            EtcdMsg::Owner { revision } => {
                // A queued client's session was last extended by its latest keep-alive.
                let since = if view.queued { self.acquire_sent_at.max(self.renew_sent_at) } else { self.acquire_sent_at };
                Progress::Granted { token: revision, until_local: Some(since + self.ttl_ms as i64) }
            }
            EtcdMsg::Queued { .. } => Progress::Queued,
            EtcdMsg::KeptAlive { ttl_ms } => Progress::Renewed { until_local: Some(self.renew_sent_at + ttl_ms as i64) },
            EtcdMsg::LeaseNotFound => Progress::Lost,
            EtcdMsg::Unlocked { .. } => Progress::Released,
            EtcdMsg::Lock | EtcdMsg::KeepAlive | EtcdMsg::Unlock { .. } => Progress::Pending,
        }
    }

    fn on_timeout(&mut self, _cx: &mut Cx, _timeout_ms: u64) -> Progress {
        Progress::Refused
    }

    fn renew(&mut self, cx: &mut Cx, _held: Option<u64>) {
        self.renew_sent_at = cx.now;
        cx.send(self.etcd, Msg::lock(EtcdMsg::KeepAlive));
    }

    fn release(&mut self, cx: &mut Cx, held: Option<u64>, _last: u64, _mode: ReleaseMode) -> Release {
        match held {
            Some(revision) => {
                cx.send(self.etcd, Msg::lock(EtcdMsg::Unlock { revision }));
                Release::AwaitReply
            }
            None => Release::Nothing,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::actor::testing::{call, sent};
    use crate::engine::actor::Command;

    fn to(client: usize, msg: EtcdMsg) -> (usize, Msg) {
        (client, Msg::lock(msg))
    }

    fn send(e: &mut EtcdNode, now: i64, from: usize, msg: EtcdMsg) -> Vec<(usize, Msg)> {
        sent(&call(e, now, from, Msg::lock(msg)))
    }

    #[test]
    fn lowest_create_revision_owns_and_the_next_waits_on_its_predecessor() {
        let mut e = EtcdNode::new(1000, 10);
        assert_eq!(send(&mut e, 0, 1, EtcdMsg::Lock), vec![to(1, EtcdMsg::Owner { revision: 10 })]);
        assert_eq!(send(&mut e, 5, 2, EtcdMsg::Lock), vec![to(2, EtcdMsg::Queued { revision: 11, behind: 10 })]);
        assert_eq!(send(&mut e, 6, 3, EtcdMsg::Lock), vec![to(3, EtcdMsg::Queued { revision: 12, behind: 11 })]);
        // Unlocking deletes the key (revision 13) and wakes only the next contender.
        let out = send(&mut e, 20, 1, EtcdMsg::Unlock { revision: 10 });
        assert_eq!(out, vec![to(2, EtcdMsg::Owner { revision: 11 }), to(1, EtcdMsg::Unlocked { done: true })]);
        assert_eq!(e.revision, 13);
    }

    #[test]
    fn a_guarded_put_commits_only_while_the_lock_key_keeps_its_create_revision() {
        let mut e = EtcdNode::new(1000, 1);
        send(&mut e, 0, 1, EtcdMsg::Lock);
        send(&mut e, 0, 2, EtcdMsg::Lock);
        let put = |token| Msg::Write { token, value: "v".into(), expected_version: None };
        let refused = |token| Msg::WriteRejected { reason: Rejection::Guard { token } };
        assert_eq!(sent(&call(&mut e, 10, 2, put(2))), vec![(2, refused(2))], "a waiter does not own the lock");
        assert_eq!(sent(&call(&mut e, 20, 1, put(1))), vec![(1, Msg::WriteAccepted { version: 1 })]);
        send(&mut e, 900, 2, EtcdMsg::KeepAlive);
        // Client 1's session expired at 1,000: its key is gone, client 2 owns the lock, and
        // client 1's guarded put fails.
        assert_eq!(sent(&call(&mut e, 1_200, 1, put(1))), vec![to(2, EtcdMsg::Owner { revision: 2 }), (1, refused(1))]);
    }

    #[test]
    fn an_expired_session_deletes_the_key_and_hands_the_lock_on() {
        let mut e = EtcdNode::new(1000, 1);
        send(&mut e, 0, 1, EtcdMsg::Lock);
        send(&mut e, 0, 2, EtcdMsg::Lock);
        // Client 2 keeps its session alive; client 1 does not.
        send(&mut e, 900, 2, EtcdMsg::KeepAlive);
        let out = call(&mut e, 1000, 3, Msg::Read);
        assert!(out.contains(&Command::Note(EventKind::LockEnded { holder: NodeId(1), token: 1, how: LockEnd::Expired })));
        assert_eq!(sent(&out), vec![to(2, EtcdMsg::Owner { revision: 2 })]);
    }
}
