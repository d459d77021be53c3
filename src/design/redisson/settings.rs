//! Redisson's lock settings, declared once, with Redisson's names and defaults, and how they build the design.

use super::RedissonDesign;
use crate::design::param::settings;
use crate::design::{Design, Factory, Settings};
use crate::engine::time::Millis;
use crate::error::ScenarioError;
use crate::limits::{MAX_SETTING_MS, MAX_SHORT_SETTING_MS};
use std::rc::Rc;

settings! {
    /// How Redisson's lock is set up.
    pub struct RedissonSettings {
        /// lockWatchdogTimeout: how long a lock taken without a lease time lives; the watchdog renews it every third of this.
        lock_watchdog_timeout_ms: u64 = number_or("ms", 3..=MAX_SETTING_MS, 30_000),
        /// The leaseTime passed to lock(): the lock lives this long and nothing renews it; 0: none given, so the watchdog renews.
        lease_time_ms: u64 = number_or("ms", 0..=MAX_SETTING_MS, 0),
        /// RFencedLock: each acquisition also INCRs redisson_lock_token:{name} and hands its value out as a fencing token.
        fenced: bool = flag(false),
        /// With a second lock-service node as replica: how long after a change the primary streams it.
        replication_lag_ms: u64 = number_or("ms", 0..=MAX_SHORT_SETTING_MS, 100),
    }
}

impl Factory for RedissonSettings {
    fn build(&self) -> Result<Rc<dyn Design>, ScenarioError> {
        let watchdog = self.lease_time_ms == 0;
        let lease_ms = if watchdog { self.lock_watchdog_timeout_ms } else { self.lease_time_ms };
        Ok(Rc::new(RedissonDesign {
            values: self.to_values(),
            lease_ms: Millis::from_ms(lease_ms),
            watchdog,
            fenced: self.fenced,
            replication_lag_ms: Millis::from_ms(self.replication_lag_ms),
        }))
    }
}
