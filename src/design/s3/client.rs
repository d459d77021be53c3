//! A client's side of the lock: take the next epoch when the newest is released or older than
//! the lease, renew by rewriting its own epoch object, release by marking it released.

use super::S3Msg;
use crate::engine::actor::{Cx, Timer};
use crate::engine::ids::NodeId;
use crate::engine::msg::{LockMsg, Msg, ReleaseMode};
use crate::engine::protocol::{ClientView, LockClient, Progress, Release};
use crate::engine::time::{LocalMillis, Millis};

/// One client of the bucket.
#[derive(Clone, Hash)]
pub(super) struct S3LockClient {
    bucket: NodeId,
    lease_ms: u64,
    /// Whether the data is a manifest in the bucket, claimed on taking an epoch.
    manifest: bool,
    request: u32,
    /// The epoch it holds or is creating, and its object's ETag.
    epoch: u64,
    etag: u64,
    /// When it sent its last successful write of its epoch object: its lease counts from then.
    sent_at: LocalMillis,
    /// When it sent the request in flight.
    asked_at: LocalMillis,
    /// Whether the request in flight claims the manifest.
    claiming: bool,
}

impl S3LockClient {
    pub(super) fn new(bucket: NodeId, lease_ms: u64, manifest: bool) -> Self {
        S3LockClient {
            bucket,
            lease_ms,
            manifest,
            request: 0,
            epoch: 0,
            etag: 0,
            sent_at: LocalMillis::ZERO,
            asked_at: LocalMillis::ZERO,
            claiming: false,
        }
    }

    fn send(&mut self, cx: &mut Cx, msg: impl FnOnce(u32) -> S3Msg) {
        self.request += 1;
        self.asked_at = cx.now;
        cx.send(self.bucket, Msg::lock(msg(self.request)));
    }

    fn until(&self) -> Option<LocalMillis> {
        Some(self.sent_at + Millis::from_ms(self.lease_ms))
    }

    /// Acts on the newest epoch object: take the next epoch if it is free, or try again later.
    fn on_newest(&mut self, cx: &mut Cx, newest: Option<super::EpochObject>) -> Progress {
        let next = match newest {
            None => 1,
            Some(o) if o.released || o.age_ms > self.lease_ms => o.epoch + 1,
            Some(_) => return Progress::Refused,
        };
        self.epoch = next;
        self.send(cx, |request| S3Msg::Create { request, epoch: next });
        Progress::Pending
    }
}

impl LockClient for S3LockClient {
    fn acquire(&mut self, cx: &mut Cx, timeout_ms: Millis) {
        self.claiming = false;
        self.send(cx, |request| S3Msg::List { request });
        cx.after(Timer::Timeout, timeout_ms);
    }

    fn on_message(&mut self, cx: &mut Cx, _from: NodeId, msg: &LockMsg, view: ClientView) -> Progress {
        let Some(&msg) = msg.get::<S3Msg>() else { return Progress::Pending };
        if msg.request() != self.request {
            return Progress::Pending;
        }
        match msg {
            S3Msg::Newest { newest, .. } if view.acquiring => self.on_newest(cx, newest),
            // The epoch object is created: with the data in S3, the manifest is claimed next.
            S3Msg::Stored { etag, .. } if view.acquiring && !self.claiming => {
                (self.etag, self.sent_at) = (etag, self.asked_at);
                if self.manifest {
                    let epoch = self.epoch;
                    self.claiming = true;
                    self.send(cx, |request| S3Msg::ClaimManifest { request, epoch });
                    return Progress::Pending;
                }
                Progress::Granted { token: self.epoch, until_local: self.until() }
            }
            S3Msg::Stored { .. } if view.acquiring => {
                self.claiming = false;
                Progress::Granted { token: self.epoch, until_local: self.until() }
            }
            S3Msg::PreconditionFailed { .. } if view.acquiring => Progress::Refused,
            S3Msg::Stored { etag, .. } if view.held.is_some() => {
                (self.etag, self.sent_at) = (etag, self.asked_at);
                Progress::Renewed { until_local: self.until() }
            }
            S3Msg::PreconditionFailed { .. } if view.held.is_some() => Progress::Lost,
            S3Msg::Stored { .. } | S3Msg::PreconditionFailed { .. } => Progress::Released,
            _ => Progress::Pending,
        }
    }

    fn on_timeout(&mut self, _cx: &mut Cx, _timeout_ms: Millis) -> Progress {
        Progress::Refused
    }

    fn renew(&mut self, cx: &mut Cx, _held: Option<u64>) {
        let (epoch, etag) = (self.epoch, self.etag);
        self.send(cx, |request| S3Msg::Rewrite { request, epoch, etag, release: false });
    }

    fn release(&mut self, cx: &mut Cx, held: Option<u64>, _last: u64, _mode: ReleaseMode) -> Release {
        if held.is_none() {
            return Release::Nothing;
        }
        let (epoch, etag) = (self.epoch, self.etag);
        self.send(cx, |request| S3Msg::Rewrite { request, epoch, etag, release: true });
        Release::AwaitReply
    }
}
