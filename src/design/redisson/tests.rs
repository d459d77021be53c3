//! Tests of Redisson's settings and its client's watchdog.

use super::*;
use crate::engine::policy::{RenewFailure, RenewPolicy};

fn client(settings: RedissonSettings) -> Box<dyn LockClient> {
    settings.configure().client(&[NodeId(1)]).expect("a client")
}

#[test]
fn the_watchdog_renews_every_third_of_its_timeout_only_without_a_lease_time() {
    let script = Some(RenewPolicy { every_ms: 100, on_failure: RenewFailure::Abort });
    // Redisson's default: a 30 s lock renewed every 10 s, whatever the script asked for, and
    // the application carries on whether renewals succeed or not.
    let watchdog = client(RedissonSettings::new()).renewal(script);
    assert_eq!(watchdog, Some(RenewPolicy { every_ms: 10_000, on_failure: RenewFailure::CarryOn }));
    assert_eq!(client(RedissonSettings { lease_time_ms: 5_000, ..RedissonSettings::new() }).renewal(script), None);
}

#[test]
fn a_fenced_lock_is_for_correctness_and_says_its_counter_can_repeat() {
    let fenced = RedissonSettings { fenced: true, ..RedissonSettings::new() }.configure();
    let g = fenced.guarantees();
    assert_eq!(g.lock, LockKind::Correctness);
    assert!(g.safety.contains("failover can repeat it"), "{}", g.safety);
    assert_eq!(RedissonSettings::new().configure().guarantees().lock, LockKind::Efficiency);
}
