//! Redis, Redlock and Redisson on real `redis-server`s: one server per lock-service node, each
//! replica fed through a relay that holds the replication stream for its lag, and the lock's
//! commands as the Redis documentation gives them (`SET NX PX`, the compare-and-delete and
//! compare-and-`PEXPIRE` scripts, `INCR` in one script with the `SET` or as a round trip of its
//! own, `WAIT`) or as Redisson runs them (its lock, `RFencedLock`, watchdog and unlock scripts,
//! word for word). A promoted replica takes the other live replicas, each through a new relay
//! with its lag.

use crate::proxy::Relay;
use crate::replay::{error, Ears, Request, Service};
use crate::schedule;
use crate::servers::{self, Server};
use lockstep::design::redis_wire::RedisMsg;
use lockstep::engine::msg::Msg;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

const SET_INCR: &str = "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then \
                        return redis.call('INCR', KEYS[2]) else return false end";
const EXTEND: &str = "if redis.call('GET', KEYS[1]) == ARGV[1] then \
                      return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end";
const DEL: &str = "if redis.call('GET', KEYS[1]) == ARGV[1] then \
                   return redis.call('DEL', KEYS[1]) else return 0 end";

/// Redisson's `RedissonLock.tryLockInnerAsync`: KEYS[1] the lock hash, ARGV[1] the lease, ARGV[2]
/// the field (the client's UUID and thread id). Nil when locked, else the hash's remaining time.
const REDISSON_LOCK: &str = "if ((redis.call('exists', KEYS[1]) == 0) or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then \
                             redis.call('hincrby', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1]); return nil; end; \
                             return redis.call('pttl', KEYS[1]);";
/// Redisson's `RedissonFencedLock.tryLockInnerAsync`, KEYS[2] being `redisson_lock_token:{name}`:
/// `{-1, token}` when locked, else `{remaining time, -1}`.
const REDISSON_FENCED_LOCK: &str = "if (redis.call('exists', KEYS[1]) == 0 or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then \
                                    local token = redis.call('incr', KEYS[2]); redis.call('hincrby', KEYS[1], ARGV[2], 1); \
                                    redis.call('pexpire', KEYS[1], ARGV[1]); return {-1, token}; end; \
                                    return {redis.call('pttl', KEYS[1]), -1};";
/// Redisson's watchdog, `RedissonBaseLock.renewExpirationAsync`.
const REDISSON_RENEW: &str =
    "if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then redis.call('pexpire', KEYS[1], ARGV[1]); return 1; end; return 0;";
/// Redisson's `RedissonLock.unlockInnerAsync` (before its unlock-latch key): nil when the field
/// is not there, 0 when a reentrant count remains, 1 when the hash is deleted.
const REDISSON_UNLOCK: &str = "if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then return nil; end; \
                               local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1); \
                               if (counter > 0) then redis.call('pexpire', KEYS[1], ARGV[2]); return 0; \
                               else redis.call('del', KEYS[1]); redis.call('publish', KEYS[2], ARGV[1]); return 1; end; return nil;";

/// Which scripts a lesson's commands run.
#[derive(Clone, Copy, Debug)]
pub enum Scripts {
    /// The Redis documentation's: `SET NX PX`, with the `INCR` in one script if `incr_with_set`.
    Docs { incr_with_set: bool },
    /// Redisson's, with `RFencedLock`'s acquire if `fenced`.
    Redisson { fenced: bool },
}

/// One node: its server (none while crashed), its replication lag if it is a replica, and the
/// clients' connections to it.
struct Node {
    server: Option<Server>,
    port: u16,
    lag: Option<Duration>,
    conns: BTreeMap<String, redis::Connection>,
}

/// The real servers behind a Redis or Redlock lesson.
pub struct RedisService {
    nodes: BTreeMap<String, Node>,
    scripts: Scripts,
    /// Keeps the replication relays alive.
    relays: Vec<Relay>,
    /// `repl-diskless-sync-delay`, in seconds.
    sync_delay_s: u64,
    /// The last request held for each client and node, still waiting for its reply.
    held: BTreeMap<(String, String), std::thread::JoinHandle<()>>,
}

impl RedisService {
    /// Starts one server per node; with `replica_lags`, the nodes after the first replicate it,
    /// each through a relay that holds the stream for its lag (in ms), and a promoted one
    /// resyncs the others after `sync_delay_ms` (`repl-diskless-sync-delay`, whole seconds).
    pub fn start(nodes: &[String], scripts: Scripts, replica_lags: &[u64], sync_delay_ms: u64) -> Result<RedisService, String> {
        if !sync_delay_ms.is_multiple_of(1000) {
            return Err(format!("Redis sets repl-diskless-sync-delay in whole seconds, not {sync_delay_ms} ms"));
        }
        let mut started = BTreeMap::new();
        let mut relays = Vec::new();
        let primary_port = servers::free_port()?;
        for (i, key) in nodes.iter().enumerate() {
            let lag = i.checked_sub(1).and_then(|r| replica_lags.get(r)).map(|&ms| Duration::from_millis(ms));
            let port = if i == 0 { primary_port } else { servers::free_port()? };
            let upstream = match lag {
                Some(lag) => {
                    let r = Relay::start(primary_port, lag)?;
                    let up = r.port;
                    relays.push(r);
                    Some(up)
                }
                None => None,
            };
            let server = servers::redis(port, upstream, sync_delay_ms / 1000)?;
            started.insert(key.clone(), Node { server: Some(server), port, lag, conns: BTreeMap::new() });
        }
        for node in started.values().filter(|n| n.lag.is_some()) {
            wait_linked(node.port)?;
        }
        Ok(RedisService { nodes: started, scripts, relays, sync_delay_s: sync_delay_ms / 1000, held: BTreeMap::new() })
    }

    fn node(&mut self, key: &str) -> Result<&mut Node, String> {
        self.nodes.get_mut(key).ok_or_else(|| format!("no server for node {key}"))
    }
}

/// Waits until a replica has synchronised with its primary.
fn wait_linked(port: u16) -> Result<(), String> {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(10) {
        let info: String = redis::Client::open(format!("redis://127.0.0.1:{port}/"))
            .and_then(|c| c.get_connection())
            .and_then(|mut c| redis::cmd("INFO").arg("replication").query(&mut c))
            .unwrap_or_default();
        if info.contains("master_link_status:up") {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Err("the replica did not link to its primary within 10 s".into())
}

impl Service for RedisService {
    fn request(&mut self, client: &str, node: &str, msg: &Msg, ears: &Ears) -> Result<(), String> {
        let scripts = self.scripts;
        let n = self.node(node)?;
        let port = n.port;
        let con = match n.conns.entry(client.to_string()) {
            std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::btree_map::Entry::Vacant(e) => e.insert(
                redis::Client::open(format!("redis://127.0.0.1:{port}/"))
                    .and_then(|c| c.get_connection())
                    .map_err(|e| format!("cannot connect to {node}: {e}"))?,
            ),
        };
        let reply = command(con, Request::of(msg)?, scripts)?;
        ears.hear(client, schedule::reply(reply));
        Ok(())
    }

    /// Opens a connection of its own through a relay, stops the relay, and sends the request
    /// on a thread that waits for the reply: the bytes sit in the relay, as in a partition,
    /// until `until`. Requests held for one client and node go in the order they were sent.
    fn hold(&mut self, client: &str, node: &str, msg: &Msg, ears: Ears, until: Instant) -> Result<(), String> {
        let scripts = self.scripts;
        let relay = Relay::start(self.node(node)?.port, Duration::ZERO)?;
        let mut con = redis::Client::open(format!("redis://127.0.0.1:{}/", relay.port))
            .and_then(|c| c.get_connection())
            .map_err(|e| format!("cannot connect to {node}: {e}"))?;
        // A reply that never comes (its server died) ends the wait, not the replay.
        con.set_read_timeout(Some(Duration::from_secs(60))).map_err(|e| e.to_string())?;
        relay.set_stopped(true);
        let key = (client.to_string(), node.to_string());
        let before = self.held.remove(&key);
        let (client, request) = (client.to_string(), Request::<RedisMsg>::of(msg)?);
        let sent = std::thread::spawn(move || {
            if let Some(before) = before {
                let _ = before.join();
            }
            let opener = std::thread::spawn(move || {
                std::thread::sleep(until.saturating_duration_since(Instant::now()));
                relay.set_stopped(false);
                relay
            });
            let reply = command(&mut con, request, scripts).map_or_else(error, schedule::reply);
            ears.hear(&client, reply);
            drop(opener.join());
        });
        self.held.insert(key, sent);
        Ok(())
    }

    fn crash(&mut self, node: &str) -> Result<(), String> {
        let n = self.node(node)?;
        if let Some(s) = n.server.as_mut() {
            s.kill();
        }
        n.conns.clear();
        Ok(())
    }

    fn restart(&mut self, node: &str, keep_state: bool) -> Result<(), String> {
        if keep_state {
            return Err("a Redis restart that keeps its data needs persistence, which these lessons do not model".into());
        }
        let sync_delay_s = self.sync_delay_s;
        let n = self.node(node)?;
        n.server = None;
        n.server = Some(servers::redis(n.port, None, sync_delay_s)?);
        Ok(())
    }

    fn step_clock(&mut self, node: &str, by_ms: i64) -> Result<(), String> {
        match &self.node(node)?.server {
            Some(server) => server.step_wall_clock(by_ms),
            None => Err(format!("{node} is down: its clock cannot be stepped")),
        }
    }

    fn promote(&mut self, node: &str) -> Result<(), String> {
        let port = self.node(node)?.port;
        replicaof(port, None)?;
        // The other live replicas follow the new primary, each through a relay with its lag.
        for (key, n) in &self.nodes {
            if let (Some(lag), Some(_), false) = (n.lag, &n.server, key == node) {
                let relay = Relay::start(port, lag)?;
                replicaof(n.port, Some(relay.port))?;
                self.relays.push(relay);
            }
        }
        Ok(())
    }
}

/// Runs a client's request on a connection, with the scripts the lesson's design runs.
fn command(con: &mut redis::Connection, request: Request<RedisMsg>, scripts: Scripts) -> Result<RedisMsg, String> {
    match scripts {
        Scripts::Docs { incr_with_set } => documented(con, request, incr_with_set),
        Scripts::Redisson { fenced } => redisson(con, request, fenced),
    }
}

/// Runs a request as the Redis documentation gives the command.
fn documented(con: &mut redis::Connection, request: Request<RedisMsg>, incr_with_set: bool) -> Result<RedisMsg, String> {
    Ok(match request {
        Request::Lock(RedisMsg::Set { value, px_ms }) if incr_with_set => {
            let r: redis::RedisResult<Option<u64>> =
                redis::Script::new(SET_INCR).key("lock").key("fencing").arg(value.to_string()).arg(px_ms.as_ms()).invoke(con);
            refused(r.map(|t| t.map_or(RedisMsg::Nil, |t| RedisMsg::SetOk { token: Some(t) })))?
        }
        Request::Lock(RedisMsg::Set { value, px_ms }) => {
            let r: redis::RedisResult<Option<String>> =
                redis::cmd("SET").arg("lock").arg(value.to_string()).arg("NX").arg("PX").arg(px_ms.as_ms()).query(con);
            refused(r.map(|ok| if ok.is_some() { RedisMsg::SetOk { token: None } } else { RedisMsg::Nil }))?
        }
        Request::Lock(RedisMsg::Wait { replicas, timeout_ms }) => {
            let r: redis::RedisResult<u64> = redis::cmd("WAIT").arg(replicas).arg(timeout_ms.as_ms()).query(con);
            refused(r.map(|n| RedisMsg::Acked { replicas: n }))?
        }
        Request::Lock(RedisMsg::Incr) => {
            let r: redis::RedisResult<u64> = redis::cmd("INCR").arg("fencing").query(con);
            refused(r.map(|v| RedisMsg::Counter { value: v }))?
        }
        Request::Lock(RedisMsg::Extend { value, px_ms }) => {
            let r: redis::RedisResult<u64> = redis::Script::new(EXTEND).key("lock").arg(value.to_string()).arg(px_ms.as_ms()).invoke(con);
            refused(r.map(|n| RedisMsg::Extended { done: n == 1 }))?
        }
        Request::Lock(RedisMsg::Del { value, checked }) => {
            let r: redis::RedisResult<u64> = if checked {
                redis::Script::new(DEL).key("lock").arg(value.to_string()).invoke(con)
            } else {
                redis::cmd("DEL").arg("lock").query(con)
            };
            refused(r.map(|n| RedisMsg::Deleted { done: n == 1 }))?
        }
        other => return Err(format!("the Redis replay has no command for {other:?}")),
    })
}

/// Runs a request with Redisson's scripts, as its `RLock` or `RFencedLock` sends them.
fn redisson(con: &mut redis::Connection, request: Request<RedisMsg>, fenced: bool) -> Result<RedisMsg, String> {
    let (hash, token) = ("lock", "redisson_lock_token:{lock}");
    Ok(match request {
        Request::Lock(RedisMsg::Set { value, px_ms }) if fenced => {
            let script = redis::Script::new(REDISSON_FENCED_LOCK);
            let r: redis::RedisResult<(i64, i64)> = script.key(hash).key(token).arg(px_ms.as_ms()).arg(value.to_string()).invoke(con);
            refused(r.map(|(ttl, t)| if ttl == -1 { RedisMsg::SetOk { token: Some(t.unsigned_abs()) } } else { RedisMsg::Nil }))?
        }
        Request::Lock(RedisMsg::Set { value, px_ms }) => {
            let script = redis::Script::new(REDISSON_LOCK);
            let r: redis::RedisResult<Option<i64>> = script.key(hash).arg(px_ms.as_ms()).arg(value.to_string()).invoke(con);
            refused(r.map(|ttl| if ttl.is_none() { RedisMsg::SetOk { token: None } } else { RedisMsg::Nil }))?
        }
        Request::Lock(RedisMsg::Extend { value, px_ms }) => {
            let r: redis::RedisResult<u64> =
                redis::Script::new(REDISSON_RENEW).key(hash).arg(px_ms.as_ms()).arg(value.to_string()).invoke(con);
            refused(r.map(|n| RedisMsg::Extended { done: n == 1 }))?
        }
        Request::Lock(RedisMsg::Del { value, .. }) => {
            let script = redis::Script::new(REDISSON_UNLOCK);
            let r: redis::RedisResult<Option<u64>> =
                script.key(hash).key("redisson_lock__channel:{lock}").arg(0).arg(0).arg(value.to_string()).invoke(con);
            refused(r.map(|n| RedisMsg::Deleted { done: n == Some(1) }))?
        }
        other => return Err(format!("the Redisson replay has no command for {other:?}")),
    })
}

/// Makes the server on `port` a replica of the one on `primary`, or a primary.
fn replicaof(port: u16, primary: Option<u16>) -> Result<(), String> {
    let mut c = redis::Client::open(format!("redis://127.0.0.1:{port}/")).and_then(|c| c.get_connection()).map_err(|e| e.to_string())?;
    let cmd = match primary {
        Some(p) => redis::cmd("REPLICAOF").arg("127.0.0.1").arg(p).clone(),
        None => redis::cmd("REPLICAOF").arg("NO").arg("ONE").clone(),
    };
    cmd.query::<String>(&mut c).map(|_| ()).map_err(|e| e.to_string())
}

/// A reply, or `-READONLY` as the model names it; any other error ends the replay.
fn refused(r: redis::RedisResult<RedisMsg>) -> Result<RedisMsg, String> {
    match r {
        Ok(v) => Ok(v),
        Err(e) if e.code() == Some("READONLY") => Ok(RedisMsg::ReadOnly),
        Err(e) => Err(format!("Redis answered an error: {e}")),
    }
}
