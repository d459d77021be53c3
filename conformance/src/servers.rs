//! Real servers from Debian's packages, each started on 127.0.0.1 with a free port and a
//! throwaway data directory, and stopped (its directory removed) when dropped, also when a
//! replay fails or panics.

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How every scratch directory of a run is named; `scripts/conformance` removes what a killed
/// run leaves behind.
pub const SCRATCH_PREFIX: &str = "lockstep-conformance";

/// A running server.
pub struct Server {
    pub name: &'static str,
    pub port: u16,
    child: Child,
    dir: PathBuf,
    /// The server's own PID when it is not the child (PostgreSQL runs under `runuser`).
    pid_file: Option<PathBuf>,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(pid) = self.pid_file.as_ref().and_then(|f| std::fs::read_to_string(f).ok()) {
            if let Some(pid) = pid.lines().next() {
                let _ = Command::new("kill").args(["-QUIT", pid.trim()]).status();
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Server {
    /// Steps the server's wall clock by `by_ms` (a Redis server, started with the wall-clock
    /// shim); its monotonic clock goes on as it was.
    pub fn step_wall_clock(&self, by_ms: i64) -> Result<(), String> {
        let file = self.dir.join(WALL_STEP_FILE);
        let stepped: i64 = std::fs::read_to_string(&file).ok().and_then(|s| s.trim().parse().ok()).unwrap_or(0);
        std::fs::write(&file, (stepped + by_ms).to_string()).map_err(|e| format!("cannot step {}'s clock: {e}", self.name))
    }

    /// Kills the server at once, as a crash does (its data directory stays for a restart).
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Returns a port nothing listens on now.
pub fn free_port() -> Result<u16, String> {
    let l = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("no free port: {e}"))?;
    l.local_addr().map(|a| a.port()).map_err(|e| e.to_string())
}

/// Makes a fresh scratch directory.
fn scratch(name: &str) -> Result<PathBuf, String> {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("{SCRATCH_PREFIX}-{}-{name}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    Ok(dir)
}

/// Starts a program quietly, its output in a log file in `dir`.
fn spawn(cmd: &mut Command, dir: &Path) -> Result<Child, String> {
    let log = std::fs::File::create(dir.join("server.log")).map_err(|e| e.to_string())?;
    let err = log.try_clone().map_err(|e| e.to_string())?;
    cmd.stdin(Stdio::null()).stdout(log).stderr(err);
    let child = cmd.spawn().map_err(|e| format!("cannot start {:?}: {e}", cmd.get_program()))?;
    // `scripts/conformance` stops what a killed run leaves behind by this file.
    let _ = std::fs::write(dir.join("server.pid"), child.id().to_string());
    Ok(child)
}

/// Waits until `ready` says yes, up to `limit`, or says what the server logged.
fn wait(server: &mut Server, limit: Duration, ready: impl Fn(u16) -> bool) -> Result<(), String> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Ok(Some(status)) = server.child.try_wait() {
            return Err(format!("{} exited ({status}): {}", server.name, tail(&server.dir)));
        }
        if TcpStream::connect(("127.0.0.1", server.port)).is_ok() && ready(server.port) {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Err(format!("{} did not accept connections within {limit:?}: {}", server.name, tail(&server.dir)))
}

/// The last lines of a server's log.
fn tail(dir: &Path) -> String {
    let log = std::fs::read_to_string(dir.join("server.log")).unwrap_or_default();
    let lines: Vec<&str> = log.lines().collect();
    lines[lines.len().saturating_sub(5)..].join(" / ")
}

/// The file in a server's directory that holds how far its wall clock is stepped, in ms.
const WALL_STEP_FILE: &str = "wall-step";

/// Builds the wall-clock shim (`wallclock.c`) once per run with the system's C compiler (the
/// one Rust links with), and returns the library's path.
fn wall_clock_shim() -> Result<&'static Path, String> {
    static SHIM: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let built = SHIM.get_or_init(|| {
        let dir = scratch("wallclock")?;
        let (source, library) = (dir.join("wallclock.c"), dir.join("wallclock.so"));
        std::fs::write(&source, include_str!("wallclock.c")).map_err(|e| e.to_string())?;
        let out = Command::new("cc")
            .args(["-shared", "-fPIC", "-O2", "-o"])
            .arg(&library)
            .arg(&source)
            .output()
            .map_err(|e| format!("cannot run cc to build the wall-clock shim: {e}"))?;
        if !out.status.success() {
            return Err(format!("cc could not build the wall-clock shim: {}", String::from_utf8_lossy(&out.stderr)));
        }
        Ok(library)
    });
    built.as_deref().map_err(Clone::clone)
}

/// Starts `redis-server` with no persistence (a restart loses every key), optionally as a
/// replica of the server on `primary_port`. Its wall clock can be stepped
/// ([`Server::step_wall_clock`]): Redis expires keys by it.
pub fn redis(port: u16, primary_port: Option<u16>, sync_delay_s: u64) -> Result<Server, String> {
    let dir = scratch("redis")?;
    std::fs::write(dir.join(WALL_STEP_FILE), "0").map_err(|e| e.to_string())?;
    let mut cmd = Command::new("redis-server");
    cmd.env("LD_PRELOAD", wall_clock_shim()?).env("LOCKSTEP_WALL_STEP_FILE", dir.join(WALL_STEP_FILE));
    cmd.args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
        .args(["--protected-mode", "no", "--repl-diskless-sync-delay", &sync_delay_s.to_string(), "--dir"])
        .arg(&dir);
    if let Some(p) = primary_port {
        cmd.args(["--replicaof", "127.0.0.1", &p.to_string()]);
    }
    let child = spawn(&mut cmd, &dir)?;
    let mut server = Server { name: "redis-server", port, child, dir, pid_file: None };
    wait(&mut server, Duration::from_secs(10), |port| {
        redis::Client::open(format!("redis://127.0.0.1:{port}/"))
            .and_then(|c| c.get_connection())
            .and_then(|mut c| redis::cmd("PING").query::<String>(&mut c))
            .is_ok()
    })?;
    Ok(server)
}

/// Starts PostgreSQL in a fresh cluster (as the `postgres` user when run as root, since the
/// server refuses to run as root), trusting local connections.
pub fn postgres() -> Result<Server, String> {
    let bin = postgres_bin()?;
    let dir = scratch("postgres")?;
    let data = dir.join("data");
    let as_postgres = |program: &Path| as_postgres_user(program, &dir);
    hand_to_postgres(&dir)?;
    let init = as_postgres(&bin.join("initdb"))
        .args(["--auth=trust", "-U", "postgres", "-D"])
        .arg(&data)
        .output()
        .map_err(|e| format!("cannot run initdb: {e}"))?;
    if !init.status.success() {
        return Err(format!("initdb failed: {}", String::from_utf8_lossy(&init.stderr)));
    }
    let port = free_port()?;
    let mut cmd = as_postgres(&bin.join("postgres"));
    cmd.arg("-D").arg(&data).arg("-k").arg(&dir).args(["-p", &port.to_string(), "-c", "listen_addresses=127.0.0.1"]);
    let child = spawn(&mut cmd, &dir)?;
    let pid_file = Some(data.join("postmaster.pid"));
    let mut server = Server { name: "postgres", port, child, dir, pid_file };
    wait(&mut server, Duration::from_secs(30), |port| {
        postgres::Client::connect(&format!("host=127.0.0.1 port={port} user=postgres"), postgres::NoTls).is_ok()
    })?;
    Ok(server)
}

/// A command that runs `program` in `dir`, as the `postgres` user when run as root (PostgreSQL
/// and PgBouncer refuse to run as root).
fn as_postgres_user(program: &Path, dir: &Path) -> Command {
    let mut cmd = if is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    };
    cmd.current_dir(dir);
    cmd
}

/// Gives the scratch directory to the `postgres` user when run as root.
fn hand_to_postgres(dir: &Path) -> Result<(), String> {
    if is_root() && !Command::new("chown").args(["-R", "postgres:postgres"]).arg(dir).status().is_ok_and(|s| s.success()) {
        return Err("cannot hand the scratch directory to the postgres user".into());
    }
    Ok(())
}

/// Starts PgBouncer in front of the PostgreSQL on `pg_port`, in transaction pooling mode with
/// `pool_size` server connections reused most recently used first (its defaults otherwise).
pub fn pgbouncer(pg_port: u16, pool_size: u64) -> Result<Server, String> {
    let dir = scratch("pgbouncer")?;
    let port = free_port()?;
    let ini = format!(
        "[databases]\n* = host=127.0.0.1 port={pg_port}\n[pgbouncer]\nlisten_addr = 127.0.0.1\nlisten_port = {port}\n\
         unix_socket_dir =\nauth_type = trust\nauth_file = {users}\npool_mode = transaction\n\
         default_pool_size = {pool_size}\nserver_round_robin = 0\nmax_client_conn = 100\n\
         ignore_startup_parameters = extra_float_digits,timezone,client_encoding,datestyle\n",
        users = dir.join("users.txt").display()
    );
    std::fs::write(dir.join("pgbouncer.ini"), ini).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("users.txt"), "\"postgres\" \"\"\n").map_err(|e| e.to_string())?;
    hand_to_postgres(&dir)?;
    let mut cmd = as_postgres_user(Path::new("/usr/sbin/pgbouncer"), &dir);
    cmd.arg(dir.join("pgbouncer.ini"));
    let child = spawn(&mut cmd, &dir)?;
    let mut server = Server { name: "pgbouncer", port, child, dir, pid_file: None };
    wait(&mut server, Duration::from_secs(10), |port| {
        postgres::Client::connect(&format!("host=127.0.0.1 port={port} user=postgres dbname=postgres"), postgres::NoTls).is_ok()
    })?;
    Ok(server)
}

/// Finds the newest installed PostgreSQL's programs.
fn postgres_bin() -> Result<PathBuf, String> {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map_err(|_| "PostgreSQL is not installed (/usr/lib/postgresql is missing)".to_string())?
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|p| p.join("postgres").exists())
        .collect();
    versions.sort();
    versions.pop().ok_or_else(|| "no PostgreSQL server under /usr/lib/postgresql".into())
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0\n"))
}

/// Starts a single-member etcd.
pub fn etcd() -> Result<Server, String> {
    let dir = scratch("etcd")?;
    let (port, peer) = (free_port()?, free_port()?);
    let client_url = format!("http://127.0.0.1:{port}");
    let peer_url = format!("http://127.0.0.1:{peer}");
    let mut cmd = Command::new("etcd");
    cmd.args(["--name", "lockstep", "--data-dir"])
        .arg(dir.join("data"))
        .args(["--listen-client-urls", &client_url, "--advertise-client-urls", &client_url])
        .args(["--listen-peer-urls", &peer_url, "--initial-advertise-peer-urls", &peer_url])
        .args(["--initial-cluster", &format!("lockstep={peer_url}")]);
    let child = spawn(&mut cmd, &dir)?;
    let mut server = Server { name: "etcd", port, child, dir, pid_file: None };
    wait(&mut server, Duration::from_secs(20), |_| true)?;
    Ok(server)
}

/// Starts a standalone ZooKeeper with the given tick.
pub fn zookeeper(tick_ms: u64) -> Result<Server, String> {
    let dir = scratch("zookeeper")?;
    let port = free_port()?;
    let cfg = format!(
        "tickTime={tick_ms}\ndataDir={}\nclientPort={port}\nclientPortAddress=127.0.0.1\nadmin.enableServer=false\n",
        dir.join("data").display()
    );
    std::fs::write(dir.join("zoo.cfg"), cfg).map_err(|e| e.to_string())?;
    let mut cmd = Command::new("java");
    cmd.arg("-cp")
        .arg(format!("{}:/usr/share/java/zookeeper.jar", dir.display()))
        .args(["-Dzookeeper.admin.enableServer=false", "org.apache.zookeeper.server.quorum.QuorumPeerMain"])
        .arg(dir.join("zoo.cfg"));
    let child = spawn(&mut cmd, &dir)?;
    let mut server = Server { name: "zookeeper", port, child, dir, pid_file: None };
    wait(&mut server, Duration::from_secs(60), zk_answers)?;
    Ok(server)
}

/// Whether ZooKeeper answers a session request (a connect handshake, not a four-letter word,
/// which the server may not allow).
fn zk_answers(port: u16) -> bool {
    let Ok(rt) = tokio::runtime::Builder::new_current_thread().enable_all().build() else { return false };
    rt.block_on(async {
        let cluster = format!("127.0.0.1:{port}");
        let connect = zookeeper_client::Client::connector().with_session_timeout(Duration::from_secs(2)).connect(&cluster);
        matches!(tokio::time::timeout(Duration::from_secs(3), connect).await, Ok(Ok(_)))
    })
}
