//! The names and texts of the scenarios the program writes itself: the comparison's cells, the
//! stress runs, and the clients the editor adds.

use super::number::group_u;

/// The name of client `id`.
pub fn client(id: &str) -> String {
    format!("Client {id}")
}

/// The name of a generated scenario's lock service.
pub const LOCK_SERVICE: &str = "Lock service";

/// The name of a generated scenario's protected resource.
pub const RESOURCE: &str = "Resource";

/// The topic of the comparison's cells.
pub const COMPARE_TOPIC: &str = "Compare designs";

/// The topic of the stress runs.
pub const STRESS_TOPIC: &str = "Stress";

/// What a stress run shows.
pub const STRESS_INTRO: &str = "Clients take turns on one lease, renewing every 300 ms while they hold it; the others retry.";

/// A stress run's title: `clients` clients and about `events` events.
pub fn stress_title(clients: usize, events: u64) -> String {
    format!("{clients} clients contending (about {} events)", group_u(events))
}
