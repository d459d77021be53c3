//! The comparison table's words: a cell's introduction and title, why a cell came out as it
//! did, and the table as fixed-width text for the command line.

use super::number::{capital, ms};
use crate::engine::time::Millis;

/// What "safe" means in the table: safe under the column's schedule, not under every schedule.
pub const SAFE_MEANS: &str = "Safe means the data came to no harm under that column's schedule: no acknowledged update lost, no write applied out of token order, no effect done twice. Two clients holding the lock at once, or a stale write let in before the new holder's first, are shown and explained in the cell's run, but are not harm by themselves (the lessons \u{201c}Fencing: a stale write first, with blind writes\u{201d} and \u{201c}Fencing: a stale write before the new holder\u{2019}s first\u{201d}). Find a failure on a cell searches other schedules.";

/// Introduces a cell: its schedule's story, then the design; a design whose timers a clock
/// jump does not move is told so.
pub fn intro(schedule: &str, design: &str, token: &str, jump_moves_nothing: bool) -> String {
    let mut intro = format!("{schedule} Design: {design} (fencing token: {token}).");
    if jump_moves_nothing {
        intro.push_str(" This design times its leases and sessions by elapsed time (a monotonic clock), so the jump steps the service's wall clock and moves no expiry.");
    }
    intro
}

/// A cell's title: its schedule, then its design.
pub fn title(schedule: &str, design: &str) -> String {
    format!("{schedule} · {design}")
}

/// A cell's outcome and why, as its scenario's takeaway.
pub fn takeaway(outcome: &str, why: &str) -> String {
    format!("{}: {why}", capital(outcome))
}

/// Why a cell is unsafe: what was found, and when.
pub fn violated(finding: &str, at_ms: Millis) -> String {
    format!("{} at {}.", capital(finding), ms(at_ms))
}

/// Why a cell stalls: B never held the lock (`held` names it).
pub fn never_held(held: &str) -> String {
    format!("Client B never got {held}.")
}

/// Why a cell stalls: B held the lock only once A was back.
pub fn held_late(held: &str, at_ms: Millis, back_ms: Millis) -> String {
    format!("Client B got {held} only at {}, after A came back at {}: everyone waited for A.", ms(at_ms), ms(back_ms))
}

/// Why a cell is safe: a late write was refused.
pub fn refused(writer: &str, why: &str) -> String {
    format!("{writer}'s late write was refused ({why}).")
}

/// Why a cell is safe: B held the lock and nothing stale reached the data.
pub fn held_safely(held: &str, at_ms: Millis) -> String {
    format!("Client B got {held} at {} and the data came to no harm.", ms(at_ms))
}

/// Why a cell under a clock jump is as it is, for a design whose timers measure elapsed time
/// (`expires`) or that has nothing that ends by time.
pub fn jump_ignored(why: &str, expires: bool) -> String {
    if expires {
        format!("This design measures expiry by elapsed time, so the jump moves no expiry. {why}")
    } else {
        format!("Nothing in this set-up ends by time, so the jump changes nothing. {why}")
    }
}

/// The table as fixed-width text: a header (`columns` are the schedules), a line per row (its
/// design, its token's source and an outcome per column), what safe means, then each cell's line.
pub fn text(columns: &[&str], rows: &[(&str, &str, Vec<&str>)], cells: &[String]) -> String {
    let design_w = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
    let token_w = rows.iter().map(|r| r.1.chars().count()).max().unwrap_or(0);
    let col_w = columns.iter().map(|c| c.chars().count()).max().unwrap_or(0);
    let pad = |s: &str, w: usize| format!("{s}{}", " ".repeat(w.saturating_sub(s.chars().count())));
    let mut head = format!("{}  {}", pad("design", design_w), pad("fencing token", token_w));
    for c in columns {
        head.push_str(&format!("  {}", pad(c, col_w)));
    }
    let mut out = head.trim_end().to_string() + "\n";
    for (design, token, outcomes) in rows {
        let mut line = format!("{}  {}", pad(design, design_w), pad(token, token_w));
        for o in outcomes {
            line.push_str(&format!("  {}", pad(o, col_w)));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str(&format!("\n{SAFE_MEANS}\n\n"));
    for c in cells {
        out.push_str(c);
        out.push('\n');
    }
    out
}

/// One cell's line in the text table.
pub fn cell_line(schedule: &str, row: &str, outcome: &str, why: &str) -> String {
    format!("{schedule} · {row}: {outcome} — {why}")
}
