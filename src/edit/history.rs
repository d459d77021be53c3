//! The edits of one scenario: the original document, the current one, and what undo and redo
//! return to. Reset is itself an edit, so it can be undone.

use crate::limits::MAX_UNDO_STEPS;
use crate::scenario::json::Value;
use std::rc::Rc;

/// An edited scenario's documents, shared, so a copy of the history costs little.
#[derive(Clone, Debug, PartialEq)]
pub struct History {
    original: Rc<Value>,
    past: Vec<Rc<Value>>,
    now: Rc<Value>,
    future: Vec<Rc<Value>>,
}

impl History {
    /// Starts editing `original`.
    pub fn new(original: Value) -> History {
        let original = Rc::new(original);
        History { now: original.clone(), original, past: Vec::new(), future: Vec::new() }
    }

    /// Returns the document as it stands.
    pub fn now(&self) -> &Value {
        &self.now
    }

    /// Returns the document editing started from.
    pub fn original(&self) -> &Value {
        &self.original
    }

    /// Whether the document differs from the original.
    pub fn edited(&self) -> bool {
        self.now != self.original
    }

    /// Makes `doc` the current document; redo is forgotten. A document equal to the current one
    /// changes nothing.
    pub fn push(&mut self, doc: Value) {
        if doc != *self.now {
            self.advance(Rc::new(doc));
        }
    }

    fn advance(&mut self, doc: Rc<Value>) {
        if self.past.len() == MAX_UNDO_STEPS {
            self.past.remove(0);
        }
        self.past.push(std::mem::replace(&mut self.now, doc));
        self.future.clear();
    }

    /// Goes back one edit; returns whether there was one.
    pub fn undo(&mut self) -> bool {
        let Some(doc) = self.past.pop() else { return false };
        self.future.push(std::mem::replace(&mut self.now, doc));
        true
    }

    /// Goes forward one undone edit; returns whether there was one.
    pub fn redo(&mut self) -> bool {
        let Some(doc) = self.future.pop() else { return false };
        self.past.push(std::mem::replace(&mut self.now, doc));
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
