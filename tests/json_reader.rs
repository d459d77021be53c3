//! The scenario JSON reader against serde_json on random documents, and on random bytes: the same
//! values for valid JSON, an error (never a panic) for anything else.

#![cfg(not(target_arch = "wasm32"))]

use lockstep::scenario::json::{parse, Value};
use lockstep::scenario::lessons;
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

fn to_serde(v: &Value) -> serde_json::Value {
    match v {
        Value::Null => serde_json::Value::Null,
        Value::Bool(b) => (*b).into(),
        // Rust's own parse rounds correctly; whole numbers stay whole.
        Value::Number(n) => match (n.parse::<u64>(), n.parse::<i64>()) {
            (Ok(u), _) => u.into(),
            (_, Ok(i)) => i.into(),
            _ => n.parse::<f64>().expect("a number we accepted is a JSON number").into(),
        },
        Value::String(s) => s.clone().into(),
        Value::Array(a) => a.iter().map(to_serde).collect(),
        Value::Object(m) => m.iter().map(|(k, v)| (k.clone(), to_serde(v))).collect::<serde_json::Map<_, _>>().into(),
    }
}

/// The same cases on every run, so the test command's verdict does not depend on luck; set
/// `PROPTEST_RNG_SEED` to explore others.
fn fixed_seed() -> RngSeed {
    RngSeed::Fixed(std::env::var("PROPTEST_RNG_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(2026))
}

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(Into::into),
        any::<i64>().prop_map(Into::into),
        any::<u64>().prop_map(Into::into),
        (-1e6f64..1e6).prop_map(Into::into),
        any::<String>().prop_map(Into::into),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Into::into),
            prop::collection::btree_map(any::<String>(), inner, 0..6).prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, rng_seed: fixed_seed(), ..ProptestConfig::default() })]

    #[test]
    fn reads_what_serde_json_writes(v in json_value(), pretty in any::<bool>()) {
        let text = if pretty { serde_json::to_string_pretty(&v).unwrap() } else { serde_json::to_string(&v).unwrap() };
        let ours = parse(&text).map_err(|e| TestCaseError::fail(format!("{e} in {text}")))?;
        prop_assert_eq!(to_serde(&ours), v);
    }

    #[test]
    fn arbitrary_text_is_read_or_refused_without_panic(text in "\\PC{0,64}|[\\[\\]{}\":,0-9eE+.\\-tfnul\\\\ ]{0,64}") {
        let ours = parse(&text);
        let theirs: Result<serde_json::Value, _> = serde_json::from_str(&text);
        // Where both read it, they agree; serde_json accepts nothing we refuse, except a repeated
        // key, which scenario files treat as a mistake, and a number longer than any a scenario holds.
        match (ours, theirs) {
            (Ok(a), Ok(b)) => prop_assert_eq!(to_serde(&a), b),
            (Err(e), Ok(b)) => prop_assert!(
                e.problem.starts_with("duplicate field") || e.problem.starts_with("a number longer than"),
                "refused valid JSON {text:?} = {b}: {e}"
            ),
            _ => {}
        }
    }
}

#[test]
fn reads_every_lesson_as_serde_json_does() {
    for l in lessons::all() {
        let theirs: serde_json::Value = serde_json::from_str(l.source).unwrap();
        assert_eq!(to_serde(&parse(l.source).unwrap()), theirs, "{}", l.id());
    }
}
