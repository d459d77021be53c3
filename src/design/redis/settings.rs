//! The Redis design's settings, declared once, and how they build the design.

use super::RedisDesign;
use crate::design::param::settings;
use crate::design::redis_replication::MOST_REPLICAS;
use crate::design::{Design, Factory, Settings};
use crate::engine::time::Millis;
use crate::error::ScenarioError;
use crate::limits::{MAX_SETTING_MS, MAX_SHORT_SETTING_MS};
use std::rc::Rc;

settings! {
    /// How a Redis lock is set up.
    pub struct RedisSettings {
        required {
            /// The PX a client sets: how long the key lives on the Redis node's clock.
            ttl_ms: u64 = number("ms", 1..=MAX_SETTING_MS),
        }
        /// Each acquisition also INCRs a counter and hands its value out as a fencing token.
        incr_token: bool = flag(false),
        /// With incr_token: the INCR is a second round trip after the SET succeeds, not one Lua script with it, so a holder that pauses
        /// between them takes its token late.
        incr_separate: bool = flag(false),
        /// With a second lock-service node as replica: how long after a change the primary streams it.
        replication_lag_ms: u64 = number_or("ms", 0..=MAX_SHORT_SETTING_MS, 100),
        /// With a third lock-service node as a second replica: how long after a change the primary streams it there.
        second_replica_lag_ms: u64 = number_or("ms", 0..=MAX_SHORT_SETTING_MS, 100),
        /// After its SET, a client runs WAIT for this many replicas and takes the lock only if that many acknowledged; 0: no WAIT.
        wait_replicas: u64 = number_or("replicas", 0..=MOST_REPLICAS as u64, 0),
        /// The WAIT's timeout: how long the primary blocks the client for acknowledgements.
        wait_timeout_ms: u64 = number_or("ms", 1..=MAX_SHORT_SETTING_MS, 100),
        /// repl-diskless-sync-delay: how long a promoted replica waits before sending the other replicas its whole dataset.
        repl_diskless_sync_delay_ms: u64 = number_or("ms", 0..=MAX_SHORT_SETTING_MS, 5_000),
    }
}

impl Factory for RedisSettings {
    fn build(&self) -> Result<Rc<dyn Design>, ScenarioError> {
        if self.incr_separate && !self.incr_token {
            return Err(ScenarioError::new(Self::incr_separate.path(), "needs incr_token: there is no INCR to separate"));
        }
        Ok(Rc::new(RedisDesign {
            values: self.to_values(),
            ttl_ms: Millis::from_ms(self.ttl_ms),
            incr_token: self.incr_token,
            incr_separate: self.incr_separate,
            lags_ms: [Millis::from_ms(self.replication_lag_ms), Millis::from_ms(self.second_replica_lag_ms)],
            resync_delay_ms: Millis::from_ms(self.repl_diskless_sync_delay_ms),
            wait: match self.wait_replicas {
                0 => None,
                n => Some((n, Millis::from_ms(self.wait_timeout_ms))),
            },
        }))
    }
}
