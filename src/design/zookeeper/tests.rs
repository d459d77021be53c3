//! Tests of the ensemble and the recipe.

use super::*;
use crate::engine::actor::testing::{self, sent};
use crate::engine::msg::{Msg, MsgKind};
use crate::engine::time::Millis;

fn call(node: &mut Ensemble, now: i64, from: usize, msg: ZkMsg) -> Vec<(usize, Msg)> {
    sent(&testing::call(node, now, from, Msg::lock(msg)))
}

fn to(client: usize, msg: ZkMsg) -> (usize, Msg) {
    (client, Msg::lock(msg))
}

#[test]
fn each_waiter_watches_its_predecessor_and_one_wakes_per_release() {
    let mut zk = Ensemble::new(Millis::from_ms(100), Millis::from_ms(1000), false);
    assert_eq!(call(&mut zk, 0, 1, ZkMsg::Create), vec![to(1, ZkMsg::Owner { seq: 0, czxid: 1 })]);
    assert_eq!(call(&mut zk, 1, 2, ZkMsg::Create), vec![to(2, ZkMsg::Waiting { seq: 1, watching: Some(0) })]);
    assert_eq!(call(&mut zk, 2, 3, ZkMsg::Create), vec![to(3, ZkMsg::Waiting { seq: 2, watching: Some(1) })]);
    let out = call(&mut zk, 10, 1, ZkMsg::Delete { seq: 0 });
    assert_eq!(out, vec![to(2, ZkMsg::WatchFired { deleted: 0 }), to(1, ZkMsg::Deleted { done: true })], "only the successor wakes");
    // The woken client lists again and finds itself first; its czxid (2) is its token.
    assert_eq!(call(&mut zk, 11, 2, ZkMsg::GetChildren), vec![to(2, ZkMsg::Owner { seq: 1, czxid: 2 })]);
}

#[test]
fn the_herd_variant_wakes_every_waiter_on_every_change() {
    let mut zk = Ensemble::new(Millis::from_ms(100), Millis::from_ms(1000), true);
    let woken = |out: Vec<(usize, Msg)>| {
        let mut w: Vec<usize> = out.iter().filter(|(_, m)| m.kind() == MsgKind::WakeUp).map(|(to, _)| *to).collect();
        w.sort_unstable();
        w
    };
    call(&mut zk, 1, 1, ZkMsg::Create);
    call(&mut zk, 2, 2, ZkMsg::Create);
    // A contender arriving fires the watch of the one waiting; a watch is spent when it fires,
    // so the woken client lists the children again, which sets it anew.
    assert_eq!(woken(call(&mut zk, 3, 3, ZkMsg::Create)), vec![2]);
    call(&mut zk, 4, 2, ZkMsg::GetChildren);
    assert_eq!(woken(call(&mut zk, 5, 4, ZkMsg::Create)), vec![2, 3]);
    call(&mut zk, 6, 2, ZkMsg::GetChildren);
    call(&mut zk, 6, 3, ZkMsg::GetChildren);
    assert_eq!(woken(call(&mut zk, 10, 1, ZkMsg::Delete { seq: 0 })), vec![2, 3, 4], "a release wakes them all");
}

#[test]
fn the_ensemble_expires_a_silent_session_on_a_tick_and_deletes_its_znode() {
    let mut zk = Ensemble::new(Millis::from_ms(100), Millis::from_ms(1000), false);
    call(&mut zk, 5, 1, ZkMsg::Create);
    call(&mut zk, 6, 2, ZkMsg::Create);
    // Heard at 5: due at 1,005, expired at the next tick, 1,100.
    assert!(!call(&mut zk, 1099, 2, ZkMsg::Ping).contains(&to(2, ZkMsg::WatchFired { deleted: 0 })));
    assert!(call(&mut zk, 1100, 2, ZkMsg::Ping).contains(&to(2, ZkMsg::WatchFired { deleted: 0 })));
    // Client 1 learns of the expiry only when it next talks to the ensemble, and nothing
    // more runs on that session.
    assert_eq!(call(&mut zk, 1500, 1, ZkMsg::Ping), vec![to(1, ZkMsg::SessionExpired)]);
    assert_eq!(call(&mut zk, 1600, 1, ZkMsg::Delete { seq: 0 }), vec![to(1, ZkMsg::SessionExpired)]);
    assert_eq!(call(&mut zk, 1700, 1, ZkMsg::Create), vec![to(1, ZkMsg::SessionExpired)]);
}

#[test]
fn every_request_keeps_the_session_alive() {
    let mut zk = Ensemble::new(Millis::from_ms(100), Millis::from_ms(1000), false);
    call(&mut zk, 0, 1, ZkMsg::Create);
    call(&mut zk, 0, 2, ZkMsg::Create);
    call(&mut zk, 900, 1, ZkMsg::GetChildren);
    assert_eq!(call(&mut zk, 1500, 1, ZkMsg::Ping), vec![to(1, ZkMsg::Pong)], "listing the children counted as a heartbeat");
}

#[test]
fn znodes_are_named_with_ten_digits() {
    assert_eq!(znode_name(7), "lock-0000000007");
}
