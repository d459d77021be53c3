//! Lock designs, one module each, found through one registry ([`REGISTRY`]).
//!
//! A design module owns everything about its design: its scenario tag and typed settings
//! (a struct declared once with `settings!`, which builds the design),
//! its lock-service actors and client-side protocol (the engine's [`Protocol`](crate::engine::protocol::Protocol) and
//! [`LockClient`](crate::engine::protocol::LockClient)), its messages, where its fencing token
//! comes from, its stated guarantees, its rows in the comparison table, and its words (a
//! [`Vocabulary`](crate::present::Vocabulary)). Adding a design is one new module and one line in
//! [`REGISTRY`].
//!
//! Depends on the engine, `present` and `error`; never on scenarios, the diagram or the UI.

pub mod chubby;
pub mod consul;
pub mod consumer_group;
pub mod dynamodb;
pub mod etcd;
pub mod hazelcast;
pub mod interface;
pub mod kubernetes;
pub mod lease;
pub mod none;
pub mod param;
pub mod pg_wire;
pub mod pgbouncer;
pub mod postgres;
pub mod redis;
pub mod redis_replication;
pub mod redis_wire;
pub mod redisson;
pub mod redlock;
pub mod registry;
pub mod s3;
pub mod zookeeper;

pub use interface::{Design, Factory, Guarantees, Kind, LockKind, Row, Rows, Services, Summary};
pub use param::{Param, ParamKind, ParamValue, Settings, Values};
pub use registry::{find, REGISTRY};
