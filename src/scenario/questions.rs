//! The interview questions that close the reference text, each answered briefly and linked to the
//! lessons that demonstrate the answer.

/// One question with its answer and the lessons that show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Question {
    pub question: &'static str,
    pub answer: &'static str,
    /// Lesson ids, most telling first.
    pub lessons: &'static [&'static str],
}

/// The questions, in the reference's order.
pub const QUESTIONS: &[Question] = &[
    Question {
        question: "Why are distributed locks harder than mutexes?",
        answer: "A mutex lives in one process's memory, and the scheduler cannot hand it to a second thread while the first still runs. A distributed lock is a message from another machine: it can arrive late, the holder can freeze after receiving it, the lock service measures the lease on its own clock, and nobody can tell a slow holder from a dead one. The lease has to expire for the system to make progress, and then the old holder may still act.",
        lessons: &["lease-race-unfenced", "network-delay", "clock-jump"],
    },
    Question {
        question: "What is a fencing token?",
        answer: "A number that increases with every grant of the lock and travels with every write. The protected resource remembers the highest token it has accepted and rejects anything lower, so a holder whose lease expired cannot overwrite the work of its successor, however late it wakes. A stale write that arrives before the successor's first still gets in: it erases nothing, and harms the data only if the successor read before it and then writes what it computed. A random lock value is not a fencing token: it identifies the owner but has no order.",
        lessons: &["lease-race-fenced", "lease-fenced-blind-first", "lease-fenced-first-write", "redis-value-not-token", "redis-incr-token"],
    },
    Question {
        question: "Is Redlock always unsafe?",
        answer: "It depends on what the lock is for, and the debate has two sides. Kleppmann: a clock jump on a master, a long pause after acquiring, or a master that forgets its keys breaks the single holder, and Redlock hands out no fencing token. antirez: a pause during acquisition is caught, because the client checks how long acquiring took against the validity; a pause after acquiring hurts every lock that expires by itself, fenced or not; Redlock assumes clocks that run at about the same rate, not synchronised ones, so a jump is an operations fault; and the random value can be the key of a check-and-set at the resource. For efficiency (avoiding duplicate work) it is a pragmatic choice; for correctness the resource still needs its own check.",
        lessons: &["redlock-happy", "redlock-clock-jump", "redlock-pause", "redlock-slow-acquisition", "redlock-pause-checked"],
    },
    Question {
        question: "Why watch a predecessor in ZooKeeper?",
        answer: "So that a release wakes exactly one contender, the next in line. If every waiter watched the lock node, each deletion would wake them all, they would all list the children, and all but one would go back to sleep: a herd whose cost grows with the square of the queue. The woken contender still lists the children again, because its predecessor may have gone for another reason, such as an expired session.",
        lessons: &["zk-queue", "zk-herd"],
    },
    Question {
        question: "When should you avoid a distributed lock?",
        answer: "When the resource can enforce the invariant itself: a conditional update (UPDATE … WHERE version = expected), a unique constraint, an idempotency key with a durable results table, a partitioned queue with one consumer per partition, or a transactional outbox; or keep the data where the lock lives and check the lock in the same transaction as the write (etcd, PostgreSQL). Then the lock becomes an optimisation at most, and a stale holder cannot harm what the resource checks. What it does outside the resource still happens: in the partitioned queue both consumers processed the event, and only the old owner's commit was refused; side effects need their own idempotency key or transaction.",
        lessons: &["optimistic-version", "unique-constraint", "idempotency-table", "partitioned-queue", "transactional-outbox", "etcd-txn-guard"],
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
