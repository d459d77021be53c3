//! Shrinking a failing schedule to the smallest story that still fails the same way: the
//! fewest faults, then the smallest sizes, then the roundest times (and the sizes again).

use super::fault::Added;
use super::space::Bounds;

/// Shrinks `faults`, calling `fails` to run a candidate; it says whether the candidate still
/// fails the same way. Returns the shrunk schedule and how many runs it took.
pub fn shrink(faults: &[Added], mut fails: impl FnMut(&[Added]) -> bool) -> (Vec<Added>, usize) {
    let mut runs = 0;
    let mut check = |c: &[Added]| {
        runs += 1;
        fails(c)
    };
    let mut best = faults.to_vec();
    // Fewest faults: drop each one that is not needed, until none can go.
    let mut i = 0;
    while i < best.len() {
        let mut without = best.clone();
        without.remove(i);
        if check(&without) {
            best = without;
        } else {
            i += 1;
        }
    }
    smallest_sizes(&mut best, &mut check);
    // Roundest times: the coarsest rounding of each start, down or up, that still fails.
    for i in 0..best.len() {
        let t = best[i].at_ms();
        'units: for unit in [1_000, 500, 100, 50, 10, 5] {
            for r in [t / unit * unit, t.div_ceil(unit) * unit] {
                if r == t {
                    break 'units;
                }
                let mut c = best.clone();
                c[i] = best[i].at(r);
                if check(&c) {
                    best = c;
                    break 'units;
                }
            }
        }
    }
    // A rounder time may need less: the sizes once more, for the times now chosen.
    smallest_sizes(&mut best, &mut check);
    (best, runs)
}

/// Bisects each fault's size between its floor and its size, keeping the failure.
fn smallest_sizes(best: &mut [Added], check: &mut impl FnMut(&[Added]) -> bool) {
    for i in 0..best.len() {
        let f = best[i].clone();
        let (sign, mut hi) = (f.magnitude().signum(), f.magnitude().unsigned_abs());
        let mut lo = Bounds::floor(f.class());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let mut c = best.to_vec();
            c[i] = f.sized(sign * mid as i64);
            if check(&c) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        best[i] = f.sized(sign * hi as i64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pause(at_ms: u64, ms: u64) -> Added {
        Added::Pause { at_ms, node: "A".into(), ms }
    }

    #[test]
    fn keeps_only_the_fault_that_matters_at_its_smallest_and_roundest() {
        // Fails when some pause of at least 940 ms starts between 50 and 80 ms.
        let fails = |c: &[Added]| c.iter().any(|f| matches!(f, Added::Pause { at_ms: 50..=80, ms: 940.., .. }));
        let (best, runs) = shrink(&[pause(5, 300), pause(63, 4_321), pause(900, 10)], fails);
        assert_eq!(best, vec![pause(50, 940)]);
        assert!(runs < 40, "{runs} runs");
    }

    #[test]
    fn a_schedule_that_needs_every_fault_keeps_them_all() {
        let fails = |c: &[Added]| c.len() == 2;
        let (best, _) = shrink(&[pause(0, 10), pause(10, 10)], fails);
        assert_eq!(best.len(), 2);
    }
}
