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

/// Builds one lock-service node of a design.
/// Builds lock-service node `index` of `nodes` (all the lock-service nodes) for a design.
pub fn build(design: &LockDesign, nodes: &[NodeId], index: usize) -> Box<dyn Actor> {
    match *design {
        LockDesign::Lease { ttl_ms, first_token } => Box::new(LeaseLock::new(ttl_ms, first_token)),
        LockDesign::Redis { ttl_ms, incr_token, replication_lag_ms } => {
            let role = match (index, nodes.get(1)) {
                (0, Some(&replica)) => RedisRole::Primary { replica: Some((replica, replication_lag_ms)) },
                (0, None) => RedisRole::Primary { replica: None },
                _ => RedisRole::Replica,
            };
            Box::new(RedisLock::new(ttl_ms, incr_token, role))
        }
        LockDesign::Postgres { session_timeout_ms, .. } => Box::new(PgLock::new(session_timeout_ms)),
        LockDesign::Etcd { ttl_ms, first_revision } => Box::new(EtcdLock::new(ttl_ms, first_revision)),
        LockDesign::Zookeeper { session_timeout_ms, watch, .. } => {
            Box::new(ZkLock::new(session_timeout_ms, watch == ZkWatch::LockNode))
        }
        // Each Redlock master is a plain Redis instance; the algorithm lives in the client.
        LockDesign::Redlock { ttl_ms, .. } => Box::new(RedisLock::new(ttl_ms, false, RedisRole::Primary { replica: None })),
    }
}
