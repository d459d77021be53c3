//! etcd's lock recipe on a real etcd, as its `concurrency` package does it: a lease per client,
//! a key under the lock prefix put only if absent and attached to the lease, the lowest create
//! revision owns the lock, and each waiter watches the key just before its own. Times are
//! scaled: etcd grants whole-second leases of at least about 2 s and looks for expired leases
//! about every 500 ms.

use crate::replay::{error, Ears, Request, Service};
use crate::schedule;
use crate::servers::{self, Server};
use etcd_client::{Client, Compare, CompareOp, EventType, GetOptions, PutOptions, SortOrder, SortTarget, Txn, TxnOp, WatchOptions};
use lockstep::design::etcd::EtcdMsg;
use lockstep::engine::msg::{Msg, Rejection};
use std::collections::BTreeMap;
use tokio::runtime::Runtime;

/// Real milliseconds to each model millisecond: a 1,000 ms lease becomes 20 s, so etcd's
/// lease expiry (checked about every 500 ms, and seen up to about a second late here) lands
/// within about 50 model milliseconds of the model's.
pub const SCALE: u64 = 20;

/// A client's lease and lock key.
#[derive(Clone, Copy, Default)]
struct Session {
    lease: i64,
    revision: i64,
}

/// The real server behind an etcd lesson.
pub struct EtcdService {
    rt: Runtime,
    client: Client,
    ttl_s: i64,
    sessions: BTreeMap<String, Session>,
    /// Stopped when the replay is done with it.
    _server: Server,
}

impl EtcdService {
    /// Starts etcd; `ttl_ms` is the lesson's lease, in model time.
    pub fn start(ttl_ms: u64) -> Result<EtcdService, String> {
        let server = servers::etcd()?;
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().map_err(|e| e.to_string())?;
        let endpoint = format!("127.0.0.1:{}", server.port);
        let client = rt.block_on(Client::connect([endpoint], None)).map_err(|e| format!("cannot connect to etcd: {e}"))?;
        let ttl_s = (ttl_ms * SCALE).div_ceil(1000) as i64;
        Ok(EtcdService { rt, client, ttl_s, sessions: BTreeMap::new(), _server: server })
    }
}

fn key(client: &str) -> String {
    format!("lock/{client}")
}

/// The lock prefix's keys, oldest first: (key, create revision), and the store's revision.
async fn contenders(c: &mut Client) -> Result<(Vec<(String, i64)>, i64), etcd_client::Error> {
    let options = GetOptions::new().with_prefix().with_sort(SortTarget::Create, SortOrder::Ascend);
    let r = c.get("lock/", Some(options)).await?;
    let keys = r.kvs().iter().map(|kv| (kv.key_str().unwrap_or("").to_string(), kv.create_revision())).collect();
    Ok((keys, r.header().map_or(0, |h| h.revision())))
}

/// The key just before `mine`, if any.
fn predecessor(keys: &[(String, i64)], mine: i64) -> Option<(String, i64)> {
    keys.iter().take_while(|k| k.1 < mine).last().cloned()
}

/// Waits until every key before `mine` is gone, watching the one just before it each time,
/// then tells the client it owns the lock.
async fn wait_turn(
    mut c: Client,
    mine: i64,
    mut pred: (String, i64),
    mut after: i64,
    client: String,
    ears: Ears,
) -> Result<(), etcd_client::Error> {
    loop {
        let options = WatchOptions::new().with_start_revision(after + 1);
        let mut stream = c.watch(pred.0.clone(), Some(options)).await?;
        'deleted: while let Some(r) = stream.message().await? {
            if r.events().iter().any(|e| e.event_type() == EventType::Delete) {
                break 'deleted;
            }
        }
        let (keys, revision) = contenders(&mut c).await?;
        after = revision;
        match predecessor(&keys, mine) {
            Some(p) => pred = p,
            None => {
                ears.hear(&client, schedule::reply(EtcdMsg::Owner { revision: mine as u64 }));
                return Ok(());
            }
        }
    }
}

/// Sends one keep-alive for a lease and returns the TTL etcd answers with.
async fn keep_alive(c: &mut Client, lease: i64) -> Result<i64, etcd_client::Error> {
    let (mut keeper, mut stream) = c.lease_keep_alive(lease).await?;
    keeper.keep_alive().await?;
    Ok(stream.message().await?.map_or(0, |r| r.ttl()))
}

impl Service for EtcdService {
    fn request(&mut self, client: &str, _node: &str, msg: &Msg, ears: &Ears) -> Result<(), String> {
        let request = Request::<EtcdMsg>::of(msg)?;
        let mut c = self.client.clone();
        let k = key(client);
        let session = self.sessions.get(client).copied().unwrap_or_default();
        let (ttl_s, rt) = (self.ttl_s, &self.rt);
        let reply = rt.block_on(async {
            Ok::<_, etcd_client::Error>(match request {
                Request::Lock(EtcdMsg::Lock) => {
                    let lease = c.lease_grant(ttl_s, None).await?.id();
                    let put = TxnOp::put(k.clone(), "", Some(PutOptions::new().with_lease(lease)));
                    c.txn(Txn::new().when([Compare::create_revision(k.clone(), CompareOp::Equal, 0)]).and_then([put])).await?;
                    let (keys, revision) = contenders(&mut c).await?;
                    let mine = keys.iter().find(|x| x.0 == k).map_or(0, |x| x.1);
                    self.sessions.insert(client.to_string(), Session { lease, revision: mine });
                    match predecessor(&keys, mine) {
                        None => schedule::reply(EtcdMsg::Owner { revision: mine as u64 }),
                        Some(p) => {
                            let behind = p.1;
                            rt.spawn(wait_turn(c.clone(), mine, p, revision, client.to_string(), ears.clone()));
                            schedule::reply(EtcdMsg::Queued { revision: mine as u64, behind: behind as u64 })
                        }
                    }
                }
                Request::Lock(EtcdMsg::KeepAlive) => schedule::reply(match keep_alive(&mut c, session.lease).await {
                    // etcd answers an expired lease with TTL 0 or with "requested lease not found".
                    Err(e) if e.to_string().contains("lease not found") => EtcdMsg::LeaseNotFound,
                    Ok(ttl) if ttl <= 0 => EtcdMsg::LeaseNotFound,
                    Ok(ttl) => EtcdMsg::KeptAlive { ttl_ms: lockstep::engine::Millis::from_ms(ttl as u64 * 1000 / SCALE) },
                    Err(e) => return Err(e),
                }),
                Request::Lock(EtcdMsg::Unlock { .. }) => {
                    schedule::reply(EtcdMsg::Unlocked { done: c.delete(k, None).await?.deleted() > 0 })
                }
                Request::Write { value } => {
                    // The data lives in etcd: put it only while my key still has my revision.
                    let guard = Compare::create_revision(k, CompareOp::Equal, session.revision);
                    let put = TxnOp::put("data", value, None);
                    if c.txn(Txn::new().when([guard]).and_then([put])).await?.succeeded() {
                        schedule::message(&Msg::WriteAccepted { version: 0 })
                    } else {
                        schedule::message(&Msg::WriteRejected { reason: Rejection::Guard { token: 0 } })
                    }
                }
                Request::Lock(other) => error(format!("no etcd request for {other:?}")),
            })
        });
        ears.hear(client, reply.map_err(|e| format!("etcd: {e}"))?);
        Ok(())
    }
}
