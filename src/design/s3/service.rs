//! An S3 bucket: the epoch objects under the lock's prefix and, with the data in S3, the
//! manifest. It compares ETags and existence only, never one number with another.

use super::{EpochObject, S3Msg};
use crate::engine::actor::{Actor, Cx, Timer};
use crate::engine::event::{EventKind, LockEnd};
use crate::engine::ids::NodeId;
use crate::engine::msg::{Msg, Rejection, WriteValue};
use crate::engine::time::LocalMillis;
use crate::limits::MAX_BUCKET_EPOCHS;

/// The 412 a manifest write gets, in S3's words and the lesson's.
const PRECONDITION_FAILED: &str = "412 Precondition Failed";
pub(super) const MANIFEST_CHANGED: &str = "The manifest's ETag is no longer the one this writer last saw: a newer writer has claimed it.";

/// An epoch object, as S3 keeps it: who created it, its ETag, when it was last written, and
/// whether its holder marked it released.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Epoch {
    epoch: u64,
    holder: NodeId,
    etag: u64,
    last_modified: LocalMillis,
    released: bool,
}

/// The manifest, and the ETag each writer last saw of it (what its `If-Match` will carry).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Manifest {
    etag: u64,
    seen: Vec<(NodeId, u64)>,
}

impl Manifest {
    fn seen_by(&self, writer: NodeId) -> Option<u64> {
        self.seen.iter().find(|s| s.0 == writer).map(|s| s.1)
    }

    /// Stores a new version written by `writer` if its `If-Match` holds; returns its ETag.
    fn put(&mut self, writer: NodeId) -> Option<u64> {
        if self.seen_by(writer) != Some(self.etag) {
            return None;
        }
        self.etag += 1;
        let etag = self.etag;
        self.seen.retain(|s| s.0 != writer);
        self.seen.push((writer, etag));
        Some(etag)
    }
}

/// The bucket.
#[derive(Clone, Hash)]
pub(super) struct Bucket {
    /// Every epoch object, oldest first: S3 keeps them all, and a conditional PUT compares the
    /// named object's ETag, whichever epoch it is.
    epochs: Vec<Epoch>,
    /// Every object's ETags come from one counter.
    etags: u64,
    manifest: Manifest,
}

impl Bucket {
    pub(super) fn new() -> Self {
        Bucket { epochs: Vec::new(), etags: 0, manifest: Manifest::default() }
    }

    fn answer(&mut self, cx: &mut Cx, from: NodeId, msg: S3Msg) -> Option<S3Msg> {
        Some(match msg {
            S3Msg::List { request } => {
                let newest = self.epochs.last().map(|n| EpochObject {
                    epoch: n.epoch,
                    holder: n.holder,
                    age_ms: (cx.now - n.last_modified).max(0) as u64,
                    released: n.released,
                });
                S3Msg::Newest { request, newest }
            }
            S3Msg::Create { request, epoch } => {
                // Only the next epoch is new: an existing object fails `If-None-Match: *`.
                if self.epochs.last().is_some_and(|n| n.epoch >= epoch) {
                    return Some(S3Msg::PreconditionFailed { request });
                }
                if let Some(old) = self.epochs.last().filter(|n| !n.released) {
                    cx.note(EventKind::LockEnded { holder: old.holder, token: old.epoch, how: LockEnd::Replaced });
                }
                self.etags += 1;
                if self.epochs.len() == MAX_BUCKET_EPOCHS {
                    self.epochs.remove(0);
                }
                self.epochs.push(Epoch { epoch, holder: from, etag: self.etags, last_modified: cx.now, released: false });
                cx.note(EventKind::LockGranted { holder: from, token: epoch, expires_local: None });
                S3Msg::Stored { request, etag: self.etags }
            }
            S3Msg::Rewrite { request, epoch, etag, release } => {
                // `If-Match` compares the named object's ETag, whichever epoch it is: an older
                // epoch its holder rewrites unchanged is written (200), and tells it nothing.
                let newest = self.epochs.last().map(|n| n.epoch);
                let Some(n) = self.epochs.iter_mut().find(|n| n.epoch == epoch && n.etag == etag) else {
                    return Some(S3Msg::PreconditionFailed { request });
                };
                self.etags += 1;
                (n.etag, n.last_modified, n.released) = (self.etags, cx.now, release);
                let (holder, token) = (n.holder, n.epoch);
                // Only the newest epoch is the lock: an older one's rewrite holds nothing.
                match (release, newest == Some(epoch)) {
                    (_, false) => {}
                    (true, true) => cx.note(EventKind::LockEnded { holder, token, how: LockEnd::Released }),
                    (false, true) => cx.note(EventKind::LockExtended { holder, token, expires_local: None }),
                }
                S3Msg::Stored { request, etag: self.etags }
            }
            S3Msg::ClaimManifest { request, .. } => {
                // The GET: this writer now knows the current ETag; the PUT then matches it.
                self.manifest.seen.retain(|s| s.0 != from);
                self.manifest.seen.push((from, self.manifest.etag));
                let etag = self.manifest.put(from).unwrap_or(self.manifest.etag);
                S3Msg::Stored { request, etag }
            }
            S3Msg::Newest { .. } | S3Msg::Stored { .. } | S3Msg::PreconditionFailed { .. } => return None,
        })
    }

    /// `PUT manifest` with `If-Match` on the ETag the writer last saw.
    fn write(&mut self, cx: &mut Cx, from: NodeId, token: u64, value: &WriteValue) {
        let value = value.clone();
        match self.manifest.put(from) {
            Some(version) => {
                cx.note(EventKind::WriteAccepted { writer: from, token, value, version });
                cx.send(from, Msg::WriteAccepted { version });
            }
            None => {
                let reason = Rejection::Refused { token, code: PRECONDITION_FAILED, means: MANIFEST_CHANGED };
                cx.note(EventKind::WriteRejected { writer: from, token, value, reason: reason.clone() });
                cx.send(from, Msg::WriteRejected { reason });
            }
        }
    }
}

impl Actor for Bucket {
    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &Msg) {
        match msg {
            Msg::Lock { msg } => {
                let Some(&msg) = msg.get::<S3Msg>() else { return };
                if let Some(reply) = self.answer(cx, from, msg) {
                    cx.send(from, Msg::lock(reply));
                }
            }
            Msg::Write { token, value, .. } => self.write(cx, from, *token, value),
            Msg::Read | Msg::ReadResult { .. } | Msg::Undo { .. } | Msg::WriteAccepted { .. } | Msg::WriteRejected { .. } => {}
        }
    }

    fn on_timer(&mut self, _cx: &mut Cx, _timer: Timer) {}

    fn on_restart(&mut self, _cx: &mut Cx, _keep_state: bool) {
        // S3 keeps its objects durably: a restart loses nothing.
    }
}
