//! A client's side of the lock, as the Go client's `api.Lock` does it: a session, an acquire
//! of the key, renewals every half TTL, and a release.

use super::ConsulMsg;
use crate::engine::actor::{Cx, Timer};
use crate::engine::ids::NodeId;
use crate::engine::msg::{LockMsg, Msg, ReleaseMode};
use crate::engine::policy::{RenewFailure, RenewPolicy};
use crate::engine::protocol::{ClientView, LockClient, Progress, Release};
use crate::engine::time::Millis;

/// One client of the Consul servers.
#[derive(Clone, Hash)]
pub struct ConsulClient {
    server: NodeId,
    /// How often its session is renewed.
    renew_every_ms: u64,
    request: u32,
    /// Its session, once created and until it learns the session is gone.
    session: Option<u64>,
    /// Whether the session was renewed for the attempt under way.
    fresh: bool,
    timeout_ms: Millis,
}

impl ConsulClient {
    /// Builds a client of `server` that renews its session every `renew_every_ms`.
    pub fn new(server: NodeId, renew_every_ms: u64) -> Self {
        ConsulClient { server, renew_every_ms, request: 0, session: None, fresh: false, timeout_ms: Millis::ZERO }
    }

    fn send(&mut self, cx: &mut Cx, msg: impl FnOnce(u32) -> ConsulMsg) {
        self.request += 1;
        cx.send(self.server, Msg::lock(msg(self.request)));
    }

    /// Acquires the key with its session: creating one first if it has none, or renewing the one
    /// it has, which `RenewPeriodic` keeps alive while the client waits.
    fn try_acquire(&mut self, cx: &mut Cx) {
        match (self.session, self.fresh) {
            (Some(session), true) => self.send(cx, |request| ConsulMsg::Acquire { request, session }),
            (Some(session), false) => self.send(cx, |request| ConsulMsg::Renew { request, session }),
            (None, _) => self.send(cx, |request| ConsulMsg::CreateSession { request }),
        }
        self.fresh = true;
        cx.after(Timer::Timeout, self.timeout_ms);
    }
}

impl LockClient for ConsulClient {
    fn acquire(&mut self, cx: &mut Cx, timeout_ms: Millis) {
        (self.timeout_ms, self.fresh) = (timeout_ms, false);
        self.try_acquire(cx);
    }

    fn on_message(&mut self, cx: &mut Cx, _from: NodeId, msg: &LockMsg, view: ClientView) -> Progress {
        let Some(&msg) = msg.get::<ConsulMsg>() else { return Progress::Pending };
        if msg.request() != self.request {
            return Progress::Pending;
        }
        match msg {
            ConsulMsg::SessionCreated { session, .. } if view.acquiring => {
                self.session = Some(session);
                self.try_acquire(cx);
                Progress::Pending
            }
            ConsulMsg::Acquired { lock_index, .. } if view.acquiring => Progress::Granted { token: lock_index, until_local: None },
            ConsulMsg::NotAcquired { .. } if view.acquiring => Progress::Refused,
            ConsulMsg::SessionNotFound { .. } => {
                self.session = None;
                if view.acquiring {
                    self.try_acquire(cx);
                    Progress::Pending
                } else {
                    Progress::Lost
                }
            }
            ConsulMsg::Renewed { .. } if view.acquiring => {
                self.try_acquire(cx);
                Progress::Pending
            }
            ConsulMsg::Renewed { .. } => Progress::Renewed { until_local: None },
            ConsulMsg::Released { .. } => Progress::Released,
            _ => Progress::Pending,
        }
    }

    fn on_timeout(&mut self, _cx: &mut Cx, _timeout_ms: Millis) -> Progress {
        Progress::Refused
    }

    /// `RenewPeriodic`. The lock's channel closes when the session is lost, and the application,
    /// watching it as Consul's documentation says it must, stops.
    fn renewal(&self, _policy: Option<RenewPolicy>) -> Option<RenewPolicy> {
        Some(RenewPolicy { every_ms: self.renew_every_ms, on_failure: RenewFailure::Abort })
    }

    fn renew(&mut self, cx: &mut Cx, _held: Option<u64>) {
        if let Some(session) = self.session {
            self.send(cx, |request| ConsulMsg::Renew { request, session });
        }
    }

    /// `RenewPeriodic` retries a renewal that failed until the session is reported gone.
    fn on_renew_timeout(&mut self, _cx: &mut Cx) -> Progress {
        Progress::RenewRetry
    }

    fn release(&mut self, cx: &mut Cx, held: Option<u64>, _last: u64, _mode: ReleaseMode) -> Release {
        let (Some(_), Some(session)) = (held, self.session) else { return Release::Nothing };
        self.send(cx, |request| ConsulMsg::Release { request, session });
        Release::AwaitReply
    }
}
