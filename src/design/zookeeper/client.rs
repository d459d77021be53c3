//! A contender's side of the recipe.

use super::ZkMsg;
use crate::engine::actor::{Cx, Timer};
use crate::engine::ids::NodeId;
use crate::engine::msg::{LockMsg, Msg, ReleaseMode};
use crate::engine::protocol::{ClientView, LockClient, Progress, Release};
use crate::engine::time::{LocalMillis, Millis};

/// A client's side of the recipe.
#[derive(Clone, Hash)]
pub(super) struct ZkClient {
    ensemble: NodeId,
    session_timeout_ms: Millis,
    /// The sequence of its znode, once the ensemble has said.
    seq: Option<u64>,
    /// Whether it created a znode this acquisition has not heard the outcome of yet.
    created: bool,
    acquire_sent_at: LocalMillis,
    renew_sent_at: LocalMillis,
}

impl ZkClient {
    /// Builds a contender whose session on `ensemble` lasts `session_timeout_ms` without a heartbeat.
    pub(super) fn new(ensemble: NodeId, session_timeout_ms: Millis) -> Self {
        ZkClient {
            ensemble,
            session_timeout_ms,
            seq: None,
            created: false,
            acquire_sent_at: LocalMillis::ZERO,
            renew_sent_at: LocalMillis::ZERO,
        }
    }
}

impl LockClient for ZkClient {
    /// Creates its znode; a retry whose create went unanswered looks for the znode it may have
    /// made instead (the recipe's GUID check), so it never makes a second one.
    fn acquire(&mut self, cx: &mut Cx, timeout_ms: Millis) {
        self.acquire_sent_at = cx.now;
        let msg = if self.created { ZkMsg::GetChildren } else { ZkMsg::Create };
        self.created = true;
        cx.send(self.ensemble, Msg::lock(msg));
        cx.after(Timer::Timeout, timeout_ms);
    }

    fn on_message(&mut self, cx: &mut Cx, _from: NodeId, msg: &LockMsg, view: ClientView) -> Progress {
        let Some(msg) = msg.get::<ZkMsg>() else { return Progress::Pending };
        if view.acquiring && matches!(msg, ZkMsg::Owner { .. } | ZkMsg::Waiting { .. }) {
            self.created = false;
        }
        match *msg {
            ZkMsg::Owner { seq, czxid } => {
                self.seq = Some(seq);
                // A queued client's session was last extended by its latest heartbeat.
                let since = if view.queued { self.acquire_sent_at.max(self.renew_sent_at) } else { self.acquire_sent_at };
                Progress::Granted { token: czxid, until_local: Some(since + self.session_timeout_ms) }
            }
            ZkMsg::Waiting { seq, .. } => {
                self.seq = Some(seq);
                Progress::Queued
            }
            // The watch fired: list the children again.
            ZkMsg::WatchFired { .. } | ZkMsg::ChildAdded { .. } if view.acquiring => {
                cx.send(self.ensemble, Msg::lock(ZkMsg::GetChildren));
                Progress::Pending
            }
            ZkMsg::Pong => Progress::Renewed { until_local: Some(self.renew_sent_at + self.session_timeout_ms) },
            // Its delete failed with the session, whose znode is already gone.
            ZkMsg::SessionExpired if view.held.is_none() && !view.acquiring => Progress::Released,
            ZkMsg::SessionExpired => Progress::Lost,
            ZkMsg::Deleted { .. } => Progress::Released,
            ZkMsg::WatchFired { .. }
            | ZkMsg::ChildAdded { .. }
            | ZkMsg::Create
            | ZkMsg::GetChildren
            | ZkMsg::Ping
            | ZkMsg::Delete { .. } => Progress::Pending,
        }
    }

    fn on_timeout(&mut self, _cx: &mut Cx, _timeout_ms: Millis) -> Progress {
        Progress::Refused
    }

    /// The recipe after a connection loss while waiting: list the children again (the znode
    /// and the session survive a reconnect within the session timeout).
    fn on_connection_lost(&mut self, cx: &mut Cx, from: NodeId, view: ClientView) -> Progress {
        if from == self.ensemble && view.queued && view.held.is_none() {
            cx.send(self.ensemble, Msg::lock(ZkMsg::GetChildren));
        }
        Progress::Pending
    }

    fn session_outlives_work(&self) -> bool {
        true
    }

    fn renew(&mut self, cx: &mut Cx, _held: Option<u64>) {
        self.renew_sent_at = cx.now;
        cx.send(self.ensemble, Msg::lock(ZkMsg::Ping));
    }

    fn release(&mut self, cx: &mut Cx, held: Option<u64>, _last: u64, _mode: ReleaseMode) -> Release {
        match (held, self.seq) {
            (Some(_), Some(seq)) => {
                cx.send(self.ensemble, Msg::lock(ZkMsg::Delete { seq }));
                Release::AwaitReply
            }
            (Some(_) | None, _) => Release::Nothing,
        }
    }
}
