//! Tests of the bucket.

use super::*;
use crate::engine::actor::testing::{call, sent};
use crate::engine::msg::{Msg, Rejection};

fn reply(b: &mut Bucket, now: i64, from: usize, msg: S3Msg) -> S3Msg {
    match sent(&call(b, now, from, Msg::lock(msg))).remove(0).1 {
        Msg::Lock { msg } => *msg.get::<S3Msg>().expect("an S3 reply"),
        other => panic!("not an S3 reply: {other:?}"),
    }
}

#[test]
fn each_epoch_is_created_once_and_an_unchanged_older_one_is_still_rewritten() {
    let mut b = Bucket::new();
    assert_eq!(reply(&mut b, 0, 1, S3Msg::Create { request: 1, epoch: 1 }), S3Msg::Stored { request: 1, etag: 1 });
    assert_eq!(reply(&mut b, 0, 2, S3Msg::Create { request: 1, epoch: 1 }), S3Msg::PreconditionFailed { request: 1 });
    let newest = reply(&mut b, 700, 2, S3Msg::List { request: 2 });
    let old = EpochObject { epoch: 1, holder: NodeId(1), age_ms: 700, released: false };
    assert_eq!(newest, S3Msg::Newest { request: 2, newest: Some(old) });
    assert_eq!(reply(&mut b, 800, 2, S3Msg::Create { request: 3, epoch: 2 }), S3Msg::Stored { request: 3, etag: 2 });
    // If-Match compares the named object's ETag: the old holder's renewal of epoch 1, unchanged
    // since it wrote it, succeeds though epoch 2 is newer, and tells it nothing.
    let renew = S3Msg::Rewrite { request: 2, epoch: 1, etag: 1, release: false };
    assert_eq!(reply(&mut b, 900, 1, renew), S3Msg::Stored { request: 2, etag: 3 });
    // A rewrite naming an ETag the object no longer has fails.
    let stale = S3Msg::Rewrite { request: 3, epoch: 1, etag: 1, release: true };
    assert_eq!(reply(&mut b, 950, 1, stale), S3Msg::PreconditionFailed { request: 3 });
}

#[test]
fn a_manifest_write_needs_the_etag_its_writer_last_saw() {
    let mut b = Bucket::new();
    reply(&mut b, 0, 1, S3Msg::ClaimManifest { request: 1, epoch: 1 });
    reply(&mut b, 10, 2, S3Msg::ClaimManifest { request: 1, epoch: 2 });
    let write = |token| Msg::Write { token, value: "v".into(), expected_version: None };
    assert_eq!(sent(&call(&mut b, 20, 2, write(2))), vec![(2, Msg::WriteAccepted { version: 3 })]);
    let refused = Msg::WriteRejected {
        reason: Rejection::Refused { token: 1, code: "412 Precondition Failed", means: super::service::MANIFEST_CHANGED },
    };
    assert_eq!(sent(&call(&mut b, 30, 1, write(1))), vec![(1, refused)]);
}
