//! The Kubernetes design's settings, declared once, and how they build the design (checking them as client-go does).

use super::{K8sDesign, JITTER_TENTHS};
use crate::design::param::settings;
use crate::design::{Design, Factory, Settings};
use crate::error::ScenarioError;
use crate::limits::MAX_SETTING_MS;
use std::rc::Rc;

settings! {
    /// How client-go's leader election is set up.
    pub struct KubernetesSettings {
        /// How long candidates wait, from when they last saw the Lease change, before taking it over. Whole seconds: the Lease stores
        /// leaseDurationSeconds.
        lease_duration_ms: u64 = number_or("ms", 1_000..=MAX_SETTING_MS, 15_000),
        /// How long a round of renewing may fail before the leader stops leading.
        renew_deadline_ms: u64 = number_or("ms", 1..=MAX_SETTING_MS, 10_000),
        /// How often a leader renews, and how often a candidate tries (jittered by up to 1.2×).
        retry_period_ms: u64 = number_or("ms", 1..=MAX_SETTING_MS, 2_000),
    }
}

impl Factory for KubernetesSettings {
    fn build(&self) -> Result<Rc<dyn Design>, ScenarioError> {
        let (ld, rd, rp) = (self.lease_duration_ms, self.renew_deadline_ms, self.retry_period_ms);
        if ld % 1000 != 0 {
            return Err(ScenarioError::new(
                Self::lease_duration_ms.path(),
                format!("must be whole seconds (the Lease stores leaseDurationSeconds), got {ld}"),
            ));
        }
        if rd >= ld {
            return Err(ScenarioError::new(
                Self::renew_deadline_ms.path(),
                format!("must be less than lease_duration_ms ({ld}), as client-go requires, got {rd}"),
            ));
        }
        if rd * 10 <= rp * JITTER_TENTHS {
            return Err(ScenarioError::new(
                Self::renew_deadline_ms.path(),
                format!("must be more than 1.2 × retry_period_ms ({}), as client-go requires, got {rd}", rp * JITTER_TENTHS / 10),
            ));
        }
        Ok(Rc::new(K8sDesign { values: self.to_values(), lease_duration_ms: ld, renew_deadline_ms: rd, retry_period_ms: rp }))
    }
}
