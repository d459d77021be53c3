//! How the consumer group says what happens: its vocabulary.

use super::{Group, GroupError, GroupMsg};
use crate::engine::event::LockEnd;
use crate::engine::msg::LockMsg;
use crate::engine::time::LocalMillis;
use crate::present::number::reading;
use crate::present::quoted::Quoted;
use crate::present::{Names, Vocabulary};

impl Vocabulary for Group {
    fn token(&self, token: u64) -> Option<String> {
        Some(format!("generation {token}"))
    }

    fn lock(&self, token: u64) -> String {
        format!("partition 0 (generation {token})")
    }

    fn how_ended(&self, how: LockEnd) -> &'static str {
        match how {
            LockEnd::Expired | LockEnd::SessionClosed => "session timed out",
            LockEnd::Released => "left the group",
            LockEnd::DeletedByOther | LockEnd::Replaced => "rebalanced",
            LockEnd::LostOnRestart | LockEnd::Resynced => "lost on restart",
        }
    }

    fn label(&self, msg: &LockMsg, _names: Names) -> String {
        let Some(msg) = msg.get::<GroupMsg>() else { return String::new() };
        match *msg {
            GroupMsg::Join => "JoinGroup".into(),
            GroupMsg::Joined { generation, assigned: true } => format!("generation {generation}: partition 0 is yours"),
            GroupMsg::Joined { generation, assigned: false } => format!("generation {generation}: no partition"),
            GroupMsg::Heartbeat { generation } => format!("heartbeat (generation {generation})"),
            GroupMsg::HeartbeatOk => "heartbeat ok".into(),
            GroupMsg::HeartbeatError { error } => error.name().into(),
            GroupMsg::Leave => "LeaveGroup".into(),
            GroupMsg::Left { member: true } => "left".into(),
            GroupMsg::Left { member: false } => GroupError::UnknownMemberId.name().into(),
        }
    }

    fn sending(&self, msg: &LockMsg, me: &str, to: &str, _names: Names) -> String {
        let Some(msg) = msg.get::<GroupMsg>() else { return String::new() };
        match *msg {
            GroupMsg::Join => {
                format!("{me} sends {to} a JoinGroup: it joins the group, and the answer comes when the rebalance completes.")
            }
            GroupMsg::Joined { generation, assigned: true } => {
                format!("{me} tells {to}: generation {generation} has begun, and partition 0 is assigned to {to}.")
            }
            GroupMsg::Joined { generation, assigned: false } => format!(
                "{me} tells {to}: generation {generation} has begun; {to} is a member with no partition, and keeps sending heartbeats."
            ),
            GroupMsg::Heartbeat { generation } => format!("{me} sends {to} a heartbeat for generation {generation}."),
            GroupMsg::HeartbeatOk => format!("{me} answers {to}'s heartbeat: nothing has changed."),
            GroupMsg::HeartbeatError { error } => {
                format!("{me} answers {to}'s heartbeat with {}: {}; rejoin.", error.name(), error.meaning())
            }
            GroupMsg::Leave => format!("{me} sends {to} a LeaveGroup: it leaves the group."),
            GroupMsg::Left { member: true } => format!("{me} tells {to}: it has left the group."),
            GroupMsg::Left { member: false } => format!("{me} answers {to} with UNKNOWN_MEMBER_ID: it was no longer a member."),
        }
    }

    fn lasts(&self, expires_local: Option<LocalMillis>) -> String {
        match expires_local {
            Some(t) => format!("while heartbeats arrive: its session ends at local {} without one", reading(t)),
            None => "until told of a rebalance".into(),
        }
    }

    fn believes(&self, _until_local: Option<LocalMillis>) -> String {
        "until it is told of a rebalance: a consumer keeps no timer of its own".into()
    }

    fn granted(&self, me: &str, holder: &str, token: u64, expires_local: Option<LocalMillis>) -> String {
        format!(
            "{me} completes a rebalance: generation {token} begins, with partition 0 assigned to {holder} {}. Offset commits must carry generation {token}.",
            self.lasts(expires_local)
        )
    }

    fn extended(&self, me: &str, holder: &str, _token: u64, expires_local: Option<LocalMillis>) -> String {
        match expires_local {
            Some(t) => format!("{me} counts {holder}'s heartbeat: its session now ends at local {} unless another arrives.", reading(t)),
            None => format!("{me} counts {holder}'s heartbeat."),
        }
    }

    fn ended(&self, me: &str, holder: &str, token: u64, how: LockEnd) -> String {
        match how {
            LockEnd::Expired | LockEnd::SessionClosed => format!(
                "{holder}'s session times out on {me}'s clock: {me} removes it from the group and rebalances. Generation {token} is over; nobody tells {holder}, which may still think partition 0 is its own."
            ),
            LockEnd::Released => format!("{holder} has left the group; partition 0 will be assigned anew."),
            LockEnd::DeletedByOther | LockEnd::Replaced => {
                format!("{me} starts a rebalance: generation {token} is over, and {holder} must rejoin to keep partition 0.")
            }
            LockEnd::LostOnRestart | LockEnd::Resynced => format!("{me} restarts without the group's state: generation {token} is forgotten."),
        }
    }

    fn held(&self) -> &'static str {
        "partition 0"
    }

    fn acquires(&self) -> &'static str {
        "join requests"
    }

    fn renewal(&self) -> &'static str {
        "heartbeat"
    }

    fn expiries(&self) -> &'static str {
        "session timeouts"
    }

    fn write_to_service(&self, token: u64, value: &str) -> String {
        format!("OffsetCommit {value_q} (generation {token})", value_q = Quoted(value))
    }

    fn data_kept_by(&self) -> &'static str {
        "the group coordinator keeps the committed offsets"
    }
}
