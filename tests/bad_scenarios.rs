//! Bad scenario files: each kind of mistake gives its own error naming the field path.

use lockstep::scenario::{lessons, load};

fn base() -> serde_json::Value {
    serde_json::from_str(lessons::find("lease-race-fenced").unwrap().source).unwrap()
}

fn error_of(v: &serde_json::Value) -> String {
    load(&v.to_string()).map(|_| ()).expect_err("should be rejected").to_string()
}

fn with(edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut v = base();
    edit(&mut v);
    error_of(&v)
}

#[test]
fn negative_fault_time() {
    assert_eq!(with(|v| v["faults"][0]["at_ms"] = (-5).into()), "faults[0].at_ms: must be ≥ 0");
}

#[test]
fn unknown_field_is_named() {
    let e = with(|v| v["participants"][0]["nmae"] = "x".into());
    assert_eq!(e, "participants[0].nmae: unknown field `nmae`, expected one of `role`, `id`, `name`, `clock`, `start_ms`, `script`, `acquire`, `renew`");
    let e = with(|v| v["colour"] = "red".into());
    assert!(e.starts_with("colour: unknown field `colour`, expected one of `version`"), "{e}");
}

#[test]
fn unsupported_version() {
    assert_eq!(with(|v| v["version"] = 2.into()), "version: unsupported version 2 (this build reads version 1)");
}

#[test]
fn unknown_participant_in_fault() {
    let e = with(|v| v["faults"][0]["node"] = "Z".into());
    assert_eq!(e, "faults[0].node: no participant has id \"Z\" (ids: A, L, R, B)");
}

#[test]
fn duplicate_ids() {
    assert_eq!(with(|v| v["participants"][3]["id"] = "A".into()), "participants[3].id: \"A\" is used twice");
}

#[test]
fn ttl_out_of_range() {
    assert_eq!(with(|v| v["lock"]["ttl_ms"] = 0.into()), "lock.ttl_ms: must be between 1 and 3600000, got 0");
}

#[test]
fn unknown_design_and_step() {
    let e = with(|v| v["lock"]["design"] = "paxos".into());
    assert!(e.starts_with("lock.design: unknown variant `paxos`, expected one of `lease`, `redis`"), "{e}");
    let e = with(|v| v["participants"][0]["script"][1] = serde_json::json!({"step": "sleep"}));
    assert!(e.contains("unknown variant `sleep`"), "{e}");
}

#[test]
fn bad_probability_and_latency() {
    assert_eq!(with(|v| v["network"] = serde_json::json!({"loss": 1.5})), "network.loss: must be a probability between 0 and 1, got 1.5");
    let e = with(|v| v["network"] = serde_json::json!({"latency_ms": {"min_ms": 9, "max_ms": 3}}));
    assert_eq!(e, "network.latency_ms.min_ms: must be ≤ max_ms");
}

#[test]
fn roles_are_counted() {
    let e = with(|v| {
        v["participants"].as_array_mut().unwrap().remove(2);
    });
    assert_eq!(e, "participants: a scenario protects 1 to 4 resources, found 0");
}

#[test]
fn empty_script_and_long_value() {
    assert_eq!(with(|v| v["participants"][0]["script"] = serde_json::json!([])), "participants[0].script: must have 1 to 64 steps, got 0");
    let long = "x".repeat(40);
    assert_eq!(
        with(|v| v["participants"][0]["script"][2]["value"] = long.into()),
        "participants[0].script[2].value: must be 1 to 32 characters"
    );
}

#[test]
fn drift_out_of_range() {
    let e = with(|v| v["participants"][1]["clock"] = serde_json::json!({"drift_ppm": 1_500_000}));
    assert_eq!(e, "participants[1].clock.drift_ppm: must be between -500000 (half speed) and 1000000 (double speed), got 1500000");
    let e = with(|v| v["participants"][1]["clock"] = serde_json::json!({"drift_ppm": i64::MIN}));
    assert!(e.starts_with("participants[1].clock.drift_ppm: must be between"), "{e}");
    let e = with(|v| v["participants"][1]["clock"] = serde_json::json!({"offset_ms": i64::MIN}));
    assert_eq!(e, "participants[1].clock.offset_ms: must be within ±86400000");
    let e = with(|v| v["faults"] = serde_json::json!([{"fault": "clock_jump", "at_ms": 5, "node": "L", "by_ms": i64::MIN}]));
    assert_eq!(e, "faults[0].by_ms: must be within ±86400000");
}

#[test]
fn not_json_at_all() {
    let e = load("{ this is not json").map(|_| ()).unwrap_err().to_string();
    assert_eq!(e, "key must be a string at line 1 column 3");
}

#[test]
fn wrong_type_names_the_field() {
    let e = with(|v| v["seed"] = "seven".into());
    assert_eq!(e, "seed: invalid type: string \"seven\", expected a whole number");
    let e = with(|v| v["participants"][0]["script"][1]["ms"] = (-5).into());
    assert_eq!(e, "participants[0].script[1].ms: must be ≥ 0");
    let e = with(|v| v["lock"].as_object_mut().unwrap().remove("ttl_ms").map(|_| ()).unwrap());
    assert_eq!(e, "lock: missing field `ttl_ms`");
}

#[test]
fn limits_stop_a_runaway_scenario() {
    let mut v = base();
    v["limits"] = serde_json::json!({"max_events": 10});
    let (_, spec) = load(&v.to_string()).unwrap();
    let e = lockstep::error::ScenarioError::from(lockstep::engine::run(&spec).unwrap_err()).to_string();
    assert_eq!(e, "limits.max_events: the run passed 10 events: shorten the scripts or raise the limit");
    v["limits"] = serde_json::json!({"max_time_ms": 1000});
    let (_, spec) = load(&v.to_string()).unwrap();
    let e = lockstep::error::ScenarioError::from(lockstep::engine::run(&spec).unwrap_err()).to_string();
    assert!(e.starts_with("limits.max_time_ms: the run went past 1,000 ms of simulated time"), "{e}");
    // At the largest limit there is nothing to raise.
    let at_max = lockstep::engine::RunError::EventLimit { limit: lockstep::limits::MAX_EVENTS };
    assert_eq!(
        lockstep::error::ScenarioError::from(at_max).to_string(),
        "limits.max_events: the run passed 1,000,000 events: the most a run may have; shorten the scripts"
    );
}

#[test]
fn redlock_rules_are_checked() {
    let e = with(|v| v["lock"] = serde_json::json!({"design": "redlock", "ttl_ms": 1000, "instance_timeout_ms": 5000}));
    assert_eq!(e, "lock.instance_timeout_ms: must be at least 1 and much smaller than ttl_ms");
    let e = with(|v| {
        v["lock"] = serde_json::json!({"design": "redlock", "ttl_ms": 1000});
        v["participants"][0]["renew"] = serde_json::json!({"every_ms": 300, "on_failure": "abort"});
    });
    assert_eq!(e, "participants[0].renew: renewal is not modelled for redlock");
    let e = with(|v| v["lock"] = serde_json::json!({"design": "redis", "ttl_ms": 1000, "incr": true}));
    assert_eq!(
        e,
        "lock.incr: unknown field `incr`, expected one of `design`, `ttl_ms`, `incr_token`, `incr_separate`, `replication_lag_ms`, `second_replica_lag_ms`, `wait_replicas`, `wait_timeout_ms`, `repl_diskless_sync_delay_ms`"
    );
    let e = with(|v| v["lock"] = serde_json::json!({"design": "redis", "ttl_ms": 1000, "incr_separate": true}));
    assert_eq!(e, "lock.incr_separate: needs incr_token: there is no INCR to separate");
    let e = with(|v| v["participants"][0]["script"][1] = serde_json::json!({"step": "check"}));
    assert_eq!(e, "participants[0].script[1]: missing field `margin_ms`");
}

#[test]
fn zookeeper_session_timeout_is_bounded_by_ticks() {
    let e = with(|v| v["lock"] = serde_json::json!({"design": "zookeeper", "tick_time_ms": 100, "session_timeout_ms": 5000}));
    assert_eq!(e, "lock.session_timeout_ms: must be between 200 and 2000 (2 to 20 ticks of 100 ms), got 5000");
}

#[test]
fn lock_free_scenarios_have_no_lock() {
    let none = serde_json::json!({"design": "none"});
    let e = with(|v| v["lock"] = none.clone());
    assert_eq!(e, "participants: the none design has no lock service: list no lock_service participant, found 1");
    let e = with(|v| {
        v["lock"] = none.clone();
        v["participants"].as_array_mut().unwrap().remove(1);
    });
    assert_eq!(e, "participants[0].script[0]: there is no lock to acquire or release (lock design none)");
}

#[test]
fn commit_is_only_for_postgres() {
    let e = with(|v| v["participants"][0]["script"][3] = serde_json::json!({"step": "release", "mode": "commit"}));
    assert_eq!(e, "participants[0].script[3].mode: lease has no `commit` release: use `safe` or `unsafe`");
}

#[test]
fn every_truncation_of_every_lesson_is_an_error_not_a_panic() {
    for l in lessons::all() {
        let text = l.source.trim_end();
        for cut in (0..text.len()).filter(|&i| text.is_char_boundary(i)).step_by(7) {
            assert!(load(&text[..cut]).is_err(), "{} cut at {cut}", l.id());
        }
    }
}

#[test]
fn errors_name_the_real_problem() {
    // null is not the same as left out.
    assert_eq!(with(|v| v["lock"] = serde_json::Value::Null), "lock: is null, but it needs a value");
    assert_eq!(
        with(|v| v["participants"][0]["script"][1]["ms"] = serde_json::Value::Null),
        "participants[0].script[1].ms: is null, but it needs a value"
    );
    // Lengths count characters, not bytes: 17 'é' (34 bytes) is a fine id; 33 characters is not.
    let mut v = base();
    v["participants"][0]["id"] = "é".repeat(17).into();
    v["faults"][0]["node"] = "é".repeat(17).into();
    assert!(load(&v.to_string()).is_ok());
    assert_eq!(with(|v| v["participants"][0]["id"] = "é".repeat(33).into()), "participants[0].id: must be 1 to 32 characters, got 33");
    // A blank name is blank, not too long.
    assert_eq!(
        with(|v| v["participants"][0]["name"] = "   ".into()),
        "participants[0].name: is blank: give the participant a name to show"
    );
    // A byte-order mark is named.
    let bom = format!("\u{feff}{}", base());
    assert_eq!(
        load(&bom).map(|_| ()).unwrap_err().to_string(),
        "the text starts with a byte-order mark (U+FEFF): save it as UTF-8 without one"
    );
    // A value too long is named where it starts, in a link too.
    let long = base().to_string().replacen("\"Client A\"", &format!("\"{}\"", "x".repeat(20_000)), 1);
    let at = long.find(&"x".repeat(100)).unwrap();
    let problem = load(&long).map(|_| ()).unwrap_err().to_string();
    assert_eq!(problem, format!("a string longer than 16384 bytes at line 1 column {at}"));
    use lockstep::edit::{self, link, Edit};
    use lockstep::scenario::{encode, json::Value, validate};
    let scenario = validate::parse(&base().to_string()).unwrap();
    let name = Edit::Set { path: "participants[0].name".into(), value: Some(Value::String("x".repeat(20_000))) };
    let text = link::encode(&encode::scenario(&edit::apply(&scenario, &name).unwrap())).unwrap();
    let problem = link::decode(&text).unwrap_err().problem;
    assert!(problem.starts_with("the link's scenario is not JSON: a string longer than 16384 bytes at line 1 column "), "{problem}");
    let column: usize = problem.rsplit(' ').next().unwrap().parse().unwrap();
    assert!(column < 2_000, "named where the string starts (its end is 20,000 characters on), not at column {column}");
}
