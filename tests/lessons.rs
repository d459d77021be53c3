//! Every lesson's outcome, asserted exactly: who was granted which token when, which writes were
//! accepted or rejected with which token at which simulated time, and the verdict.

mod support;

use lockstep::engine::FindingKind::*;
use lockstep::scenario::lessons;
use support::*;

#[test]
fn fenced_lease_race_rejects_token_41_after_42() {
    let t = run_lesson("lease-race-fenced");
    assert_eq!(grants(&t), vec![(5, "Client A".into(), 41), (1_105, "Client B".into(), 42)]);
    assert_eq!(lease_ends(&t)[0], (1_005, 41, "Expired".into()));
    assert_eq!(
        writes(&t),
        vec![ok(1_165, "Client B", 42, "B", 1), rejected(1_555, "Client A", 41, "A", "token 41 < 42")]
    );
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_110), (StaleWriteRejected, 1_555)]);
}

#[test]
fn unfenced_lease_race_loses_b_update() {
    let t = run_lesson("lease-race-unfenced");
    assert_eq!(grants(&t), vec![(5, "Client A".into(), 41), (1_105, "Client B".into(), 42)]);
    assert_eq!(writes(&t), vec![ok(1_165, "Client B", 42, "B", 1), ok(1_555, "Client A", 41, "A", 2)]);
    assert!(!t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_110), (StaleWriteAccepted, 1_555), (LostUpdate, 1_555)]);
}

#[test]
fn short_pause_is_safe_and_serial() {
    let t = run_lesson("short-pause");
    assert_eq!(grants(&t), vec![(5, "Client A".into(), 41), (815, "Client B".into(), 42)]);
    assert_eq!(writes(&t), vec![ok(555, "Client A", 41, "A", 1), ok(875, "Client B", 42, "B", 2)]);
    assert_eq!(lease_ends(&t)[0], (565, 41, "Released".into()));
    assert!(t.verdict.safe);
    assert!(findings(&t).is_empty(), "no hazard at all: {:?}", findings(&t));
}

#[test]
fn clock_jump_expires_the_lease_early() {
    let t = run_lesson("clock-jump");
    // The lease should have lasted until local 1,005; the jump at 400 ends it at once.
    assert_eq!(lease_ends(&t)[0], (400, 41, "Expired".into()));
    assert_eq!(grants(&t), vec![(5, "Client A".into(), 41), (455, "Client B".into(), 42)]);
    assert_eq!(writes(&t), vec![ok(515, "Client B", 42, "B", 1), rejected(715, "Client A", 41, "A", "token 41 < 42")]);
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 460), (StaleWriteRejected, 715)]);
}

#[test]
fn delayed_write_arrives_after_the_next_holder() {
    let t = run_lesson("network-delay");
    let sent = t.events.iter().find(|e| e.text.contains("Client A sends a write")).expect("A sends a write");
    assert_eq!(sent.at_ms, 110, "A's write leaves inside its lease");
    assert_eq!(lease_ends(&t)[0], (1_005, 41, "Expired".into()));
    assert_eq!(writes(&t), vec![ok(1_115, "Client B", 42, "B", 1), rejected(1_315, "Client A", 41, "A", "token 41 < 42")]);
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 1_060), (StaleWriteRejected, 1_315)]);
}

#[test]
fn conditional_write_rejects_by_version() {
    let t = run_lesson("conditional-write");
    assert_eq!(
        writes(&t),
        vec![ok(1_175, "Client B", 42, "B", 1), rejected(1_555, "Client A", 41, "A", "expected version 0, found 1")]
    );
    assert!(t.verdict.safe);
}

#[test]
fn every_lesson_has_metadata_and_an_outcome_test() {
    // Adding a lesson means adding its outcome test (here or in tests/redis.rs, zookeeper.rs, etcd.rs, postgres.rs, redlock.rs), then its id below.
    let ids: Vec<String> = lessons::all().iter().map(|l| l.id().to_string()).collect();
    assert_eq!(
        ids,
        [
            "lease-race-fenced",
            "lease-race-unfenced",
            "short-pause",
            "clock-jump",
            "network-delay",
            "conditional-write",
            "redis-del-release",
            "redis-safe-release",
            "redis-renewal-abort",
            "redis-renewal-carry-on",
            "redis-value-not-token",
            "redis-incr-token",
            "redis-idempotent-job",
            "redis-failover",
            "redis-failover-replicated",
            "zk-queue",
            "zk-herd",
            "zk-session-expiry",
            "zk-session-expiry-unchecked",
            "etcd-lease-expires",
            "etcd-unchecked",
            "pg-same-database",
            "pg-external",
            "pg-no-timeout",
            "redlock-happy",
            "redlock-clock-jump",
            "redlock-pause",
            "redlock-pause-checked",
            "redlock-restart",
            "redlock-delayed-restart",
            "redlock-slow-acquisition"
        ]
    );
    for l in lessons::all() {
        let s = &l.scenario;
        assert!(!s.title.is_empty() && !s.topic.is_empty() && s.intro.len() > 80 && !s.takeaway.is_empty(), "{}", s.id);
        let g = s.guarantees.as_ref().unwrap_or_else(|| panic!("{} states its guarantees", s.id));
        assert!(g.safety.len() > 40 && g.liveness.len() > 20 && g.assumes.len() > 20, "{}", s.id);
    }
}
