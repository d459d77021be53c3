//! A client's side of the Redis lock.

use crate::design::redis_wire::RedisMsg;
use crate::engine::actor::{Cx, Timer};
use crate::engine::ids::NodeId;
use crate::engine::msg::{LockMsg, Msg, ReleaseMode};
use crate::engine::protocol::{ClientView, LockClient, Progress, Release};
use crate::engine::time::{LocalMillis, Millis};

/// A client's side of the Redis lock, failing over to the next node when one refuses or is silent.
#[derive(Clone, Hash)]
pub(super) struct RedisClient {
    nodes: Vec<NodeId>,
    /// The node it talks to now.
    node: usize,
    px_ms: Millis,
    /// The random value of the current acquisition.
    value: u64,
    acquire_sent_at: LocalMillis,
    renew_sent_at: LocalMillis,
    /// Whether its token comes from an `INCR` of its own after the `SET`.
    incr_separate: bool,
    /// `WAIT` for this many replicas, with this timeout, before taking the lock as its own.
    wait: Option<(u64, Millis)>,
    /// The acquisition's timeout, kept to stretch it over a `WAIT`.
    timeout_ms: Millis,
    /// The token of a key set but not yet confirmed by `WAIT`.
    token: u64,
}

impl RedisClient {
    /// Builds a client of `nodes` that sets keys for `px_ms`, taking its token by a separate
    /// `INCR` if `incr_separate`, and running `WAIT` after each `SET` if `wait` says so.
    pub(super) fn new(nodes: &[NodeId], px_ms: Millis, incr_separate: bool, wait: Option<(u64, Millis)>) -> Self {
        RedisClient {
            nodes: nodes.to_vec(),
            node: 0,
            px_ms,
            value: 0,
            acquire_sent_at: LocalMillis::ZERO,
            renew_sent_at: LocalMillis::ZERO,
            incr_separate,
            wait,
            timeout_ms: Millis::ZERO,
            token: 0,
        }
    }

    fn fail_over(&mut self) {
        self.node = (self.node + 1) % self.nodes.len();
    }

    fn send(&self, cx: &mut Cx, msg: RedisMsg) {
        cx.send(self.nodes[self.node], Msg::lock(msg));
    }

    /// The key is set with this token: the lock is the client's, or is once `WAIT` confirms it.
    fn set(&mut self, cx: &mut Cx, token: u64) -> Progress {
        match self.wait {
            Some((replicas, timeout_ms)) => {
                self.token = token;
                self.send(cx, RedisMsg::Wait { replicas, timeout_ms });
                cx.after(Timer::Timeout, timeout_ms + self.timeout_ms);
                Progress::Pending
            }
            None => self.granted(token),
        }
    }

    /// The client counts the PX from when it sent the SET: the safe side.
    fn granted(&self, token: u64) -> Progress {
        Progress::Granted { token, until_local: Some(self.acquire_sent_at + self.px_ms) }
    }
}

impl LockClient for RedisClient {
    fn acquire(&mut self, cx: &mut Cx, timeout_ms: Millis) {
        self.value = cx.rng.next_u64();
        self.acquire_sent_at = cx.now;
        self.timeout_ms = timeout_ms;
        self.send(cx, RedisMsg::Set { value: self.value, px_ms: self.px_ms });
        cx.after(Timer::Timeout, timeout_ms);
    }

    fn on_message(&mut self, cx: &mut Cx, _from: NodeId, msg: &LockMsg, view: ClientView) -> Progress {
        let Some(msg) = msg.get::<RedisMsg>() else { return Progress::Pending };
        match *msg {
            // The key is set; the token is a second round trip away.
            RedisMsg::SetOk { token: None } if self.incr_separate && view.acquiring => {
                self.send(cx, RedisMsg::Incr);
                Progress::Pending
            }
            RedisMsg::SetOk { token } => self.set(cx, token.unwrap_or(0)),
            RedisMsg::Counter { value } if view.acquiring => self.set(cx, value),
            // Fewer replicas than asked: the client does not take the lock, though its key stays.
            RedisMsg::Acked { replicas } if view.acquiring => match self.wait {
                Some((wanted, _)) if replicas < wanted => Progress::Refused,
                _ => self.granted(self.token),
            },
            RedisMsg::Nil => Progress::Refused,
            RedisMsg::ReadOnly if view.acquiring => {
                self.fail_over();
                Progress::Refused
            }
            RedisMsg::Extended { done: true } if view.held.is_some() => {
                Progress::Renewed { until_local: Some(self.renew_sent_at + self.px_ms) }
            }
            RedisMsg::Extended { done: false } if view.held.is_some() => Progress::Lost,
            RedisMsg::Deleted { .. } => Progress::Released,
            RedisMsg::ReadOnly
            | RedisMsg::Acked { .. }
            | RedisMsg::GetAck
            | RedisMsg::Ack { .. }
            | RedisMsg::Wait { .. }
            | RedisMsg::FullSync { .. }
            | RedisMsg::Extended { .. }
            | RedisMsg::Set { .. }
            | RedisMsg::Extend { .. }
            | RedisMsg::Del { .. }
            | RedisMsg::Replicate { .. }
            | RedisMsg::ReplicateDel { .. }
            | RedisMsg::Incr
            | RedisMsg::Counter { .. } => Progress::Pending,
        }
    }

    fn on_timeout(&mut self, _cx: &mut Cx, _timeout_ms: Millis) -> Progress {
        self.fail_over();
        Progress::Refused
    }

    fn renew(&mut self, cx: &mut Cx, _held: Option<u64>) {
        self.renew_sent_at = cx.now;
        self.send(cx, RedisMsg::Extend { value: self.value, px_ms: self.px_ms });
    }

    fn release(&mut self, cx: &mut Cx, held: Option<u64>, last: u64, mode: ReleaseMode) -> Release {
        let checked = mode != ReleaseMode::Unsafe;
        // A plain DEL goes out even from a client that no longer believes it holds anything.
        if held.is_none() && (checked || last == 0) {
            return Release::Nothing;
        }
        self.send(cx, RedisMsg::Del { value: self.value, checked });
        Release::AwaitReply
    }
}
