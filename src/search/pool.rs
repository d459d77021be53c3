//! The search on every core in the browser: a pool of Web Workers, each judging its share of
//! every batch of schedules ([`super::Share`]), whose reports [`Merge`] puts together into the
//! reports one worker judging every schedule would give: the same failure (the first in the
//! search's order), found after the same number of schedules, or the same "nothing found".

use super::wire::Report;

/// What one worker of the pool has said so far.
#[derive(Clone, Debug)]
enum Heard {
    /// It has judged its share of every schedule before `tried`.
    Progress {
        tried: usize,
    },
    /// It found a failure: the first of its share, `tried` schedules into the search.
    Found {
        tried: usize,
        report: Report,
    },
    Nothing(Report),
}

/// The reports of a pool of workers, put together.
#[derive(Clone, Debug)]
pub struct Merge {
    heard: Vec<Heard>,
    /// The search's budget, as the workers report it.
    budget: usize,
    done: bool,
}

impl Merge {
    /// Merges the reports of `workers` workers. (The budget is learnt from their progress.)
    pub fn new(workers: usize) -> Merge {
        Merge { heard: vec![Heard::Progress { tried: 0 }; workers.max(1)], budget: 0, done: false }
    }

    /// Takes worker `k`'s report and says what the page shows now: progress, or the search's
    /// last report once it is known (then nothing more).
    pub fn take(&mut self, k: usize, report: Report) -> Option<Report> {
        if self.done || k >= self.heard.len() {
            return None;
        }
        self.heard[k] = match report {
            Report::Progress { tried, budget } => {
                self.budget = budget;
                Heard::Progress { tried }
            }
            Report::Found { tried, .. } => Heard::Found { tried, report },
            Report::Nothing { .. } => Heard::Nothing(report),
            // A verification runs in one worker: its reports pass through.
            Report::Proving { .. } => return Some(report),
            Report::Failed { .. } | Report::Sampled { .. } | Report::Proven { .. } => {
                self.done = true;
                return Some(report);
            }
        };
        let last = self.first_found().or_else(|| self.nothing());
        self.done = last.is_some();
        last.or_else(|| Some(Report::Progress { tried: self.progress(), budget: self.budget }))
    }

    /// The failure found earliest in the search's order, once every other worker has judged
    /// its share of every schedule before it (or found or finished on its own).
    fn first_found(&self) -> Option<Report> {
        let (first, report) = self
            .heard
            .iter()
            .filter_map(|h| match h {
                Heard::Found { tried, report } => Some((*tried, report)),
                _ => None,
            })
            .min_by_key(|(tried, _)| *tried)?;
        let settled = self.heard.iter().all(|h| match h {
            Heard::Progress { tried } => *tried >= first,
            Heard::Found { .. } | Heard::Nothing(_) => true,
        });
        settled.then(|| report.clone())
    }

    /// What was searched, once every worker has run the whole budget and found nothing.
    fn nothing(&self) -> Option<Report> {
        let mut all = self.heard.iter().map(|h| match h {
            Heard::Nothing(report) => Some(report.clone()),
            _ => None,
        });
        let first = all.next()??;
        all.all(|r| r.is_some()).then_some(first)
    }

    /// How many schedules every worker has judged its share of.
    fn progress(&self) -> usize {
        let tried = |h: &Heard| match h {
            Heard::Progress { tried } => *tried,
            Heard::Found { tried, .. } => tried.saturating_sub(1),
            Heard::Nothing(_) => self.budget,
        };
        self.heard.iter().map(tried).min().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::super::fault::Class;
    use super::super::runner::Share;
    use super::super::space::Bounds;
    use super::super::wire::{decode, for_share, request, serve, Subject};
    use super::*;
    use crate::scenario::compare;

    /// Serves `request` as one worker and as a pool of `n` whose reports arrive interleaved, a
    /// report from each worker in turn; returns the last report of each, and the pool's progress.
    fn one_and_pool(request: &str, n: usize) -> (Report, Report, Vec<usize>) {
        let mut one = Vec::new();
        serve(request, |r| one.push(decode(&r).expect("a report")));
        let shares: Vec<Vec<Report>> = (0..n)
            .map(|index| {
                let mut reports = Vec::new();
                serve(&for_share(request, Share { index, of: n }), |r| reports.push(decode(&r).expect("a report")));
                reports
            })
            .collect();
        let mut merge = Merge::new(n);
        let (mut shown, mut last) = (Vec::new(), None);
        for i in 0..shares.iter().map(Vec::len).max().unwrap_or(0) {
            for (k, reports) in shares.iter().enumerate() {
                match reports.get(i).and_then(|r| merge.take(k, r.clone())) {
                    Some(Report::Progress { tried, .. }) => shown.push(tried),
                    Some(report) => last = Some(report),
                    None => {}
                }
            }
        }
        (one.pop().expect("a last report"), last.expect("the pool's last report"), shown)
    }

    #[test]
    fn a_pool_reports_what_one_worker_reports_and_its_progress_only_grows() {
        let cells = [("pause", "lease", Class::Pause), ("pause", "lease-fenced", Class::Pause), ("partition", "redlock", Class::Partition)];
        let mut found = 0;
        for (schedule, design, class) in cells {
            let bounds = Bounds { classes: vec![class, Class::Pause], budget: 12_000, seed: 3, ..Bounds::default() };
            let request = request(Subject::Cell(&compare::id(schedule, design)), &bounds);
            for n in [2, 3] {
                let (one, pool, shown) = one_and_pool(&request, n);
                assert_eq!(one, pool, "{schedule} × {design} on {n} workers");
                assert!(shown.windows(2).all(|w| w[0] <= w[1]), "{shown:?}");
                found += usize::from(matches!(pool, Report::Found { .. }));
            }
        }
        assert!((1..6).contains(&found), "some cells fail and some do not: {found} of 6");
    }

    #[test]
    fn a_bad_share_is_named() {
        let r = request(Subject::Cell("compare-pause-lease"), &Bounds::default());
        let mut reports = Vec::new();
        serve(&for_share(&r, Share { index: 3, of: 2 }), |x| reports.push(decode(&x)));
        assert!(matches!(&reports[..], [Some(Report::Failed { message })] if message.starts_with("share: ")), "{reports:?}");
    }
}
