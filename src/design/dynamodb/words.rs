//! How the DynamoDB design says what happens: its vocabulary, in the lock client's words.

use super::{Condition, DynamoDesign, DynamoMsg};
use crate::design::redis_wire::short;
use crate::engine::event::LockEnd;
use crate::engine::msg::LockMsg;
use crate::engine::time::LocalMillis;
use crate::present::number::{local, ms};
use crate::present::{Names, Vocabulary};

impl Vocabulary for DynamoDesign {
    fn token(&self, token: u64) -> Option<String> {
        (self.fence && token > 0).then(|| format!("fence {token}"))
    }

    fn lock(&self, _token: u64) -> String {
        "the lock item".into()
    }

    fn how_ended(&self, how: LockEnd) -> &'static str {
        match how {
            LockEnd::Replaced => "taken over",
            LockEnd::Released => "released",
            LockEnd::Expired | LockEnd::SessionClosed => "expired",
            LockEnd::DeletedByOther => "deleted by another client",
            LockEnd::LostOnRestart | LockEnd::Resynced => "lost",
        }
    }

    fn label(&self, msg: &LockMsg, names: Names) -> String {
        let Some(msg) = msg.get::<DynamoMsg>() else { return String::new() };
        match *msg {
            DynamoMsg::GetItem { .. } => "GetItem lock".into(),
            DynamoMsg::Item { item: Some(i), .. } if i.released => format!("released, RVN {}", short(i.rvn)),
            DynamoMsg::Item { item: Some(i), .. } => format!("owner {}, RVN {}", names.of(i.owner), short(i.rvn)),
            DynamoMsg::Item { item: None, .. } => "no item".into(),
            DynamoMsg::PutItem { rvn, condition: Condition::NotExists, .. } => format!("PutItem RVN {} if not exists", short(rvn)),
            DynamoMsg::PutItem { rvn, condition: Condition::RvnIs { rvn: old }, .. } => {
                format!("PutItem RVN {} if RVN = {}", short(rvn), short(old))
            }
            DynamoMsg::PutItem { rvn, condition: Condition::Released, .. } => format!("PutItem RVN {} if released", short(rvn)),
            DynamoMsg::Written { fence, .. } => match self.token(fence) {
                Some(t) => format!("200 OK ({t})"),
                None => "200 OK".into(),
            },
            DynamoMsg::ConditionFailed { .. } => "ConditionalCheckFailed".into(),
            DynamoMsg::Heartbeat { rvn, new_rvn, .. } => format!("heartbeat: RVN {} if {}", short(new_rvn), short(rvn)),
            DynamoMsg::Release { rvn, delete: true, .. } => format!("DeleteItem if RVN = {}", short(rvn)),
            DynamoMsg::Release { rvn, delete: false, .. } => format!("isReleased if RVN = {}", short(rvn)),
        }
    }

    fn sending(&self, msg: &LockMsg, me: &str, to: &str, names: Names) -> String {
        let Some(msg) = msg.get::<DynamoMsg>() else { return String::new() };
        match *msg {
            DynamoMsg::GetItem { .. } => format!("{me} reads the lock item from {to} (a strongly consistent GetItem)."),
            DynamoMsg::Item { item: Some(i), .. } if i.released => {
                format!("{me} answers {to}: the lock item, released by {}; it may be taken at once.", names.of(i.owner))
            }
            DynamoMsg::Item { item: Some(i), .. } => format!(
                "{me} answers {to}: the lock item, owner {}, recordVersionNumber {}, leaseDuration {}. It holds no time: {to} times the lease from now, on its own clock.",
                names.of(i.owner),
                short(i.rvn),
                ms(i.lease_ms)
            ),
            DynamoMsg::Item { item: None, .. } => format!("{me} answers {to}: there is no lock item."),
            DynamoMsg::PutItem { rvn, condition: Condition::NotExists, .. } => format!(
                "{me} puts the lock item on {to} with itself as owner and recordVersionNumber {}, if no item exists (attribute_not_exists).",
                short(rvn)
            ),
            DynamoMsg::PutItem { rvn, condition: Condition::RvnIs { rvn: old }, .. } => format!(
                "{me} has seen recordVersionNumber {} unchanged for a whole lease on its own clock, so it deems the holder gone and puts its own item on {to} (recordVersionNumber {}), if the item still has {}.",
                short(old),
                short(rvn),
                short(old)
            ),
            DynamoMsg::PutItem { rvn, condition: Condition::Released, .. } => format!(
                "{me} puts its own lock item on {to} (recordVersionNumber {}), if the item is still marked released.",
                short(rvn)
            ),
            DynamoMsg::Written { .. } => format!("{me} answers {to}: the write took."),
            DynamoMsg::ConditionFailed { .. } => format!("{me} answers {to}: ConditionalCheckFailedException, the item is not as the condition says."),
            DynamoMsg::Heartbeat { rvn, new_rvn, .. } => format!(
                "{me}'s heartbeat thread rewrites the lock item's recordVersionNumber on {to} to {}, if it is still {} and {me}'s.",
                short(new_rvn),
                short(rvn)
            ),
            DynamoMsg::Release { rvn, delete: true, .. } => {
                format!("{me} releases: delete the lock item on {to} if it still has recordVersionNumber {}.", short(rvn))
            }
            DynamoMsg::Release { rvn, delete: false, .. } => format!(
                "{me} releases: mark the lock item on {to} released (isReleased), keeping its other attributes, if it still has recordVersionNumber {}.",
                short(rvn)
            ),
        }
    }

    fn believes(&self, until_local: Option<LocalMillis>) -> String {
        match until_local {
            Some(t) => format!("until its lease runs out at {} on its own clock, unless a heartbeat succeeds", local(t)),
            None => "while its heartbeats succeed".into(),
        }
    }

    fn granted(&self, me: &str, holder: &str, token: u64, _expires_local: Option<LocalMillis>) -> String {
        let token = match self.token(token) {
            Some(t) => format!(" The write also increments the fence attribute: {t}, a fencing token."),
            None => " The recordVersionNumber is random: there is no fencing token.".into(),
        };
        format!("{me} stores {holder}'s lock item. It never expires on {me}: contenders judge it by their own clocks.{token}")
    }

    fn extended(&self, me: &str, holder: &str, _token: u64, _expires_local: Option<LocalMillis>) -> String {
        format!("{holder}'s heartbeat rewrites the recordVersionNumber on {me}: every contender watching starts its wait again.")
    }

    fn ended(&self, me: &str, holder: &str, _token: u64, how: LockEnd) -> String {
        match how {
            LockEnd::Replaced => format!(
                "Another client's conditional put replaces {holder}'s lock item on {me}. Nobody tells {holder}: it learns only when its next heartbeat fails."
            ),
            LockEnd::Released => format!("{holder} releases its lock item; the lock is free."),
            _ => format!("{holder}'s lock item is gone from {me}: {}.", self.how_ended(how)),
        }
    }

    fn renewal_failed(&self, me: &str, _abort: bool) -> String {
        format!("{me}'s heartbeat failed: the lock client drops the lock from its own list, and the application, which is not told, carries on.")
    }

    fn renewal(&self) -> &'static str {
        "heartbeat"
    }

    fn expiries(&self) -> &'static str {
        "takeovers"
    }
}
