//! Comparing what the clients heard in the model and on the real server: identifiers (tokens,
//! revisions, czxids, sequence numbers) are compared by their order, not their values, since a
//! real server numbers from wherever it starts.

use crate::schedule::{self, Heard};
use lockstep::design::redis_wire::RedisMsg;
use serde_json::Value;
use std::collections::BTreeSet;

/// Fields that hold a fencing token or another ordered identifier, in two families numbered
/// apart: tokens (a counter, a revision, a czxid) and sequence numbers (a znode's).
const TOKENS: [&str; 4] = ["token", "revision", "behind", "czxid"];
const SEQUENCES: [&str; 4] = ["seq", "watching", "deleted", "created"];

/// Returns the field's family, if it holds an identifier. Redis's `INCR` reply keeps its token in
/// `value`.
fn family(op: &str, field: &str) -> Option<usize> {
    let counter = schedule::reply(RedisMsg::Counter { value: 0 });
    if TOKENS.contains(&field) || (counter["op"] == op && field == "value") {
        Some(0)
    } else if SEQUENCES.contains(&field) {
        Some(1)
    } else {
        None
    }
}

/// Replaces every identifier by its rank among the identifiers of its family that the clients
/// heard (1 for the lowest), so a model's token 41 and a server's token 1 compare equal when
/// they come in the same order.
pub fn ranked(heard: &Heard) -> Heard {
    let mut seen = [BTreeSet::new(), BTreeSet::new()];
    let fields = |v: &Value| v.as_object().cloned().unwrap_or_default();
    for v in heard.values().flatten() {
        let op = v["op"].as_str().unwrap_or("").to_string();
        for (k, x) in fields(v) {
            if let (Some(f), Some(n)) = (family(&op, &k), x.as_u64()) {
                seen[f].insert(n);
            }
        }
    }
    let rank = |f: usize, n: u64| seen[f].iter().position(|&m| m == n).map_or(0, |i| i as u64 + 1);
    heard
        .iter()
        .map(|(client, replies)| {
            let replies = replies
                .iter()
                .map(|v| {
                    let mut v = v.clone();
                    let op = v["op"].as_str().unwrap_or("").to_string();
                    if let Some(o) = v.as_object_mut() {
                        for (k, x) in o.iter_mut() {
                            if let (Some(f), Some(n)) = (family(&op, k), x.as_u64()) {
                                *x = Value::from(rank(f, n));
                            }
                        }
                    }
                    v
                })
                .collect();
            (client.clone(), replies)
        })
        .collect()
}

/// Says where the server's replies first differ from the model's, if they do.
pub fn difference(model: &Heard, server: &Heard) -> Option<String> {
    let (model, server) = (ranked(model), ranked(server));
    for (client, want) in &model {
        let got = server.get(client).map_or(&[][..], Vec::as_slice);
        if let Some(i) = (0..want.len().max(got.len())).find(|&i| want.get(i) != got.get(i)) {
            let say = |v: Option<&Value>| v.map_or_else(|| "nothing".to_string(), label);
            return Some(format!("{client}'s reply {}: model {}, server {}", i + 1, say(want.get(i)), say(got.get(i))));
        }
    }
    None
}

/// Sums up what each client heard, in order, with repeats counted: `A: set_ok, deleted · B: nil×3`.
pub fn summary(heard: &Heard) -> String {
    let heard = ranked(heard);
    heard
        .iter()
        .filter(|(_, replies)| !replies.is_empty())
        .map(|(client, replies)| {
            let mut parts: Vec<(String, usize)> = Vec::new();
            for l in replies.iter().map(label) {
                match parts.last_mut() {
                    Some((last, n)) if *last == l => *n += 1,
                    _ => parts.push((l, 1)),
                }
            }
            let parts: Vec<String> = parts.into_iter().map(|(l, n)| if n > 1 { format!("{l}×{n}") } else { l }).collect();
            format!("{client}: {}", parts.join(", "))
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// One reply in a few characters: its operation, then its fields (`set_ok #1`, `deleted ✗`).
fn label(v: &Value) -> String {
    let op = v["op"].as_str().unwrap_or("?");
    let mut out = op.to_string();
    for (k, x) in v.as_object().into_iter().flatten().filter(|(k, _)| *k != "op") {
        match x {
            Value::Bool(true) => {}
            Value::Bool(false) if k == "done" => out.push_str(" ✗"),
            Value::Bool(false) => out.push_str(&format!(" not {k}")),
            // Whose number it is goes unsaid for the reply's own identifier, said for another's.
            Value::Number(n) if ["behind", "watching", "deleted", "created"].contains(&k.as_str()) => out.push_str(&format!(" {k} #{n}")),
            Value::Number(n) if family(op, k).is_some() => out.push_str(&format!(" #{n}")),
            Value::Number(n) => out.push_str(&format!(" {k}={n}")),
            Value::String(s) => out.push_str(&format!(" {s}")),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep::design::redis_wire::RedisMsg::{Deleted, Nil, SetOk};

    fn heard(pairs: &[(&str, Vec<RedisMsg>)]) -> Heard {
        pairs.iter().map(|(c, v)| (c.to_string(), v.iter().cloned().map(schedule::reply).collect())).collect()
    }

    #[test]
    fn tokens_compare_by_their_order() {
        let model = heard(&[("A", vec![SetOk { token: Some(41) }]), ("B", vec![SetOk { token: Some(42) }])]);
        let server = heard(&[("A", vec![SetOk { token: Some(1) }]), ("B", vec![SetOk { token: Some(2) }])]);
        assert_eq!(difference(&model, &server), None);
        let swapped = heard(&[("A", vec![SetOk { token: Some(2) }]), ("B", vec![SetOk { token: Some(1) }])]);
        assert_eq!(difference(&model, &swapped), Some("A's reply 1: model set_ok #1, server set_ok #2".into()));
    }

    #[test]
    fn a_counter_is_a_token() {
        let model = heard(&[("A", vec![RedisMsg::Counter { value: 41 }]), ("B", vec![RedisMsg::Counter { value: 42 }])]);
        let server = heard(&[("A", vec![RedisMsg::Counter { value: 1 }]), ("B", vec![RedisMsg::Counter { value: 2 }])]);
        assert_eq!(difference(&model, &server), None);
        assert_eq!(summary(&server), "A: counter #1 · B: counter #2");
    }

    #[test]
    fn a_missing_or_extra_reply_differs() {
        let model = heard(&[("A", vec![Nil, Deleted { done: false }])]);
        let short = heard(&[("A", vec![Nil])]);
        assert_eq!(difference(&model, &short), Some("A's reply 2: model deleted ✗, server nothing".into()));
        let long = heard(&[("A", vec![Nil, Deleted { done: false }, Nil])]);
        assert!(difference(&model, &long).is_some());
    }

    #[test]
    fn the_summary_counts_repeats() {
        let h = heard(&[("C", vec![Nil, Nil, SetOk { token: None }])]);
        assert_eq!(summary(&h), "C: nil×2, set_ok");
    }
}
