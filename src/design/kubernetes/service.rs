//! The API server: it stores the Lease and enforces only optimistic concurrency.

use super::{ApiMsg, LeaseSpec};
use crate::engine::actor::{Actor, Cx, Timer};
use crate::engine::event::{EventKind, LockEnd};
use crate::engine::ids::NodeId;
use crate::engine::msg::Msg;

/// The API server: stores the Lease with optimistic concurrency, and judges no time.
#[derive(Clone, Hash)]
pub(super) struct ApiServer {
    lease: Option<LeaseSpec>,
    resource_version: u64,
}

impl ApiServer {
    /// Builds an API server with no Lease stored yet.
    pub(super) fn new() -> Self {
        ApiServer { lease: None, resource_version: 0 }
    }

    /// Stores a new version of the Lease and records who holds it now.
    fn store(&mut self, cx: &mut Cx, lease: LeaseSpec) -> u64 {
        let old = self.lease.replace(lease);
        self.resource_version += 1;
        let old_holder = old.and_then(|o| o.holder.map(|h| (h, o.transitions)));
        match (old_holder, lease.holder) {
            (Some((o, _)), Some(n)) if o == n => {
                cx.note(EventKind::LockExtended { holder: n, token: lease.transitions, expires_local: None })
            }
            (old, new) => {
                if let Some((o, token)) = old {
                    let how = if new.is_some() { LockEnd::Replaced } else { LockEnd::Released };
                    cx.note(EventKind::LockEnded { holder: o, token, how });
                }
                if let Some(n) = new {
                    cx.note(EventKind::LockGranted { holder: n, token: lease.transitions, expires_local: None });
                }
            }
        }
        self.resource_version
    }
}

impl Actor for ApiServer {
    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &Msg) {
        let Msg::Lock { msg } = msg else { return };
        let Some(msg) = msg.get::<ApiMsg>() else { return };
        let reply = match *msg {
            ApiMsg::Get { request } => match self.lease {
                Some(lease) => ApiMsg::Found { request, lease, version: self.resource_version },
                None => ApiMsg::NotFound { request },
            },
            ApiMsg::Create { request, .. } if self.lease.is_some() => ApiMsg::Conflict { request },
            ApiMsg::Create { request, lease } => ApiMsg::Stored { request, version: self.store(cx, lease) },
            ApiMsg::Update { request, .. } if self.lease.is_none() => ApiMsg::NotFound { request },
            ApiMsg::Update { request, version, .. } if version != self.resource_version => ApiMsg::Conflict { request },
            ApiMsg::Update { request, lease, .. } => ApiMsg::Stored { request, version: self.store(cx, lease) },
            ApiMsg::Found { .. } | ApiMsg::NotFound { .. } | ApiMsg::Stored { .. } | ApiMsg::Conflict { .. } => return,
        };
        cx.send(from, Msg::lock(reply));
    }

    fn on_timer(&mut self, _cx: &mut Cx, _timer: Timer) {}

    fn on_restart(&mut self, _cx: &mut Cx, _keep_state: bool) {
        // The API server keeps the Lease in etcd: it survives a restart.
    }
}
