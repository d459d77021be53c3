//! The lease lock: one holder at a time, a TTL measured on the service's clock, and a
//! generation number that increases with every grant and serves as the fencing token.

use crate::engine::actor::{Actor, Cx, Timer};
use crate::engine::ids::NodeId;
use crate::engine::msg::{Msg, ReleaseMode};
use crate::engine::trace::{EventKind, LeaseEnd};

#[derive(Clone, Copy, Debug)]
struct Lease {
    holder: NodeId,
    token: u64,
    expires_local: i64,
}

/// A lease-lock service node.
pub struct LeaseLock {
    ttl_ms: u64,
    first_token: u64,
    next_token: u64,
    lease: Option<Lease>,
}

impl LeaseLock {
    /// Builds a service whose first grant carries `first_token`.
    pub fn new(ttl_ms: u64, first_token: u64) -> Self {
        LeaseLock { ttl_ms, first_token, next_token: first_token, lease: None }
    }

    fn end(&mut self, cx: &mut Cx, how: LeaseEnd) {
        if let Some(l) = self.lease.take() {
            cx.cancel(Timer::LeaseExpiry(l.token));
            cx.note(EventKind::LeaseEnded { token: l.token, holder: l.holder, how });
        }
    }

    /// Expires the lease if its time has come on this clock (a lazy check before any request).
    fn expire_if_due(&mut self, cx: &mut Cx) {
        if self.lease.is_some_and(|l| cx.now >= l.expires_local) {
            self.end(cx, LeaseEnd::Expired);
        }
    }
}

impl Actor for LeaseLock {
    fn on_start(&mut self, _cx: &mut Cx) {}

    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &Msg) {
        self.expire_if_due(cx);
        match *msg {
            Msg::Acquire { .. } if self.lease.is_some() => cx.send(from, Msg::Busy),
            Msg::Acquire { .. } => {
                let token = self.next_token;
                self.next_token += 1;
                let expires_local = cx.now + self.ttl_ms as i64;
                self.lease = Some(Lease { holder: from, token, expires_local });
                cx.at(Timer::LeaseExpiry(token), expires_local);
                cx.note(EventKind::LeaseGranted { token, holder: from, expires_local });
                cx.send(from, Msg::Granted { token, ttl_ms: self.ttl_ms });
            }
            Msg::Renew { token, .. } => match self.lease.as_mut() {
                Some(l) if l.token == token && l.holder == from => {
                    l.expires_local = cx.now + self.ttl_ms as i64;
                    let expires_local = l.expires_local;
                    cx.at(Timer::LeaseExpiry(token), expires_local);
                    cx.note(EventKind::LeaseRenewed { token, holder: from, expires_local });
                    cx.send(from, Msg::Renewed { token, ttl_ms: self.ttl_ms });
                }
                _ => cx.send(from, Msg::RenewRefused { token }),
            },
            Msg::Release { token, mode, .. } => {
                let current = self.lease.map(|l| l.token);
                let released = match (mode, current) {
                    (ReleaseMode::Safe, Some(t)) if t == token => {
                        self.end(cx, LeaseEnd::Released);
                        true
                    }
                    (ReleaseMode::Unsafe, Some(t)) => {
                        let how = if t == token { LeaseEnd::Released } else { LeaseEnd::DeletedByOther };
                        self.end(cx, how);
                        true
                    }
                    _ => false,
                };
                cx.send(from, Msg::ReleaseResult { token, released });
            }
            _ => {}
        }
    }

    fn on_timer(&mut self, cx: &mut Cx, timer: Timer) {
        if let Timer::LeaseExpiry(token) = timer {
            if self.lease.is_some_and(|l| l.token == token) {
                self.expire_if_due(cx);
            }
        }
    }

    fn on_crash(&mut self, _cx: &mut Cx) {}

    fn on_restart(&mut self, cx: &mut Cx, keep_state: bool) {
        if keep_state {
            if let Some(l) = self.lease {
                cx.at(Timer::LeaseExpiry(l.token), l.expires_local);
            }
        } else {
            // Without persistence the lease and the token counter are both gone.
            self.end(cx, LeaseEnd::LostOnRestart);
            self.next_token = self.first_token;
        }
    }
}
