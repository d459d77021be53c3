//! Lock services: one file per design, each an [`Actor`] built from its [`LockDesign`].
//!
//! A design decides how leases are granted, renewed, released and expired on the service's own
//! clock, and where the fencing token comes from. Pure: no IO.

mod etcd;
mod lease;
mod postgres;
mod redis;
mod zookeeper;

use super::actor::Actor;
use super::ids::NodeId;
use super::spec::{LockDesign, ZkWatch};

pub use etcd::EtcdLock;
pub use lease::LeaseLock;
pub use postgres::PgLock;
pub use redis::{RedisLock, RedisRole};
pub use zookeeper::{znode_name, ZkLock};

/// Builds lock-service node `index` of `nodes` (all the lock-service nodes) for a design; `None`
/// for the lock-free design, which has no lock service.
pub fn build(design: &LockDesign, nodes: &[NodeId], index: usize) -> Option<Box<dyn Actor>> {
    Some(match *design {
        LockDesign::None => return None,
        LockDesign::Lease { ttl_ms, first_token } => Box::new(LeaseLock::new(ttl_ms, first_token)),
        LockDesign::Redis { ttl_ms, incr_token, replication_lag_ms } => {
            let role = match (index, nodes.get(1)) {
                (0, Some(&replica)) => RedisRole::Primary { replica: Some((replica, replication_lag_ms)) },
                (0, None) => RedisRole::Primary { replica: None },
                _ => RedisRole::Replica,
            };
            Box::new(RedisLock::new(ttl_ms, incr_token, role))
        }
        LockDesign::Postgres { session_timeout_ms, transaction_level, .. } => {
            Box::new(PgLock::new(session_timeout_ms, transaction_level))
        }
        LockDesign::Etcd { ttl_ms, first_revision, .. } => Box::new(EtcdLock::new(ttl_ms, first_revision)),
        LockDesign::Zookeeper { session_timeout_ms, watch, .. } => {
            Box::new(ZkLock::new(session_timeout_ms, watch == ZkWatch::LockNode))
        }
        // Each Redlock master is a plain Redis instance; the algorithm lives in the client.
        LockDesign::Redlock { ttl_ms, .. } => Box::new(RedisLock::new(ttl_ms, false, RedisRole::Primary { replica: None })),
    })
}

/// Drives a lock-service node directly in unit tests.
#[cfg(test)]
pub(crate) mod testing {
    use crate::engine::actor::{Actor, Command, Cx};
    use crate::engine::ids::NodeId;
    use crate::engine::msg::Msg;
    use crate::engine::rng::Rng;

    /// Delivers `msg` from node `from` at local time `now` and returns every command written.
    pub fn call(node: &mut dyn Actor, now: i64, from: usize, msg: Msg) -> Vec<Command> {
        let (mut rng, mut out) = (Rng::new(0), Vec::new());
        node.on_message(&mut Cx { me: NodeId(99), now, rng: &mut rng, out: &mut out }, NodeId(from), &msg);
        out
    }

    /// Returns the messages among `out`, as (recipient, message).
    pub fn sent(out: &[Command]) -> Vec<(usize, Msg)> {
        out.iter().filter_map(|c| if let Command::Send { to, msg } = c { Some((to.0, msg.clone())) } else { None }).collect()
    }
}
