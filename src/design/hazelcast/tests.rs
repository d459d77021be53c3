//! Tests of the CP group.

use super::*;
use crate::engine::actor::testing::{call, sent};
use crate::engine::msg::Msg;

fn replies(g: &mut CpGroup, now: i64, from: usize, msg: HzMsg) -> Vec<(usize, HzMsg)> {
    sent(&call(g, now, from, Msg::lock(msg)))
        .into_iter()
        .map(|(to, m)| match m {
            Msg::Lock { msg } => (to, *msg.get::<HzMsg>().expect("a CP reply")),
            other => panic!("not a CP reply: {other:?}"),
        })
        .collect()
}

#[test]
fn fences_are_commit_indexes_and_a_closed_session_passes_the_lock_on() {
    let mut g = CpGroup::new(Millis::from_ms(300_000));
    assert_eq!(replies(&mut g, 0, 1, HzMsg::CreateSession { request: 1 }), vec![(1, HzMsg::SessionCreated { request: 1, session: 1 })]);
    assert_eq!(replies(&mut g, 0, 1, HzMsg::Lock { request: 2, session: 1 }), vec![(1, HzMsg::Locked { request: 2, fence: 2 })]);
    // A reentrant lock call keeps the fence; heartbeats take commit indexes too.
    assert_eq!(replies(&mut g, 10, 1, HzMsg::Lock { request: 3, session: 1 }), vec![(1, HzMsg::Locked { request: 3, fence: 2 })]);
    assert_eq!(replies(&mut g, 5_000, 1, HzMsg::Heartbeat { request: 4, session: 1 }), vec![(1, HzMsg::HeartbeatOk { request: 4 })]);
    assert_eq!(replies(&mut g, 6_000, 2, HzMsg::CreateSession { request: 1 }), vec![(2, HzMsg::SessionCreated { request: 1, session: 5 })]);
    assert_eq!(replies(&mut g, 6_000, 2, HzMsg::Lock { request: 2, session: 5 }), vec![(2, HzMsg::Waiting { request: 2 })]);
    // Session 1 goes silent: at 305 s it is closed, and the waiter gets the fence of its own call.
    let handed = replies(&mut g, 305_000, 2, HzMsg::Heartbeat { request: 3, session: 5 });
    assert_eq!(handed, vec![(2, HzMsg::Locked { request: 2, fence: 6 }), (2, HzMsg::HeartbeatOk { request: 3 })]);
    assert_eq!(replies(&mut g, 305_100, 1, HzMsg::Unlock { request: 5, session: 1 }), vec![(1, HzMsg::OwnershipLost { request: 5 })]);
}
