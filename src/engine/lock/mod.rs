//! Lock services: one file per design, each an [`Actor`] built from its [`LockDesign`].
//!
//! A design decides how leases are granted, renewed, released and expired on the service's own
//! clock, and where the fencing token comes from. Pure: no IO.

mod lease;
mod redis;

use super::actor::Actor;
use super::spec::LockDesign;

pub use lease::LeaseLock;
pub use redis::RedisLock;

/// Builds one lock-service node of a design.
pub fn build(design: &LockDesign) -> Box<dyn Actor> {
    match design {
        LockDesign::Lease { ttl_ms, first_token } => Box::new(LeaseLock::new(*ttl_ms, *first_token)),
        LockDesign::Redis { ttl_ms, incr_token } => Box::new(RedisLock::new(*ttl_ms, *incr_token)),
        // Each Redlock master is a plain Redis instance; the algorithm lives in the client.
        LockDesign::Redlock { ttl_ms, .. } => Box::new(RedisLock::new(*ttl_ms, false)),
    }
}
