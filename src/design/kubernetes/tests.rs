//! Tests of the API server and the elector.

use super::*;
use crate::design::Factory;
use crate::engine::actor::testing::{call, sent};
use crate::engine::actor::Command;
use crate::engine::event::{EventKind, LockEnd};
use crate::engine::ids::NodeId;
use crate::engine::msg::Msg;
use crate::engine::time::LocalMillis;

fn lease(holder: usize, renew_time: i64, transitions: u64) -> LeaseSpec {
    LeaseSpec {
        holder: Some(NodeId(holder)),
        duration_s: 15,
        acquire_time: LocalMillis::ZERO,
        renew_time: LocalMillis::from_ms(renew_time),
        transitions,
    }
}

fn answer(api: &mut ApiServer, from: usize, msg: ApiMsg) -> (Vec<Command>, Msg) {
    let out = call(api, 0, from, Msg::lock(msg));
    let reply = sent(&out).remove(0).1;
    (out, reply)
}

#[test]
fn the_api_server_accepts_an_update_only_at_the_version_it_read() {
    let mut api = ApiServer::new();
    assert_eq!(answer(&mut api, 1, ApiMsg::Get { request: 1 }).1, Msg::lock(ApiMsg::NotFound { request: 1 }));
    assert_eq!(
        answer(&mut api, 1, ApiMsg::Create { request: 2, lease: lease(1, 0, 0) }).1,
        Msg::lock(ApiMsg::Stored { request: 2, version: 1 })
    );
    // Two candidates read version 1; the first to write wins, the second conflicts.
    let (out, reply) = answer(&mut api, 2, ApiMsg::Update { request: 3, lease: lease(2, 20, 1), version: 1, take: true });
    assert_eq!(reply, Msg::lock(ApiMsg::Stored { request: 3, version: 2 }));
    assert!(out.contains(&Command::Note(EventKind::LockEnded { holder: NodeId(1), token: 0, how: LockEnd::Replaced })));
    assert!(out.contains(&Command::Note(EventKind::LockGranted { holder: NodeId(2), token: 1, expires_local: None })));
    assert_eq!(
        answer(&mut api, 3, ApiMsg::Update { request: 4, lease: lease(3, 20, 1), version: 1, take: true }).1,
        Msg::lock(ApiMsg::Conflict { request: 4 })
    );
}

#[test]
fn client_go_rejects_deadlines_it_would_reject() {
    let build = |ld, rd, rp| {
        let settings = KubernetesSettings { lease_duration_ms: ld, renew_deadline_ms: rd, retry_period_ms: rp };
        settings.build().map(|_| ()).map_err(|e| e.to_string())
    };
    assert_eq!(build(15_000, 10_000, 2_000), Ok(()));
    assert!(build(15_000, 15_000, 2_000).unwrap_err().starts_with("lock.renew_deadline_ms: must be less than lease_duration_ms"));
    assert!(build(15_000, 2_400, 2_000).unwrap_err().starts_with("lock.renew_deadline_ms: must be more than 1.2 × retry_period_ms"));
    assert!(build(15_500, 10_000, 2_000).unwrap_err().starts_with("lock.lease_duration_ms: must be whole seconds"));
    assert_eq!((ratio(15_000, 10_000), ratio(15_000, 12_000), ratio(30_000, 10_000)), ("1.5".into(), "1.25".into(), "3".into()));
}
