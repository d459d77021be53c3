//! ZooKeeper's lock recipe on a real ZooKeeper: each client an ephemeral sequential znode
//! under `/lock`, the lowest owns the lock, and a waiter watches its predecessor (or, in the
//! herd variant, the lock node's children). Each client's session goes through a relay, so a
//! pause or a partition stops its heartbeats as well as its requests; the client library sends
//! the heartbeats itself, so the model's pings are not replayed and its pongs not compared.

use crate::proxy::Relay;
use crate::replay::{error, Ears, Request, Service};
use crate::schedule;
use crate::servers::{self, Server};
use lockstep::design::zookeeper::ZkMsg;
use lockstep::engine::msg::Msg;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::runtime::Runtime;
use zookeeper_client::{Acls, Client, CreateMode, Error, EventType, SessionState};

const LOCK: &str = "/lock";

/// Real milliseconds to each model millisecond: ZooKeeper expires sessions on its ticks, and a
/// tick of 500 ms instead of 100 leaves the replay's requests clear of the expiry.
pub const SCALE: u64 = 5;

/// One client: its session, its relay, its znode, and the children it last listed.
struct Contender {
    zk: Client,
    relay: Relay,
    seq: i64,
    czxid: i64,
    seen: Arc<Mutex<Vec<i64>>>,
}

/// The real server behind a ZooKeeper lesson.
pub struct ZookeeperService {
    rt: Runtime,
    tick_ms: u64,
    /// Whether waiters watch the lock node's children (the herd) instead of their predecessor.
    herd: bool,
    contenders: BTreeMap<String, Contender>,
    /// Stopped when the replay is done with it.
    _server: Server,
}

/// A znode name's sequence number (`lock-0000000003` is 3).
fn seq_of(name: &str) -> i64 {
    name.rsplit('-').next().and_then(|n| n.parse().ok()).unwrap_or(-1)
}

impl ZookeeperService {
    /// Starts ZooKeeper with the lesson's tick, and one session per client through its relay
    /// (times in model milliseconds).
    pub fn start(clients: &[String], tick_ms: u64, session_ms: u64, herd: bool, ears: &Ears) -> Result<ZookeeperService, String> {
        let (tick_ms, session_ms) = (tick_ms * SCALE, session_ms * SCALE);
        let server = servers::zookeeper(tick_ms)?;
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().map_err(|e| e.to_string())?;
        let mut contenders = BTreeMap::new();
        for name in clients {
            let relay = Relay::start(server.port, Duration::ZERO)?;
            let cluster = format!("127.0.0.1:{}", relay.port);
            let connect = Client::connector().with_session_timeout(Duration::from_millis(session_ms)).connect(&cluster);
            let zk = rt.block_on(connect).map_err(|e| format!("cannot open a session for {name}: {e}"))?;
            let mut state = zk.state_watcher();
            let (client, ears) = (name.clone(), ears.clone());
            rt.spawn(async move {
                loop {
                    match state.changed().await {
                        SessionState::Expired => return ears.hear(&client, schedule::reply(ZkMsg::SessionExpired)),
                        SessionState::Closed | SessionState::AuthFailed => return,
                        _ => {}
                    }
                }
            });
            contenders.insert(name.clone(), Contender { zk, relay, seq: -1, czxid: 0, seen: Arc::default() });
        }
        if let Some(first) = contenders.values().next() {
            let made = rt.block_on(first.zk.create(LOCK, b"", &CreateMode::Persistent.with_acls(Acls::anyone_all())));
            made.map_err(|e| format!("cannot make {LOCK}: {e}"))?;
        }
        Ok(ZookeeperService { rt, tick_ms, herd, contenders, _server: server })
    }
}

/// Lists the lock node's children (watching them in the herd variant), then says whether the
/// client owns the lock or whom it now waits for, setting the watch that will wake it.
async fn check(c: &Contender, client: &str, herd: bool, ears: &Ears) -> Result<ZkMsg, Error> {
    let listed: Vec<i64> = c.zk.list_children(LOCK).await?.iter().map(|n| seq_of(n)).collect();
    let waits = listed.iter().any(|&s| s < c.seq);
    let mut seqs: Vec<i64> = if herd && waits {
        // Only a waiter watches the lock node's children; the owner does not.
        let (names, _, watcher) = c.zk.get_and_watch_children(LOCK).await?;
        let (zk, seen, client, ears) = (c.zk.clone(), c.seen.clone(), client.to_string(), ears.clone());
        tokio::spawn(async move {
            if watcher.changed().await.event_type == EventType::NodeChildrenChanged {
                // What changed, as the model names it: a contender arrived or one left.
                let now: Vec<i64> = zk.list_children(LOCK).await.unwrap_or_default().iter().map(|n| seq_of(n)).collect();
                let before = seen.lock().map(|s| s.clone()).unwrap_or_default();
                let reply = match (now.iter().find(|s| !before.contains(s)), before.iter().find(|s| !now.contains(s))) {
                    (Some(&created), _) => schedule::reply(ZkMsg::ChildAdded { created: created as u64 }),
                    (None, Some(&deleted)) => schedule::reply(ZkMsg::WatchFired { deleted: deleted as u64 }),
                    (None, None) => error("the lock node's children changed, and the same children are there".into()),
                };
                ears.hear(&client, reply);
            }
        });
        names.iter().map(|n| seq_of(n)).collect()
    } else {
        listed
    };
    seqs.sort_unstable();
    if let Ok(mut seen) = c.seen.lock() {
        *seen = seqs.clone();
    }
    let Some(&before) = seqs.iter().take_while(|&&s| s < c.seq).last() else {
        return Ok(ZkMsg::Owner { seq: c.seq as u64, czxid: c.czxid as u64 });
    };
    if herd {
        return Ok(ZkMsg::Waiting { seq: c.seq as u64, watching: None });
    }
    let path = format!("{LOCK}/lock-{before:010}");
    let (stat, watcher) = c.zk.check_and_watch_stat(&path).await?;
    if stat.is_some() {
        let (client, ears) = (client.to_string(), ears.clone());
        tokio::spawn(async move {
            if watcher.changed().await.event_type == EventType::NodeDeleted {
                ears.hear(&client, schedule::reply(ZkMsg::WatchFired { deleted: before as u64 }));
            }
        });
    }
    Ok(ZkMsg::Waiting { seq: c.seq as u64, watching: Some(before as u64) })
}

impl Service for ZookeeperService {
    fn request(&mut self, client: &str, _node: &str, msg: &Msg, ears: &Ears) -> Result<(), String> {
        let herd = self.herd;
        let c = self.contenders.get_mut(client).ok_or_else(|| format!("no session for {client}"))?;
        let reply = match Request::<ZkMsg>::of(msg)? {
            // The library keeps the session alive by itself.
            Request::Lock(ZkMsg::Ping) => return Ok(()),
            Request::Lock(ZkMsg::Create) => {
                let options = CreateMode::EphemeralSequential.with_acls(Acls::anyone_all());
                let made = self.rt.block_on(c.zk.create(&format!("{LOCK}/lock-"), b"", &options));
                match made {
                    Ok((stat, seq)) => {
                        (c.seq, c.czxid) = (seq.into_i64(), stat.czxid);
                        self.rt.block_on(async { check(c, client, herd, ears).await })
                    }
                    Err(e) => Err(e),
                }
            }
            Request::Lock(ZkMsg::GetChildren) => self.rt.block_on(async { check(c, client, herd, ears).await }),
            Request::Lock(ZkMsg::Delete { .. }) => match self.rt.block_on(c.zk.delete(&format!("{LOCK}/lock-{:010}", c.seq), None)) {
                Ok(()) => Ok(ZkMsg::Deleted { done: true }),
                Err(Error::NoNode) => Ok(ZkMsg::Deleted { done: false }),
                Err(e) => Err(e),
            },
            other => {
                ears.hear(client, error(format!("no ZooKeeper request for {other:?}")));
                return Ok(());
            }
        };
        let reply = match reply {
            Ok(m) => schedule::reply(m),
            Err(Error::SessionExpired) => schedule::reply(ZkMsg::SessionExpired),
            Err(e) => return Err(format!("ZooKeeper: {e}")),
        };
        ears.hear(client, reply);
        Ok(())
    }

    /// A held heartbeat is the library's business (the client's relay is stopped for the
    /// partition, heartbeats and all); another held request is not replayed.
    fn hold(&mut self, client: &str, _node: &str, msg: &Msg, _ears: Ears, _until: Instant) -> Result<(), String> {
        match Request::<ZkMsg>::of(msg)? {
            Request::Lock(ZkMsg::Ping) => Ok(()),
            other => Err(format!("holding {client}'s {other:?} in a partition is not replayed for ZooKeeper")),
        }
    }

    fn align(&self, start: Instant) -> Instant {
        // ZooKeeper rounds a session's expiry up to a multiple of the tick on the host's
        // monotonic clock (Java's nanoTime, Rust's Instant): start the replay on such a multiple,
        // as the model's time 0 is.
        let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: clock_gettime writes the timespec it is given and nothing else.
        if unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now) } != 0 {
            return start;
        }
        let at = Instant::now();
        let now_ms = now.tv_sec as u64 * 1000 + now.tv_nsec as u64 / 1_000_000;
        let ahead = start.saturating_duration_since(at).as_millis() as u64;
        let target = (now_ms + ahead).div_ceil(self.tick_ms) * self.tick_ms;
        at + Duration::from_millis(target - now_ms)
    }

    fn stop(&mut self, client: &str, stopped: bool) -> Result<(), String> {
        let c = self.contenders.get(client).ok_or_else(|| format!("no session for {client}"))?;
        c.relay.set_stopped(stopped);
        Ok(())
    }
}
