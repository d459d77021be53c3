//! The command line: lists lessons, runs lessons and files, and fails with one clear line.

use std::process::Command;

fn lockstep(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_lockstep")).args(args).output().unwrap();
    (out.status.code().unwrap(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn lists_lessons() {
    let (code, out, _) = lockstep(&["list"]);
    assert_eq!(code, 0);
    assert!(out.lines().next().unwrap().starts_with("lease-race-unfenced"), "the problem comes first");
    assert_eq!(out.lines().count(), lockstep::scenario::lessons::all().len());
}

#[test]
fn runs_a_lesson_as_text_and_json() {
    let (code, out, _) = lockstep(&["run", "lease-race-fenced"]);
    assert_eq!(code, 0);
    assert!(out.contains("REJECT \"A\" from Client A token 41: token 41 < 42"));
    assert!(out.contains("verdict: SAFE"));
    let (code, out, _) = lockstep(&["run", "lease-race-unfenced", "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["verdict"]["safe"], false);
    assert_eq!(v["events"][0]["kind"], "send");
    // The harm is data another tool can check: its kind, the operations involved (their events)
    // and the versions.
    let harm = v["verdict"]["findings"].as_array().unwrap().iter().find(|f| f["found"]["kind"] == "out_of_order").expect("out of order");
    assert_eq!((harm["found"]["token"].as_u64(), harm["found"]["newer_token"].as_u64()), (Some(41), Some(42)));
    let newer = harm["found"]["newer"].as_u64().unwrap() as usize;
    assert_eq!(v["events"][newer]["kind"], "write_accepted", "it names the write it erased");
    let (_, out, _) = lockstep(&["run", "lease-fenced-first-write", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let lost = v["verdict"]["findings"].as_array().unwrap().iter().find(|f| f["found"]["kind"] == "lost_update").expect("lost update");
    assert_eq!((lost["found"]["read"].as_u64(), lost["found"]["found"].as_u64()), (Some(0), Some(1)));
    assert_eq!(lost["found"]["erased"].as_array().map(Vec::len), Some(1));
}

#[test]
fn the_search_s_result_carries_the_harm_it_found() {
    let (code, out, _) = lockstep(&["search", "lease-race-unfenced", "--format", "json", "--budget", "200"]);
    assert_eq!(code, 1, "a failure is found");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["failure"]["finding"], "out_of_order");
    assert_eq!(v["harm"]["found"]["kind"], "out_of_order");
    assert!(v["harm"]["found"]["newer"].is_u64() && v["harm"]["event"].is_u64(), "{}", v["harm"]);
}

#[test]
fn the_search_stops_at_its_time_limit_with_what_it_searched() {
    let (code, out, err) = lockstep(&["search", "conditional-write", "--format", "json", "--budget", "10000000", "--time", "1"]);
    assert_eq!(code, 0, "nothing found");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["stopped_by_time"], true);
    let tried = v["tried"].as_u64().unwrap();
    assert!(tried > 0 && tried < 10_000_000, "{tried}");
    assert!(v["searched"].as_str().unwrap().starts_with("Stopped by --time after 1 s, "), "{}", v["searched"]);
    assert!(err.is_empty(), "no progress line off a terminal: {err:?}");
    let (code, _, err) = lockstep(&["search", "conditional-write", "--time", "0"]);
    assert_eq!((code, err.trim()), (2, "lockstep: --time must be 1 to 86400 seconds, got 0 (try --help)"));
}

#[test]
fn help_explains_usage() {
    let (code, out, _) = lockstep(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("USAGE:") && out.contains("--format FORMAT") && out.contains("mermaid"));
}

#[test]
fn bad_file_fails_with_one_line_naming_the_problem() {
    let dir = std::env::temp_dir().join(format!("lockstep-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.json");
    let mut v: serde_json::Value = serde_json::from_str(lockstep::scenario::lessons::find("short-pause").unwrap().source).unwrap();
    v["faults"][0]["at_ms"] = (-1).into();
    std::fs::write(&file, v.to_string()).unwrap();
    let (code, out, err) = lockstep(&["run", file.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert_eq!(err, format!("lockstep: {}: faults[0].at_ms: must be ≥ 0\n", file.display()));
    let (code, _, err) = lockstep(&["run", "/no/such/file.json"]);
    assert_eq!(code, 1);
    assert!(err.starts_with("lockstep: /no/such/file.json: No such file"), "{err}");
}

#[test]
fn bad_arguments_exit_2() {
    let (code, _, err) = lockstep(&["run", "no-such-lesson"]);
    assert_eq!(code, 1);
    assert_eq!(err, "lockstep: there is no lesson named “no-such-lesson”\n");
    let (_, _, err) = lockstep(&["run", "short-paus"]);
    assert_eq!(err, "lockstep: there is no lesson named “short-paus”; did you mean short-pause?\n");
    let (code, _, err) = lockstep(&["run", "short-pause", "--seed", "x"]);
    assert_eq!(code, 2);
    assert_eq!(err, "lockstep: --seed must be a whole number, got \"x\" (try --help)\n");
    let (code, _, _) = lockstep(&["frobnicate"]);
    assert_eq!(code, 2);
}

#[test]
fn prints_the_comparison_table_and_runs_one_cell() {
    let (code, out, _) = lockstep(&["compare"]);
    assert_eq!(code, 0);
    let row = |design: &str| {
        out.lines()
            .find(|l| l.starts_with(design))
            .unwrap_or_else(|| panic!("{design} row"))
            .split_whitespace()
            .rev()
            .take(3)
            .collect::<Vec<_>>()
    };
    // Columns read right to left: clock jump, partition, pause.
    assert_eq!(row("Redis + INCR token"), ["safe", "safe", "safe"]);
    assert_eq!(row("Redlock, 5 masters"), ["safe", "unsafe", "unsafe"]);
    assert_eq!(row("PostgreSQL, no idle_session_timeout"), ["safe", "stalls", "stalls"]);
    assert!(out.contains("pause · lease-fenced: safe — Client A's late write was refused (token 33 < 34)."));
    let (code, out, _) = lockstep(&["run", "compare-pause-redis-incr"]);
    assert_eq!(code, 0);
    assert!(out.contains("token 1 < 2") && out.contains("verdict: SAFE"), "{out}");
    let (code, _, err) = lockstep(&["compare", "extra"]);
    assert_eq!((code, err.trim()), (2, "lockstep: compare takes no arguments (try --help)"));
}

#[test]
fn a_reader_that_stops_early_is_not_an_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_lockstep"))
        .args(["run", "stress-20000"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The reader goes away before the command writes.
    child.stdout = None;
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8(out.stderr).unwrap(), "");
}

#[test]
fn a_large_or_endless_file_is_refused_without_reading_it_whole() {
    let path = std::env::temp_dir().join("lockstep-cli-large.json");
    std::fs::write(&path, " ".repeat(3 << 20)).unwrap();
    let (code, _, err) = lockstep(&["run", path.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.ends_with("the file is over 1048576 bytes (1 MiB), the most a scenario may be\n"), "{err}");
    let (code, _, err) = lockstep(&["run", "/dev/zero"]);
    assert_eq!(code, 1);
    assert_eq!(err, "lockstep: /dev/zero: the file is over 1048576 bytes (1 MiB), the most a scenario may be\n");
    std::fs::write(&path, [0xff, 0xfe, b'{']).unwrap();
    let (_, _, err) = lockstep(&["run", path.to_str().unwrap()]);
    assert!(err.ends_with("the file is not UTF-8 text\n"), "{err}");
    std::fs::remove_file(path).unwrap();
}

#[test]
fn runs_an_edited_scenario_from_its_link_as_the_page_would() {
    use lockstep::edit::{self, link, Edit};
    use lockstep::scenario::{encode, json::Value};
    let lesson = lockstep::scenario::lessons::find("lease-race-unfenced").unwrap().scenario;
    let fenced =
        edit::apply(&lesson, &Edit::Set { path: "participants[2].mode".into(), value: Some(Value::String("fenced".into())) }).unwrap();
    let url = format!("http://127.0.0.1:8080/edit/#/edit/{}/12", link::encode(&encode::scenario(&fenced)).unwrap());
    let (code, out, err) = lockstep(&["run", &url]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("rejected") && out.contains("verdict: SAFE"), "{out}");
    let (code, _, err) = lockstep(&["run", "http://127.0.0.1:8080/#/edit/1.AB$C/0"]);
    assert_eq!((code, err.trim()), (1, "lockstep: link: the link has a character base64 does not use at position 5"));
}

#[test]
fn verify_proves_safe_finds_a_counterexample_or_says_the_bounds_are_too_large() {
    let (code, out, _) = lockstep(&["verify", "etcd-txn-guard", "--faults", "pause,partition", "--grid-ms", "400"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Safe for every schedule of ≤ 2 faults (pauses, partitions) on a 400 ms grid within 1,600 ms:"), "{out}");
    let dir = std::env::temp_dir().join(format!("lockstep-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("found.json");
    let (code, out, _) = lockstep(&["verify", "lease-race-unfenced", "--faults", "pause", "--out", file.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("Unsafe: Client A's write (token 41) was applied after Client B's (token 42)"), "{out}");
    assert!(out.contains("(no fault added: the scenario fails as it is)"), "{out}");
    let (code, run, _) = lockstep(&["run", file.to_str().unwrap()]);
    assert!(code == 0 && run.contains("verdict: UNSAFE"), "{run}");
    let (code, out, _) = lockstep(&["verify", "lease-race-fenced", "--faults", "pause", "--max-states", "50", "--format", "json"]);
    assert_eq!(code, 3, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["verdict"], "not_verified");
    assert!(v["sentence"].as_str().unwrap().starts_with("Not verified: the bounds are too large. 50 distinct states"), "{out}");
    let (code, _, err) = lockstep(&["verify", "lease-race-fenced", "--grid-ms", "soon"]);
    assert_eq!((code, err.trim()), (2, "lockstep: --grid-ms must be a whole number, got \"soon\" (try --help)"));
    let (code, _, err) = lockstep(&["verify", "lease-race-fenced", "--faults", "nap"]);
    assert!(code == 2 && err.contains("unknown fault kind \"nap\""), "{err}");
    let (code, _, err) = lockstep(&["verify", "lease-race-fenced", "--max-faults", "9"]);
    assert_eq!((code, err.trim()), (2, "lockstep: verify: max_faults: must be between 1 and 4, got 9 (try --help)"));
    let (code, _, err) = lockstep(&["verify", "lease-race-fenced", "--threads", "0"]);
    assert_eq!((code, err.trim()), (2, "lockstep: --threads must be 1 to 256, got 0 (try --help)"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn verify_says_the_same_on_one_thread_and_on_three() {
    let sentence = |threads: &str| {
        let (code, out, _) = lockstep(&["verify", "etcd-txn-guard", "--threads", threads, "--format", "json"]);
        assert_eq!(code, 0, "{out}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        (v["sentence"].as_str().unwrap_or_default().to_string(), v["states"].as_u64())
    };
    let one = sentence("1");
    assert!(one.0.starts_with("Safe for every schedule of ≤ 2 faults"), "{one:?}");
    assert_eq!(sentence("3"), one);
}
