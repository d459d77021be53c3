//! Tests of the etcd node.

use super::*;
use crate::engine::actor::testing::{call, sent};
use crate::engine::actor::Command;
use crate::engine::event::{EventKind, LockEnd};
use crate::engine::ids::NodeId;
use crate::engine::msg::{Msg, Rejection};
use crate::engine::time::Millis;

fn to(client: usize, msg: EtcdMsg) -> (usize, Msg) {
    (client, Msg::lock(msg))
}

fn send(e: &mut EtcdNode, now: i64, from: usize, msg: EtcdMsg) -> Vec<(usize, Msg)> {
    sent(&call(e, now, from, Msg::lock(msg)))
}

#[test]
fn lowest_create_revision_owns_and_the_next_waits_on_its_predecessor() {
    let mut e = EtcdNode::new(Millis::from_ms(1000), 10);
    assert_eq!(send(&mut e, 0, 1, EtcdMsg::Lock), vec![to(1, EtcdMsg::Owner { revision: 10 })]);
    assert_eq!(send(&mut e, 5, 2, EtcdMsg::Lock), vec![to(2, EtcdMsg::Queued { revision: 11, behind: 10 })]);
    assert_eq!(send(&mut e, 6, 3, EtcdMsg::Lock), vec![to(3, EtcdMsg::Queued { revision: 12, behind: 11 })]);
    // Unlocking deletes the key (revision 13) and wakes only the next contender.
    let out = send(&mut e, 20, 1, EtcdMsg::Unlock { revision: 10 });
    assert_eq!(out, vec![to(2, EtcdMsg::Owner { revision: 11 }), to(1, EtcdMsg::Unlocked { done: true })]);
    assert_eq!(e.revision, 13);
}

#[test]
fn a_guarded_put_commits_only_while_the_lock_key_keeps_its_create_revision() {
    let mut e = EtcdNode::new(Millis::from_ms(1000), 1);
    send(&mut e, 0, 1, EtcdMsg::Lock);
    send(&mut e, 0, 2, EtcdMsg::Lock);
    let put = |token| Msg::Write { token, value: "v".into(), expected_version: None };
    let refused = |token| Msg::WriteRejected { reason: Rejection::Guard { token } };
    assert_eq!(sent(&call(&mut e, 10, 2, put(2))), vec![(2, refused(2))], "a waiter does not own the lock");
    assert_eq!(sent(&call(&mut e, 20, 1, put(1))), vec![(1, Msg::WriteAccepted { version: 1 })]);
    send(&mut e, 900, 2, EtcdMsg::KeepAlive);
    // Client 1's session expired at 1,000: its key is gone, client 2 owns the lock, and
    // client 1's guarded put fails.
    assert_eq!(sent(&call(&mut e, 1_200, 1, put(1))), vec![to(2, EtcdMsg::Owner { revision: 2 }), (1, refused(1))]);
}

#[test]
fn an_expired_session_deletes_the_key_and_hands_the_lock_on() {
    let mut e = EtcdNode::new(Millis::from_ms(1000), 1);
    send(&mut e, 0, 1, EtcdMsg::Lock);
    send(&mut e, 0, 2, EtcdMsg::Lock);
    // Client 2 keeps its session alive; client 1 does not.
    send(&mut e, 900, 2, EtcdMsg::KeepAlive);
    let out = call(&mut e, 1000, 3, Msg::Read);
    assert!(out.contains(&Command::Note(EventKind::LockEnded { holder: NodeId(1), token: 1, how: LockEnd::Expired })));
    assert_eq!(sent(&out), vec![to(2, EtcdMsg::Owner { revision: 2 })]);
}
