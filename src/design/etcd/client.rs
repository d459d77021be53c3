//! A client's side of the etcd mutex.

use super::EtcdMsg;
use crate::engine::actor::{Cx, Timer};
use crate::engine::ids::NodeId;
use crate::engine::msg::{LockMsg, Msg, ReleaseMode};
use crate::engine::protocol::{ClientView, LockClient, Progress, Release};
use crate::engine::time::{LocalMillis, Millis};

/// A client's side of the mutex: a session kept alive by keep-alives.
#[derive(Clone, Hash)]
pub(super) struct EtcdClient {
    etcd: NodeId,
    ttl_ms: Millis,
    acquire_sent_at: LocalMillis,
    renew_sent_at: LocalMillis,
}

impl EtcdClient {
    /// Builds a client of `etcd` whose session leases last `ttl_ms`.
    pub(super) fn new(etcd: NodeId, ttl_ms: Millis) -> Self {
        EtcdClient { etcd, ttl_ms, acquire_sent_at: LocalMillis::ZERO, renew_sent_at: LocalMillis::ZERO }
    }
}

impl LockClient for EtcdClient {
    fn acquire(&mut self, cx: &mut Cx, timeout_ms: Millis) {
        self.acquire_sent_at = cx.now;
        cx.send(self.etcd, Msg::lock(EtcdMsg::Lock));
        cx.after(Timer::Timeout, timeout_ms);
    }

    fn on_message(&mut self, _cx: &mut Cx, _from: NodeId, msg: &LockMsg, view: ClientView) -> Progress {
        let Some(msg) = msg.get::<EtcdMsg>() else { return Progress::Pending };
        match *msg {
            EtcdMsg::Owner { revision } => {
                // A queued client's session was last extended by its latest keep-alive.
                let since = if view.queued { self.acquire_sent_at.max(self.renew_sent_at) } else { self.acquire_sent_at };
                Progress::Granted { token: revision, until_local: Some(since + self.ttl_ms) }
            }
            EtcdMsg::Queued { .. } => Progress::Queued,
            EtcdMsg::KeptAlive { ttl_ms } => Progress::Renewed { until_local: Some(self.renew_sent_at + ttl_ms) },
            EtcdMsg::LeaseNotFound => Progress::Lost,
            EtcdMsg::Unlocked { .. } => Progress::Released,
            EtcdMsg::Lock | EtcdMsg::KeepAlive | EtcdMsg::Unlock { .. } => Progress::Pending,
        }
    }

    fn on_timeout(&mut self, _cx: &mut Cx, _timeout_ms: Millis) -> Progress {
        Progress::Refused
    }

    fn renew(&mut self, cx: &mut Cx, _held: Option<u64>) {
        self.renew_sent_at = cx.now;
        cx.send(self.etcd, Msg::lock(EtcdMsg::KeepAlive));
    }

    fn release(&mut self, cx: &mut Cx, held: Option<u64>, _last: u64, _mode: ReleaseMode) -> Release {
        match held {
            Some(revision) => {
                cx.send(self.etcd, Msg::lock(EtcdMsg::Unlock { revision }));
                Release::AwaitReply
            }
            None => Release::Nothing,
        }
    }
}
