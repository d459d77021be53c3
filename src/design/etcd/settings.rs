//! The etcd design's settings, declared once, and how they build the design.

use super::EtcdDesign;
use crate::design::param::settings;
use crate::design::{Design, Factory, Settings};
use crate::engine::time::Millis;
use crate::error::ScenarioError;
use crate::limits::MAX_SETTING_MS;
use std::rc::Rc;

settings! {
    /// How the etcd mutex is set up.
    pub struct EtcdSettings {
        required {
            /// The session lease's TTL: how long etcd waits for a keep-alive before revoking it.
            ttl_ms: u64 = number("ms", 1..=MAX_SETTING_MS),
        }
        /// The revision of the first write in the run.
        first_revision: u64 = number_or("", 1..=u32::MAX as u64, 1),
        /// The protected data is a key in etcd, written by a transaction guarded by the lock key.
        data_in_etcd: bool = flag(false),
    }
}

impl Factory for EtcdSettings {
    fn build(&self) -> Result<Rc<dyn Design>, ScenarioError> {
        Ok(Rc::new(EtcdDesign {
            values: self.to_values(),
            ttl_ms: Millis::from_ms(self.ttl_ms),
            first_revision: self.first_revision,
            data_in_etcd: self.data_in_etcd,
        }))
    }
}
