//! Mutations of scenario text: byte edits, splices of two inputs, and structure-aware edits of
//! the parsed JSON (numbers, fields, types, nesting, subtrees moved between inputs).

use super::rng::Rng;
use serde_json::{json, Value};

/// Numbers at the edges of every range the scenario format has.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "7",
    "31",
    "32",
    "33",
    "64",
    "65",
    "100",
    "255",
    "256",
    "1000",
    "86400000",
    "86400001",
    "-86400000",
    "-86400001",
    "200000",
    "1000000",
    "1000001",
    "604800000",
    "604800001",
    "500000",
    "-500000",
    "-500001",
    "1000000",
    "2147483647",
    "4294967295",
    "4294967296",
    "9007199254740993",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "1e308",
    "1e400",
    "-0",
    "0.5",
    "1.5",
    "-1e-9",
    "NaN",
    "1E3",
];

/// Fragments that stress a reader.
const FRAGMENTS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "\"",
    ",",
    ":",
    "\\",
    "\\u0000",
    "\\ud800",
    "\\uDFFF",
    "null",
    "true",
    "false",
    "\u{0}",
    "\u{feff}",
    "é",
    "名",
    "\u{fffe}",
    "\"\":",
    "[[[[[[[[",
    "]]]]]]]]",
    "{\"a\":",
    "%%{init}%%",
    "<script>",
    "end",
    "\n",
    "\r\n",
    "  ",
];

/// Field names of the scenario format, to add where they do not belong.
const FIELDS: &[&str] = &[
    "version",
    "id",
    "title",
    "seed",
    "lock",
    "design",
    "ttl_ms",
    "participants",
    "role",
    "name",
    "script",
    "step",
    "faults",
    "fault",
    "at_ms",
    "node",
    "for_ms",
    "limits",
    "max_events",
    "max_time_ms",
    "network",
    "loss",
    "clock",
    "drift_ppm",
    "offset_ms",
    "renew",
    "every_ms",
    "on_failure",
    "acquire",
    "retry_ms",
    "max_attempts",
    "mode",
    "from",
    "to",
    "by_ms",
    "keep_state",
    "replication_lag_ms",
    "incr_token",
    "session_timeout_ms",
    "tick_time_ms",
    "watch",
    "lease_duration_ms",
];

/// Returns a mutant of `input`, using `other` (another corpus entry) for splices and donations.
pub fn mutate(rng: &mut Rng, input: &str, other: &str) -> Vec<u8> {
    match rng.below(12) {
        0 | 1 => bytes(rng, input.as_bytes()),
        2 => splice(rng, input.as_bytes(), other.as_bytes()),
        3 => random_bytes(rng),
        4 => nest(rng, input.as_bytes()),
        5..=8 => match serde_json::from_str::<Value>(input) {
            Ok(mut v) => {
                for _ in 0..1 + rng.below(3) {
                    gentle(rng, &mut v);
                }
                serde_json::to_vec(&v).expect("a JSON value serializes")
            }
            Err(_) => bytes(rng, input.as_bytes()),
        },
        _ => match (serde_json::from_str::<Value>(input), serde_json::from_str::<Value>(other)) {
            (Ok(mut v), Ok(donor)) => {
                for _ in 0..1 + rng.below(4) {
                    structure(rng, &mut v, &donor);
                }
                serde_json::to_vec(&v).expect("a JSON value serializes")
            }
            _ => bytes(rng, input.as_bytes()),
        },
    }
}

/// A few byte-level edits: flip, insert, delete, duplicate, or drop in a fragment.
fn bytes(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..1 + rng.below(8) {
        let at = rng.below(out.len() + 1);
        match rng.below(5) {
            0 if at < out.len() => out[at] ^= 1 << rng.below(8),
            1 => out.insert(at, rng.next() as u8),
            2 => {
                let end = (at + rng.below(16)).min(out.len());
                out.drain(at..end);
            }
            3 => {
                let end = (at + rng.below(64)).min(out.len());
                let copy = out[at..end].to_vec();
                let to = rng.below(out.len() + 1);
                out.splice(to..to, copy);
            }
            _ => {
                let fragment = if rng.one_in(2) { rng.pick(FRAGMENTS) } else { rng.pick(NUMBERS) };
                out.splice(at..at, fragment.bytes());
            }
        }
    }
    out
}

/// The start of one input and the end of another.
fn splice(rng: &mut Rng, a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut out = a[..rng.below(a.len() + 1)].to_vec();
    out.extend_from_slice(&b[rng.below(b.len() + 1)..]);
    out
}

/// Deep nesting written as text (a tree this deep would overflow the fuzzer's own stack): the
/// reader must refuse it by depth, not by overflowing.
fn nest(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let depth = [100, 129, 1_000, 100_000][rng.below(4)];
    let (open, close) = if rng.one_in(2) { ("[", "]") } else { ("{\"a\":", "}") };
    let at = rng.below(input.len() + 1);
    let mut out = input[..at].to_vec();
    out.extend(open.repeat(depth).bytes());
    if rng.one_in(2) {
        out.extend(close.repeat(depth).bytes());
    }
    out.extend_from_slice(&input[at..]);
    out
}

fn random_bytes(rng: &mut Rng) -> Vec<u8> {
    let len = rng.below(256);
    let alphabet = b"{}[]\":,0123456789-.eE truenfalsu\\";
    (0..len).map(|_| if rng.one_in(2) { *rng.pick(alphabet) } else { rng.next() as u8 }).collect()
}

/// An edit that keeps the scenario's shape, so it usually still loads and the run goes deep:
/// a number nudged, a fault added against existing nodes, a clock skewed, loss or renewal added.
fn gentle(rng: &mut Rng, root: &mut Value) {
    let ids: Vec<String> = root["participants"]
        .as_array()
        .map(|ps| ps.iter().filter_map(|p| p["id"].as_str().map(str::to_string)).collect())
        .unwrap_or_default();
    if ids.is_empty() {
        return;
    }
    let id = rng.pick(&ids).clone();
    let other = rng.pick(&ids).clone();
    let at = rng.below(3_000);
    let span = 1 + rng.below(3_000);
    match rng.below(7) {
        0 => {
            let node = pick_node_mut(rng, root);
            if let Some(n) = node.as_i64() {
                *node = json!(match rng.below(4) {
                    0 => n.saturating_mul(2),
                    1 => n / 2,
                    2 => n.saturating_add(1),
                    _ => n.saturating_sub(1),
                });
            }
        }
        1 => {
            let fault = match rng.below(7) {
                0 => json!({"fault": "pause", "at_ms": at, "node": id, "for_ms": span}),
                1 => json!({"fault": "crash", "at_ms": at, "node": id}),
                2 => json!({"fault": "restart", "at_ms": at, "node": id, "keep_state": rng.one_in(2)}),
                3 => json!({"fault": "partition", "at_ms": at, "from": [id], "to": [other], "for_ms": span}),
                4 => json!({"fault": "delay", "at_ms": at, "from": id, "to": other, "extra_ms": span, "for_ms": span}),
                5 => json!({"fault": "clock_jump", "at_ms": at, "node": id, "by_ms": span as i64 - 1_500}),
                _ => json!({"fault": "promote", "at_ms": at, "node": id}),
            };
            if !root["faults"].is_array() {
                root["faults"] = json!([]);
            }
            root["faults"].as_array_mut().expect("faults is an array").push(fault);
        }
        2 => {
            if let Some(p) = root["participants"].as_array_mut().and_then(|ps| ps.iter_mut().find(|p| p["id"] == id.as_str())) {
                p["clock"] = json!({"offset_ms": rng.below(2_000) as i64 - 1_000, "drift_ppm": rng.below(1_500_001) as i64 - 500_000});
            }
        }
        3 => {
            root["network"] =
                json!({"loss": rng.below(5) as f64 / 10.0, "latency_ms": {"min_ms": rng.below(20), "max_ms": 20 + rng.below(200)}})
        }
        4 => {
            if let Some(p) = root["participants"].as_array_mut().and_then(|ps| ps.iter_mut().find(|p| p["role"] == "client")) {
                p["renew"] = json!({"every_ms": 50 + rng.below(1_000), "on_failure": if rng.one_in(2) { "abort" } else { "carry_on" }});
            }
        }
        5 => root["seed"] = json!(rng.next() >> 12),
        _ => root["limits"] = json!({"max_events": 1 + rng.below(2_000), "max_time_ms": 1 + rng.below(100_000)}),
    }
}

/// One edit at a random place in the JSON tree.
fn structure(rng: &mut Rng, root: &mut Value, donor: &Value) {
    let donation = pick_node_mut(rng, &mut donor.clone()).clone();
    let node = pick_node_mut(rng, root);
    match rng.below(9) {
        0 => *node = number(rng),
        1 => *node = donation,
        2 => *node = wrong_type(rng),
        3 => {
            let depth = [2, 10, 100][rng.below(3)];
            let mut v = std::mem::take(node);
            for _ in 0..depth {
                v = json!([v]);
            }
            *node = v;
        }
        _ => match node {
            Value::Object(map) => match rng.below(3) {
                0 if !map.is_empty() => {
                    let key = map.keys().nth(rng.below(map.len())).cloned().expect("index is in range");
                    map.remove(&key);
                }
                1 => {
                    map.insert(rng.pick(FIELDS).to_string(), number(rng));
                }
                _ => {
                    map.insert(rng.pick(FIELDS).to_string(), donation);
                }
            },
            Value::Array(items) => match rng.below(3) {
                0 if !items.is_empty() => {
                    items.remove(rng.below(items.len()));
                }
                1 if !items.is_empty() => {
                    // Many copies: long scripts, many faults, many participants.
                    let copy = items[rng.below(items.len())].clone();
                    let times = [1, 2, 16, 300][rng.below(4)];
                    items.extend(std::iter::repeat_n(copy, times));
                }
                _ => items.push(donation),
            },
            Value::Number(_) => *node = number(rng),
            Value::String(s) => *s = string(rng, s),
            _ => *node = number(rng),
        },
    }
}

fn number(rng: &mut Rng) -> Value {
    match rng.below(3) {
        0 => {
            let text: &&str = rng.pick(NUMBERS);
            serde_json::from_str(text).unwrap_or(Value::Null)
        }
        1 => json!(rng.next() as i64 >> rng.below(64)),
        _ => json!(rng.below(5_000)),
    }
}

fn wrong_type(rng: &mut Rng) -> Value {
    match rng.below(6) {
        0 => Value::Null,
        1 => json!(true),
        2 => json!("x"),
        3 => json!([]),
        4 => json!({}),
        _ => json!(-1),
    }
}

fn string(rng: &mut Rng, s: &str) -> String {
    match rng.below(5) {
        0 => String::new(),
        1 => s.repeat(1 + rng.below(40)),
        2 => format!("{s}{}", rng.pick(FRAGMENTS)),
        3 => rng.pick(FIELDS).to_string(),
        _ => ["A", "B", "L", "R", "M1", "lock_service", "client", "resource", "pause", "crash", "promote", "safe", "unsafe", "commit"]
            [rng.below(14)]
        .to_string(),
    }
}

/// Visits the tree in order and returns the n-th node (n chosen at random).
fn pick_node_mut<'a>(rng: &mut Rng, root: &'a mut Value) -> &'a mut Value {
    let target = rng.below(count(root));
    let mut seen = 0;
    find_mut(root, target, &mut seen).expect("target is below the node count")
}

fn count(v: &Value) -> usize {
    1 + match v {
        Value::Array(items) => items.iter().map(count).sum(),
        Value::Object(map) => map.values().map(count).sum(),
        _ => 0,
    }
}

fn find_mut<'a>(v: &'a mut Value, target: usize, seen: &mut usize) -> Option<&'a mut Value> {
    if *seen == target {
        return Some(v);
    }
    *seen += 1;
    match v {
        Value::Array(items) => items.iter_mut().find_map(|c| find_mut(c, target, seen)),
        Value::Object(map) => map.values_mut().find_map(|c| find_mut(c, target, seen)),
        _ => None,
    }
}
