//! The S3 lessons, asserted exactly: which epoch each writer created when, which PUT got 412,
//! which writes were taken, and the verdict.

mod support;

use lockstep::design::s3::S3Msg;
use lockstep::engine::msg::Msg;
use lockstep::engine::EventKind;
use lockstep::engine::FindingKind::*;
use support::*;

fn end(at: u64, token: u64, how: &str) -> (u64, u64, String) {
    (at, token, how.into())
}

#[test]
fn a_stale_writer_gets_412_on_the_manifest() {
    let t = run_lesson("s3-stale-writer-412");
    // Epoch 1's Last-Modified is 11 s old by S3's Date when B takes epoch 2.
    assert_eq!(grants_named(&t), vec![(15, "Writer A", 1), (11_045, "Writer B", 2)]);
    assert_eq!(lease_ends(&t), vec![end(11_045, 1, "Replaced"), end(12_075, 2, "Released")]);
    assert_eq!(writes(&t), vec![ok(12_065, "Writer B", 2, "B", 3), rejected(15_305, "Writer A", 1, "A", "412 Precondition Failed")]);
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 11_060), (StaleWriteRejected, 15_305)]);
    let narration = t.narration().join("\n");
    assert!(narration.contains("with If-None-Match: *, which creates it only if nobody has"), "{narration}");
    // If-Match compares the named object's ETag: A's release of epoch-1, unchanged since A wrote
    // it, is written (200), though epoch-2 is newer; S3 tells A nothing about epoch 2.
    let replies: Vec<(u64, bool)> = t
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Send { to, msg: Msg::Lock { msg }, .. } if t.name(*to) == "Writer A" => match msg.get::<S3Msg>() {
                Some(S3Msg::Stored { .. }) => Some((e.at_ms.as_ms(), true)),
                Some(S3Msg::PreconditionFailed { .. }) => Some((e.at_ms.as_ms(), false)),
                _ => None,
            },
            _ => None,
        })
        .collect();
    assert_eq!(replies.last(), Some(&(15_315, true)), "{replies:?}");
}

#[test]
fn if_none_match_lets_one_writer_create_an_epoch() {
    let t = run_lesson("s3-create-once");
    assert_eq!(grants_named(&t), vec![(15, "Writer A", 1), (1_035, "Writer B", 2)]);
    let refused: Vec<u64> = t
        .events
        .iter()
        .filter(|e| match &e.kind {
            EventKind::Send { msg: Msg::Lock { msg }, .. } => matches!(msg.get::<S3Msg>(), Some(S3Msg::PreconditionFailed { .. })),
            _ => false,
        })
        .map(|e| e.at_ms.as_ms())
        .collect();
    assert_eq!(refused, vec![15], "B's PUT of epoch-1 gets 412");
    assert_eq!(writes(&t), vec![ok(325, "Writer A", 1, "A", 1), ok(1_345, "Writer B", 2, "B", 2)]);
    assert!(t.verdict.safe && t.verdict.findings.is_empty());
}
