//! The search on every core, natively (where threads cannot start, on one): one thread draws
//! the schedules in the search's order, worker threads judge their shares of each batch,
//! and the first failure in that order is the one kept, so the result is the one-thread
//! search's, schedule for schedule.
//!
//! A compiled scenario shares its design through `Rc`, which stays on its thread: each worker
//! builds its own search from the scenario's file text.

use super::fault::Added;
use super::judge::Failure;
use super::runner::{Search, Share, State};
use super::space::Bounds;
use crate::error::ScenarioError;
use crate::scenario::format::Scenario;
use crate::scenario::{encode, json, validate};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::thread::{self, JoinHandle};

/// A batch, the share of it to judge, and whether to count every failure in it (else find the
/// first).
struct Job {
    batch: Arc<Vec<Vec<Added>>>,
    share: Share,
    count: bool,
}

/// What a worker found in its share: the first failure, by its place in the batch, or how many
/// failed.
enum Answer {
    First(Option<(usize, Failure)>),
    Count(usize),
}

/// A worker thread: it takes a share of a batch and answers for it.
struct Worker {
    jobs: Sender<Job>,
    answers: Receiver<Answer>,
    handle: JoinHandle<()>,
}

/// A search whose schedules are judged on several threads.
pub struct Threaded {
    search: Search,
    workers: Vec<Worker>,
}

impl Threaded {
    /// Prepares a search of `base` within `bounds` judged on `threads` threads (1: all on this one).
    pub fn new(base: &Scenario, bounds: Bounds, threads: usize) -> Result<Threaded, ScenarioError> {
        let search = Search::new(base, bounds.clone())?;
        let text = json::write(&encode::scenario(base), None);
        // Where threads cannot be started (the browser's wasm), there are no workers.
        let workers = (1..threads.max(1)).filter_map(|_| spawn(text.clone(), bounds.clone())).collect();
        Ok(Threaded { search, workers })
    }

    /// Runs up to `n` more schedules, shared among the threads; returns where the search stands.
    pub fn step(&mut self, n: usize) -> &State {
        let drawn = Arc::new(self.search.draw(n));
        let mut failing: Option<(usize, Failure)> = None;
        self.share(&drawn, false, |answer| {
            if let Answer::First(Some((i, f))) = answer {
                if failing.as_ref().is_none_or(|(first, _)| i < *first) {
                    failing = Some((i, f));
                }
            }
        });
        self.search.settle(&drawn, failing)
    }

    /// Runs the next `n` schedules on every thread without stopping at a failure; returns how
    /// many failed. (For measuring how fast schedules run.)
    pub fn sample(&mut self, n: usize) -> usize {
        let drawn = Arc::new(self.search.draw(n));
        let mut failed = 0;
        self.share(&drawn, true, |answer| {
            if let Answer::Count(k) = answer {
                failed += k;
            }
        });
        self.search.settle(&drawn, None);
        failed
    }

    /// Judges `drawn` in shares, one per thread, and hands each share's answer to `take`.
    fn share(&self, drawn: &Arc<Vec<Vec<Added>>>, count: bool, mut take: impl FnMut(Answer)) {
        let of = self.workers.len() + 1;
        let sent: Vec<bool> = (1..of)
            .map(|index| self.workers[index - 1].jobs.send(Job { batch: drawn.clone(), share: Share { index, of }, count }).is_ok())
            .collect();
        take(answer(&self.search, drawn, Share { index: 0, of }, count));
        for index in 1..of {
            // A worker that died answers nothing: its share is judged here instead.
            let answer_of = || answer(&self.search, drawn, Share { index, of }, count);
            take(sent[index - 1].then(|| self.workers[index - 1].answers.recv().ok()).flatten().unwrap_or_else(answer_of));
        }
    }

    /// The search itself: what it tried and searched.
    pub fn search(&self) -> &Search {
        &self.search
    }
}

impl Drop for Threaded {
    /// Ends each worker (its queue of jobs closes) and waits for it.
    fn drop(&mut self) {
        for Worker { jobs, answers, handle } in self.workers.drain(..) {
            drop((jobs, answers));
            let _ = handle.join();
        }
    }
}

/// Starts a worker that judges shares of batches for a search of the scenario written as `text`.
fn spawn(text: String, bounds: Bounds) -> Option<Worker> {
    let (jobs, inbox) = channel::<Job>();
    let (outbox, answers) = channel();
    let handle = thread::Builder::new().spawn(move || {
        let Ok(search) = validate::parse(&text).and_then(|s| Search::new(&s, bounds)) else { return };
        for Job { batch, share, count } in inbox {
            if outbox.send(answer(&search, &batch, share, count)).is_err() {
                return;
            }
        }
    });
    Some(Worker { jobs, answers, handle: handle.ok()? })
}

/// Judges this share of `batch`: how many fail if `count`, else the first that fails.
fn answer(search: &Search, batch: &[Vec<Added>], share: Share, count: bool) -> Answer {
    match count {
        true => Answer::Count(search.count_failing(batch, share)),
        false => Answer::First(search.first_failing(batch, share)),
    }
}
