//! The comparison table: every cell of every schedule asserted, and the details that explain the
//! most telling ones.

use lockstep::scenario::compare::{self, Outcome, Schedule};
use Outcome::{Safe, Stalls, Unsafe};

/// Rows in design order; columns: pause 2 × TTL, partition 10 s with the holder carrying on,
/// the same partition with the holder stopping on a failed renewal, clock jump.
const EXPECTED: [(&str, [Outcome; 4]); 28] = [
    ("lease", [Unsafe, Unsafe, Safe, Unsafe]),
    ("lease-fenced", [Safe, Safe, Safe, Safe]),
    ("redis", [Unsafe, Unsafe, Safe, Unsafe]),
    ("redis-incr", [Safe, Safe, Safe, Safe]),
    // One master's clock jumping cannot give B a majority; a pause or a partition can, and
    // Redlock's client renews nothing, so stopping on a failed renewal changes nothing.
    ("redlock", [Unsafe, Unsafe, Unsafe, Safe]),
    // Redisson's watchdog stops on a failed renewal without telling the application, whatever
    // its policy: the holder carries on either way.
    ("redisson", [Unsafe, Unsafe, Unsafe, Unsafe]),
    ("redisson-fenced", [Safe, Safe, Safe, Safe]),
    ("zookeeper", [Unsafe, Unsafe, Safe, Safe]),
    ("zookeeper-fenced", [Safe, Safe, Safe, Safe]),
    ("etcd", [Unsafe, Unsafe, Safe, Safe]),
    ("etcd-fenced", [Safe, Safe, Safe, Safe]),
    ("etcd-txn", [Safe, Safe, Safe, Safe]),
    ("pg-same", [Safe, Safe, Safe, Safe]),
    ("pg-external", [Unsafe, Unsafe, Safe, Safe]),
    ("pg-no-timeout", [Stalls, Stalls, Stalls, Safe]),
    // The paused leader acts as soon as it wakes; cut off, it gives up before its deadline.
    ("k8s", [Unsafe, Safe, Safe, Safe]),
    ("k8s-fenced", [Safe, Safe, Safe, Safe]),
    // Lock-delay (half the lease here, as the default equals the TTL) is shorter than the pause;
    // a cut-off holder hears its session is gone and stops, as the Go client's lock channel says.
    ("consul", [Unsafe, Safe, Safe, Safe]),
    ("consul-fenced", [Safe, Safe, Safe, Safe]),
    ("chubby", [Unsafe, Safe, Safe, Safe]),
    ("chubby-sequencer", [Safe, Safe, Safe, Safe]),
    // A contender judges the item by its own elapsed time: a step of a clock moves nothing, and
    // the library does not tell the application that a heartbeat failed.
    ("dynamodb", [Unsafe, Unsafe, Unsafe, Safe]),
    ("dynamodb-fenced", [Safe, Safe, Safe, Safe]),
    // A closed CP session is not reported to the application until its next call on the lock.
    ("hazelcast", [Unsafe, Unsafe, Unsafe, Safe]),
    ("hazelcast-fenced", [Safe, Safe, Safe, Safe]),
    // Contenders judge an epoch object's age by S3's wall clock (Last-Modified against Date).
    ("s3", [Unsafe, Unsafe, Safe, Unsafe]),
    ("s3-fenced", [Safe, Safe, Safe, Safe]),
    ("s3-manifest", [Safe, Safe, Safe, Safe]),
];

#[test]
fn every_cell_of_every_schedule() {
    let rows = compare::table().expect("every cell runs");
    assert_eq!(rows.len(), EXPECTED.len());
    for (row, (id, outcomes)) in rows.iter().zip(EXPECTED) {
        assert_eq!(row[0].row.id, id);
        let got: Vec<Outcome> = row.iter().map(|c| c.outcome).collect();
        assert_eq!(got, outcomes, "{id}: {:#?}", row.iter().map(|c| &c.detail).collect::<Vec<_>>());
        assert_eq!(row.iter().map(|c| c.schedule.id()).collect::<Vec<_>>(), ["pause", "partition", "partition_stop", "clock_jump"]);
    }
}

fn detail(schedule: &str, design: &str) -> String {
    compare::cell_by_id(&compare::id(schedule, design)).expect("cell runs").0.detail
}

#[test]
fn details_name_the_token_the_reason_and_the_time() {
    assert_eq!(detail("pause", "lease-fenced"), "Client A's late write was refused (token 33 < 34).");
    assert_eq!(
        detail("pause", "redis"),
        "Client A's write was applied after that of Client B, a later holder of the lock, and erased it at 2,085 ms."
    );
    assert_eq!(detail("partition", "redis-incr"), "Client A's late write was refused (token 1 < 2).");
    assert_eq!(
        detail("partition_stop", "redisson"),
        "Client A's write was applied after that of Client B, a later holder of the lock, and erased it at 10,515 ms."
    );
    assert_eq!(detail("pause", "zookeeper-fenced"), "Client A's late write was refused (czxid 1 < 2).");
    assert_eq!(detail("pause", "k8s-fenced"), "Client A's late write was refused (leaseTransitions 0 < 1).");
    assert_eq!(detail("pause", "s3-manifest"), "Client A's late write was refused (412 Precondition Failed).");
    assert_eq!(detail("partition", "etcd-txn"), "Client A's late write was refused (txn failed: no lock key with create revision 33).");
    assert_eq!(detail("partition", "pg-same"), "Client A's late write was refused (session terminated: cannot commit).");
    assert_eq!(
        detail("partition", "pg-no-timeout"),
        "Client B got the lock only at 10,060 ms, after A came back at 10,050 ms: everyone waited for A."
    );
    assert_eq!(
        detail("clock-jump", "redis"),
        "Client A's write was applied after that of Client B, a later holder of the lock, and erased it at 315 ms."
    );
    assert!(
        detail("clock-jump", "redlock").ends_with("the jump does break it. Client B got the lock at 429 ms and the data came to no harm.")
    );
}

#[test]
fn only_wall_clock_designs_feel_the_jump() {
    for r in compare::rows() {
        let (cell, scenario, trace) = compare::cell_by_id(&compare::id("clock-jump", r.id)).unwrap();
        let jumped = trace.events.iter().any(|e| matches!(e.kind, lockstep::engine::EventKind::ClockJump { .. }));
        let wall = [
            "lease",
            "lease-fenced",
            "redis",
            "redis-incr",
            "redlock",
            "redisson",
            "redisson-fenced",
            "hazelcast",
            "hazelcast-fenced",
            "s3",
            "s3-fenced",
            "s3-manifest",
        ]
        .contains(&r.id);
        // Every row's service has its wall clock stepped; only a wall-clock design feels it.
        assert!(jumped, "{}", r.id);
        assert_eq!(scenario.intro.contains("by elapsed time (a monotonic clock)"), !wall, "{}", r.id);
        assert_eq!(cell.unaffected, !wall, "{}", r.id);
        // A set-up with nothing that ends by time says so, rather than speak of an expiry.
        let timeless = r.id == "pg-no-timeout";
        assert_eq!(cell.detail.contains("measures expiry by elapsed time, so the jump moves no expiry"), !wall && !timeless, "{}", r.id);
        assert_eq!(cell.detail.contains("Nothing in this set-up ends by time"), timeless, "{}", r.id);
    }
}

#[test]
fn unknown_cells_are_named() {
    let e = compare::cell_by_id("compare-pause-paxos").unwrap_err().to_string();
    assert_eq!(e, "there is no design named “paxos”");
    let e = compare::cell_by_id("compare-pause-redlok").unwrap_err().to_string();
    assert_eq!(e, "there is no design named “redlok”; did you mean redlock?");
    let e = compare::cell_by_id("compare-flood-redis").unwrap_err().to_string();
    assert_eq!(e, "there is no comparison named “compare-flood-redis”: expected compare-<schedule>-<design>, with a schedule among pause, partition, partition_stop, clock_jump");
    assert_eq!(Schedule::ALL.len(), 4);
    // Links from before the schedules were named by their faults' tags still open.
    let old = compare::cell_by_id("compare-clock-jump-redis").unwrap().0;
    assert_eq!((old.schedule, old.id()), (Schedule::ClockJump, "compare-clock_jump-redis".to_string()));
}

#[test]
fn the_redlock_clock_jump_cell_says_why_it_is_safe_and_where_the_jump_does_matter() {
    use lockstep::scenario::compare::{cell, row, schedule};
    let (c, scenario, _) = cell(schedule("clock-jump").unwrap(), &row("redlock").unwrap()).unwrap();
    assert_eq!(c.outcome.label(), "safe");
    assert!(c.detail.starts_with("Only one of the 5 Redis masters jumps and nothing is partitioned"), "{}", c.detail);
    assert!(scenario.takeaway.contains("Redlock: a clock jump on one master"), "{}", scenario.takeaway);
    let lesson = lockstep::scenario::lessons::entry("redlock-clock-jump").unwrap();
    assert_eq!(lesson.title, "Redlock: a clock jump on one master", "the cell names the lesson by its title");
}
