//! Tests of the Redis node.

use super::*;
use crate::design::redis_wire::RedisMsg;
use crate::engine::actor::testing::{call, sent};
use crate::engine::actor::Command;
use crate::engine::actor::{Actor, Cx};
use crate::engine::event::{EventKind, LockEnd};
use crate::engine::ids::NodeId;
use crate::engine::msg::Msg;
use crate::engine::time::{LocalMillis, Millis};

fn reply(node: &mut RedisNode, now: i64, from: usize, msg: RedisMsg) -> Msg {
    sent(&call(node, now, from, Msg::lock(msg))).remove(0).1
}

fn primary(ttl_ms: u64, incr: bool) -> RedisNode {
    RedisNode::new(Millis::from_ms(ttl_ms), if incr { Incr::WithSet } else { Incr::None }, RedisRole::Primary, &[])
}

#[test]
fn set_nx_refuses_while_the_key_lives_and_grants_after_expiry() {
    let mut r = primary(1000, false);
    assert_eq!(reply(&mut r, 0, 1, RedisMsg::Set { value: 7, px_ms: Millis::from_ms(1000) }), Msg::lock(RedisMsg::SetOk { token: None }));
    assert_eq!(reply(&mut r, 999, 2, RedisMsg::Set { value: 8, px_ms: Millis::from_ms(1000) }), Msg::lock(RedisMsg::Nil));
    // Expiry is judged on the node's own clock reading.
    assert_eq!(
        reply(&mut r, 1000, 2, RedisMsg::Set { value: 8, px_ms: Millis::from_ms(1000) }),
        Msg::lock(RedisMsg::SetOk { token: None })
    );
}

#[test]
fn a_replica_takes_the_expiry_as_an_absolute_time_and_carries_the_counter_on_when_promoted() {
    let mut replica = RedisNode::new(Millis::from_ms(1000), Incr::WithSet, RedisRole::Replica, &[]);
    // The copy arrives 200 ms late: the key still ends when the primary's did (PXAT).
    call(
        &mut replica,
        210,
        0,
        Msg::lock(RedisMsg::Replicate { holder: NodeId(1), value: 7, token: 5, expires_at: LocalMillis::from_ms(1_010), offset: 1 }),
    );
    assert_eq!(replica.key.map(|k| k.expires_local.as_ms()), Some(1_010));
    replica.role = RedisRole::Primary;
    // Promoted, it hands out the counter's next value, not 1.
    assert_eq!(
        reply(&mut replica, 1_020, 2, RedisMsg::Set { value: 8, px_ms: Millis::from_ms(1000) }),
        Msg::lock(RedisMsg::SetOk { token: Some(6) })
    );
}

#[test]
fn compare_value_release_refuses_a_stranger_but_del_does_not() {
    let mut r = primary(1000, false);
    reply(&mut r, 0, 1, RedisMsg::Set { value: 7, px_ms: Millis::from_ms(1000) });
    assert_eq!(reply(&mut r, 10, 2, RedisMsg::Del { value: 99, checked: true }), Msg::lock(RedisMsg::Deleted { done: false }));
    assert!(r.key.is_some());
    let out = call(&mut r, 20, 2, Msg::lock(RedisMsg::Del { value: 99, checked: false }));
    assert_eq!(sent(&out)[0].1, Msg::lock(RedisMsg::Deleted { done: true }));
    let ended = EventKind::LockEnded { holder: NodeId(1), token: 0, how: LockEnd::DeletedByOther };
    assert!(out.contains(&Command::Note(ended)));
    assert!(r.key.is_none());
}

#[test]
fn renewal_extends_only_a_matching_value() {
    let mut r = primary(1000, false);
    reply(&mut r, 0, 1, RedisMsg::Set { value: 7, px_ms: Millis::from_ms(1000) });
    assert_eq!(
        reply(&mut r, 500, 1, RedisMsg::Extend { value: 7, px_ms: Millis::from_ms(1000) }),
        Msg::lock(RedisMsg::Extended { done: true })
    );
    assert_eq!(r.key.unwrap().expires_local, LocalMillis::from_ms(1500));
    assert_eq!(
        reply(&mut r, 600, 2, RedisMsg::Extend { value: 8, px_ms: Millis::from_ms(1000) }),
        Msg::lock(RedisMsg::Extended { done: false })
    );
}

#[test]
fn incr_counter_gives_ordered_tokens() {
    let mut r = primary(100, true);
    assert_eq!(reply(&mut r, 0, 1, RedisMsg::Set { value: 1, px_ms: Millis::from_ms(100) }), Msg::lock(RedisMsg::SetOk { token: Some(1) }));
    assert_eq!(
        reply(&mut r, 200, 2, RedisMsg::Set { value: 2, px_ms: Millis::from_ms(100) }),
        Msg::lock(RedisMsg::SetOk { token: Some(2) })
    );
}

#[test]
fn a_replica_refuses_clients_until_promoted() {
    let mut r = RedisNode::new(Millis::from_ms(100), Incr::None, RedisRole::Replica, &[]);
    assert_eq!(reply(&mut r, 0, 1, RedisMsg::Set { value: 1, px_ms: Millis::from_ms(100) }), Msg::lock(RedisMsg::ReadOnly));
    r.on_promote(&mut Cx { me: NodeId(0), now: LocalMillis::from_ms(1), rng: &mut crate::engine::rng::Rng::new(0), out: &mut Vec::new() });
    assert_eq!(reply(&mut r, 2, 1, RedisMsg::Set { value: 1, px_ms: Millis::from_ms(100) }), Msg::lock(RedisMsg::SetOk { token: None }));
}
