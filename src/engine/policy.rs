//! How a client retries a busy lock and keeps renewing one: policies from its script.

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

/// What a client does when a renewal is refused or unanswered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenewFailure {
    /// Stop working and skip every remaining write.
    Abort,
    /// Keep going as if nothing happened.
    CarryOn,
}
