//! Replays every Redis, Redlock, Redisson, PostgreSQL, etcd and ZooKeeper lesson on the real server and
//! compares what its clients heard with what the model's clients heard. For a design whose
//! server these machines cannot install (Kubernetes, Kafka, Consul, Chubby, DynamoDB, Hazelcast,
//! S3), each lesson's row says why it is not replayed.
//!
//! `lockstep-conformance [LESSON…] [--markdown]` prints one row per lesson (lesson, system,
//! outcome in the model, outcome on the server, match) and exits 1 if any differs or fails. A
//! lesson that differs is replayed once more, since a real server's timing can race where the
//! model's cannot; it counts as a match only if the second replay matches, and its row says how
//! the first differed.

mod compare;
mod etcd_service;
mod postgres_service;
mod proxy;
mod redis_service;
mod replay;
mod schedule;
mod servers;
mod zookeeper_service;

use lockstep::design::chubby::Chubby;
use lockstep::design::consul::Consul;
use lockstep::design::consumer_group::ConsumerGroup;
use lockstep::design::dynamodb::DynamoDb;
use lockstep::design::etcd::{Etcd, EtcdSettings};
use lockstep::design::hazelcast::Hazelcast;
use lockstep::design::kubernetes::Kubernetes;
use lockstep::design::postgres::{Postgres, PostgresSettings};
use lockstep::design::redis::{Redis, RedisSettings};
use lockstep::design::redisson::{Redisson, RedissonSettings};
use lockstep::design::redlock::Redlock;
use lockstep::design::s3::S3;
use lockstep::design::zookeeper::{Watch, ZkMsg, Zookeeper, ZookeeperSettings};
use lockstep::design::{Kind, Settings, Values};
use lockstep::scenario::lessons;
use replay::{Ears, Service};

/// One lesson's result.
struct Row {
    lesson: String,
    system: &'static str,
    model: String,
    server: String,
    verdict: Verdict,
    /// What the replay left out of the lesson's schedule, and why.
    left_out: Option<String>,
    /// How a first replay differed, when only a second one matched.
    first_differed: Option<String>,
}

enum Verdict {
    Match,
    Differs(String),
    Failed(String),
    Reasoned(String),
}

/// What a system's server is started with: the lesson's lock-service nodes and clients by key,
/// the design's parameter values, and what the clients hear.
struct Setup<'a> {
    services: &'a [String],
    clients: &'a [String],
    values: &'a Values,
    ears: &'a Ears,
}

/// A started service, and by how much the lesson's times are stretched on it.
type Started = Result<(Box<dyn Service>, u64), String>;

/// A real system the suite replays a design's lessons on, or says why it cannot.
struct System {
    /// The design's registry entry.
    design: &'static dyn Kind,
    name: &'static str,
    /// Starts its server(s); or why no server can be had on these machines.
    start: Result<fn(&Setup) -> Started, &'static str>,
    /// Whether its client library sends heartbeats of its own, whose answers are not the lesson's.
    heartbeats: bool,
}

/// The systems, by design. A design's parameters are read from its own declarations.
const SYSTEMS: &[System] = &[
    System { design: &Redis, name: "Redis", start: Ok(redis), heartbeats: false },
    System { design: &Redlock, name: "Redlock (5 Redis)", start: Ok(redlock), heartbeats: false },
    System { design: &Redisson, name: "Redis, Redisson's scripts", start: Ok(redisson), heartbeats: false },
    System { design: &Postgres, name: "PostgreSQL", start: Ok(postgres), heartbeats: false },
    System { design: &Etcd, name: "etcd", start: Ok(etcd), heartbeats: false },
    System { design: &Zookeeper, name: "ZooKeeper", start: Ok(zookeeper), heartbeats: true },
    System {
        design: &Kubernetes,
        name: "Kubernetes",
        start: Err("no package registry these machines reach ships a Kubernetes API server"),
        heartbeats: false,
    },
    System { design: &ConsumerGroup, name: "Kafka", start: Err("no package registry these machines reach ships Kafka"), heartbeats: false },
    System {
        design: &Consul,
        name: "Consul",
        start: Err("Consul ships as HashiCorp's own binary; the registries these machines reach have only client libraries"),
        heartbeats: false,
    },
    System {
        design: &Chubby,
        name: "Chubby",
        start: Err("Chubby is Google's internal service; the lesson follows Burrows, OSDI 2006"),
        heartbeats: false,
    },
    System {
        design: &DynamoDb,
        name: "DynamoDB",
        start: Err("DynamoDB is an AWS service, and DynamoDB Local is a download from AWS, not a registry package"),
        heartbeats: false,
    },
    System {
        design: &Hazelcast,
        name: "Hazelcast",
        start: Err("Hazelcast's server is a Java package on Maven Central, which these machines cannot reach"),
        heartbeats: false,
    },
    System {
        design: &S3,
        name: "S3",
        start: Err("S3 is an AWS service; no registry these machines reach ships an S3-compatible server with conditional writes"),
        heartbeats: false,
    },
];

fn redis(s: &Setup) -> Started {
    let settings = RedisSettings::from_values(s.values);
    let with_set = settings.incr_token && !settings.incr_separate;
    let lags = [settings.replication_lag_ms, settings.second_replica_lag_ms];
    let replicas = s.services.len().saturating_sub(1).min(lags.len());
    let sync_delay_ms = settings.repl_diskless_sync_delay_ms;
    let scripts = redis_service::Scripts::Docs { incr_with_set: with_set };
    Ok((Box::new(redis_service::RedisService::start(s.services, scripts, &lags[..replicas], sync_delay_ms)?), 1))
}

/// Redisson's scripts on Redis, with at most one replica; a promoted replica resyncs at once, as
/// the model's does.
fn redisson(s: &Setup) -> Started {
    let settings = RedissonSettings::from_values(s.values);
    let lags = [settings.replication_lag_ms];
    let replicas = s.services.len().saturating_sub(1).min(lags.len());
    let scripts = redis_service::Scripts::Redisson { fenced: settings.fenced };
    Ok((Box::new(redis_service::RedisService::start(s.services, scripts, &lags[..replicas], 0)?), 1))
}

/// Redlock's masters are independent Redis servers, with no token, replica or lag.
fn redlock(s: &Setup) -> Started {
    Ok((Box::new(redis_service::RedisService::start(s.services, redis_service::Scripts::Docs { incr_with_set: false }, &[], 0)?), 1))
}

fn postgres(s: &Setup) -> Started {
    let settings = PostgresSettings::from_values(s.values);
    let setup = postgres_service::Setup {
        idle_session_timeout_ms: settings.idle_session_timeout_ms,
        idle_in_transaction_session_timeout_ms: settings.idle_in_transaction_session_timeout_ms,
        transaction_level: settings.transaction_level,
        pgbouncer_pool_size: settings.pgbouncer_pool_size,
    };
    Ok((Box::new(postgres_service::PostgresService::start(s.clients, setup, s.ears)?), 1))
}

fn etcd(s: &Setup) -> Started {
    let settings = EtcdSettings::from_values(s.values);
    Ok((Box::new(etcd_service::EtcdService::start(settings.ttl_ms)?), etcd_service::SCALE))
}

fn zookeeper(s: &Setup) -> Started {
    let settings = ZookeeperSettings::from_values(s.values);
    let (tick_ms, session_ms) = (settings.tick_time_ms, settings.session_timeout_ms);
    let herd = settings.watch == Watch::LockNode;
    Ok((Box::new(zookeeper_service::ZookeeperService::start(s.clients, tick_ms, session_ms, herd, s.ears)?), zookeeper_service::SCALE))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let markdown = args.iter().any(|a| a == "--markdown");
    let wanted: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let mut rows = Vec::new();
    for lesson in lessons::all() {
        let Some(system) = SYSTEMS.iter().find(|s| s.design.tag() == lesson.scenario.lock.kind.tag()) else { continue };
        if !wanted.is_empty() && !wanted.iter().any(|w| *w == lesson.id()) {
            continue;
        }
        if system.start.is_ok() {
            eprintln!("replaying {} on {}…", lesson.id(), system.name);
        }
        let mut row = replay(&lesson, system);
        // A real server's timing can race where the model's cannot (a request sent 20 ms after
        // another reaching the server first on a busy machine): a lesson that differs is replayed
        // once more, and a match then is shown with how the first replay differed.
        if let Verdict::Differs(first) = &row.verdict {
            eprintln!("{} differed ({first}); replaying it once more…", lesson.id());
            let again = replay(&lesson, system);
            if matches!(again.verdict, Verdict::Match) {
                row = Row { first_differed: Some(first.clone()), ..again };
            }
        }
        rows.push(row);
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

/// Runs one lesson in the model and on the real server.
fn replay(lesson: &lessons::Lesson, system: &System) -> Row {
    let mut row = Row {
        lesson: lesson.id().to_string(),
        system: system.name,
        model: String::new(),
        server: String::new(),
        verdict: Verdict::Match,
        left_out: None,
        first_differed: None,
    };
    let trace = match lockstep::engine::run(&lesson.spec) {
        Ok(t) => t,
        Err(e) => {
            row.verdict = Verdict::Failed(format!("the model's run failed: {e:?}"));
            return row;
        }
    };
    let mut schedule = schedule::of(&trace);
    if system.heartbeats {
        for replies in schedule.heard.values_mut() {
            replies.retain(|r| *r != schedule::reply(ZkMsg::Pong));
        }
    }
    row.model = compare::summary(&schedule.heard);
    let start = match system.start {
        Ok(start) => start,
        Err(why) => {
            row.verdict = Verdict::Reasoned(why.into());
            return row;
        }
    };
    if let Some(why) = schedule.unreplayable {
        row.verdict = Verdict::Reasoned(why);
        return row;
    }
    row.left_out = schedule.left_out.take();
    let services: Vec<String> =
        trace.participants.iter().filter(|p| p.role == lockstep::engine::NodeKind::LockService).map(|p| p.key.clone()).collect();
    let ears = Ears::new(schedule.heard.keys());
    let clients: Vec<String> = schedule.heard.keys().cloned().collect();
    let setup = Setup { services: &services, clients: &clients, values: &lesson.scenario.lock.values, ears: &ears };
    let heard = start(&setup).and_then(|(mut service, scale)| replay::run(&schedule, service.as_mut(), scale, &ears));
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
        Verdict::Match => {
            let again = row.first_differed.as_ref().map_or(String::new(), |d| format!(" on a second replay (the first differed: {d})"));
            match &row.left_out {
                Some(what) => format!("match{again}, with this left out: {what}"),
                None => format!("match{again}"),
            }
        }
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
