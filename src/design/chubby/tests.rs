//! Tests of Chubby's settings.

use super::*;

#[test]
fn the_master_ends_a_session_a_lease_after_its_last_keepalive() {
    let design = ChubbySettings::new().configure();
    let g = design.guarantees();
    assert!(
        g.liveness.contains("a lease (12,000 ms) after its last KeepAlive, and the lock can be taken 60,000 ms later"),
        "{}",
        g.liveness
    );
    assert_eq!(design.client(&[NodeId(1)]).expect("a client").renewal(None).map(|p| p.every_ms), Some(4_000));
}
