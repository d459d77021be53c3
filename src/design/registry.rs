//! The registry: every lock design, found by its scenario tag. Adding a design is one new module
//! and one line here.

use super::interface::Kind;
use super::{
    chubby, consul, consumer_group, dynamodb, etcd, hazelcast, kubernetes, lease, none, postgres, redis, redisson, redlock, s3, zookeeper,
};
use crate::error::ScenarioError;

/// Every lock design, in the order the comparison table and `lockstep designs` list them.
pub const REGISTRY: &[&dyn Kind] = &[
    &lease::Lease,
    &redis::Redis,
    &redlock::Redlock,
    &redisson::Redisson,
    &zookeeper::Zookeeper,
    &etcd::Etcd,
    &postgres::Postgres,
    &kubernetes::Kubernetes,
    &consul::Consul,
    &chubby::Chubby,
    &dynamodb::DynamoDb,
    &hazelcast::Hazelcast,
    &s3::S3,
    &consumer_group::ConsumerGroup,
    &none::NoLock,
];

/// Finds a design by its scenario tag; the error lists the known tags.
pub fn find(tag: &str) -> Result<&'static dyn Kind, ScenarioError> {
    REGISTRY.iter().copied().find(|k| k.tag() == tag).ok_or_else(|| {
        let known: Vec<String> = REGISTRY.iter().map(|k| format!("`{}`", k.tag())).collect();
        ScenarioError::new("lock.design", format!("unknown variant `{tag}`, expected one of {}", known.join(", ")))
    })
}
