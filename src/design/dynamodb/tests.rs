//! Tests of the lock table and the settings.

use super::*;
use crate::engine::actor::testing::{call, sent};
use crate::engine::actor::Command;
use crate::engine::event::{EventKind, LockEnd};
use crate::engine::msg::Msg;

fn answer(table: &mut LockTable, from: usize, msg: DynamoMsg) -> (Vec<Command>, Msg) {
    let out = call(table, 0, from, Msg::lock(msg));
    let reply = sent(&out).remove(0).1;
    (out, reply)
}

#[test]
fn the_table_takes_only_writes_whose_condition_holds_and_counts_the_fence() {
    let mut t = LockTable::new(true);
    let put = |request, rvn, condition| DynamoMsg::PutItem { request, rvn, lease_ms: 20_000, condition };
    assert_eq!(answer(&mut t, 1, put(1, 7, Condition::NotExists)).1, Msg::lock(DynamoMsg::Written { request: 1, fence: 1 }));
    assert_eq!(answer(&mut t, 2, put(1, 8, Condition::NotExists)).1, Msg::lock(DynamoMsg::ConditionFailed { request: 1 }));
    // A heartbeat rewrites the RVN; a takeover conditioned on the old one then fails.
    let beat = DynamoMsg::Heartbeat { request: 2, rvn: 7, new_rvn: 9, lease_ms: 20_000 };
    assert_eq!(answer(&mut t, 1, beat).1, Msg::lock(DynamoMsg::Written { request: 2, fence: 1 }));
    assert_eq!(answer(&mut t, 2, put(2, 8, Condition::RvnIs { rvn: 7 })).1, Msg::lock(DynamoMsg::ConditionFailed { request: 2 }));
    let (out, reply) = answer(&mut t, 2, put(3, 8, Condition::RvnIs { rvn: 9 }));
    assert_eq!(reply, Msg::lock(DynamoMsg::Written { request: 3, fence: 2 }));
    assert!(out.contains(&Command::Note(EventKind::LockEnded { holder: NodeId(1), token: 1, how: LockEnd::Replaced })));
    // The old holder's next heartbeat and its release find another's item.
    assert_eq!(
        answer(&mut t, 1, DynamoMsg::Heartbeat { request: 3, rvn: 9, new_rvn: 10, lease_ms: 20_000 }).1,
        Msg::lock(DynamoMsg::ConditionFailed { request: 3 })
    );
    assert_eq!(
        answer(&mut t, 1, DynamoMsg::Release { request: 4, rvn: 9, delete: false }).1,
        Msg::lock(DynamoMsg::ConditionFailed { request: 4 })
    );
    // Released and kept, the item keeps its fence: the next acquisition gets 3.
    assert_eq!(
        answer(&mut t, 2, DynamoMsg::Release { request: 4, rvn: 8, delete: false }).1,
        Msg::lock(DynamoMsg::Written { request: 4, fence: 0 })
    );
    assert_eq!(answer(&mut t, 1, put(5, 11, Condition::Released)).1, Msg::lock(DynamoMsg::Written { request: 5, fence: 3 }));
}

#[test]
fn a_fence_attribute_needs_the_item_kept_on_release() {
    let e = DynamoDbSettings { fence_attribute: true, ..DynamoDbSettings::new() }.build().unwrap_err();
    assert!(e.to_string().starts_with("lock.fence_attribute: needs delete_lock_on_release false"), "{e}");
}

#[test]
fn a_heartbeat_longer_than_half_the_lease_is_refused_as_the_client_refuses_it() {
    let e = DynamoDbSettings { heartbeat_period_ms: 10_001, ..DynamoDbSettings::new() }.build().unwrap_err();
    assert_eq!(
        e.to_string(),
        "lock.heartbeat_period_ms: must be no more than half of lease_duration_ms (20000), as the lock client requires, got 10001"
    );
    assert_eq!(DynamoDbSettings::new().configure().guarantees().lock, LockKind::Efficiency);
}
