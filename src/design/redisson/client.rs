//! A client's side of Redisson's lock: the acquire script, the watchdog, the unlock script.

use crate::design::redis_wire::RedisMsg;
use crate::engine::actor::{Cx, Timer};
use crate::engine::ids::NodeId;
use crate::engine::msg::{LockMsg, Msg, ReleaseMode};
use crate::engine::policy::{RenewFailure, RenewPolicy};
use crate::engine::protocol::{ClientView, LockClient, Progress, Release};
use crate::engine::time::{LocalMillis, Millis};

/// A client's side of the lock, failing over to the next node when one refuses or is silent.
#[derive(Clone, Hash)]
pub(super) struct RedissonClient {
    nodes: Vec<NodeId>,
    /// The node it talks to now.
    node: usize,
    /// How long each acquisition and renewal sets the hash to live.
    lease_ms: Millis,
    /// Whether the watchdog renews.
    watchdog: bool,
    /// The hash field: the client's UUID and thread id.
    id: u64,
    acquire_sent_at: LocalMillis,
}

impl RedissonClient {
    /// Builds a client of `nodes` whose locks live `lease_ms`, renewed by the watchdog if `watchdog`.
    pub(super) fn new(nodes: &[NodeId], lease_ms: Millis, watchdog: bool) -> Self {
        RedissonClient { nodes: nodes.to_vec(), node: 0, lease_ms, watchdog, id: 0, acquire_sent_at: LocalMillis::ZERO }
    }

    fn send(&self, cx: &mut Cx, msg: RedisMsg) {
        cx.send(self.nodes[self.node], Msg::lock(msg));
    }

    fn fail_over(&mut self) {
        self.node = (self.node + 1) % self.nodes.len();
    }
}

impl LockClient for RedissonClient {
    fn acquire(&mut self, cx: &mut Cx, timeout_ms: Millis) {
        self.id = cx.rng.next_u64();
        self.acquire_sent_at = cx.now;
        self.send(cx, RedisMsg::Set { value: self.id, px_ms: self.lease_ms });
        cx.after(Timer::Timeout, timeout_ms);
    }

    fn on_message(&mut self, _cx: &mut Cx, _from: NodeId, msg: &LockMsg, view: ClientView) -> Progress {
        let Some(msg) = msg.get::<RedisMsg>() else { return Progress::Pending };
        match *msg {
            // The application holds the lock until it unlocks: with the watchdog it checks no
            // time at all; with a lease time, the lease is the end it can foresee.
            RedisMsg::SetOk { token } if view.acquiring => {
                let until_local = (!self.watchdog).then(|| self.acquire_sent_at + self.lease_ms);
                Progress::Granted { token: token.unwrap_or(0), until_local }
            }
            RedisMsg::Nil if view.acquiring => Progress::Refused,
            RedisMsg::ReadOnly if view.acquiring => {
                self.fail_over();
                Progress::Refused
            }
            RedisMsg::Extended { done: true } if view.held.is_some() => Progress::Renewed { until_local: None },
            // The field is gone: the watchdog cancels itself, and tells nobody.
            RedisMsg::Extended { done: false } if view.held.is_some() => Progress::Lost,
            RedisMsg::Deleted { .. } => Progress::Released,
            _ => Progress::Pending,
        }
    }

    fn on_timeout(&mut self, _cx: &mut Cx, _timeout_ms: Millis) -> Progress {
        self.fail_over();
        Progress::Refused
    }

    /// The watchdog, only without a lease time: every third of the timeout, whatever the script
    /// says, and the application carries on whether it succeeds or not.
    fn renewal(&self, _policy: Option<RenewPolicy>) -> Option<RenewPolicy> {
        self.watchdog.then(|| RenewPolicy { every_ms: self.lease_ms.as_ms() / 3, on_failure: RenewFailure::CarryOn })
    }

    fn renew(&mut self, cx: &mut Cx, _held: Option<u64>) {
        self.send(cx, RedisMsg::Extend { value: self.id, px_ms: self.lease_ms });
    }

    /// An unanswered renewal is an error: the watchdog stops for good.
    fn on_renew_timeout(&mut self, _cx: &mut Cx) -> Progress {
        Progress::Lost
    }

    fn release(&mut self, cx: &mut Cx, held: Option<u64>, _last: u64, _mode: ReleaseMode) -> Release {
        if held.is_none() {
            return Release::Nothing;
        }
        self.send(cx, RedisMsg::Del { value: self.id, checked: true });
        Release::AwaitReply
    }
}
