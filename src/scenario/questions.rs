//! The interview questions: those that close the reference text and those people ask most, each
//! answered briefly and linked to the lessons that demonstrate the answer.

/// One question with its answer and the lessons that show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Question {
    pub question: &'static str,
    pub answer: &'static str,
    /// Lesson ids, most telling first.
    pub lessons: &'static [&'static str],
    /// The lesson whose verification backs an answer that says something is safe, and the kinds
    /// of fault it checks (comma-separated tags): those the answer's claim covers. (A lock service
    /// that loses its state, and so its tokens, in a crash is another question.)
    pub proof: Option<(&'static str, &'static str)>,
}

/// The questions, from the general to each system, the reference's five among them.
pub const QUESTIONS: &[Question] = &[
    Question {
        question: "Why are distributed locks harder than mutexes?",
        answer: "A mutex lives in one process's memory, and the scheduler cannot hand it to a second thread while the first still runs. A distributed lock is a message from another machine: it can arrive late, the holder can freeze after receiving it, the lock service measures the lease on its own clock, and nobody can tell a slow holder from a dead one. The lease has to expire for the system to make progress, and then the old holder may still act.",
        lessons: &["lease-race-unfenced", "network-delay", "clock-jump"],
        proof: None,
    },
    Question {
        question: "What is a fencing token?",
        answer: "A number that increases with every grant of the lock and travels with every write. The protected resource remembers the highest token it has accepted and rejects anything lower, so a holder whose lease expired cannot overwrite the work of its successor, however late it wakes. A stale write that arrives before the successor's first still gets in: it erases nothing, and harms the data only if the successor read before it and then writes what it computed. A random lock value is not a fencing token: it identifies the owner but has no order.",
        lessons: &["lease-race-fenced", "lease-fenced-blind-first", "lease-fenced-first-write", "redis-value-not-token", "redis-incr-token"],
        proof: Some(("lease-race-fenced", "pause,partition")),
    },
    Question {
        question: "What happens if the lock expires in the middle of the job?",
        answer: "Nothing tells the holder. The lock service frees the lock on its own clock and hands it on; the old holder, paused or slow, carries on believing and writes when it resumes. Checking the lease just before the write does not help, since the pause can fall between the check and the write. A client that renews can stop when a renewal fails, which closes the case of a lost network but not of a paused process, which runs no code at all. Only the resource can refuse the late write: a fencing token, or a compare-and-set on what the holder read.",
        lessons: &["lease-race-unfenced", "lease-check-before-write", "redis-renewal-carry-on", "redis-renewal-abort", "redisson-watchdog-stops", "lease-race-fenced"],
        proof: Some(("lease-race-fenced", "pause,partition")),
    },
    Question {
        question: "How do you get a fencing token from Redis?",
        answer: "Not from the lock's random value: it says whose key it is but has no order. INCR a counter in the same Lua script that sets the key, so the number goes up with every grant and only when the SET succeeds (MULTI runs the INCR even when the SET is refused). Two round trips, SET then INCR, are not atomic: a holder paused between them gets a higher token than the client that took the lock after it. And the counter is only as durable as Redis: with asynchronous replication a failover, or a restart without persistence, can hand the same token out twice. A token that must never go back belongs in a consensus store (etcd's revision, ZooKeeper's zxid) or in the resource itself.",
        lessons: &["redis-incr-token", "redis-value-not-token", "redis-incr-separate", "redis-incr-failover"],
        proof: Some(("redis-incr-token", "pause,partition")),
    },
    Question {
        question: "Why release a Redis lock with compare-and-delete instead of DEL?",
        answer: "Because by the time a client releases, its key may have expired and another client may hold the lock. A plain DEL deletes whoever's key is there, freeing the lock under the new holder, and a third client walks in. The release script deletes the key only if it still holds the client's own random value, and answers 0 otherwise (the key is gone or belongs to someone else). It keeps a client from freeing another's lock; it does nothing about a client that writes after its own lease ended.",
        lessons: &["redis-del-release", "redis-safe-release"],
        proof: None,
    },
    Question {
        question: "What does a failover do to a Redis lock?",
        answer: "Redis replicates asynchronously: the primary answers OK before the key reaches its replica. If the primary dies in between and the replica is promoted, the key is gone, and a second client takes the same lock while the first still holds it; an INCR fencing counter can go back the same way. WAIT makes the client block until a number of replicas have acknowledged the write, which narrows the window but does not close it: a replica that had not acknowledged can still be promoted, and Redis's documentation says WAIT does not make it strongly consistent. Redlock's answer is independent masters and a majority; the consensus stores' answer is to replicate before granting.",
        lessons: &["redis-failover", "redis-failover-replicated", "redis-wait", "redis-incr-failover"],
        proof: None,
    },
    Question {
        question: "Is Redlock always unsafe?",
        answer: "It depends on what the lock is for, and the debate has two sides. Kleppmann: a clock jump on a master, a long pause after acquiring, or a master that forgets its keys breaks the single holder, and Redlock hands out no fencing token. antirez: a pause during acquisition is caught, because the client checks how long acquiring took against the validity; a pause after acquiring hurts every lock that expires by itself, fenced or not; Redlock assumes clocks that run at about the same rate, not synchronised ones, so a jump is an operations fault; and the random value can be the key of a check-and-set at the resource. For efficiency (avoiding duplicate work) it is a pragmatic choice; for correctness the resource still needs its own check.",
        lessons: &["redlock-happy", "redlock-clock-jump", "redlock-pause", "redlock-slow-acquisition", "redlock-pause-checked"],
        proof: Some(("redlock-pause-checked", "pause,partition")),
    },
    Question {
        question: "Does Redisson's watchdog make a Redis lock safe?",
        answer: "It makes a lock live as long as its holder's JVM does, which is liveness, not safety. Locked without a lease time, the lock hash lives lockWatchdogTimeout (30 s) and the watchdog renews it every 10 s; if a renewal fails (a partition longer than Redisson's timeout, a Redis hiccup) the watchdog logs an error and stops for good, and nothing tells the application, so no policy of its own can react. A paused JVM runs no watchdog either. RFencedLock INCRs redisson_lock_token in the acquire script and hands the value out: a resource that refuses lower tokens stops the stale holder. The counter lives on one Redis primary, though, and asynchronous replication can lose it in a failover, handing a token out twice.",
        lessons: &["redisson-watchdog-stops", "redisson-fenced-watchdog", "redisson-fenced-failover"],
        proof: Some(("redisson-fenced-watchdog", "pause,partition")),
    },
    Question {
        question: "Why watch a predecessor in ZooKeeper?",
        answer: "So that a release wakes exactly one contender, the next in line. If every waiter watched the lock node, each deletion would wake them all, they would all list the children, and all but one would go back to sleep: a herd whose cost grows with the square of the queue. The woken contender still lists the children again, because its predecessor may have gone for another reason, such as an expired session.",
        lessons: &["zk-queue", "zk-herd"],
        proof: None,
    },
    Question {
        question: "Why use ZooKeeper or etcd for a lock instead of Redis?",
        answer: "They replicate by consensus before they answer, so a failover never forgets a granted lock, and they hand out a number from that same total order (ZooKeeper's zxid, etcd's revision) that a resource can check as a fencing token. They still grant leases: a holder whose session or lease expired while it was paused or cut off keeps believing, and etcd's own documentation says its lock APIs cannot be used for mutual exclusion by themselves. The gain is a durable, ordered token and waiters queued in order; the resource must still check the token, or the data must live in the store and be written in a transaction that checks the lock.",
        lessons: &["etcd-lease-expires", "etcd-txn-guard", "zk-session-expiry", "zk-queue", "redis-failover"],
        proof: Some(("etcd-txn-guard", "pause,partition")),
    },
    Question {
        question: "Can two clients hold a ZooKeeper lock after a session expiry?",
        answer: "Yes, each believing it holds it. The ensemble decides that a session expired, deletes its ephemeral znode and wakes the next contender; the partitioned holder hears nothing until it reconnects, so it still believes. A client that follows the Programmer's Guide goes into a safe mode when it is disconnected, stopping work before its session can have expired: that closes the partition case, but a process frozen in a pause runs no code and cannot stop. The czxid of the holder's znode, checked at the resource, closes both.",
        lessons: &["zk-session-expiry-unchecked", "zk-safe-mode", "zk-session-expiry"],
        proof: Some(("zk-session-expiry", "pause,partition")),
    },
    Question {
        question: "Can Kubernetes leader election produce two leaders?",
        answer: "Yes, and client-go's documentation says so: it does not guarantee that only one client acts as leader. A leader that is paused past LeaseDuration wakes and acts before it learns that another took over; a candidate whose clock runs fast waits too little true time. The leader stops when it cannot renew for RenewDeadline, which bounds a partition but not a pause. A resource that checks leaseTransitions (or the Lease's resourceVersion) fences the old leader; identities must be unique per process, since a reused identity re-acquires without a transition. Without ReleaseOnCancel, which is off by default, a leader that exits leaves the others waiting a whole LeaseDuration.",
        lessons: &["k8s-paused-leader", "k8s-fenced", "k8s-clock-rate", "k8s-clock-rate-tolerated", "k8s-no-release"],
        proof: Some(("k8s-fenced", "pause,partition")),
    },
    Question {
        question: "What does Consul's lock-delay protect against?",
        answer: "A holder that stalled and wakes after its session was invalidated. When the servers reap a session (only after twice its TTL without a renewal) or a health check fails, they free its key and refuse it to everyone for the lock-delay, 15 s by default. A holder paused for less than twice the TTL plus the delay, less the half TTL since its last renewal (37.5 s with the defaults: the reaping clock runs from the last renewal, which the Go client sends every TTL/2), wakes while nobody else holds the key, so its late write lands before its successor's instead of over it. A longer stall is not covered, and neither is a normal release, which has no delay. The real fence is the key's LockIndex, which grows with every acquisition: Consul documents key, LockIndex and session as a sequencer, for the resource to check, as Chubby, where lock-delay and sequencers come from, does with its lock generation.",
        lessons: &["consul-lock-delay", "consul-lockindex", "chubby-sequencer"],
        proof: Some(("consul-lockindex", "pause,partition")),
    },
    Question {
        question: "Does a Raft-based lock like Hazelcast's FencedLock still need fencing?",
        answer: "Yes. Raft makes the lock itself linearizable: one CP session holds it at a time, and a holder whose session stops heartbeating (300 s by default) loses it to the next waiter. But a paused holder runs no code and hears nothing; it wakes still believing, and learns otherwise only at its next call on the lock, which throws LockOwnershipLostException. That is why FencedLock hands out a fence, the Raft commit index of the winning lock call: monotonic, though not consecutive. The resource must refuse lower fences.",
        lessons: &["hazelcast-session-expiry"],
        proof: Some(("hazelcast-session-expiry", "pause,partition")),
    },
    Question {
        question: "Is the DynamoDB lock client safe?",
        answer: "It is careful about clocks in one way and exposed in another. The item stores no time: a contender remembers the recordVersionNumber it read and waits a lease on its own clock for it to change, so clock offsets do not matter. Rates do: a holder whose clock runs slow heartbeats late, and a contender whose clock runs fast waits too little, so the lock holds only while rates differ by less than about leaseDuration / heartbeatPeriod. A paused holder is taken over the same way. The recordVersionNumber is a random GUID and fences nothing; a number attribute that every acquiring write increments, checked at the resource, does, provided release keeps the item (a deleted item takes its fence with it).",
        lessons: &["dynamodb-slow-clock", "dynamodb-fence-attribute"],
        proof: Some(("dynamodb-fence-attribute", "pause,partition")),
    },
    Question {
        question: "How do you fence writers on S3?",
        answer: "With objects and conditions, because S3 has no locks, leases or counters, and compares only existence and ETags, never one number with another. Create one object per epoch with If-None-Match: * (only one PUT can create lock/epoch-7, the others get 412), and the epoch is the token. Then either the resource checks the epoch, or the data itself lives in S3 behind a manifest: each new holder rewrites the manifest with its epoch, and every write is a PUT with If-Match on the ETag its writer last saw, so a stale writer gets 412 Precondition Failed. A writer must also stop when the manifest it reads carries a newer epoch; renewing its own epoch object tells it nothing, since S3 compares that object's ETag, unchanged, and answers 200 though a newer epoch exists: only a LIST shows one.",
        lessons: &["s3-stale-writer-412", "s3-create-once"],
        proof: Some(("s3-stale-writer-412", "pause,partition")),
    },
    Question {
        question: "Do the machines' clocks need to be synchronised?",
        answer: "Not synchronised, but running at about the same rate. A lease is measured as elapsed time on the node that decides: client-go, ZooKeeper, etcd and the DynamoDB lock client time it with monotonic clocks, so an offset between machines does not matter but a clock that runs fast does. Some systems time by the wall clock instead: Redis expires keys by it, Hazelcast's CP group expires sessions by its leader's, and the S3 scheme judges an epoch's age by S3's, so a wall-clock jump there (an NTP step, an operator) moves every expiry at once, which is how Kleppmann's Redlock counterexample works. antirez counts such jumps as an operations fault; either way a fencing token makes the resource safe whatever the clocks do.",
        lessons: &["clock-jump", "redis-clock-jump", "etcd-clock-jump", "redlock-clock-jump", "k8s-clock-rate", "k8s-clock-rate-tolerated", "dynamodb-slow-clock", "dynamodb-fence-attribute"],
        proof: None,
    },
    Question {
        question: "Can you use PostgreSQL advisory locks behind a connection pooler?",
        answer: "Not session-level ones behind a transaction pooler. PgBouncer in transaction mode runs each statement on whichever server connection is free, and an advisory lock belongs to the server session that took it, not to the client: another client's statement can land on that connection and find the lock already its session's (locks stack, so its call returns at once), and the first client's unlock can land on a connection that holds nothing. Use session pooling for session-level locks, or pg_advisory_xact_lock inside one transaction, which keeps its connection until it commits. Either way the lock has no fencing token: a paused holder still needs a check at the resource, or the rows in the same database.",
        lessons: &["pg-pgbouncer", "pg-xact-lock", "pg-same-database", "pg-external"],
        proof: None,
    },
    Question {
        question: "When should you avoid a distributed lock?",
        answer: "When the resource can enforce the invariant itself: a conditional update (UPDATE … WHERE version = expected), a unique constraint, an idempotency key with a durable results table, a partitioned queue with one consumer per partition, a transactional outbox, or, across services, a saga whose compensating actions undo the steps already done (it gives up isolation: others see a step before it is undone); or keep the data where the lock lives and check the lock in the same transaction as the write (etcd, PostgreSQL). Then the lock becomes an optimisation at most, and a stale holder cannot harm what the resource checks. What it does outside the resource still happens: in the partitioned queue both consumers processed the event, and only the old owner's commit was refused; side effects need their own idempotency key or transaction.",
        lessons: &["optimistic-version", "unique-constraint", "idempotency-table", "partitioned-queue", "transactional-outbox", "saga-compensation", "etcd-txn-guard"],
        proof: Some(("conditional-write", "pause,partition")),
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::lessons;

    #[test]
    fn every_linked_lesson_exists() {
        let ids: Vec<String> = lessons::all().iter().map(|l| l.id().to_string()).collect();
        for q in QUESTIONS {
            assert!(!q.lessons.is_empty(), "{}", q.question);
            for l in q.lessons {
                assert!(ids.iter().any(|id| id == l), "{} links to unknown lesson {l}", q.question);
            }
        }
    }
}
