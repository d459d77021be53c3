//! How the S3 design says what happens: its vocabulary, in S3's words.

use super::{S3Design, S3Msg};
use crate::engine::event::LockEnd;
use crate::engine::msg::LockMsg;
use crate::engine::time::LocalMillis;
use crate::present::number::ms;
use crate::present::{Names, Vocabulary};

impl Vocabulary for S3Design {
    fn token(&self, token: u64) -> Option<String> {
        Some(format!("epoch {token}"))
    }

    fn lock(&self, token: u64) -> String {
        format!("lock/epoch-{token}")
    }

    fn how_ended(&self, how: LockEnd) -> &'static str {
        match how {
            LockEnd::Replaced => "a newer epoch taken",
            LockEnd::Released => "marked released",
            LockEnd::Expired | LockEnd::SessionClosed => "expired",
            LockEnd::DeletedByOther => "deleted by another client",
            LockEnd::LostOnRestart | LockEnd::Resynced => "lost",
        }
    }

    fn label(&self, msg: &LockMsg, names: Names) -> String {
        let Some(msg) = msg.get::<S3Msg>() else { return String::new() };
        match *msg {
            S3Msg::List { .. } => "LIST lock/".into(),
            S3Msg::Newest { newest: None, .. } => "no epochs".into(),
            S3Msg::Newest { newest: Some(o), .. } if o.released => format!("epoch-{} released", o.epoch),
            S3Msg::Newest { newest: Some(o), .. } => format!("epoch-{} by {}, {} old", o.epoch, names.of(o.holder), ms(o.age_ms)),
            S3Msg::Create { epoch, .. } => format!("PUT epoch-{epoch} If-None-Match: *"),
            S3Msg::Rewrite { epoch, release: false, .. } => format!("PUT epoch-{epoch} If-Match (renew)"),
            S3Msg::Rewrite { epoch, release: true, .. } => format!("PUT epoch-{epoch} If-Match (released)"),
            S3Msg::Stored { .. } => "200 OK".into(),
            S3Msg::PreconditionFailed { .. } => "412 Precondition Failed".into(),
            S3Msg::ClaimManifest { epoch, .. } => format!("claim manifest: epoch {epoch}"),
        }
    }

    fn sending(&self, msg: &LockMsg, me: &str, to: &str, names: Names) -> String {
        let Some(msg) = msg.get::<S3Msg>() else { return String::new() };
        match *msg {
            S3Msg::List { .. } => format!("{me} lists the lock's prefix on {to} and reads the newest epoch object."),
            S3Msg::Newest { newest: None, .. } => format!("{me} answers {to}: there is no epoch object yet."),
            S3Msg::Newest { newest: Some(o), .. } if o.released => {
                format!("{me} answers {to}: the newest object is lock/epoch-{}, marked released by {}.", o.epoch, names.of(o.holder))
            }
            S3Msg::Newest { newest: Some(o), .. } => format!(
                "{me} answers {to}: the newest object is lock/epoch-{}, written by {}; its Last-Modified is {} before the Date of this answer, both on {me}'s clock.",
                o.epoch,
                names.of(o.holder),
                ms(o.age_ms)
            ),
            S3Msg::Create { epoch, .. } => format!(
                "{me} puts lock/epoch-{epoch} on {to} with If-None-Match: *, which creates it only if nobody has: whoever creates it holds epoch {epoch}."
            ),
            S3Msg::Rewrite { epoch, release: false, .. } => {
                format!("{me} renews: it rewrites lock/epoch-{epoch} on {to} with If-Match on its ETag, which moves its Last-Modified.")
            }
            S3Msg::Rewrite { epoch, release: true, .. } => {
                format!("{me} releases: it rewrites lock/epoch-{epoch} on {to} as released, with If-Match on its ETag.")
            }
            S3Msg::Stored { .. } => format!("{me} answers {to}: 200 OK, stored, with a new ETag."),
            S3Msg::PreconditionFailed { .. } => {
                format!("{me} answers {to}: 412 Precondition Failed, the object is not as the condition says, and nothing is written.")
            }
            S3Msg::ClaimManifest { epoch, .. } => format!(
                "{me} claims the manifest on {to}: it reads it, then puts it back carrying epoch {epoch}, with If-Match on the ETag it read. Any writer that saw an older ETag now gets 412."
            ),
        }
    }

    fn granted(&self, me: &str, holder: &str, token: u64, _expires_local: Option<LocalMillis>) -> String {
        format!("{me} creates lock/epoch-{token} for {holder}: epoch {token} is {holder}'s, and its fencing token. The object never expires: contenders judge its age.")
    }

    fn extended(&self, me: &str, holder: &str, token: u64, _expires_local: Option<LocalMillis>) -> String {
        format!("{holder} rewrites lock/epoch-{token} on {me}: its Last-Modified is now.")
    }

    fn ended(&self, me: &str, holder: &str, token: u64, how: LockEnd) -> String {
        match how {
            LockEnd::Replaced => format!(
                "A newer epoch object on {me} supersedes lock/epoch-{token}. Nobody tells {holder}: it may still think the lock is its own."
            ),
            LockEnd::Released => format!("{holder} marks lock/epoch-{token} released; the next epoch is free to take."),
            _ => format!("{holder}'s lock/epoch-{token} is {}.", self.how_ended(how)),
        }
    }

    fn write_to_service(&self, token: u64, value: &str) -> String {
        format!("PUT manifest {value:?} If-Match (epoch {token})")
    }

    fn guard_refused(&self, _token: u64) -> String {
        "412: the manifest changed".into()
    }

    fn expiries(&self) -> &'static str {
        "takeovers"
    }

    fn data_kept_by(&self) -> &'static str {
        "data_in_s3 is true"
    }
}
