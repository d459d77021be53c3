//! Finding a failure: a search over fault schedules added to a scenario, for a safety violation
//! or a client kept waiting, shrunk to the smallest story and returned as an ordinary scenario.
//!
//! A systematic pass tries every single fault on a grid (each kind, larger sizes first, at each
//! interesting time of the base run and on each participant it can hit); seeded random
//! schedules of up to `max_faults` faults follow. The same scenario, bounds and seed always
//! search the same schedules in the same order. The search runs in slices ([`Search::step`]) so
//! a page can report progress and stop it; natively, [`Threaded`] judges each slice on every core,
//! and in the browser a pool of workers each judges its [`Share`] ([`pool::Merge`] puts their
//! reports together); both find what one thread would.

pub mod fault;
pub mod judge;
pub mod pool;
pub mod runner;
pub mod shrink;
pub mod space;
pub mod threads;
pub mod wire;

pub use fault::{Added, Class, Cut};
pub use judge::{Failure, Liveness};
pub use runner::{Search, Share, Shrunk, State};
pub use space::Bounds;
pub use threads::Threaded;
