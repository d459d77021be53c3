//! Tests of the Consul servers.

use super::*;
use crate::engine::actor::testing::{call, sent};
use crate::engine::msg::Msg;

fn reply(c: &mut ConsulServer, now: i64, from: usize, msg: ConsulMsg) -> ConsulMsg {
    match sent(&call(c, now, from, Msg::lock(msg))).remove(0).1 {
        Msg::Lock { msg } => *msg.get::<ConsulMsg>().expect("a Consul reply"),
        other => panic!("not a Consul reply: {other:?}"),
    }
}

#[test]
fn lock_delay_follows_an_invalidation_and_not_a_release() {
    let mut c = ConsulServer::new(Millis::from_ms(10_000), Millis::from_ms(15_000), false);
    let s1 = match reply(&mut c, 0, 1, ConsulMsg::CreateSession { request: 1 }) {
        ConsulMsg::SessionCreated { session, .. } => session,
        other => panic!("{other:?}"),
    };
    assert_eq!(reply(&mut c, 0, 1, ConsulMsg::Acquire { request: 2, session: s1 }), ConsulMsg::Acquired { request: 2, lock_index: 1 });
    assert_eq!(reply(&mut c, 0, 2, ConsulMsg::CreateSession { request: 1 }), ConsulMsg::SessionCreated { request: 1, session: 2 });
    // Reaped only at twice the TTL: at 19.9 s the key is still held.
    assert_eq!(
        reply(&mut c, 19_900, 2, ConsulMsg::Renew { request: 2, session: 2 }),
        ConsulMsg::Renewed { request: 2, ttl: Millis::from_ms(10_000) }
    );
    let busy = reply(&mut c, 19_950, 2, ConsulMsg::Acquire { request: 3, session: 2 });
    assert_eq!(busy, ConsulMsg::NotAcquired { request: 3, delay_left: Millis::ZERO });
    // At 20 s session 1 is reaped: lock-delay holds the key for 15 s.
    let delayed = reply(&mut c, 25_000, 2, ConsulMsg::Acquire { request: 4, session: 2 });
    assert_eq!(delayed, ConsulMsg::NotAcquired { request: 4, delay_left: Millis::from_ms(10_000) });
    assert_eq!(reply(&mut c, 35_000, 2, ConsulMsg::Acquire { request: 5, session: 2 }), ConsulMsg::Acquired { request: 5, lock_index: 2 });
    assert_eq!(reply(&mut c, 35_100, 1, ConsulMsg::Renew { request: 3, session: s1 }), ConsulMsg::SessionNotFound { request: 3 });
    // A normal release starts no lock-delay.
    assert_eq!(reply(&mut c, 36_000, 2, ConsulMsg::Release { request: 6, session: 2 }), ConsulMsg::Released { request: 6, done: true });
    assert_eq!(reply(&mut c, 36_000, 3, ConsulMsg::CreateSession { request: 1 }), ConsulMsg::SessionCreated { request: 1, session: 3 });
    assert_eq!(reply(&mut c, 36_010, 3, ConsulMsg::Acquire { request: 2, session: 3 }), ConsulMsg::Acquired { request: 2, lock_index: 3 });
}
