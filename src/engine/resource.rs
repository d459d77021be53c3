//! The protected resource: stores one value and judges each write by its mode. A resource that
//! keeps rows (unique or deduplicated) can also undo a writer's own row: a saga's compensation.

use super::actor::{Actor, Cx, Timer};
use super::event::EventKind;
use super::ids::NodeId;
use super::msg::{Msg, Rejection, WriteValue};
use super::spec::ResourceMode;

/// A resource node.
#[derive(Clone, Hash)]
pub struct Resource {
    mode: ResourceMode,
    version: u64,
    highest_token: u64,
    /// Values already applied, and by whom, for the deduplicated and unique modes.
    applied: Vec<(WriteValue, NodeId)>,
}

impl Resource {
    /// Builds an empty resource at version 0.
    pub fn new(mode: ResourceMode) -> Self {
        Resource { mode, version: 0, highest_token: 0, applied: Vec::new() }
    }

    /// Decides whether a write is accepted; `Err` holds the reason it is not.
    fn judge(&self, token: u64, value: &str, expected_version: Option<u64>) -> Result<(), Rejection> {
        match self.mode {
            ResourceMode::Unfenced => Ok(()),
            ResourceMode::Fenced if token < self.highest_token => Err(Rejection::StaleToken { token, highest: self.highest_token }),
            ResourceMode::Fenced => Ok(()),
            ResourceMode::Conditional => match expected_version {
                Some(v) if v == self.version => Ok(()),
                Some(v) => Err(Rejection::VersionChanged { expected: v, found: self.version }),
                None => Err(Rejection::NoVersion),
            },
            ResourceMode::Deduplicated | ResourceMode::Unique if !self.applied.iter().any(|(a, _)| &**a == value) => Ok(()),
            ResourceMode::Deduplicated => Err(Rejection::AlreadyApplied { value: value.into() }),
            ResourceMode::Unique => Err(Rejection::Duplicate { value: value.into() }),
        }
    }
}

impl Actor for Resource {
    fn on_message(&mut self, cx: &mut Cx, from: NodeId, msg: &Msg) {
        match msg {
            Msg::Read => cx.send(from, Msg::ReadResult { version: self.version }),
            Msg::Write { token, value, expected_version } => match self.judge(*token, value, *expected_version) {
                Ok(()) => {
                    self.version += 1;
                    if matches!(self.mode, ResourceMode::Deduplicated | ResourceMode::Unique) {
                        self.applied.push((value.clone(), from));
                    }
                    self.highest_token = self.highest_token.max(*token);
                    let (token, value, version) = (*token, value.clone(), self.version);
                    cx.note(EventKind::WriteAccepted { writer: from, token, value, version });
                    cx.send(from, Msg::WriteAccepted { version });
                }
                Err(reason) => {
                    let (token, value) = (*token, value.clone());
                    cx.note(EventKind::WriteRejected { writer: from, token, value, reason: reason.clone() });
                    cx.send(from, Msg::WriteRejected { reason });
                }
            },
            Msg::Undo { value } => match self.applied.iter().position(|(a, by)| a == value && *by == from) {
                Some(at) => {
                    self.applied.remove(at);
                    self.version += 1;
                    cx.note(EventKind::WriteUndone { writer: from, value: value.clone(), version: self.version });
                    cx.send(from, Msg::WriteAccepted { version: self.version });
                }
                None => {
                    let reason = Rejection::NothingToUndo { value: value.clone() };
                    cx.note(EventKind::WriteRejected { writer: from, token: 0, value: value.clone(), reason: reason.clone() });
                    cx.send(from, Msg::WriteRejected { reason });
                }
            },
            Msg::Lock { .. } | Msg::ReadResult { .. } | Msg::WriteAccepted { .. } | Msg::WriteRejected { .. } => {}
        }
    }

    fn on_timer(&mut self, _cx: &mut Cx, _timer: Timer) {}

    fn on_restart(&mut self, _cx: &mut Cx, keep_state: bool) {
        if !keep_state {
            *self = Resource::new(self.mode);
        }
    }
}
