//! The Chubby lesson, asserted exactly: the generations the master handed out and when, the
//! lock-delay it enforced, which writes the resource took, and the verdict.

mod support;

use lockstep::engine::FindingKind::*;
use support::*;

#[test]
fn a_stale_sequencer_is_rejected_after_the_lock_delay() {
    let t = run_lesson("chubby-sequencer");
    // A's last KeepAlive at 4 s: its lease runs out at 16 s, and a minute of lock-delay follows.
    assert_eq!(grants_named(&t), vec![(15, "Client A", 1), (80_095, "Client B", 2)]);
    let ends: Vec<(u64, u64, String)> = lease_ends(&t);
    assert_eq!(ends, vec![(16_025, 1, "Expired".to_string()), (80_215, 2, "Released".to_string())]);
    assert_eq!(writes(&t), vec![ok(80_205, "Client B", 2, "B", 1), rejected(95_005, "Client A", 1, "A", "generation 1 < 2")]);
    assert!(t.verdict.safe);
    assert_eq!(findings(&t), vec![(TwoHolders, 80_100), (StaleWriteRejected, 95_005)]);
    let narration = t.narration().join("\n");
    assert!(narration.contains("the lock-delay it chose has 16,010 ms to run"), "{narration}");
}
