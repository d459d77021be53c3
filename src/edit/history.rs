//! The edits of one scenario: the original, the current one, and what undo and redo return to.
//! Reset is itself an edit, so it can be undone.

use crate::limits::MAX_UNDO_STEPS;
use crate::scenario::Scenario;
use std::rc::Rc;

/// An edited scenario's versions, shared, so a copy of the history costs little.
#[derive(Clone, Debug, PartialEq)]
pub struct History {
    original: Rc<Scenario>,
    past: Vec<Rc<Scenario>>,
    now: Rc<Scenario>,
    future: Vec<Rc<Scenario>>,
}

impl History {
    /// Starts editing `original`.
    pub fn new(original: Scenario) -> History {
        let original = Rc::new(original);
        History { now: original.clone(), original, past: Vec::new(), future: Vec::new() }
    }

    /// Returns the scenario as it stands.
    pub fn now(&self) -> &Scenario {
        &self.now
    }

    /// Returns the scenario editing started from.
    pub fn original(&self) -> &Scenario {
        &self.original
    }

    /// Whether the scenario differs from the original.
    pub fn edited(&self) -> bool {
        self.now != self.original
    }

    /// Makes `scenario` the current one; redo is forgotten. One equal to the current one
    /// changes nothing.
    pub fn push(&mut self, scenario: Scenario) {
        if scenario != *self.now {
            self.advance(Rc::new(scenario));
        }
    }

    fn advance(&mut self, scenario: Rc<Scenario>) {
        if self.past.len() == MAX_UNDO_STEPS {
            self.past.remove(0);
        }
        self.past.push(std::mem::replace(&mut self.now, scenario));
        self.future.clear();
    }

    /// Goes back one edit; returns whether there was one.
    pub fn undo(&mut self) -> bool {
        let Some(scenario) = self.past.pop() else { return false };
        self.future.push(std::mem::replace(&mut self.now, scenario));
        true
    }

    /// Goes forward one undone edit; returns whether there was one.
    pub fn redo(&mut self) -> bool {
        let Some(scenario) = self.future.pop() else { return false };
        self.past.push(std::mem::replace(&mut self.now, scenario));
        true
    }

    /// Returns to the original, as an edit that undo reverses.
    pub fn reset(&mut self) {
        if self.now != self.original {
            self.advance(self.original.clone());
        }
    }

    /// How many edits undo and redo can step over.
    pub fn depth(&self) -> (usize, usize) {
        (self.past.len(), self.future.len())
    }
}
