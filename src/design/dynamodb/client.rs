//! A client's side of the lock: `acquireLock`'s polling, the heartbeat thread, `releaseLock`.

use super::{Condition, DynamoMsg};
use crate::engine::actor::{Cx, DesignTimer, Timer};
use crate::engine::ids::NodeId;
use crate::engine::msg::{LockMsg, Msg, ReleaseMode};
use crate::engine::policy::{RenewFailure, RenewPolicy};
use crate::engine::protocol::{ClientView, LockClient, Progress, Release};
use crate::engine::time::{LocalMillis, Millis};

/// The client's own timer: the next poll of an `acquireLock` that waits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Refresh;

impl DesignTimer for Refresh {
    fn slot(self) -> u8 {
        0
    }

    fn of_slot(slot: u8) -> Option<Self> {
        (slot == 0).then_some(Refresh)
    }
}

/// The lock item a waiting contender watches: its RVN, its lease, and when (on the contender's
/// clock) it first saw that RVN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Watched {
    rvn: u64,
    lease_ms: u64,
    seen_at: LocalMillis,
}

/// One client of the lock table, as `AmazonDynamoDBLockClient` behaves.
#[derive(Clone, Hash)]
pub(super) struct DynamoLockClient {
    table: NodeId,
    lease_ms: u64,
    heartbeat_ms: u64,
    refresh_ms: u64,
    /// `additionalTimeToWaitForLock`: how much longer than the lease an `acquireLock` waits.
    extra_wait_ms: u64,
    /// `deleteLockOnRelease`: release deletes the item rather than marking it released.
    delete_on_release: bool,
    request: u32,
    /// The request's timeout, re-armed with every poll.
    timeout_ms: Millis,
    /// When the `acquireLock` call started, and how long it may wait.
    call_started: LocalMillis,
    wait_ms: u64,
    watched: Option<Watched>,
    /// The RVN this client wrote last, and when it sent that write (its lease counts from then).
    rvn: u64,
    sent_at: LocalMillis,
    /// A heartbeat's new RVN and when it went out, until DynamoDB confirms it.
    beat: (u64, LocalMillis),
}

impl DynamoLockClient {
    pub(super) fn new(table: NodeId, d: &super::DynamoDesign) -> Self {
        DynamoLockClient {
            table,
            lease_ms: d.lease_ms,
            heartbeat_ms: d.heartbeat_ms,
            refresh_ms: d.refresh_ms,
            extra_wait_ms: d.extra_wait_ms,
            delete_on_release: d.delete_on_release,
            request: 0,
            timeout_ms: Millis::ZERO,
            call_started: LocalMillis::ZERO,
            wait_ms: 0,
            watched: None,
            rvn: 0,
            sent_at: LocalMillis::ZERO,
            beat: (0, LocalMillis::ZERO),
        }
    }

    fn send(&mut self, cx: &mut Cx, msg: impl FnOnce(u32) -> DynamoMsg) {
        self.request += 1;
        cx.send(self.table, Msg::lock(msg(self.request)));
    }

    fn get(&mut self, cx: &mut Cx) {
        self.send(cx, |request| DynamoMsg::GetItem { request });
        cx.after(Timer::Timeout, self.timeout_ms);
    }

    /// Puts a new lock item with a fresh RVN, if `condition` holds.
    fn put(&mut self, cx: &mut Cx, condition: Condition) {
        self.rvn = cx.rng.next_u64();
        self.sent_at = cx.now;
        let (rvn, lease_ms) = (self.rvn, self.lease_ms);
        self.send(cx, |request| DynamoMsg::PutItem { request, rvn, lease_ms, condition });
        cx.after(Timer::Timeout, self.timeout_ms);
    }

    /// Polls again after the refresh period, or gives up once the call has waited long enough.
    fn wait(&mut self, cx: &mut Cx) -> Progress {
        cx.cancel(Timer::Timeout);
        if cx.now - self.call_started > self.wait_ms as i64 {
            return Progress::Refused;
        }
        cx.after(Timer::client(Refresh), Millis::from_ms(self.refresh_ms));
        Progress::Pending
    }

    /// The lease as this client counts it: from when it sent its last successful write.
    fn until(&self) -> Option<LocalMillis> {
        Some(self.sent_at + Millis::from_ms(self.lease_ms))
    }

    /// Acts on the lock item read while acquiring.
    fn on_item(&mut self, cx: &mut Cx, item: Option<super::LockItem>) -> Progress {
        let Some(item) = item else {
            self.put(cx, Condition::NotExists);
            return Progress::Pending;
        };
        if item.released {
            self.put(cx, Condition::Released);
            return Progress::Pending;
        }
        match self.watched {
            // Unchanged for its whole lease on this client's clock: the holder is deemed gone.
            Some(w) if w.rvn == item.rvn && cx.now - w.seen_at > w.lease_ms as i64 => {
                self.put(cx, Condition::RvnIs { rvn: item.rvn });
                return Progress::Pending;
            }
            Some(w) if w.rvn == item.rvn => {}
            Some(_) => self.watched = Some(Watched { rvn: item.rvn, lease_ms: item.lease_ms, seen_at: cx.now }),
            None => {
                // The first lock seen: the call waits its lease on top of the extra time.
                self.wait_ms += item.lease_ms;
                self.watched = Some(Watched { rvn: item.rvn, lease_ms: item.lease_ms, seen_at: cx.now });
            }
        }
        self.wait(cx)
    }
}

impl LockClient for DynamoLockClient {
    fn acquire(&mut self, cx: &mut Cx, timeout_ms: Millis) {
        (self.timeout_ms, self.call_started, self.wait_ms, self.watched) = (timeout_ms, cx.now, self.extra_wait_ms, None);
        self.get(cx);
    }

    fn on_message(&mut self, cx: &mut Cx, _from: NodeId, msg: &LockMsg, view: ClientView) -> Progress {
        let Some(&msg) = msg.get::<DynamoMsg>() else { return Progress::Pending };
        if msg.request() != self.request {
            return Progress::Pending;
        }
        match msg {
            DynamoMsg::Item { item, .. } if view.acquiring => self.on_item(cx, item),
            DynamoMsg::Written { fence, .. } if view.acquiring => Progress::Granted { token: fence, until_local: self.until() },
            // Someone else wrote first: keep polling while the call may wait.
            DynamoMsg::ConditionFailed { .. } if view.acquiring => self.wait(cx),
            DynamoMsg::Written { .. } if view.held.is_some() => {
                (self.rvn, self.sent_at) = self.beat;
                Progress::Renewed { until_local: self.until() }
            }
            // The heartbeat's condition failed: another client took the item over.
            DynamoMsg::ConditionFailed { .. } if view.held.is_some() => Progress::Lost,
            DynamoMsg::Written { .. } | DynamoMsg::ConditionFailed { .. } => Progress::Released,
            _ => Progress::Pending,
        }
    }

    fn on_timeout(&mut self, _cx: &mut Cx, _timeout_ms: Millis) -> Progress {
        Progress::Refused
    }

    fn on_timer(&mut self, cx: &mut Cx, slot: u8) -> Progress {
        if Refresh::of_slot(slot).is_some() {
            self.get(cx);
        }
        Progress::Pending
    }

    /// The background heartbeat thread, every heartbeatPeriod; the application is not told when
    /// a heartbeat fails (the library drops the lock from its own map).
    fn renewal(&self, _policy: Option<RenewPolicy>) -> Option<RenewPolicy> {
        Some(RenewPolicy { every_ms: self.heartbeat_ms, on_failure: RenewFailure::CarryOn })
    }

    fn renew(&mut self, cx: &mut Cx, _held: Option<u64>) {
        let (rvn, new_rvn, lease_ms) = (self.rvn, cx.rng.next_u64(), self.lease_ms);
        self.beat = (new_rvn, cx.now);
        self.send(cx, |request| DynamoMsg::Heartbeat { request, rvn, new_rvn, lease_ms });
    }

    fn on_renew_timeout(&mut self, _cx: &mut Cx) -> Progress {
        Progress::RenewRetry
    }

    fn release(&mut self, cx: &mut Cx, held: Option<u64>, _last: u64, _mode: ReleaseMode) -> Release {
        if held.is_none() {
            return Release::Nothing;
        }
        let (rvn, delete) = (self.rvn, self.delete_on_release);
        self.send(cx, |request| DynamoMsg::Release { request, rvn, delete });
        Release::AwaitReply
    }
}
