//! The ZooKeeper design's settings, declared once, and how they build the design.

use super::ZkDesign;
use crate::design::param::{choice, settings};
use crate::design::{Design, Factory, Settings};
use crate::engine::time::Millis;
use crate::error::ScenarioError;
use crate::limits::MAX_SHORT_SETTING_MS;
use std::rc::Rc;

choice! {
    /// What a waiting contender watches.
    pub enum Watch {
        /// each waiter watches only the znode just before its own (the recipe)
        Predecessor = "predecessor",
        /// every waiter watches the whole lock node (the herd effect)
        LockNode = "lock_node",
    }
}

settings! {
    /// How the ZooKeeper recipe is set up.
    pub struct ZookeeperSettings {
        required {
            /// The ensemble's basic time unit; session timeouts are 2 to 20 ticks.
            tick_time_ms: u64 = number("ms", 1..=MAX_SHORT_SETTING_MS),
            /// How long the ensemble waits without a heartbeat before expiring a session.
            session_timeout_ms: u64 = number("ms", 1..=1_200_000),
        }
        /// What a waiting contender watches.
        watch: Watch = choice(Watch::Predecessor),
    }
}

impl Factory for ZookeeperSettings {
    fn build(&self) -> Result<Rc<dyn Design>, ScenarioError> {
        let (tick, timeout) = (self.tick_time_ms, self.session_timeout_ms);
        // The server clamps what a client asks for to 2..=20 ticks; a scenario must say what it gets.
        if timeout < 2 * tick || timeout > 20 * tick {
            return Err(ScenarioError::new(
                Self::session_timeout_ms.path(),
                format!("must be between {} and {} (2 to 20 ticks of {tick} ms), got {timeout}", 2 * tick, 20 * tick),
            ));
        }
        Ok(Rc::new(ZkDesign {
            values: self.to_values(),
            tick_ms: Millis::from_ms(tick),
            session_timeout_ms: Millis::from_ms(timeout),
            herd: self.watch == Watch::LockNode,
        }))
    }
}
