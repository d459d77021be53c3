//! How a client retries a busy lock and keeps renewing one: policies from its script. Their
//! fields are the numbers as the scenario file writes them; the engine reads each as a time
//! through the accessor beside it.

use super::time::Millis;

/// How a client retries a busy lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AcquirePolicy {
    pub retry_ms: u64,
    /// Up to this much seeded random delay is added to each retry.
    pub jitter_ms: u64,
    pub max_attempts: u32,
    /// How long to wait for any reply before treating the request as failed.
    pub timeout_ms: u64,
}

impl AcquirePolicy {
    /// The delay before the next attempt, before jitter.
    pub fn retry(&self) -> Millis {
        Millis::from_ms(self.retry_ms)
    }

    /// How long to wait for a reply.
    pub fn timeout(&self) -> Millis {
        Millis::from_ms(self.timeout_ms)
    }
}

impl Default for AcquirePolicy {
    fn default() -> Self {
        AcquirePolicy { retry_ms: 100, jitter_ms: 0, max_attempts: 100, timeout_ms: 500 }
    }
}

/// Lease renewal while the lock is held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenewPolicy {
    pub every_ms: u64,
    pub on_failure: RenewFailure,
}

impl RenewPolicy {
    /// The time between renewals.
    pub fn every(&self) -> Millis {
        Millis::from_ms(self.every_ms)
    }
}

/// What a client does when a renewal is refused or unanswered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenewFailure {
    /// Stop working and skip every remaining write.
    Abort,
    /// Keep going as if nothing happened.
    CarryOn,
}
