//! Running a spec: from the start, or from a base run's state when the spec adds faults to it.

use super::fork::Forks;
use super::world::{Lists, Sim, Simulated, World};
use crate::engine::error::RunError;
use crate::engine::event::Event;
use crate::engine::spec::Spec;

/// What a run leaves for the next one to use again: its event list (once handed back) and
/// command buffer, and its world as it ended, whose queue and nodes the next run empties and
/// refills or copies a kept state into; and the states of a base run, to go on from. Runs one
/// after another (a search's) allocate these once.
#[derive(Default)]
pub struct Reuse {
    lists: Lists,
    world: World,
    forks: Option<Forks>,
}

impl Reuse {
    /// Runs `base` and keeps some of its states: a later run of a spec that adds faults to it
    /// goes on from the latest kept state before its first fault.
    pub fn fork_from(&mut self, base: &Spec) -> Result<(), RunError> {
        self.forks = Some(Forks::record(base)?);
        Ok(())
    }

    /// Takes back a finished run's events, to hold the next run's.
    pub fn give_back(&mut self, mut events: Vec<Event>) {
        events.clear();
        self.lists.events = events;
    }
}

/// Runs a spec from the start to completion, or until it passes one of its limits, in the lists
/// `reuse` keeps.
pub fn simulate(spec: &Spec, reuse: &mut Reuse) -> Result<Simulated, RunError> {
    let sim = Sim::new(spec, &mut reuse.world, &mut reuse.lists)?;
    Ok(finish(sim, &mut reuse.lists))
}

/// Runs a spec as [`simulate`] does, but from a state of the base run `reuse` keeps if the spec
/// adds faults to that run's ([`Reuse::fork_from`]). (Apart from a search, nothing forks: the
/// player's page carries none of this.)
pub fn simulate_forked(spec: &Spec, reuse: &mut Reuse) -> Result<Simulated, RunError> {
    let Reuse { lists, world, forks } = reuse;
    let sim = match forks {
        Some(forks) => forks.resume(spec, world, lists)?,
        None => Sim::new(spec, world, lists)?,
    };
    Ok(finish(sim, lists))
}

fn finish(mut sim: Sim, lists: &mut Lists) -> Simulated {
    let stopped = sim.run().err();
    sim.finish(lists, stopped)
}
