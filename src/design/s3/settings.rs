//! The S3 lock's settings, declared once, and how they build the design.

use super::S3Design;
use crate::design::param::settings;
use crate::design::{Design, Factory, Settings};
use crate::error::ScenarioError;
use crate::limits::MAX_SETTING_MS;
use std::rc::Rc;

settings! {
    /// How the lock over S3 conditional writes is set up.
    pub struct S3Settings {
        required {
            /// How old the newest epoch object's Last-Modified must be, by the Date S3 answers with, before a contender takes the next epoch. The
            /// application's rule: S3 has no leases.
            lease_ms: u64 = number("ms", 1..=MAX_SETTING_MS),
        }
        /// The protected data is a manifest object in the bucket: each new holder claims it with its epoch, and every write is a PUT with
        /// If-Match on the ETag its writer last saw (list no resource).
        data_in_s3: bool = flag(false),
    }
}

impl Factory for S3Settings {
    fn build(&self) -> Result<Rc<dyn Design>, ScenarioError> {
        Ok(Rc::new(S3Design { values: self.to_values(), lease_ms: self.lease_ms, manifest: self.data_in_s3 }))
    }
}
