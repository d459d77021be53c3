//! Chubby's settings, declared once with the paper's numbers, and how they build the design.

use super::ChubbyDesign;
use crate::design::param::settings;
use crate::design::{Design, Factory, Settings};
use crate::engine::time::Millis;
use crate::error::ScenarioError;
use crate::limits::MAX_SETTING_MS;
use std::rc::Rc;

settings! {
    /// How a Chubby lock is set up.
    pub struct ChubbySettings {
        /// How far each KeepAlive extends the session lease (12 s by default): the master ends a session that long after its last KeepAlive.
        lease_ms: u64 = number_or("ms", 3..=MAX_SETTING_MS, 12_000),
        /// The lock-delay the client chose: after its session ends (not after a release), nobody may take the lock for this long; at most a minute.
        lock_delay_ms: u64 = number_or("ms", 0..=60_000, 60_000),
    }
}

impl Factory for ChubbySettings {
    fn build(&self) -> Result<Rc<dyn Design>, ScenarioError> {
        Ok(Rc::new(ChubbyDesign {
            values: self.to_values(),
            lease: Millis::from_ms(self.lease_ms),
            lock_delay: Millis::from_ms(self.lock_delay_ms),
        }))
    }
}
