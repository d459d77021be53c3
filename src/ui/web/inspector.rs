//! The state inspector at the cursor: each node's clock and status, each client's belief, what
//! each lock-service node holds, and the protected data. The sentences come from `present`.

use super::run::RunRef;
use crate::diagram::inspect::Status;
use crate::diagram::svg::role_class;
use crate::engine::NodeKind;
use crate::present::number::group;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub run: RunRef,
    pub cursor: Option<usize>,
}

#[component]
pub fn Inspector(props: &Props) -> Html {
    let t = &props.run.trace;
    let words = props.run.words();
    let snap = props.cursor.map(|c| props.run.state(c));
    let snap = snap.as_ref();
    let now_ms = snap.map_or(0, |s| s.at_ms);
    let r = snap.map(|s| s.resource.clone()).unwrap_or_default();
    let data = match (&r.data, r.writer) {
        (Some(value), Some(writer)) => html! { <span>{ words.data(value, writer, r.data_token, r.version, r.highest_token) }</span> },
        (Some(_) | None, _) => html! { <span class="muted">{"empty, version 0"}</span> },
    };
    let rows = t.participants.iter().enumerate().map(|(i, p)| {
        let node = snap.map(|s| &s.nodes[i]);
        let local = node.map_or(p.clock.local_at(0), |n| n.local_ms);
        let status = match node.map(|n| n.status) {
            Some(Status::Paused) => html! { <span class="pill pill--paused">{"paused"}</span> },
            Some(Status::Down) => html! { <span class="pill pill--down">{"down"}</span> },
            Some(Status::Up) | None => html! {},
        };
        let detail = match p.role {
            NodeKind::Client => match node.and_then(|n| n.belief) {
                Some((token, until)) => {
                    let service_agrees = node.is_some_and(|n| n.holds);
                    html! {
                        <span class={if service_agrees { "belief-ok" } else { "belief-stale" }}>
                            { words.belief(token, until) }
                            if !service_agrees { <strong>{" — the service disagrees"}</strong> }
                        </span>
                    }
                }
                None => html! { <span class="muted">{"holds nothing"}</span> },
            },
            NodeKind::LockService => {
                let key = match node.and_then(|n| n.key) {
                    Some((holder, token, until)) => html! { <span>{ words.service_holds(holder, token, until) }</span> },
                    None => html! { <span class="muted">{"holds nothing for anyone"}</span> },
                };
                // The rows (PostgreSQL) or key (etcd) the lock guards, when they live here.
                if r.at.is_some_and(|at| at.0 == i) {
                    html! { <>{key}<br/>{data.clone()}</> }
                } else {
                    key
                }
            }
            NodeKind::Resource => data.clone(),
        };
        html! {
            <li class={classes!("node", format!("node--{}", role_class(p.role)))} data-testid={format!("inspect-{}", p.key)}>
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
