//! How the Kubernetes design says what happens: its vocabulary.

use super::{ApiMsg, K8sDesign};
use crate::engine::event::LockEnd;
use crate::engine::msg::LockMsg;
use crate::engine::time::LocalMillis;
use crate::present::number::{local, ms, reading};
use crate::present::{Names, Vocabulary};

/// Formats `a / b` to at most two decimals: `1.5`, `1.25`, `3`.
pub(super) fn ratio(a: u64, b: u64) -> String {
    let hundredths = (a * 100 + b / 2) / b.max(1);
    let text = format!("{}.{:02}", hundredths / 100, hundredths % 100);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl Vocabulary for K8sDesign {
    fn token(&self, token: u64) -> Option<String> {
        Some(format!("leaseTransitions {token}"))
    }

    fn lock(&self, token: u64) -> String {
        format!("the Lease (leaseTransitions {token})")
    }

    fn how_ended(&self, how: LockEnd) -> &'static str {
        match how {
            LockEnd::Replaced => "taken over",
            LockEnd::Released => "released",
            LockEnd::Expired | LockEnd::SessionClosed => "expired",
            LockEnd::DeletedByOther => "deleted by another client",
            LockEnd::LostOnRestart | LockEnd::Resynced => "lost on restart",
        }
    }

    fn label(&self, msg: &LockMsg, names: Names) -> String {
        let Some(msg) = msg.get::<ApiMsg>() else { return String::new() };
        match msg {
            ApiMsg::Get { .. } => "GET Lease".into(),
            ApiMsg::Found { lease, version, .. } => match lease.holder {
                Some(h) => format!("holder {} (rv {version})", names.of(h)),
                None => format!("no holder (rv {version})"),
            },
            ApiMsg::NotFound { .. } => "404 Not Found".into(),
            ApiMsg::Create { .. } => "POST Lease: holder me".into(),
            ApiMsg::Update { take: true, version, .. } => format!("PUT holder me (rv {version})"),
            ApiMsg::Update { lease, version, .. } if lease.holder.is_none() => format!("PUT no holder (rv {version})"),
            ApiMsg::Update { version, .. } => format!("PUT renewTime (rv {version})"),
            ApiMsg::Stored { version, .. } => format!("200 OK (rv {version})"),
            ApiMsg::Conflict { .. } => "409 Conflict".into(),
        }
    }

    fn sending(&self, msg: &LockMsg, me: &str, to: &str, names: Names) -> String {
        let Some(msg) = msg.get::<ApiMsg>() else { return String::new() };
        match msg {
            ApiMsg::Get { .. } => format!("{me} reads the Lease from {to}."),
            ApiMsg::Found { lease, version, .. } => match lease.holder {
                Some(h) => format!(
                    "{me} answers {to} with the Lease: holder {}, renewTime {} on the holder's clock, leaseTransitions {}, resourceVersion {version}. {to} times the Lease from when it last saw the record change, on its own clock.",
                    names.of(h),
                    reading(lease.renew_time),
                    lease.transitions
                ),
                None => format!("{me} answers {to} with the Lease: nobody holds it (resourceVersion {version})."),
            },
            ApiMsg::NotFound { .. } => format!("{me} answers {to}: there is no Lease yet."),
            ApiMsg::Create { .. } => format!("{me} asks {to} to create the Lease with itself as holder."),
            ApiMsg::Update { lease, take: true, version, .. } => format!(
                "{me} judges the Lease expired by its own clock and asks {to} to write it in as holder, with leaseTransitions {}, if the Lease is still at resourceVersion {version}.",
                lease.transitions
            ),
            ApiMsg::Update { lease, version, .. } if lease.holder.is_none() => {
                format!("{me} gives the Lease up on {to} as it exits, since it runs with ReleaseOnCancel (client-go leaves it off by default): no holder, if the Lease is still at resourceVersion {version}.")
            }
            ApiMsg::Update { lease, version, .. } => format!(
                "{me} renews: it asks {to} to set renewTime to {} (its own clock), if the Lease is still at resourceVersion {version}.",
                reading(lease.renew_time)
            ),
            ApiMsg::Stored { version, .. } => format!("{me} answers {to}: stored, the Lease is now at resourceVersion {version}."),
            ApiMsg::Conflict { .. } => format!("{me} answers {to}: 409 Conflict, someone else updated the Lease first."),
        }
    }

    fn lasts(&self, _expires_local: Option<LocalMillis>) -> String {
        format!("until a candidate sees it unrenewed for {}", ms(self.lease_duration_ms))
    }

    fn believes(&self, until_local: Option<LocalMillis>) -> String {
        match until_local {
            Some(t) => format!("until {} on its own clock, when its renew deadline would pass if renewals kept failing", local(t)),
            None => "while it keeps renewing".into(),
        }
    }

    fn granted(&self, me: &str, holder: &str, token: u64, _expires_local: Option<LocalMillis>) -> String {
        format!(
            "{me} now records {holder} as the Lease's holder, with leaseTransitions {token}. {me} judges no time: each candidate decides by its own clock when the Lease has gone {} without a renewal.",
            ms(self.lease_duration_ms)
        )
    }

    fn extended(&self, me: &str, holder: &str, _token: u64, _expires_local: Option<LocalMillis>) -> String {
        format!("{me} stores {holder}'s renewal: a new renewTime, so every candidate starts its wait again.")
    }

    fn ended(&self, me: &str, holder: &str, token: u64, how: LockEnd) -> String {
        match how {
            LockEnd::Replaced => format!(
                "The Lease on {me} no longer names {holder} (leaseTransitions {token}): another candidate judged it expired by its own clock and wrote itself in. Nobody tells {holder}."
            ),
            LockEnd::Released => format!("{holder} gives the Lease up: it now names no holder."),
            LockEnd::Expired | LockEnd::SessionClosed | LockEnd::DeletedByOther | LockEnd::LostOnRestart | LockEnd::Resynced => {
                format!("The Lease on {me} no longer names {holder}: {}.", self.how_ended(how))
            }
        }
    }

    fn held(&self) -> &'static str {
        "the Lease"
    }

    fn ended_mark(&self, holder: &str, _token: u64, how: LockEnd) -> String {
        match how {
            LockEnd::Replaced => format!("taken over from {holder}"),
            LockEnd::Released
            | LockEnd::Expired
            | LockEnd::SessionClosed
            | LockEnd::DeletedByOther
            | LockEnd::LostOnRestart
            | LockEnd::Resynced => {
                format!("{holder}: {}", self.how_ended(how))
            }
        }
    }

    fn renewal_failed(&self, me: &str, _abort: bool) -> String {
        format!(
            "{me} has gone {} in this round of renewing without a successful renewal: its renew deadline has passed, so client-go stops it leading.",
            ms(self.renew_deadline_ms)
        )
    }

    fn acquires(&self) -> &'static str {
        "claims of the Lease"
    }

    fn expiries(&self) -> &'static str {
        "takeovers"
    }
}
