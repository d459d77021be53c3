//! The Hazelcast lesson, asserted exactly: the fences the CP group handed out and when, the
//! session that closed, which writes the resource took, and the verdict.

mod support;

use lockstep::engine::FindingKind::*;
use support::*;

#[test]
fn the_fence_stops_a_holder_that_stalled_past_its_session() {
    let t = run_lesson("hazelcast-session-expiry");
    // A's session, last heard at 10 s, closes 300 s later; B gets the fence of its own lock call.
    assert_eq!(grants_named(&t), vec![(15, "Client A", 2), (310_035, "Client B", 6)]);
    let ends: Vec<(u64, u64, String)> = lease_ends(&t);
    assert_eq!(ends, vec![(310_035, 2, "Expired".to_string()), (310_155, 6, "Released".to_string())]);
    assert_eq!(writes(&t), vec![ok(310_145, "Client B", 6, "B", 1), rejected(332_005, "Client A", 2, "A", "fence 2 < 6")]);
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 310_040), (StaleWriteRejected, 332_005)]);
    let narration = t.narration().join("\n");
    assert!(narration.contains("LockOwnershipLostException"), "{narration}");
}
