//! The legend: what each kind of item in a diagram means, drawn with the diagram's own kinds
//! and classes; a run's legend lists the kinds its diagram draws.

use crate::diagram::layout::{Arrow, ItemKind, Layout, Mark, Span};
use crate::diagram::svg::{class, marker, span_width, Px};
use std::fmt::Write;

/// One legend entry: a small drawing in the diagram's own classes, and its meaning.
fn entry(s: &mut String, kind: ItemKind, text: &str) {
    let swatch = match kind {
        ItemKind::Arrow(arrow) => format!(r#"<line class="shaft" x1="2" y1="9" x2="36" y2="9" marker-end="url(#{})"/>"#, marker(arrow)),
        ItemKind::Span(span) => {
            let width = span_width(span).min(14.0);
            format!(r#"<rect class="span" x="{}" y="1" width="{}" height="16" rx="2"/>"#, Px(20.0 - width / 2.0), Px(width))
        }
        ItemKind::Partition => r#"<rect class="band" x="2" y="2" width="36" height="14"/>"#.to_string(),
        ItemKind::Mark(mark) => format!(
            r#"<circle class="dot" cx="20" cy="9" r="8"/><text class="glyph" x="20" y="13" text-anchor="middle">{}</text>"#,
            mark.glyph()
        ),
    };
    let _ = write!(
        s,
        r#"<li><svg class="lockstep-diagram swatch" viewBox="0 0 40 18" width="40" height="18" aria-hidden="true"><g class="item {}">{swatch}</g></svg><span>{text}</span></li>"#,
        class(kind)
    );
}

/// Every kind the diagram draws, in the legend's order, with what it means.
const CATALOGUE: [(ItemKind, &str); 28] = [
    (ItemKind::Arrow(Arrow::Request), "request; slanted while in flight"),
    (ItemKind::Arrow(Arrow::Reply), "reply"),
    (ItemKind::Arrow(Arrow::Refusal), "refusal (busy, not yours)"),
    (ItemKind::Arrow(Arrow::Write), "write to the resource"),
    (ItemKind::Arrow(Arrow::Rejected), "the resource's rejection"),
    (ItemKind::Arrow(Arrow::Lost), "message lost ✗"),
    (ItemKind::Span(Span::Pause), "process paused (stop the world)"),
    (ItemKind::Span(Span::Held), "lock as the lock service holds it"),
    (ItemKind::Span(Span::Belief), "client believes it holds the lock"),
    (ItemKind::Span(Span::StaleBelief), "belief after the service let it go"),
    (ItemKind::Partition, "partition: the lanes cut off from each other"),
    (ItemKind::Mark(Mark::WriteAccepted), "write accepted"),
    (ItemKind::Mark(Mark::WriteRejected), "write rejected"),
    (ItemKind::Mark(Mark::WriteViolation), "violation: stale write accepted"),
    (ItemKind::Mark(Mark::Expired), "lock expires on the service's clock"),
    (ItemKind::Mark(Mark::Lost), "lock lost in a restart"),
    (ItemKind::Mark(Mark::DeletedByOther), "lock deleted by another client"),
    (ItemKind::Mark(Mark::TakenOver), "another client took the lock over"),
    (ItemKind::Mark(Mark::TwoHolders), "two clients believe they hold it"),
    (ItemKind::Mark(Mark::Crash), "crash"),
    (ItemKind::Mark(Mark::Restart), "restart"),
    (ItemKind::Mark(Mark::Promoted), "replica promoted to primary"),
    (ItemKind::Mark(Mark::ClockJump), "clock jump"),
    (ItemKind::Mark(Mark::SlowLink), "link slowed"),
    (ItemKind::Mark(Mark::HungUp), "gave up on a held reply and closed the connection"),
    (ItemKind::Mark(Mark::RenewalFailed), "renewal failed"),
    (ItemKind::Mark(Mark::GaveUp), "client gave up"),
    (ItemKind::Mark(Mark::Checked), "client checked its own lock"),
];

/// The legend of a diagram: every kind of item it draws, and no other.
pub fn legend(layout: &Layout) -> String {
    let mut present: Vec<ItemKind> = Vec::new();
    for item in &layout.items {
        let kind = item.kind();
        if !present.contains(&kind) {
            present.push(kind);
        }
    }
    let mut s = String::from(r#"<details class="card legend" open="" data-testid="legend"><summary><h2>Legend</h2></summary><ul>"#);
    for (kind, text) in CATALOGUE.iter().filter(|(k, _)| present.contains(k)) {
        entry(&mut s, *kind, text);
    }
    s.push_str("</ul></details>");
    s
}
