//! The DynamoDB lock client's settings, declared once with the library's names and defaults, and how they build the design.

use super::DynamoDesign;
use crate::design::param::settings;
use crate::design::{Design, Factory, Settings};
use crate::error::ScenarioError;
use crate::limits::MAX_SETTING_MS;
use std::rc::Rc;

settings! {
    /// How the DynamoDB lock client is set up.
    pub struct DynamoDbSettings {
        /// leaseDuration: how long a contender waits, on its own clock, for the lock item's recordVersionNumber to change before taking it over.
        lease_duration_ms: u64 = number_or("ms", 2..=MAX_SETTING_MS, 20_000),
        /// heartbeatPeriod: how often the holder's background thread rewrites the recordVersionNumber; at most half the lease, as the client requires.
        heartbeat_period_ms: u64 = number_or("ms", 1..=MAX_SETTING_MS, 5_000),
        /// acquireLock's refreshPeriod: how often a waiting contender reads the lock item again.
        refresh_period_ms: u64 = number_or("ms", 1..=MAX_SETTING_MS, 1_000),
        /// acquireLock's additionalTimeToWaitForLock: how much longer than a lease one call waits before it gives up.
        additional_time_to_wait_for_lock_ms: u64 = number_or("ms", 0..=MAX_SETTING_MS, 1_000),
        /// deleteLockOnRelease: release deletes the lock item; otherwise it marks it released (isReleased) and keeps its other attributes.
        delete_lock_on_release: bool = flag(true),
        /// The lock item also keeps a number attribute that every acquiring write increments (ADD fence 1), handed out as a fencing token.
        fence_attribute: bool = flag(false),
    }
}

impl Factory for DynamoDbSettings {
    fn build(&self) -> Result<Rc<dyn Design>, ScenarioError> {
        let (lease, beat) = (self.lease_duration_ms, self.heartbeat_period_ms);
        if beat * 2 > lease {
            return Err(ScenarioError::new(
                Self::heartbeat_period_ms.path(),
                format!("must be no more than half of lease_duration_ms ({lease}), as the lock client requires, got {beat}"),
            ));
        }
        if self.fence_attribute && self.delete_lock_on_release {
            return Err(ScenarioError::new(
                Self::fence_attribute.path(),
                "needs delete_lock_on_release false: a deleted lock item takes its fence with it, and the next acquisition starts again from 1",
            ));
        }
        Ok(Rc::new(DynamoDesign {
            values: self.to_values(),
            lease_ms: lease,
            heartbeat_ms: beat,
            refresh_ms: self.refresh_period_ms,
            extra_wait_ms: self.additional_time_to_wait_for_lock_ms,
            delete_on_release: self.delete_lock_on_release,
            fence: self.fence_attribute,
        }))
    }
}
