//! The state inspector at the cursor: each node's clock and status, each client's belief, the
//! lock service's holder and the resource's data.

use super::run::RunRef;
use crate::diagram::inspect::Status;
use crate::engine::msg::{group, token_name, until_local};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub run: RunRef,
    pub cursor: Option<usize>,
}

#[component]
pub fn Inspector(props: &Props) -> Html {
    let t = &props.run.trace;
    let snap = props.cursor.map(|c| &props.run.snaps[c]);
    let now_ms = snap.map_or(0, |s| s.at_ms);
    let r = snap.map(|s| s.resource.clone()).unwrap_or_default();
    let data = match &r.data {
        Some(data) => html! {
            <span>
                { format!("data {data:?} (by {}, {}), version {}", r.writer.map_or("?", |w| t.name(w)), token_name(r.data_token), r.version) }
                if r.highest_token > 0 { { format!(", highest token {}", r.highest_token) } }
            </span>
        },
        None => html! { <span class="muted">{"empty, version 0"}</span> },
    };
    let rows = t.participants.iter().enumerate().map(|(i, p)| {
        let node = snap.map(|s| &s.nodes[i]);
        let local = node.map_or(p.clock.local_at(0), |n| n.local_ms);
        let status = match node.map(|n| n.status) {
            Some(Status::Paused) => html! { <span class="pill pill--paused">{"paused"}</span> },
            Some(Status::Down) => html! { <span class="pill pill--down">{"down"}</span> },
            _ => html! {},
        };
        let detail = match p.role {
            "client" => match node.and_then(|n| n.belief) {
                Some((token, until)) => {
                    let service_agrees = node.is_some_and(|n| n.holds);
                    html! {
                        <span class={if service_agrees { "belief-ok" } else { "belief-stale" }}>
                            { format!("believes it holds the lock ({}) {}", token_name(token), until_local(until)) }
                            if !service_agrees { <strong>{" — the service disagrees"}</strong> }
                        </span>
                    }
                }
                None => html! { <span class="muted">{"holds nothing"}</span> },
            },
            "lock_service" => {
                let key = match node.and_then(|n| n.key) {
                    Some((holder, token, until)) => html! {
                        <span>{ format!("holder {}, {}, {}", t.name(holder), token_name(token), until_local(until)) }</span>
                    },
                    None => html! { <span class="muted">{"no key: free"}</span> },
                };
                // The rows (PostgreSQL) or key (etcd) the lock guards, when they live here.
                if r.at.is_some_and(|at| at.0 == i) {
                    html! { <>{key}<br/>{data.clone()}</> }
                } else {
                    key
                }
            }
            _ => data.clone(),
        };
        html! {
            <li class={classes!("node", format!("node--{}", p.role))} data-testid={format!("inspect-{}", p.key)}>
                <div class="node-head">
                    <span class="node-name">{&p.name}</span>{status}
                    <span class="clock" title="this node's own clock">{ format!("clock {} ms", group(local)) }</span>
                </div>
                <div class="node-detail">{detail}</div>
            </li>
        }
    });
    html! {
        <section class="card inspector" data-testid="inspector">
            <h2>{ format!("State at {} ms", group(now_ms as i64)) }</h2>
            <ul class="nodes">{ for rows }</ul>
        </section>
    }
}
