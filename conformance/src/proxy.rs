//! A TCP relay between a client (or a replica) and a server that the replay can stop and
//! delay: a stopped relay carries nothing either way (a paused process, or a partition), and a
//! delayed one hands the server's bytes on only after a lag (a replication link), losing what
//! it still holds if the server dies (as the primary's unsent stream dies with it).

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Whether the relay carries bytes now.
#[derive(Default)]
struct Gate {
    stopped: Mutex<bool>,
    changed: Condvar,
}

impl Gate {
    fn wait_open(&self) {
        let mut stopped = self.stopped.lock().unwrap_or_else(|e| e.into_inner());
        while *stopped {
            stopped = self.changed.wait(stopped).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// A relay listening on its own port.
pub struct Relay {
    pub port: u16,
    gate: Arc<Gate>,
}

impl Relay {
    /// Relays connections on a free port to `upstream`, holding the server's bytes for `lag`.
    pub fn start(upstream: u16, lag: Duration) -> Result<Relay, String> {
        let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("relay: {e}"))?;
        let port = listener.local_addr().map_err(|e| e.to_string())?.port();
        let gate = Arc::new(Gate::default());
        let g = gate.clone();
        thread::spawn(move || {
            for down in listener.incoming().flatten() {
                let Ok(up) = TcpStream::connect(("127.0.0.1", upstream)) else {
                    let _ = down.shutdown(Shutdown::Both);
                    continue;
                };
                let _ = (down.set_nodelay(true), up.set_nodelay(true));
                pump(&down, &up, g.clone(), Duration::ZERO);
                pump(&up, &down, g.clone(), lag);
            }
        });
        Ok(Relay { port, gate })
    }

    /// Stops carrying bytes (they wait in the relay) or carries them again.
    pub fn set_stopped(&self, stopped: bool) {
        *self.gate.stopped.lock().unwrap_or_else(|e| e.into_inner()) = stopped;
        self.gate.changed.notify_all();
    }
}

/// Chunks read and not yet written, each with when it may leave, and whether the side they
/// came from has closed.
type Chunks = (VecDeque<(Instant, Vec<u8>)>, bool);

/// What a pump holds, and a signal when more arrives.
#[derive(Default)]
struct Held {
    chunks: Mutex<Chunks>,
    arrived: Condvar,
}

/// Copies `from` to `to` on threads of its own, each chunk after `lag` and while the gate is
/// open; when `from` closes, a lagging relay drops what it still holds, and `to` is closed.
fn pump(from: &TcpStream, to: &TcpStream, gate: Arc<Gate>, lag: Duration) {
    let (Ok(mut from), Ok(mut to)) = (from.try_clone(), to.try_clone()) else { return };
    let held: Arc<Held> = Arc::default();
    let reader_held = held.clone();
    thread::spawn(move || {
        let mut buf = [0u8; 16 * 1024];
        loop {
            let n = from.read(&mut buf).unwrap_or(0);
            let mut q = reader_held.chunks.lock().unwrap_or_else(|e| e.into_inner());
            if n == 0 {
                if !lag.is_zero() {
                    q.0.clear();
                }
                q.1 = true;
                reader_held.arrived.notify_all();
                return;
            }
            q.0.push_back((Instant::now() + lag, buf[..n].to_vec()));
            reader_held.arrived.notify_all();
        }
    });
    thread::spawn(move || loop {
        let chunk = {
            let mut q = held.chunks.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if let Some(c) = q.0.pop_front() {
                    break Some(c);
                }
                if q.1 {
                    break None;
                }
                q = held.arrived.wait(q).unwrap_or_else(|e| e.into_inner());
            }
        };
        let Some((due, bytes)) = chunk else {
            let _ = to.shutdown(Shutdown::Both);
            return;
        };
        thread::sleep(due.saturating_duration_since(Instant::now()));
        gate.wait_open();
        if held.chunks.lock().unwrap_or_else(|e| e.into_inner()).1 && !lag.is_zero() {
            // The server died while this chunk was still held: it never leaves.
            let _ = to.shutdown(Shutdown::Both);
            return;
        }
        if to.write_all(&bytes).is_err() {
            return;
        }
    });
}
