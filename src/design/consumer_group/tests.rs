//! Tests of the coordinator.

use super::service::GroupTimer;
use super::*;
use crate::engine::actor::testing::{call, fire, sent};
use crate::engine::actor::Timer;
use crate::engine::msg::{Msg, Rejection};
use crate::engine::time::Millis;

fn coordinator() -> Coordinator {
    Coordinator::new(
        Times { session_ms: Millis::from_ms(1_000), initial_delay_ms: Millis::from_ms(100), rebalance_ms: Millis::from_ms(1_000) },
        1,
    )
}

fn say(c: &mut Coordinator, now: i64, from: usize, msg: GroupMsg) -> Vec<(usize, Msg)> {
    sent(&call(c, now, from, Msg::lock(msg)))
}

fn joined(generation: u64, assigned: bool) -> Msg {
    Msg::lock(GroupMsg::Joined { generation, assigned })
}

fn commit(c: &mut Coordinator, now: i64, from: usize, generation: u64) -> Msg {
    sent(&call(c, now, from, Msg::Write { token: generation, value: "offset 8".into(), expected_version: None })).remove(0).1
}

fn refused(generation: u64, error: GroupError) -> Msg {
    Msg::WriteRejected { reason: Rejection::Refused { token: generation, code: error.name(), means: error.commit_refused() } }
}

/// Forms generation 1 with members 1 (the owner) and 2.
fn formed() -> Coordinator {
    let mut c = coordinator();
    assert_eq!(say(&mut c, 0, 1, GroupMsg::Join), vec![], "a JoinGroup is answered when the rebalance completes");
    assert_eq!(say(&mut c, 10, 2, GroupMsg::Join), vec![]);
    assert_eq!(sent(&fire(&mut c, 100, Timer::service(GroupTimer::Rebalance))), vec![(1, joined(1, true)), (2, joined(1, false))]);
    c
}

#[test]
fn a_join_is_never_refused_it_starts_a_rebalance_and_a_new_generation() {
    let mut c = formed();
    assert_eq!(say(&mut c, 200, 3, GroupMsg::Join), vec![]);
    let rebalancing = Msg::lock(GroupMsg::HeartbeatError { error: GroupError::RebalanceInProgress });
    assert_eq!(say(&mut c, 210, 1, GroupMsg::Heartbeat { generation: 1 }), vec![(1, rebalancing)]);
    assert_eq!(commit(&mut c, 215, 1, 1), refused(1, GroupError::RebalanceInProgress));
    assert_eq!(say(&mut c, 220, 1, GroupMsg::Join), vec![]);
    // The last member back completes it: the owner keeps partition 0 in generation 2.
    assert_eq!(say(&mut c, 230, 2, GroupMsg::Join), vec![(1, joined(2, true)), (2, joined(2, false)), (3, joined(2, false))]);
}

#[test]
fn a_commit_from_an_old_generation_is_refused_before_the_new_one_commits_anything() {
    let mut c = formed();
    assert_eq!(commit(&mut c, 150, 1, 1), Msg::WriteAccepted { version: 1 });
    // Member 1 goes silent: at its session's end it is removed, and member 2 rejoins alone.
    assert_eq!(sent(&fire(&mut c, 1_100, Timer::Expiry(1))), vec![]);
    assert_eq!(commit(&mut c, 1_110, 2, 1), refused(1, GroupError::RebalanceInProgress));
    assert_eq!(say(&mut c, 1_120, 2, GroupMsg::Join), vec![(2, joined(2, true))]);
    // No commit in generation 2 yet, and still: a removed member, then an old generation.
    assert_eq!(commit(&mut c, 1_130, 1, 1), refused(1, GroupError::UnknownMemberId));
    assert_eq!(commit(&mut c, 1_140, 2, 1), refused(1, GroupError::IllegalGeneration));
    assert_eq!(commit(&mut c, 1_150, 2, 2), Msg::WriteAccepted { version: 2 });
}
