//! The FencedLock's settings, declared once with the CP Subsystem's names and defaults, and how they build the design.

use super::HazelcastDesign;
use crate::design::param::settings;
use crate::design::{Design, Factory, Settings};
use crate::error::ScenarioError;
use crate::limits::MAX_SETTING_MS;
use std::rc::Rc;

settings! {
    /// How the CP Subsystem is set up for a FencedLock.
    pub struct HazelcastSettings {
        /// session-time-to-live-seconds: a CP session whose heartbeats stop for this long is closed, and its lock passes on.
        session_time_to_live_ms: u64 = number_or("ms", 2..=MAX_SETTING_MS, 300_000),
        /// session-heartbeat-interval-seconds: how often a client's CP session sends a heartbeat.
        session_heartbeat_interval_ms: u64 = number_or("ms", 1..=MAX_SETTING_MS, 5_000),
    }
}

impl Factory for HazelcastSettings {
    fn build(&self) -> Result<Rc<dyn Design>, ScenarioError> {
        let (ttl, beat) = (self.session_time_to_live_ms, self.session_heartbeat_interval_ms);
        if beat >= ttl {
            return Err(ScenarioError::new(
                Self::session_heartbeat_interval_ms.path(),
                format!("must be less than session_time_to_live_ms ({ttl}), as the CP Subsystem requires, got {beat}"),
            ));
        }
        Ok(Rc::new(HazelcastDesign { values: self.to_values(), ttl_ms: ttl, heartbeat_ms: beat }))
    }
}
