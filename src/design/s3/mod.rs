//! A lock over S3 conditional writes. S3 has no locks, leases or counters; it has two
//! conditions on PUT: `If-None-Match: *` (create only if absent) and `If-Match: <ETag>` (replace
//! only the version read), failing with 412 Precondition Failed. It compares existence and ETags,
//! never one number with another, so a fencing token is built from objects: one per epoch,
//! `lock/epoch-<n>`, created with `If-None-Match: *`, so each epoch has exactly one holder and the
//! epoch is the token. A contender lists the prefix and takes the next epoch when the newest is
//! released or older than the lease by S3's own clock (its Last-Modified against the response's
//! Date: the application's rule, here). The holder renews by rewriting its object with `If-Match`;
//! S3 compares the named object's ETag whichever epoch is newest, so a stale holder's renewal
//! succeeds (200) and tells it nothing: only a LIST shows a newer epoch.
//! With `data_in_s3` the protected data is a manifest object: a new holder claims it (GET, then
//! PUT with its epoch and `If-Match`), and every write is a PUT with `If-Match` on the ETag its
//! writer last saw, so a stale writer gets 412.
//!
//! Simplifications, said in the lessons: LIST and HEAD of the newest epoch are one request, and so
//! are the manifest's GET and PUT when claiming it; S3 is strongly consistent (it is, since
//! December 2020); 409 ConditionalRequestConflict, for requests that race inside S3, does not
//! arise in a model that handles one request at a time.

mod client;
mod messages;
mod service;
mod settings;
#[cfg(test)]
mod tests;
mod words;

use super::{Design, Factory, Guarantees, Kind, LockKind, Row, Rows, Services, Summary, Values};
use crate::engine::actor::Actor;
use crate::engine::clock::TimerClock;
use crate::engine::ids::NodeId;
use crate::engine::msg::ReleaseMode;
use crate::engine::protocol::{LockClient, Protocol};
use crate::engine::spec::ResourceMode;
use crate::present::number::ms;
use client::S3LockClient;
pub use messages::{EpochObject, S3Msg};
use service::Bucket;
pub use settings::S3Settings;

/// The registry entry.
pub struct S3;

/// The design as the registry lists it.
static SUMMARY: Summary = Summary::of::<S3Settings>(
    "s3",
    "S3 conditional writes",
    "One object per epoch, created with If-None-Match: the epoch is the token; optionally a manifest written with If-Match, so a stale writer gets 412.",
);

impl Kind for S3 {
    fn summary(&self) -> &'static Summary {
        &SUMMARY
    }

    fn rows(&self, ttl_ms: u64) -> Vec<Row> {
        let rows =
            |data_in_s3| Rows { design: S3Settings { data_in_s3, ..S3Settings::new(ttl_ms) }.configure(), services: 1, service_name: "S3" };
        let separate = rows(false);
        vec![
            separate.row("s3", "S3 epoch objects", "epoch, unchecked", Some(ResourceMode::Unfenced)),
            separate.row(
                "s3-fenced",
                "S3 epoch objects + epoch check",
                "epoch (If-None-Match on lock/epoch-n)",
                Some(ResourceMode::Fenced),
            ),
            rows(true).row("s3-manifest", "S3, data in a manifest (If-Match)", "epoch; the manifest's ETag, compared by If-Match", None),
        ]
    }
}

/// The S3 lock, configured.
#[derive(Debug)]
pub struct S3Design {
    values: Values,
    lease_ms: u64,
    manifest: bool,
}

impl Protocol for S3Design {
    fn service(&self, _index: usize, _nodes: &[NodeId]) -> Option<Box<dyn Actor>> {
        Some(Box::new(Bucket::new()))
    }

    fn client(&self, nodes: &[NodeId]) -> Option<Box<dyn LockClient>> {
        Some(Box::new(S3LockClient::new(nodes[0], self.lease_ms, self.manifest)))
    }

    fn data_in_service(&self) -> bool {
        self.manifest
    }

    /// Last-Modified and Date are S3's wall-clock times.
    fn service_clock(&self) -> TimerClock {
        TimerClock::Wall
    }

    fn connections(&self) -> &'static str {
        "each request is an HTTPS call the SDK abandons when its reply is overdue, and a PUT may still land after the client gave up on it; an epoch object is data, not a session, so no connection ends it"
    }
}

impl Design for S3Design {
    fn kind(&self) -> &'static dyn Kind {
        &S3
    }

    fn values(&self) -> &Values {
        &self.values
    }

    fn guarantees(&self) -> Guarantees {
        let safety = if self.manifest {
            "Each epoch object is created once (If-None-Match), so each epoch has one holder; every manifest write names the ETag its writer last saw (If-Match), so a writer whose manifest a newer holder has claimed gets 412 and cannot commit."
        } else {
            "Each epoch object is created once (If-None-Match), so each epoch has one holder and the epoch orders the holders. A holder taken over does not know until it acts: the epoch, checked at the resource, fences it; S3 itself never compares it."
        };
        Guarantees {
            lock: LockKind::Correctness,
            safety: safety.into(),
            liveness: format!(
                "If a holder dies, a contender takes the next epoch once the newest epoch object is {} old by S3's clock.",
                ms(self.lease_ms)
            ),
            assumes: if self.manifest {
                "Every write of the data goes through the manifest with If-Match, and a writer that reads a newer epoch in it stops.".into()
            } else {
                "The resource checks the epoch: S3 compares ETags only, never one epoch with another.".into()
            },
        }
    }

    fn services(&self) -> Services {
        Services { count: 1..=1, what: "one S3 bucket" }
    }

    fn release_modes(&self) -> &'static [ReleaseMode] {
        &[ReleaseMode::Safe]
    }
}
