//! Short phrases the event log and the diagram's marks share, so both say a restart, a client
//! giving up, a failed renewal and a check of the lock alike.

use super::number::ms;
use crate::engine::clock::TimerClock;
use crate::engine::spec::Guard;
use crate::engine::time::Millis;

/// A crash.
pub const CRASH: &str = "crash";

/// A replica's promotion.
pub const PROMOTED: &str = "promoted to primary";

/// A restart, with its saved state or without.
pub fn restart(keep_state: bool) -> &'static str {
    if keep_state {
        "restart with saved state"
    } else {
        "restart, state lost"
    }
}

/// Says what a step of a wall clock moves in a design whose lock service times expiry by
/// `clock` (clients time by elapsed time).
pub fn what_a_step_moves(clock: TimerClock) -> &'static str {
    match clock {
        TimerClock::Wall => {
            "the lock service times expiry by its wall clock, so a step of that clock moves every expiry; clients time by elapsed time"
        }
        TimerClock::Monotonic => {
            "the lock service and the clients time by elapsed time, so a step of a wall clock moves no expiry; only a clock running fast or slow changes their timing"
        }
    }
}

/// Names the clock a step moves: the wall clock of a node that times by elapsed time (`elapsed`),
/// where saying only "clock" would suggest its timers moved too.
pub fn stepped_clock(elapsed: bool) -> &'static str {
    if elapsed {
        "wall clock"
    } else {
        "clock"
    }
}

/// A step of `by_ms`, signed: `+2,000 ms`, `−500 ms`.
pub fn signed_ms(by_ms: i64) -> String {
    format!("{}{}", if by_ms >= 0 { "+" } else { "−" }, ms(by_ms.unsigned_abs()))
}

/// A clock jump as a log line: a node that times by elapsed time (`elapsed`) feels it on its
/// wall clock only.
pub fn clock_jump(by_ms: i64, elapsed: bool) -> String {
    if elapsed {
        format!("wall clock jumps {by_ms:+} ms; timers read elapsed time")
    } else {
        format!("clock jumps {by_ms:+} ms")
    }
}

/// A client giving up on the lock.
pub fn gave_up(attempts: u32) -> String {
    format!("gives up after {}", attempts_n(attempts))
}

/// A client closing a connection whose reply a partition holds.
pub fn hung_up(peer: &str) -> String {
    format!("hangs up on {peer}")
}

/// "1 attempt", "3 attempts".
pub fn attempts_n(attempts: u32) -> String {
    format!("{attempts} attempt{}", if attempts == 1 { "" } else { "s" })
}

/// A renewal (called `renewal` in the design's words) that failed for good, and what the
/// client does then.
pub fn renewal_failed(renewal: &str, abort: bool) -> String {
    format!("{renewal} failed: {}", if abort { "abort" } else { "carry on" })
}

/// A client's check of its lock, in a few words: `checks: 590 ms left ≥ 300 ms, goes on`.
pub fn checked(held: bool, left_ms: Option<i64>, margin_ms: Millis, ok: bool) -> String {
    let verdict = if ok { "goes on" } else { "stops" };
    match (held, left_ms) {
        (false, _) => "checks: holds no lock, stops".into(),
        (true, None) => format!("checks: no end in sight, {verdict}"),
        (true, Some(l)) => {
            format!("checks: {} left {} {}, {verdict}", ms(l.max(0).unsigned_abs()), if ok { "≥" } else { "<" }, ms(margin_ms))
        }
    }
}

/// What a run's verdict is about, for every lesson's panel and the README's words.
pub const VERDICT_MEANS: &str = "Safe and unsafe are about the data, as a correctness lock is: unsafe means an acknowledged update was lost, writes were applied out of token order, or an effect happened twice. Two clients holding the lock at once, or a write let in from one whose lock had ended, are findings the run explains, not harm by themselves.";

/// Says what guards the data in a set-up, after "meets the bar: " or "falls short: ".
pub fn guard(g: Guard) -> &'static str {
    match g {
        Guard::Token => "the resource checks the fencing token",
        Guard::Version => "the resource compares versions itself (compare-and-set)",
        Guard::Itself => "the resource keeps the invariant itself (an idempotency key, a unique row)",
        Guard::Store => "the data lives in the lock's own store, which checks the lock with the write",
        Guard::NoToken => "the resource would check a token, but this lock hands out none",
        Guard::Nothing => "nothing at the resource checks, so safety rests on timing alone",
    }
}
