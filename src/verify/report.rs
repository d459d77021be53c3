//! What a verification says: the verdict with its bounds stated, or the counterexample.

use super::explore::Verify;
use super::outcome::Proof;
use crate::present::number::{group_u, ms};
use crate::search::Class;

/// Names the bounds: "≤ 2 faults (pauses, partitions, crashes and restarts) on a 100 ms grid
/// within 3 s".
pub fn bounds(v: &Verify) -> String {
    let g = v.grid();
    let c = v.choices();
    let kinds: Vec<String> = g.classes.iter().map(|&k| kind(k, g)).collect();
    format!(
        "≤ {} fault{} ({}) on a {} grid within {}",
        g.max_faults,
        if g.max_faults == 1 { "" } else { "s" },
        kinds.join(", "),
        ms(c.grid_ms),
        ms(c.horizon_ms)
    )
}

/// A kind of fault and how large it may be.
fn kind(k: Class, g: &super::Grid) -> String {
    match k {
        Class::ClockJump => format!("clock jumps up to ±{}", ms(g.jump_ms)),
        Class::Drift => format!("drift up to ±{}% in steps of {}%", g.drift_ppm / 10_000, g.drift_step_ppm / 10_000),
        k => k.plural(),
    }
}

/// The verdict, in a sentence or two.
pub fn sentence(v: &Verify) -> String {
    let counts = v.counts();
    let schedules = v.choices().schedules();
    let states = plural(counts.states, "distinct state");
    let scope = format!("{}: {} schedules, {states}", bounds(v), group_u128(schedules));
    match v.proof() {
        Proof::Running => format!("Verifying every schedule of {scope} so far."),
        Proof::Safe => format!("Safe for every schedule of {scope}. {}", collisions(v.fingerprints())),
        Proof::Unsafe(found) => format!(
            "Unsafe: {} Found among the schedules of {}, with the fewest faults first ({states} explored), then shrunk.",
            found.sentence,
            bounds(v)
        ),
        Proof::TooLarge => format!(
            "Not verified: the bounds are too large. {states} ({} MB) were kept before the table filled; choose a coarser grid, a shorter horizon or fewer faults.",
            v.table_bytes() / 1_000_000
        ),
    }
}

/// The chance that a collision among `n` fingerprints (of states and of judged runs) skipped a
/// state or took a verdict, as a bound.
fn collisions(n: usize) -> String {
    // n² / 2¹²⁶, as a power of ten: log10(n²) − 126 · log10(2).
    let exponent = 2.0 * (n.max(1) as f64).log10() - 126.0 * std::f64::consts::LOG10_2;
    format!("(The chance that a fingerprint collision hid a state or a run's verdict is below 10{}.)", superscript(exponent.ceil() as i64))
}

/// A whole number in superscript characters.
fn superscript(n: i64) -> String {
    n.to_string()
        .chars()
        .map(|c| match c.to_digit(10) {
            Some(d) => ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'][d as usize],
            None => '⁻',
        })
        .collect()
}

/// A count of things, with thousands separators and the plural when it is not one.
fn plural(n: usize, what: &str) -> String {
    format!("{} {what}{}", group_u(n as u64), if n == 1 { "" } else { "s" })
}

/// A large count with thousands separators.
fn group_u128(n: u128) -> String {
    match u64::try_from(n) {
        Ok(n) => group_u(n),
        Err(_) => format!("about 10{}", superscript((n as f64).log10().floor() as i64)),
    }
}
