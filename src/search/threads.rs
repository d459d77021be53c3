//! The search on every core, natively (where threads cannot start, on one): one thread draws
//! the schedules in the search's order, worker threads judge contiguous shares of each batch,
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
use std::thread::{self, JoinHandle};

/// A share of a batch, and whether to count every failure in it (else find the first).
struct Job {
    schedules: Vec<Vec<Added>>,
    count: bool,
}

/// What a worker found in its share: the first failure, or how many failed.
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
        let drawn = self.search.draw(n);
        let mut failing = None;
        self.share(&drawn, false, |start, answer| {
            if let (None, Answer::First(Some((i, f)))) = (&failing, answer) {
                failing = Some((start + i, f));
            }
        });
        self.search.settle(drawn, failing)
    }

    /// Runs the next `n` schedules on every thread without stopping at a failure; returns how
    /// many failed. (For measuring how fast schedules run.)
    pub fn sample(&mut self, n: usize) -> usize {
        let drawn = self.search.draw(n);
        let mut failed = 0;
        self.share(&drawn, true, |_, answer| {
            if let Answer::Count(k) = answer {
                failed += k;
            }
        });
        self.search.settle(drawn, None);
        failed
    }

    /// Judges `drawn` in contiguous shares, one per thread, and hands each share's answer to
    /// `take` with where the share starts, in the shares' order.
    fn share(&self, drawn: &[Vec<Added>], count: bool, mut take: impl FnMut(usize, Answer)) {
        let of = self.workers.len() + 1;
        let judge = |share: &[Vec<Added>]| answer(&self.search, share, count);
        let sent: Vec<bool> = (1..of)
            .map(|index| {
                let schedules = Share { index, of }.of_batch(drawn).to_vec();
                self.workers[index - 1].jobs.send(Job { schedules, count }).is_ok()
            })
            .collect();
        take(0, judge(Share { index: 0, of }.of_batch(drawn)));
        for index in 1..of {
            let share = Share { index, of };
            // A worker that died answers nothing: its share is judged here instead.
            let answer = sent[index - 1].then(|| self.workers[index - 1].answers.recv().ok()).flatten();
            take(share.range(drawn.len()).0, answer.unwrap_or_else(|| judge(share.of_batch(drawn))));
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
        for Job { schedules, count } in inbox {
            if outbox.send(answer(&search, &schedules, count)).is_err() {
                return;
            }
        }
    });
    Some(Worker { jobs, answers, handle: handle.ok()? })
}

/// Judges `schedules`: how many fail if `count`, else the first that fails.
fn answer(search: &Search, schedules: &[Vec<Added>], count: bool) -> Answer {
    match count {
        true => Answer::Count(search.count_failing(schedules)),
        false => Answer::First(search.first_failing(schedules)),
    }
}
