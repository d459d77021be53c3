//! PostgreSQL advisory locks on a real server: each client a connection of its own on a thread of
//! its own (a blocking `pg_advisory_lock` holds up that client only), straight to the server or
//! through PgBouncer in transaction pooling mode, `idle_session_timeout` and
//! `idle_in_transaction_session_timeout` set as the lesson gives them, and the protected rows in a table when the lesson keeps them in
//! the same database.

use crate::replay::{error, Ears, Request, Service};
use crate::schedule;
use crate::servers::{self, Server};
use lockstep::design::pg_wire::PgMsg;
use lockstep::engine::msg::{Msg, Rejection};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::mpsc;

/// The advisory lock key the lessons use.
const KEY: i64 = 42;

/// How the lesson's lock is set up.
#[derive(Clone, Copy)]
pub struct Setup {
    pub idle_session_timeout_ms: Option<u64>,
    pub idle_in_transaction_session_timeout_ms: Option<u64>,
    pub transaction_level: bool,
    /// Server connections behind a transaction-pooling PgBouncer, if the clients go through one.
    pub pgbouncer_pool_size: Option<u64>,
}

/// A client's session, run by its own thread.
struct Session {
    requests: mpsc::Sender<Request<PgMsg>>,
}

/// The real server behind a PostgreSQL lesson.
pub struct PostgresService {
    sessions: BTreeMap<String, Session>,
    /// Stopped when the replay is done with them: the pooler first, then the server.
    _servers: (Option<Server>, Server),
}

impl PostgresService {
    /// Starts the server, makes the protected table, and opens one session per client.
    pub fn start(clients: &[String], setup: Setup, ears: &Ears) -> Result<PostgresService, String> {
        let server = servers::postgres()?;
        let url = format!("host=127.0.0.1 port={} user=postgres", server.port);
        let mut admin = postgres::Client::connect(&url, postgres::NoTls).map_err(|e| e.to_string())?;
        admin
            .batch_execute("CREATE TABLE rows (id int PRIMARY KEY, value text); INSERT INTO rows VALUES (1, '')")
            .map_err(|e| e.to_string())?;
        let pooler = setup.pgbouncer_pool_size.map(|n| servers::pgbouncer(server.port, n)).transpose()?;
        let url = match &pooler {
            Some(p) => format!("host=127.0.0.1 port={} user=postgres dbname=postgres", p.port),
            None => url,
        };
        let mut sessions = BTreeMap::new();
        for client in clients {
            let mut conn = postgres::Client::connect(&url, postgres::NoTls).map_err(|e| e.to_string())?;
            let (idle, in_transaction) =
                (setup.idle_session_timeout_ms.unwrap_or(0), setup.idle_in_transaction_session_timeout_ms.unwrap_or(0));
            // Both are off by default; a SET behind a pooler would change a shared server session.
            if idle > 0 || in_transaction > 0 {
                conn.batch_execute(&format!(
                    "SET idle_session_timeout = {idle}; SET idle_in_transaction_session_timeout = {in_transaction}"
                ))
                .map_err(|e| e.to_string())?;
            }
            let (requests, inbox) = mpsc::channel::<Request<PgMsg>>();
            let (name, ears) = (client.clone(), ears.clone());
            std::thread::spawn(move || {
                let mut in_transaction = false;
                for msg in inbox {
                    let reply = answer(&mut conn, &msg, setup.transaction_level, &mut in_transaction, &|v| ears.hear(&name, v));
                    ears.hear(&name, reply);
                }
            });
            sessions.insert(client.clone(), Session { requests });
        }
        Ok(PostgresService { sessions, _servers: (pooler, server) })
    }
}

/// Runs one request on a session and returns the reply (telling `hear` first if the lock is
/// busy and the request waits).
fn answer(conn: &mut postgres::Client, request: &Request<PgMsg>, xact: bool, in_transaction: &mut bool, hear: &dyn Fn(Value)) -> Value {
    let result = match request {
        Request::Lock(PgMsg::Lock) => (|| {
            if xact && !*in_transaction {
                conn.batch_execute("BEGIN")?;
                *in_transaction = true;
            }
            let (try_lock, lock) = if xact {
                ("SELECT pg_try_advisory_xact_lock($1)", "SELECT pg_advisory_xact_lock($1)")
            } else {
                ("SELECT pg_try_advisory_lock($1)", "SELECT pg_advisory_lock($1)")
            };
            if !yes(conn, try_lock)? {
                hear(schedule::reply(PgMsg::Waiting));
                conn.batch_execute(&lock.replace("$1", &KEY.to_string()))?;
            }
            Ok(PgMsg::Locked)
        })(),
        Request::Lock(PgMsg::KeepAlive) => conn.batch_execute("SELECT 1").map(|_| PgMsg::Alive),
        Request::Lock(PgMsg::Unlock) => yes(conn, "SELECT pg_advisory_unlock($1)").map(|done| PgMsg::Unlocked { done, commit: false }),
        Request::Lock(PgMsg::Commit) => {
            *in_transaction = false;
            conn.batch_execute("COMMIT").map(|_| PgMsg::Unlocked { done: true, commit: true })
        }
        Request::Write { value } => {
            return match conn.execute("UPDATE rows SET value = $1 WHERE id = 1", &[value]) {
                Ok(_) => schedule::message(&Msg::WriteAccepted { version: 0 }),
                Err(e) if session_gone(conn, &e) => schedule::message(&Msg::WriteRejected { reason: Rejection::Guard { token: 0 } }),
                Err(e) => error(e.to_string()),
            };
        }
        Request::Lock(other) => return error(format!("no statement for {other:?}")),
    };
    match result {
        Ok(reply) => schedule::reply(reply),
        Err(e) if session_gone(conn, &e) => schedule::reply(PgMsg::SessionEnded),
        Err(e) => error(e.to_string()),
    }
}

/// Runs a one-row, one-boolean query on `KEY` as a simple query (no prepared statement, which a
/// transaction pooler could split across server connections) and returns its answer.
fn yes(conn: &mut postgres::Client, sql: &str) -> Result<bool, postgres::Error> {
    let rows = conn.simple_query(&sql.replace("$1", &KEY.to_string()))?;
    Ok(rows.iter().any(|m| matches!(m, postgres::SimpleQueryMessage::Row(r) if r.get(0) == Some("t"))))
}

/// Whether an error means the server ended the session (a FATAL error, or a closed connection).
fn session_gone(conn: &postgres::Client, e: &postgres::Error) -> bool {
    conn.is_closed() || e.is_closed() || e.as_db_error().is_some_and(|d| d.severity() == "FATAL")
}

impl Service for PostgresService {
    fn request(&mut self, client: &str, _node: &str, msg: &Msg, _ears: &Ears) -> Result<(), String> {
        let session = self.sessions.get(client).ok_or_else(|| format!("no session for {client}"))?;
        session.requests.send(Request::of(msg)?).map_err(|_| format!("{client}'s session thread has stopped"))
    }

    fn finish(&mut self) {
        // A session still waiting on the lock (its holder never let go) ends when the server
        // stops, as the service is dropped; its thread is left to notice.
        self.sessions.clear();
    }
}
