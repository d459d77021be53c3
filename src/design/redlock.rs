//! Redlock over every lock-service node, each an independent Redis master. The client tries the
//! masters in turn, each with a short timeout; it holds the lock if a majority set its key and
//! time is left on the validity (`TTL − elapsed − drift`). Otherwise it unlocks every master and
//! retries after a random delay. The arithmetic is the reference implementation's
//! (`antirez/redlock-rb`): quorum `N/2 + 1`, drift `TTL/100 + 2` ms.
//!
//! Simplification, said in the lessons: renewal is not modelled.

use super::param::settings;
use super::redis::{deleted_when, key_ended, Incr, RedisNode, RedisRole};
use super::redis_wire::RedisMsg;
use super::{Design, Factory, Guarantees, Kind, LockKind, Row, Rows, Services, Settings, Summary, Values};
use crate::engine::actor::{Actor, Cx, Timer};
use crate::engine::clock::TimerClock;
use crate::engine::event::LockEnd;
use crate::engine::ids::NodeId;
use crate::engine::msg::{LockMsg, Msg, ReleaseMode};
use crate::engine::protocol::{ClientView, LockClient, Progress, Protocol, Release};
use crate::engine::spec::{AcquirePolicy, ResourceMode};
use crate::engine::time::LocalMillis;
use crate::engine::time::Millis;
use crate::error::ScenarioError;
use crate::limits::{MAX_SETTING_MS, MAX_SHORT_SETTING_MS};
use crate::present::number::ms;
use crate::present::{Names, Vocabulary};
use std::rc::Rc;

/// The reference implementation's clock drift factor (1 %), as a divisor.
pub const DRIFT_DIVISOR: u64 = 100;
/// Added to the drift: Redis expiry precision plus a minimum drift of 1 ms.
pub const DRIFT_EXTRA_MS: u64 = 2;

/// Returns how many of `n` masters must agree: `n / 2 + 1`.
pub fn quorum(n: usize) -> usize {
    n / 2 + 1
}

/// Returns the drift allowance for a TTL: `ttl * 0.01 + 2` ms, truncated as the reference does.
pub fn drift_ms(ttl_ms: u64) -> u64 {
    ttl_ms / DRIFT_DIVISOR + DRIFT_EXTRA_MS
}

/// Returns the validity left after an acquisition that took `elapsed_ms` on the client's clock.
pub fn validity_ms(ttl_ms: u64, elapsed_ms: i64) -> i64 {
    ttl_ms as i64 - elapsed_ms - drift_ms(ttl_ms) as i64
}

/// The registry entry.
pub struct Redlock;

settings! {
    /// How Redlock is set up.
    pub struct RedlockSettings {
        required {
            /// The PX each master's key gets, and the validity an acquisition starts from.
            ttl_ms: u64 = number("ms", 1..=MAX_SETTING_MS),
        }
        /// How many attempts a client makes before giving up.
        retry_count: u64 = number_or("", 1..=100, 3),
        /// The most a client waits, at random, before its next attempt.
        retry_delay_ms: u64 = number_or("ms", 0..=MAX_SHORT_SETTING_MS, 200),
        /// How long to wait for one master before moving on; much less than the TTL.
        instance_timeout_ms: u64 = number_or("ms", 1..=MAX_SETTING_MS, 50),
    }
}

/// The design as the registry lists it.
static SUMMARY: Summary = Summary::of::<RedlockSettings>(
    "redlock",
    "Redlock",
    "A key on a majority of independent Redis masters, set within the validity time; no fencing token.",
);

impl Factory for RedlockSettings {
    fn build(&self) -> Result<Rc<dyn Design>, ScenarioError> {
        let d = RedlockDesign {
            values: self.to_values(),
            ttl_ms: Millis::from_ms(self.ttl_ms),
            retry_count: self.retry_count as u32,
            retry_delay_ms: Millis::from_ms(self.retry_delay_ms),
            instance_timeout_ms: Millis::from_ms(self.instance_timeout_ms),
        };
        if d.instance_timeout_ms >= d.ttl_ms {
            return Err(ScenarioError::new(Self::instance_timeout_ms.path(), "must be at least 1 and much smaller than ttl_ms"));
        }
        Ok(Rc::new(d))
    }
}

impl Kind for Redlock {
    fn summary(&self) -> &'static Summary {
        &SUMMARY
    }

    fn rows(&self, ttl_ms: u64) -> Vec<Row> {
        // A master's timeout must be below the TTL: 50 ms, or a tenth of a short TTL.
        let ttl_ms = ttl_ms.max(2);
        let settings = RedlockSettings { retry_count: 30, instance_timeout_ms: (ttl_ms / 10).clamp(1, 50), ..RedlockSettings::new(ttl_ms) };
        let rows = Rows { design: settings.configure(), services: 5, service_name: "Redis" };
        vec![rows.row("redlock", "Redlock, 5 masters", "none (random value)", Some(ResourceMode::Unfenced))]
    }
}

/// Redlock, configured.
#[derive(Debug)]
pub struct RedlockDesign {
    values: Values,
    ttl_ms: Millis,
    retry_count: u32,
    retry_delay_ms: Millis,
    instance_timeout_ms: Millis,
}

impl Protocol for RedlockDesign {
    fn service(&self, _index: usize, _nodes: &[NodeId]) -> Option<Box<dyn Actor>> {
        // Each master is a plain Redis instance; the algorithm lives in the client.
        Some(Box::new(RedisNode::new(self.ttl_ms, Incr::None, RedisRole::Primary, &[])))
    }

    fn client(&self, nodes: &[NodeId]) -> Option<Box<dyn LockClient>> {
        Some(Box::new(RedlockClient {
            masters: nodes.to_vec(),
            ttl_ms: self.ttl_ms,
            retry_count: self.retry_count,
            retry_delay_ms: self.retry_delay_ms,
            instance_timeout_ms: self.instance_timeout_ms,
            value: 0,
            next: 0,
            granted: 0,
            started_at: LocalMillis::ZERO,
        }))
    }

    fn quorum(&self, lock_nodes: usize) -> usize {
        quorum(lock_nodes)
    }

    /// Each master is a Redis, which expires keys by its wall clock.
    fn service_clock(&self) -> TimerClock {
        TimerClock::Wall
    }

    fn connections(&self) -> &'static str {
        "each instance gets a short timeout (the Redis page suggests 5–50 ms for a 10 s TTL): the client closes a connection whose reply is overdue and counts that instance as failed, and a SET it sent can still land after a partition heals, where the key then lives until it expires"
    }
}

impl Design for RedlockDesign {
    fn kind(&self) -> &'static dyn Kind {
        &Redlock
    }

    fn values(&self) -> &Values {
        &self.values
    }

    fn guarantees(&self) -> Guarantees {
        let ttl = ms(self.ttl_ms);
        Guarantees {
            lock: LockKind::Efficiency,
            safety: "With a majority of independent masters, at most one client holds the lock, provided clocks drift slowly, processes never pause and messages never linger longer than the validity time, and no master forgets a key.".into(),
            liveness: format!(
                "If a holder dies, its keys expire after the TTL ({ttl}) and the lock can be taken again; a failed attempt unlocks every master and retries after a random delay."
            ),
            assumes: "Bounded clock drift on every master, bounded pauses and network delay, and masters that keep their keys (or stay down longer than the TTL after a crash).".into(),
        }
    }

    fn services(&self) -> Services {
        Services { count: 1..=16, what: "independent Redis masters" }
    }

    fn script_renewal(&self) -> Result<(), &'static str> {
        Err("renewal is not modelled for redlock")
    }

    fn release_modes(&self) -> &'static [ReleaseMode] {
        &[ReleaseMode::Safe, ReleaseMode::Unsafe]
    }
}

impl Vocabulary for RedlockDesign {
    fn token(&self, _token: u64) -> Option<String> {
        None
    }

    fn lock(&self, _token: u64) -> String {
        "the key".into()
    }

    fn label(&self, msg: &LockMsg, _names: Names) -> String {
        msg.get::<RedisMsg>().map_or_else(String::new, RedisMsg::label)
    }

    fn sending(&self, msg: &LockMsg, me: &str, to: &str, _names: Names) -> String {
        msg.get::<RedisMsg>().map_or_else(String::new, |m| m.sending(me, to))
    }

    fn granted(&self, me: &str, holder: &str, _token: u64, expires_local: Option<LocalMillis>) -> String {
        format!(
            "{me} sets the key for {holder}, one vote toward the majority it needs, and will delete it {}.",
            deleted_when(expires_local)
        )
    }

    fn ended(&self, me: &str, holder: &str, _token: u64, how: LockEnd) -> String {
        key_ended(me, holder, how, None)
    }

    fn believes(&self, until_local: Option<LocalMillis>) -> String {
        match until_local {
            Some(t) => format!("until {} on its own clock (what is left of the validity time)", crate::present::number::local(t)),
            None => "with no end it can foresee".into(),
        }
    }

    fn expiries(&self) -> &'static str {
        "key expiries"
    }

    fn one_clock_jumped(&self, nodes: usize) -> Option<String> {
        Some(format!(
            "Only one of the {nodes} Redis masters jumps and nothing is partitioned, so the others still hold A's key and B wins no majority; with a partition as well (the lesson “Redlock: a clock jump on one master”) the jump does break it."
        ))
    }
}

/// A client running Redlock's acquisition across the masters.
#[derive(Clone, Hash)]
struct RedlockClient {
    masters: Vec<NodeId>,
    ttl_ms: Millis,
    retry_count: u32,
    retry_delay_ms: Millis,
    instance_timeout_ms: Millis,
    /// The random value of the current attempt, the same on every master.
    value: u64,
    /// The master asked now.
    next: usize,
    /// How many masters set the key in this attempt.
    granted: usize,
    started_at: LocalMillis,
}

impl RedlockClient {
    fn ask_next(&mut self, cx: &mut Cx) {
        cx.send(self.masters[self.next], Msg::lock(RedisMsg::Set { value: self.value, px_ms: self.ttl_ms }));
        cx.after(Timer::Timeout, self.instance_timeout_ms);
    }

    /// Records one master's answer (or its silence) and moves on; after the last, decides.
    fn step(&mut self, cx: &mut Cx, granted: bool) -> Progress {
        cx.cancel(Timer::Timeout);
        self.granted += usize::from(granted);
        self.next += 1;
        if self.next < self.masters.len() {
            self.ask_next(cx);
            return Progress::Pending;
        }
        let elapsed = cx.now - self.started_at;
        let validity = validity_ms(self.ttl_ms.as_ms(), elapsed);
        if self.granted >= quorum(self.masters.len()) && validity > 0 {
            // The lock is good for the validity left, counted from now.
            return Progress::Granted { token: 0, until_local: Some(cx.now.shifted(validity)) };
        }
        // Failed: unlock every master; the runner retries after a random delay.
        self.release_all(cx, true);
        Progress::Refused
    }

    fn release_all(&self, cx: &mut Cx, checked: bool) {
        // The same message to every master, shared.
        let del = Msg::lock(RedisMsg::Del { value: self.value, checked });
        for &master in &self.masters {
            cx.send(master, del.clone());
        }
    }
}

impl LockClient for RedlockClient {
    fn acquire(&mut self, cx: &mut Cx, _timeout_ms: Millis) {
        self.value = cx.rng.next_u64();
        self.next = 0;
        self.granted = 0;
        self.started_at = cx.now;
        self.ask_next(cx);
    }

    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &LockMsg, view: ClientView) -> Progress {
        // Only the master asked now counts; anything else is a late answer.
        if !view.acquiring || self.masters.get(self.next) != Some(&from) {
            return Progress::Pending;
        }
        match msg.get::<RedisMsg>() {
            Some(RedisMsg::SetOk { .. }) => self.step(cx, true),
            Some(RedisMsg::Nil) => self.step(cx, false),
            Some(_) | None => Progress::Pending,
        }
    }

    fn on_timeout(&mut self, cx: &mut Cx, _timeout_ms: Millis) -> Progress {
        self.step(cx, false)
    }

    fn retry(&mut self, cx: &mut Cx, attempts: u32, _policy: &AcquirePolicy) -> Option<Millis> {
        (attempts < self.retry_count).then(|| Millis::from_ms(cx.rng.range_inclusive(0, self.retry_delay_ms.as_ms())))
    }

    fn renew(&mut self, _cx: &mut Cx, _held: Option<u64>) {}

    fn release(&mut self, cx: &mut Cx, _held: Option<u64>, _last: u64, mode: ReleaseMode) -> Release {
        // Redlock unlocks every master and does not wait for the answers.
        self.release_all(cx, mode != ReleaseMode::Unsafe);
        Release::Sent
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quorum_is_a_strict_majority() {
        let q: Vec<usize> = (1..=7).map(quorum).collect();
        assert_eq!(q, vec![1, 2, 2, 3, 3, 4, 4]);
    }

    #[test]
    fn drift_and_validity_match_the_reference() {
        assert_eq!(drift_ms(10_000), 102);
        assert_eq!(drift_ms(1_000), 12);
        assert_eq!(drift_ms(50), 2);
        assert_eq!(validity_ms(10_000, 35), 10_000 - 35 - 102);
        assert!(validity_ms(1_000, 990) < 0, "a slow acquisition leaves no validity");
    }
}
