//! A client's side of the advisory lock: one session of its own.

use crate::design::pg_wire::PgMsg;
use crate::engine::actor::{Cx, Timer};
use crate::engine::ids::NodeId;
use crate::engine::msg::{LockMsg, Msg, ReleaseMode};
use crate::engine::protocol::{ClientView, LockClient, Progress, Release};
use crate::engine::time::{LocalMillis, Millis};

/// A client's side: one session, kept alive while it holds (while it waits, its lock call
/// keeps the session busy).
#[derive(Clone, Hash)]
pub(super) struct PgClient {
    server: NodeId,
    idle_timeout_ms: Option<Millis>,
    acquire_sent_at: LocalMillis,
    renew_sent_at: LocalMillis,
}

impl PgClient {
    /// Builds a client whose session on `server` ends after `idle_timeout_ms` of silence, if set.
    pub(super) fn new(server: NodeId, idle_timeout_ms: Option<Millis>) -> Self {
        PgClient { server, idle_timeout_ms, acquire_sent_at: LocalMillis::ZERO, renew_sent_at: LocalMillis::ZERO }
    }

    fn until(&self, since: LocalMillis) -> Option<LocalMillis> {
        self.idle_timeout_ms.map(|t| since + t)
    }
}

impl LockClient for PgClient {
    fn acquire(&mut self, cx: &mut Cx, timeout_ms: Millis) {
        self.acquire_sent_at = cx.now;
        cx.send(self.server, Msg::lock(PgMsg::Lock));
        cx.after(Timer::Timeout, timeout_ms);
    }

    fn on_message(&mut self, cx: &mut Cx, _from: NodeId, msg: &LockMsg, view: ClientView) -> Progress {
        let Some(msg) = msg.get::<PgMsg>() else { return Progress::Pending };
        match *msg {
            PgMsg::Locked => {
                // A waiting session's idle time starts when its lock call returns, which the
                // client learns as the reply arrives (a little after, as a real client would).
                let since = if view.queued { cx.now } else { self.acquire_sent_at };
                Progress::Granted { token: 0, until_local: self.until(since) }
            }
            PgMsg::Waiting => Progress::Queued,
            PgMsg::Alive => Progress::Renewed { until_local: self.until(self.renew_sent_at) },
            // Its unlock failed with the session: nothing is left to release.
            PgMsg::SessionEnded if view.held.is_none() && !view.acquiring => Progress::Released,
            // Its lock call failed as the server restarted: try again, on a new connection.
            PgMsg::SessionEnded if view.acquiring => Progress::Refused,
            PgMsg::SessionEnded => Progress::Lost,
            PgMsg::Unlocked { .. } => Progress::Released,
            PgMsg::Lock | PgMsg::KeepAlive | PgMsg::Unlock | PgMsg::Commit => Progress::Pending,
        }
    }

    fn on_timeout(&mut self, _cx: &mut Cx, _timeout_ms: Millis) -> Progress {
        Progress::Refused
    }

    fn renews_while_queued(&self) -> bool {
        false
    }

    fn renew(&mut self, cx: &mut Cx, _held: Option<u64>) {
        self.renew_sent_at = cx.now;
        cx.send(self.server, Msg::lock(PgMsg::KeepAlive));
    }

    fn release(&mut self, cx: &mut Cx, held: Option<u64>, _last: u64, mode: ReleaseMode) -> Release {
        if held.is_none() {
            return Release::Nothing;
        }
        let msg = if mode == ReleaseMode::Commit { PgMsg::Commit } else { PgMsg::Unlock };
        cx.send(self.server, Msg::lock(msg));
        Release::AwaitReply
    }
}
