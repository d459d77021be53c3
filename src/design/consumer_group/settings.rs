//! The consumer group's settings, declared once, and how they build the design.

use super::{Group, Times};
use crate::design::param::settings;
use crate::design::{Design, Factory, Settings};
use crate::engine::time::Millis;
use crate::error::ScenarioError;
use crate::limits::MAX_SETTING_MS;
use std::rc::Rc;

settings! {
    /// How the consumer group's coordinator and members are set up.
    pub struct ConsumerGroupSettings {
        /// How long the coordinator waits for a member's heartbeat before removing it from the group (session.timeout.ms).
        session_timeout_ms: u64 = number_or("ms", 1..=MAX_SETTING_MS, 45_000),
        /// How often a member sends a heartbeat when its script sets no renewal (heartbeat.interval.ms).
        heartbeat_interval_ms: u64 = number_or("ms", 1..=MAX_SETTING_MS, 3_000),
        /// How long the coordinator waits for more members before the first rebalance of an empty group completes
        /// (group.initial.rebalance.delay.ms).
        initial_rebalance_delay_ms: u64 = number_or("ms", 0..=MAX_SETTING_MS, 3_000),
        /// How long a rebalance waits for every member to rejoin before it goes on without the missing ones (max.poll.interval.ms).
        rebalance_timeout_ms: u64 = number_or("ms", 1..=MAX_SETTING_MS, 300_000),
        /// The generation of the first completed rebalance.
        first_generation: u64 = number_or("", 1..=u32::MAX as u64, 1),
    }
}

impl Factory for ConsumerGroupSettings {
    fn build(&self) -> Result<Rc<dyn Design>, ScenarioError> {
        Ok(Rc::new(Group {
            values: self.to_values(),
            times: Times {
                session_ms: Millis::from_ms(self.session_timeout_ms),
                initial_delay_ms: Millis::from_ms(self.initial_rebalance_delay_ms),
                rebalance_ms: Millis::from_ms(self.rebalance_timeout_ms),
            },
            heartbeat_ms: self.heartbeat_interval_ms,
            first_generation: self.first_generation,
        }))
    }
}
