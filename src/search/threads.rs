//! The search on every core, natively (where threads cannot start, on one): one thread draws
//! the schedules in the search's order, and every thread takes chunks of each batch in turn
//! until none is left, so threads that start late or draw slow schedules share the batch
//! evenly. The first failure in the search's order is the one kept, so the result is the
//! one-thread search's, schedule for schedule.
//!
//! A compiled scenario shares its design through `Rc`, which stays on its thread: each worker
//! builds its own search from the scenario's file text.

use super::fault::Added;
use super::judge::Failure;
use super::runner::{Search, State};
use super::space::Bounds;
use crate::error::ScenarioError;
use crate::scenario::format::Scenario;
use crate::scenario::{encode, json, validate};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::thread::{self, JoinHandle};

/// How many schedules a thread takes from a batch at a time.
const CHUNK: usize = 128;

/// A batch of schedules shared among the threads, and whether to count every failure in it
/// (else find the first).
struct Batch {
    schedules: Vec<Vec<Added>>,
    /// Where the next chunk to take starts.
    next: AtomicUsize,
    /// The place of the earliest failure found so far (`usize::MAX`: none): no chunk after it
    /// is taken, and every chunk up to it is.
    first: AtomicUsize,
    count: bool,
}

impl Batch {
    fn new(schedules: Vec<Vec<Added>>, count: bool) -> Batch {
        Batch { schedules, next: AtomicUsize::new(0), first: AtomicUsize::new(usize::MAX), count }
    }
}

/// What a thread found in the chunks it took: the first failure, by its place in the batch, or
/// how many failed.
enum Answer {
    First(Option<(usize, Failure)>),
    Count(usize),
}

/// A worker thread: it takes chunks of a batch and answers for them.
struct Worker {
    jobs: Sender<Arc<Batch>>,
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
        let (batch, answers) = self.share(n, false);
        let first = |a| match a {
            Answer::First(found) => found,
            Answer::Count(_) => None,
        };
        let failing = answers.into_iter().filter_map(first).min_by_key(|(i, _)| *i);
        self.search.settle(&batch.schedules, failing)
    }

    /// Runs the next `n` schedules on every thread without stopping at a failure; returns how
    /// many failed. (For measuring how fast schedules run.)
    pub fn sample(&mut self, n: usize) -> usize {
        let (batch, answers) = self.share(n, true);
        self.search.settle(&batch.schedules, None);
        let failed = |a| match a {
            Answer::Count(k) => k,
            Answer::First(_) => 0,
        };
        answers.into_iter().map(failed).sum()
    }

    /// Draws the next `n` schedules and judges them on every thread; returns the batch and
    /// each thread's answer.
    fn share(&mut self, n: usize, count: bool) -> (Arc<Batch>, Vec<Answer>) {
        let batch = Arc::new(Batch::new(self.search.draw(n), count));
        let sent: Vec<bool> = self.workers.iter().map(|w| w.jobs.send(batch.clone()).is_ok()).collect();
        let mine = judge(&self.search, &batch);
        // Every worker sent the batch is heard before the next is drawn: no answer is left over.
        let theirs: Vec<Option<Answer>> =
            self.workers.iter().zip(sent).map(|(worker, sent)| sent.then(|| worker.answers.recv().ok()).flatten()).collect();
        // A worker that died may have taken chunks it never judged: the batch is judged again
        // here, whole.
        let Some(theirs) = theirs.into_iter().collect::<Option<Vec<Answer>>>() else {
            let whole = Batch::new(batch.schedules.clone(), count);
            return (batch, vec![judge(&self.search, &whole)]);
        };
        let answers = std::iter::once(mine).chain(theirs).collect();
        (batch, answers)
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

/// Starts a worker that judges chunks of batches for a search of the scenario written as `text`.
fn spawn(text: String, bounds: Bounds) -> Option<Worker> {
    let (jobs, inbox) = channel::<Arc<Batch>>();
    let (outbox, answers) = channel();
    let handle = thread::Builder::new().spawn(move || {
        let Ok(search) = validate::parse(&text).and_then(|s| Search::new(&s, bounds)) else { return };
        for batch in inbox {
            if outbox.send(judge(&search, &batch)).is_err() {
                return;
            }
        }
    });
    Some(Worker { jobs, answers, handle: handle.ok()? })
}

/// Takes chunks of `batch` until none is left (or, finding the first failure, none before a
/// failure found) and judges them: how many fail if the batch counts, else the first that fails.
fn judge(search: &Search, batch: &Batch) -> Answer {
    let len = batch.schedules.len();
    let mut failed = 0;
    loop {
        let start = batch.next.fetch_add(CHUNK, Relaxed);
        if start >= len || start > batch.first.load(Relaxed) {
            return match batch.count {
                true => Answer::Count(failed),
                false => Answer::First(None),
            };
        }
        let places = start..(start + CHUNK).min(len);
        if batch.count {
            failed += search.count_failing(&batch.schedules, places);
        } else if let Some((i, failure)) = search.first_failing(&batch.schedules, places) {
            // Chunks are taken in order, so this thread's later chunks all come after it.
            batch.first.fetch_min(i, Relaxed);
            return Answer::First(Some((i, failure)));
        }
    }
}
