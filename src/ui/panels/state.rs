//! The state inspector at the cursor: each node's clock and status, each client's belief, what
//! each lock-service node holds, and the protected data.

use super::Escaped;
use crate::diagram::inspect::{ResourceState, Snapshot, Status};
use crate::diagram::svg::role_class;
use crate::engine::time::Millis;
use crate::engine::{NodeKind, Trace};
use crate::present::number::{clocks, group_u};
use crate::present::Words;
use std::fmt::Write;

/// The inspector's heading and one row per participant, at `snap` (`None`: before any event).
pub fn state(trace: &Trace, words: &Words, snap: Option<&Snapshot>) -> String {
    let mut s = String::new();
    let now_ms = snap.map_or(Millis::ZERO, |s| s.at_ms);
    // What a node stores, as its row shows it.
    let data = |r: Option<&ResourceState>| match r.and_then(|r| Some((r.data.as_ref()?, r.writer?, r))) {
        Some((value, writer, r)) => {
            format!("<span>{}</span>", Escaped(&words.data(value, writer, r.data_token, r.version, r.highest_token)))
        }
        None => format!(r#"<span class="muted">empty, version {}</span>"#, r.map_or(0, |r| r.version)),
    };
    let _ = write!(s, r#"<h2>State at {} ms</h2><ul class="nodes">"#, group_u(now_ms.as_ms()));
    for (i, p) in trace.participants.iter().enumerate() {
        let node = snap.map(|s| &s.nodes[i]);
        let status = match node.map(|n| n.status) {
            Some(Status::Paused) => r#"<span class="pill pill--paused">paused</span>"#,
            Some(Status::Down) => r#"<span class="pill pill--down">down</span>"#,
            Some(Status::Up) | None => "",
        };
        let _ = write!(
            s,
            r#"<li class="node node--{}" data-testid="inspect-{}"><div class="node-head"><span class="node-name">{}</span>{status}<span class="clock" title="this node's own clock">clock {} ms</span></div><div class="node-detail">"#,
            role_class(p.role),
            Escaped(&p.key),
            Escaped(&p.name),
            clocks(&p.clock, now_ms)
        );
        match p.role {
            NodeKind::Client => match node.and_then(|n| n.belief) {
                Some((token, until)) => {
                    let agrees = node.is_some_and(|n| n.holds);
                    let _ = write!(
                        s,
                        r#"<span class="{}">{}{}</span>"#,
                        if agrees { "belief-ok" } else { "belief-stale" },
                        Escaped(&words.belief(token, until)),
                        if agrees { "" } else { "<strong> — the service disagrees</strong>" }
                    );
                }
                None => s.push_str(r#"<span class="muted">holds nothing</span>"#),
            },
            NodeKind::LockService => {
                match node.and_then(|n| n.key) {
                    Some((holder, token, until)) => {
                        let _ = write!(s, "<span>{}</span>", Escaped(&words.service_holds(holder, token, until)));
                    }
                    None => s.push_str(r#"<span class="muted">holds nothing for anyone</span>"#),
                }
                // The rows (PostgreSQL) or key (etcd) the lock guards, when they live here.
                if let Some(r) = node.and_then(|n| n.data.as_ref()) {
                    s.push_str("<br/>");
                    s.push_str(&data(Some(r)));
                }
            }
            NodeKind::Resource => s.push_str(&data(node.and_then(|n| n.data.as_ref()))),
        }
        s.push_str("</div></li>");
    }
    s.push_str("</ul>");
    s
}
