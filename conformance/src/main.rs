//! Replays every Redis, Redlock, PostgreSQL, etcd and ZooKeeper lesson on the real server and
//! compares what its clients heard with what the model's clients heard.
//!
//! `lockstep-conformance [LESSON…] [--markdown]` prints one row per lesson (lesson, system,
//! outcome in the model, outcome on the server, match) and exits 1 if any differs or fails.

mod compare;
mod etcd_service;
mod postgres_service;
mod proxy;
mod redis_service;
mod replay;
mod schedule;
mod servers;
mod zookeeper_service;

use lockstep::scenario::lessons;
use serde_json::Value;

/// One lesson's result.
struct Row {
    lesson: String,
    system: &'static str,
    model: String,
    server: String,
    verdict: Verdict,
}

enum Verdict {
    Match,
    Differs(String),
    Failed(String),
    Reasoned(String),
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let markdown = args.iter().any(|a| a == "--markdown");
    let wanted: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let mut rows = Vec::new();
    for lesson in lessons::all() {
        let doc: Value = serde_json::from_str(lesson.source).unwrap_or(Value::Null);
        let Some(system) = system(doc["lock"]["design"].as_str().unwrap_or("")) else { continue };
        if !wanted.is_empty() && !wanted.iter().any(|w| *w == lesson.id()) {
            continue;
        }
        eprintln!("replaying {} on {system}…", lesson.id());
        rows.push(replay(&lesson, &doc, system));
        print_row(rows.last().expect("just pushed"), markdown, rows.len() == 1);
    }
    let bad = rows.iter().filter(|r| matches!(r.verdict, Verdict::Differs(_) | Verdict::Failed(_))).count();
    let reasoned = rows.iter().filter(|r| matches!(r.verdict, Verdict::Reasoned(_))).count();
    println!(
        "\n{} lessons: {} match the real server, {bad} differ or failed, {reasoned} reasoned, not replayed",
        rows.len(),
        rows.len() - bad - reasoned
    );
    std::process::exit(i32::from(bad > 0));
}

/// The real system a design runs on, if the suite replays it.
fn system(design: &str) -> Option<&'static str> {
    match design {
        "redis" => Some("Redis"),
        "redlock" => Some("Redlock (5 Redis)"),
        "postgres" => Some("PostgreSQL"),
        "etcd" => Some("etcd"),
        "zookeeper" => Some("ZooKeeper"),
        _ => None,
    }
}

/// Runs one lesson in the model and on the real server.
fn replay(lesson: &lessons::Lesson, doc: &Value, system: &'static str) -> Row {
    let mut row = Row { lesson: lesson.id().to_string(), system, model: String::new(), server: String::new(), verdict: Verdict::Match };
    let trace = match lockstep::engine::run(&lesson.spec) {
        Ok(t) => t,
        Err(e) => {
            row.verdict = Verdict::Failed(format!("the model's run failed: {e:?}"));
            return row;
        }
    };
    let mut schedule = schedule::of(&trace);
    if doc["lock"]["design"] == "zookeeper" {
        // The client library sends its own heartbeats; their answers are not the lesson's.
        for replies in schedule.heard.values_mut() {
            replies.retain(|r| r["op"] != "pong");
        }
    }
    row.model = compare::summary(&schedule.heard);
    if let Some(why) = schedule.unreplayable {
        row.verdict = Verdict::Reasoned(why);
        return row;
    }
    let services: Vec<String> =
        trace.participants.iter().filter(|p| p.role == lockstep::engine::NodeKind::LockService).map(|p| p.key.clone()).collect();
    let lock = &doc["lock"];
    let ears = replay::Ears::new(schedule.heard.keys());
    let clients: Vec<String> = schedule.heard.keys().cloned().collect();
    let started: Result<(Box<dyn replay::Service>, u64), String> = match lock["design"].as_str().unwrap_or("") {
        "redis" | "redlock" => {
            let with_set = lock["incr_token"].as_bool() == Some(true) && lock["incr_separate"].as_bool() != Some(true);
            let lag = (services.len() == 2).then(|| lock["replication_lag_ms"].as_u64().unwrap_or(0));
            redis_service::Redis::start(&services, with_set, lag).map(|s| (Box::new(s) as Box<dyn replay::Service>, 1))
        }
        "postgres" => {
            let setup = postgres_service::Setup {
                idle_session_timeout_ms: lock["idle_session_timeout_ms"].as_u64(),
                transaction_level: lock["transaction_level"].as_bool() == Some(true),
            };
            postgres_service::Postgres::start(&clients, setup, &ears).map(|s| (Box::new(s) as Box<dyn replay::Service>, 1))
        }
        "etcd" => etcd_service::Etcd::start(lock["ttl_ms"].as_u64().unwrap_or(1000))
            .map(|s| (Box::new(s) as Box<dyn replay::Service>, etcd_service::SCALE)),
        "zookeeper" => zookeeper_service::Zookeeper::start(
            &clients,
            lock["tick_time_ms"].as_u64().unwrap_or(100),
            lock["session_timeout_ms"].as_u64().unwrap_or(1000),
            lock["watch"].as_str() == Some("lock_node"),
            &ears,
        )
        .map(|s| (Box::new(s) as Box<dyn replay::Service>, zookeeper_service::SCALE)),
        other => Err(format!("no replay for {other} yet")),
    };
    let heard = started.and_then(|(mut service, scale)| replay::run(&schedule, service.as_mut(), scale, &ears));
    match heard {
        Ok(heard) => {
            row.server = compare::summary(&heard);
            if let Some(d) = compare::difference(&schedule.heard, &heard) {
                row.verdict = Verdict::Differs(d);
            }
        }
        Err(e) => row.verdict = Verdict::Failed(e),
    }
    row
}

fn print_row(row: &Row, markdown: bool, first: bool) {
    let verdict = match &row.verdict {
        Verdict::Match => "match".to_string(),
        Verdict::Differs(d) => format!("DIFFERS: {d}"),
        Verdict::Failed(e) => format!("FAILED: {e}"),
        Verdict::Reasoned(why) => format!("reasoned, not replayed: {why}"),
    };
    if markdown {
        if first {
            println!("| lesson | system | in the model | on the server | match |\n|---|---|---|---|---|");
        }
        println!("| {} | {} | {} | {} | {verdict} |", row.lesson, row.system, row.model, row.server);
    } else {
        println!("{:<28} {:<18} {verdict}\n    model:  {}\n    server: {}", row.lesson, row.system, row.model, row.server);
    }
}
