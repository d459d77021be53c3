//! The legend: what each mark in the diagram means, drawn with the diagram's own kinds and classes.

use crate::diagram::layout::{Arrow, ItemKind, Mark, Span};
use crate::diagram::svg::{class, marker, span_width, Px};
use std::fmt::Write;
use std::sync::OnceLock;
use yew::prelude::*;

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

/// The legend, written once: it never changes.
pub fn legend() -> Html {
    static TEXT: OnceLock<String> = OnceLock::new();
    Html::from_html_unchecked(AttrValue::Static(TEXT.get_or_init(text)))
}

fn text() -> String {
    let mut s = String::from(r#"<details class="card legend" open="" data-testid="legend"><summary><h2>Legend</h2></summary><ul>"#);
    for (kind, text) in [
        (ItemKind::Arrow(Arrow::Request), "request; slanted while in flight"),
        (ItemKind::Arrow(Arrow::Reply), "reply"),
        (ItemKind::Arrow(Arrow::Refusal), "refusal (busy, not yours)"),
        (ItemKind::Arrow(Arrow::Lost), "message lost ✗"),
        (ItemKind::Span(Span::Pause), "process paused (stop the world)"),
        (ItemKind::Span(Span::Held), "lock as the lock service holds it"),
        (ItemKind::Span(Span::Belief), "client believes it holds the lock"),
        (ItemKind::Span(Span::StaleBelief), "belief after the service let it go"),
        (ItemKind::Mark(Mark::WriteAccepted), "write accepted"),
        (ItemKind::Mark(Mark::WriteRejected), "write rejected"),
        (ItemKind::Mark(Mark::WriteViolation), "violation: stale write accepted"),
        (ItemKind::Mark(Mark::Expired), "lock expires on the service's clock"),
        (ItemKind::Mark(Mark::TakenOver), "another client took the lock over"),
        (ItemKind::Mark(Mark::TwoHolders), "two clients believe they hold it"),
    ] {
        entry(&mut s, kind, text);
    }
    s.push_str("</ul></details>");
    s
}
