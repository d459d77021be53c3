//! Consul's lock settings, declared once with the API's names and defaults, and how they build the design.

use super::ConsulDesign;
use crate::design::param::settings;
use crate::design::{Design, Factory, Settings};
use crate::engine::time::Millis;
use crate::error::ScenarioError;
use crate::limits::MAX_SETTING_MS;
use std::rc::Rc;

settings! {
    /// How a Consul lock is set up.
    pub struct ConsulSettings {
        /// The session's TTL ("15s" in the Go client's lock). Only a lower bound: the servers reap a session only after twice it
        /// (SessionTTLMultiplier), and the client renews every half of it.
        session_ttl_ms: u64 = number_or("ms", 2..=MAX_SETTING_MS, 15_000),
        /// LockDelay: after an invalidation frees the key (not after a normal release), nobody may acquire it for this long.
        lock_delay_ms: u64 = number_or("ms", 0..=60_000, 15_000),
        /// Behavior = delete: an invalidated session's key is deleted rather than released, and with it its LockIndex.
        behavior_delete: bool = flag(false),
    }
}

impl Factory for ConsulSettings {
    fn build(&self) -> Result<Rc<dyn Design>, ScenarioError> {
        Ok(Rc::new(ConsulDesign {
            values: self.to_values(),
            ttl: Millis::from_ms(self.session_ttl_ms),
            lock_delay: Millis::from_ms(self.lock_delay_ms),
            delete: self.behavior_delete,
        }))
    }
}
