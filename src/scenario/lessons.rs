//! The preset lessons: scenario files shipped inside the binary, in teaching order.

use super::format::Scenario;
use super::validate::{load, ScenarioError};
use crate::engine::spec::Spec;
use crate::error::unknown;

/// The source of every lesson, in the order the picker shows them.
const SOURCES: &[&str] = &[
    include_str!("lessons/lease-race-fenced.json"),
    include_str!("lessons/lease-race-unfenced.json"),
    include_str!("lessons/short-pause.json"),
    include_str!("lessons/clock-jump.json"),
    include_str!("lessons/network-delay.json"),
    include_str!("lessons/conditional-write.json"),
    include_str!("lessons/no-lock-lost-update.json"),
    include_str!("lessons/optimistic-version.json"),
    include_str!("lessons/unique-constraint.json"),
    include_str!("lessons/idempotency-table.json"),
    include_str!("lessons/partitioned-queue.json"),
    include_str!("lessons/transactional-outbox.json"),
    include_str!("lessons/redis-del-release.json"),
    include_str!("lessons/redis-safe-release.json"),
    include_str!("lessons/redis-renewal-abort.json"),
    include_str!("lessons/redis-renewal-carry-on.json"),
    include_str!("lessons/redis-value-not-token.json"),
    include_str!("lessons/redis-incr-token.json"),
    include_str!("lessons/redis-idempotent-job.json"),
    include_str!("lessons/redis-failover.json"),
    include_str!("lessons/redis-failover-replicated.json"),
    include_str!("lessons/zk-queue.json"),
    include_str!("lessons/zk-herd.json"),
    include_str!("lessons/zk-session-expiry.json"),
    include_str!("lessons/zk-session-expiry-unchecked.json"),
    include_str!("lessons/etcd-lease-expires.json"),
    include_str!("lessons/etcd-unchecked.json"),
    include_str!("lessons/etcd-txn-guard.json"),
    include_str!("lessons/pg-same-database.json"),
    include_str!("lessons/pg-external.json"),
    include_str!("lessons/pg-no-timeout.json"),
    include_str!("lessons/pg-xact-lock.json"),
    include_str!("lessons/k8s-paused-leader.json"),
    include_str!("lessons/k8s-fenced.json"),
    include_str!("lessons/k8s-clock-rate.json"),
    include_str!("lessons/k8s-clock-rate-tolerated.json"),
    include_str!("lessons/redlock-happy.json"),
    include_str!("lessons/redlock-clock-jump.json"),
    include_str!("lessons/redlock-pause.json"),
    include_str!("lessons/redlock-pause-checked.json"),
    include_str!("lessons/redlock-restart.json"),
    include_str!("lessons/redlock-delayed-restart.json"),
    include_str!("lessons/redlock-slow-acquisition.json"),
];

/// A preset lesson: its parsed scenario, the spec to run, and its JSON source.
#[derive(Clone, Debug)]
pub struct Lesson {
    pub scenario: Scenario,
    pub spec: Spec,
    pub source: &'static str,
}

impl Lesson {
    /// Returns the lesson's stable id.
    pub fn id(&self) -> &str {
        &self.scenario.id
    }
}

/// Loads every lesson. Each is a shipped file checked by the tests, so an error here is a bug.
pub fn all() -> Vec<Lesson> {
    SOURCES
        .iter()
        .map(|source| {
            let (scenario, spec) = load(source).unwrap_or_else(|e| panic!("a shipped lesson is invalid: {e}"));
            Lesson { scenario, spec, source }
        })
        .collect()
}

/// Finds a lesson by id, suggesting the closest ids if there is none.
pub fn find(id: &str) -> Result<Lesson, ScenarioError> {
    let lessons = all();
    match lessons.iter().position(|l| l.id() == id) {
        Some(i) => Ok(lessons.into_iter().nth(i).expect("position is in range")),
        None => Err(unknown("lesson", id, &lessons.iter().map(Lesson::id).collect::<Vec<_>>())),
    }
}
