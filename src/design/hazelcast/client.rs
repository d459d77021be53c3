//! A client's side of the FencedLock: a CP session kept alive by heartbeats, `lock()` (granted
//! or queued), and `unlock()`.

use super::HzMsg;
use crate::engine::actor::{Cx, Timer};
use crate::engine::ids::NodeId;
use crate::engine::msg::{LockMsg, Msg, ReleaseMode};
use crate::engine::policy::{RenewFailure, RenewPolicy};
use crate::engine::protocol::{ClientView, LockClient, Progress, Release};
use crate::engine::time::Millis;

/// One Hazelcast client.
#[derive(Clone, Hash)]
pub(super) struct HzClient {
    group: NodeId,
    heartbeat_ms: u64,
    request: u32,
    /// The lock call in flight or queued: its answer may come long after later heartbeats.
    lock_request: u32,
    session: Option<u64>,
    timeout_ms: Millis,
}

impl HzClient {
    pub(super) fn new(group: NodeId, heartbeat_ms: u64) -> Self {
        HzClient { group, heartbeat_ms, request: 0, lock_request: 0, session: None, timeout_ms: Millis::ZERO }
    }

    fn send(&mut self, cx: &mut Cx, msg: impl FnOnce(u32) -> HzMsg) -> u32 {
        self.request += 1;
        cx.send(self.group, Msg::lock(msg(self.request)));
        self.request
    }

    /// Calls `lock()`, creating a CP session first if it has none.
    fn lock(&mut self, cx: &mut Cx) {
        match self.session {
            Some(session) => self.lock_request = self.send(cx, |request| HzMsg::Lock { request, session }),
            None => self.lock_request = self.send(cx, |request| HzMsg::CreateSession { request }),
        }
        cx.after(Timer::Timeout, self.timeout_ms);
    }
}

impl LockClient for HzClient {
    fn acquire(&mut self, cx: &mut Cx, timeout_ms: Millis) {
        self.timeout_ms = timeout_ms;
        self.lock(cx);
    }

    fn on_message(&mut self, cx: &mut Cx, _from: NodeId, msg: &LockMsg, view: ClientView) -> Progress {
        let Some(&msg) = msg.get::<HzMsg>() else { return Progress::Pending };
        let lock_call = msg.request() == self.lock_request;
        match msg {
            HzMsg::SessionCreated { session, .. } if lock_call && view.acquiring => {
                self.session = Some(session);
                self.lock(cx);
                Progress::Pending
            }
            HzMsg::Locked { fence, .. } if lock_call => Progress::Granted { token: fence, until_local: None },
            HzMsg::Waiting { .. } if lock_call && view.acquiring => Progress::Queued,
            // A new lock call opens a new session; a holder keeps the closed one's id, so its
            // unlock() hears that the lock is no longer its own.
            HzMsg::SessionExpired { .. } if view.acquiring => {
                self.session = None;
                self.lock(cx);
                Progress::Pending
            }
            HzMsg::SessionExpired { .. } => Progress::Lost,
            HzMsg::HeartbeatOk { .. } => Progress::Renewed { until_local: None },
            HzMsg::Unlocked { .. } | HzMsg::OwnershipLost { .. } => Progress::Released,
            _ => Progress::Pending,
        }
    }

    fn on_timeout(&mut self, _cx: &mut Cx, _timeout_ms: Millis) -> Progress {
        Progress::Refused
    }

    /// The session's heartbeats, every `session-heartbeat-interval-seconds`. Nobody tells the
    /// application when its session closes: the next call on the lock throws.
    fn renewal(&self, _policy: Option<RenewPolicy>) -> Option<RenewPolicy> {
        Some(RenewPolicy { every_ms: self.heartbeat_ms, on_failure: RenewFailure::CarryOn })
    }

    fn renew(&mut self, cx: &mut Cx, _held: Option<u64>) {
        if let Some(session) = self.session {
            self.send(cx, |request| HzMsg::Heartbeat { request, session });
        }
    }

    fn on_renew_timeout(&mut self, _cx: &mut Cx) -> Progress {
        Progress::RenewRetry
    }

    fn release(&mut self, cx: &mut Cx, held: Option<u64>, _last: u64, _mode: ReleaseMode) -> Release {
        let (Some(_), Some(session)) = (held, self.session) else { return Release::Nothing };
        self.send(cx, |request| HzMsg::Unlock { request, session });
        Release::AwaitReply
    }
}
