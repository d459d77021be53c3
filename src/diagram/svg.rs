//! Layout → SVG text. The page, the SVG export and the command line all draw with this; item
//! kinds become CSS classes, arrowheads and glyphs here and nowhere else.

use super::layout::{wrap, Anchor, Arrow, Gap, Item, ItemKind, Label, Layout, Mark, Shape, Span, Tick, LINE_H, MARK_R, TOP};
use crate::engine::NodeKind;
use crate::present::labels;
use std::fmt::{self, Write};

/// The diagram's stylesheet, embedded in exported files so they stand alone.
pub const STYLE: &str = include_str!(concat!(env!("OUT_DIR"), "/diagram.css"));

/// A coordinate printed to a tenth of a unit (integer arithmetic keeps float formatting out of
/// the wasm binary).
#[derive(Clone, Copy, Debug)]
pub struct Px(pub f32);

impl fmt::Display for Px {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tenths = (self.0 * 10.0).round() as i64;
        let sign = if tenths < 0 { "-" } else { "" };
        let (whole, frac) = (tenths.abs() / 10, tenths.abs() % 10);
        if frac == 0 {
            write!(f, "{sign}{whole}")
        } else {
            write!(f, "{sign}{whole}.{frac}")
        }
    }
}

/// Text escaped for SVG or HTML content and attributes, written without an intermediate string.
pub struct Escaped<'a>(pub &'a str);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            match c {
                '&' => f.write_str("&amp;")?,
                '<' => f.write_str("&lt;")?,
                '>' => f.write_str("&gt;")?,
                '"' => f.write_str("&quot;")?,
                // Characters XML 1.0 cannot hold at all.
                '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}' => f.write_char('\u{fffd}')?,
                c => f.write_char(c)?,
            }
        }
        Ok(())
    }
}

/// Escapes text for SVG content and attributes.
pub fn escape(s: &str) -> String {
    Escaped(s).to_string()
}

/// Renders the whole diagram; `standalone` embeds the stylesheet and an XML namespace for a file.
pub fn render(layout: &Layout, title: &str, standalone: bool) -> String {
    let mut s = String::with_capacity(4096 + layout.items.len() * 220);
    let _ = write_to(&mut s, layout, title, standalone);
    s
}

/// How much markup is gathered before it is handed on, when writing a diagram out.
const PIECE: usize = 1 << 16;

/// Writes the whole diagram to `out` a piece at a time, so a diagram of any size is never held
/// whole (the command line writes it straight to its output).
pub fn write_to(out: &mut dyn std::fmt::Write, layout: &Layout, title: &str, standalone: bool) -> std::fmt::Result {
    let (mut s, tail) = frame(layout, title, standalone, true);
    let mut hand_on = |s: &mut String, all: bool| -> std::fmt::Result {
        if all || s.len() >= PIECE {
            out.write_str(s)?;
            s.clear();
        }
        Ok(())
    };
    for item in drawing_order(layout) {
        shape_svg(&mut s, item);
        hand_on(&mut s, false)?;
    }
    for item in drawing_order(layout) {
        label_item_svg(&mut s, item);
        hand_on(&mut s, false)?;
    }
    s.push_str(tail);
    hand_on(&mut s, true)
}

/// Returns the frame without the time ticks and compressed gaps: what comes before the items
/// (up to an empty `<g class="items">`) and what closes it, for a page that draws the ticks,
/// gaps and items near the view ([`super::window::Window`]).
pub fn skeleton(layout: &Layout, title: &str) -> (String, &'static str) {
    frame(layout, title, false, false)
}

/// The classes of a lane's name that takes two lines.
const WRAPPED_NAME: &str = "lane-name lane-name--wrapped";

/// Returns the markup before the items and what closes it; `background` adds the ticks and gaps.
fn frame(layout: &Layout, title: &str, standalone: bool, background: bool) -> (String, &'static str) {
    let mut s = String::with_capacity(4096 + if background { layout.ticks.len() * 80 + layout.gaps.len() * 260 } else { 0 });
    let (w, h) = (Px(layout.width), Px(layout.height));
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="lockstep-diagram" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" aria-label="{}">"#,
        escape(&labels::diagram(title))
    );
    if standalone {
        let _ = write!(s, "<style>{STYLE}</style><rect class=\"paper\" width=\"{w}\" height=\"{h}\"/>");
    }
    s.push_str(DEFS);
    s.push_str(r#"<g class="axis">"#);
    if background {
        for t in &layout.ticks {
            tick_svg(&mut s, t);
        }
    }
    s.push_str("</g>");
    for l in &layout.lanes {
        let _ = write!(
            s,
            r#"<g class="lane lane--{}"><line class="lifeline" x1="{x}" y1="{}" x2="{x}" y2="{}"/></g>"#,
            role_class(l.role),
            Px(TOP - 20.0),
            Px(layout.height - 12.0),
            x = Px(l.x)
        );
    }
    s.push_str(&lane_heads(layout));
    if background {
        for g in &layout.gaps {
            gap_svg(&mut s, g, layout.width);
        }
    }
    s.push_str(r#"<g class="items">"#);
    (s, "</g></svg>")
}

/// Writes one time label of the left axis.
pub fn tick_svg(s: &mut String, t: &Tick) {
    let _ = write!(
        s,
        r#"<text class="tick" x="{}" y="{}" text-anchor="end">{}</text>"#,
        Px(super::layout::LEFT - 6.0),
        Px(t.y + 4.0),
        labels::tick(t.at_ms)
    );
}

/// Writes one compressed idle stretch: a band across the diagram, `width` wide, and its label.
pub fn gap_svg(s: &mut String, g: &Gap, width: f32) {
    let _ = write!(
        s,
        r#"<g class="gap"><rect class="gap-band" x="0" y="{y0}" width="{w}" height="{gh}"/><text class="gap-label" x="{lx}" y="{ly}" text-anchor="end">{skip}</text></g>"#,
        y0 = Px(g.y0),
        w = Px(width),
        gh = Px(g.y1 - g.y0),
        lx = Px(width - 8.0),
        ly = Px((g.y0 + g.y1) / 2.0 + 4.0),
        skip = escape(&labels::idle(g.skipped_ms))
    );
}

/// Returns the items in drawing order: partition bands first, then the bars on the lifelines,
/// then arrows and marks, so that no bar hides a mark's glyph.
pub fn drawing_order(layout: &Layout) -> impl Iterator<Item = &Item> {
    drawing_indices(layout).map(|i| &layout.items[i])
}

/// Returns the indices into `layout.items` in drawing order.
pub fn drawing_indices(layout: &Layout) -> impl Iterator<Item = usize> + '_ {
    let layer = |i: usize| match layout.items[i].kind() {
        ItemKind::Partition => 0,
        ItemKind::Span(_) => 1,
        ItemKind::Arrow(_) | ItemKind::Mark(_) => 2,
    };
    let n = layout.items.len();
    (0..3).flat_map(move |l| (0..n).filter(move |&i| layer(i) == l))
}

/// How wide a character of a lane's name is, in its larger type.
const NAME_CHAR_PX: f32 = 8.2;

/// Renders the participants' name boxes across the top.
pub fn lane_heads(layout: &Layout) -> String {
    let mut s = String::from(r#"<g class="lane-heads">"#);
    let w = layout.head;
    for l in &layout.lanes {
        // A name too long for a narrow box is set in the labels' size, on two lines if it must
        // (and with an ellipsis if it needs more).
        let smaller = l.name.chars().count() as f32 * NAME_CHAR_PX > w - 12.0;
        let name = if smaller { wrap(&l.name, w - 8.0) } else { String::new() };
        let (class, y0, h, y) = match (smaller, name.contains('\n')) {
            (false, _) => ("lane-name", 8, 32, 29),
            (true, false) => (WRAPPED_NAME, 8, 32, 28),
            (true, true) => (WRAPPED_NAME, 4, 40, 20),
        };
        let _ = write!(
            s,
            r#"<rect class="lane-head" x="{}" y="{y0}" width="{}" height="{h}" rx="6"/><text class="{class}" x="{}" y="{y}" text-anchor="middle">"#,
            Px(l.x - w / 2.0),
            Px(w),
            Px(l.x)
        );
        if smaller {
            let mut lines: Vec<String> = name.split('\n').take(3).map(String::from).collect();
            if lines.len() == 3 {
                lines.pop();
                lines[1].push('…');
            }
            lines_svg(&mut s, lines.iter().map(String::as_str), l.x);
        } else {
            let _ = write!(s, "{}", Escaped(&l.name));
        }
        s.push_str("</text>");
    }
    s.push_str("</g>");
    s
}

/// Returns the CSS class of a lane's role.
pub fn role_class(role: NodeKind) -> &'static str {
    match role {
        NodeKind::Client => "client",
        NodeKind::LockService => "lock_service",
        NodeKind::Resource => "resource",
    }
}

/// Returns an item's semantic CSS classes.
pub fn class(kind: ItemKind) -> &'static str {
    match kind {
        ItemKind::Arrow(Arrow::Request) => "msg",
        ItemKind::Arrow(Arrow::Reply) => "msg msg--reply",
        ItemKind::Arrow(Arrow::Refusal) => "msg msg--refusal",
        ItemKind::Arrow(Arrow::Rejected) => "msg msg--rejected",
        ItemKind::Arrow(Arrow::Write) => "msg msg--write",
        ItemKind::Arrow(Arrow::Lost) => "msg msg--lost",
        ItemKind::Span(Span::Pause) => "pause",
        ItemKind::Span(Span::Held) => "lease lease--service",
        ItemKind::Span(Span::Belief) => "belief",
        ItemKind::Span(Span::StaleBelief) => "belief belief--stale",
        ItemKind::Partition => "partition",
        ItemKind::Mark(Mark::Expired | Mark::Lost) => "mark mark--expiry",
        ItemKind::Mark(Mark::DeletedByOther | Mark::TakenOver) => "mark mark--violation",
        ItemKind::Mark(Mark::Crash) => "mark mark--crash",
        ItemKind::Mark(Mark::Restart | Mark::Promoted) => "mark mark--restart",
        ItemKind::Mark(Mark::ClockJump) => "mark mark--clock",
        ItemKind::Mark(Mark::GaveUp) => "mark mark--gaveup",
        ItemKind::Mark(Mark::Checked) => "mark mark--check",
        ItemKind::Mark(Mark::RenewalFailed) => "mark mark--renewal",
        ItemKind::Mark(Mark::SlowLink | Mark::HungUp) => "mark mark--slow",
        ItemKind::Mark(Mark::TwoHolders) => "mark mark--hazard",
        ItemKind::Mark(Mark::WriteAccepted) => "write write--accepted",
        ItemKind::Mark(Mark::WriteRejected) => "write write--rejected",
        ItemKind::Mark(Mark::WriteViolation) => "write write--violation",
    }
}

/// Returns the marker that ends an arrow.
pub fn marker(arrow: Arrow) -> &'static str {
    match arrow {
        Arrow::Request | Arrow::Write => "head",
        Arrow::Reply => "head-reply",
        Arrow::Refusal => "head-refusal",
        Arrow::Rejected => "head-rejected",
        Arrow::Lost => "cross",
    }
}

/// Returns a span's width.
pub fn span_width(span: Span) -> f32 {
    match span {
        Span::Pause => 18.0,
        Span::Held => 6.0,
        Span::Belief | Span::StaleBelief => 10.0,
    }
}

/// Renders one item, its shape and its label, as a `<g>` carrying its classes and events, so a
/// page can find it.
pub fn item_svg(s: &mut String, item: &Item) {
    open_item(s, item);
    draw_shape(s, item);
    if let Some(label) = &item.label {
        label_svg(s, label);
    }
    s.push_str("</g>");
}

/// Renders an item's shape alone. A diagram draws every shape first and every label after
/// (see [`label_item_svg`]), so that no arrow is drawn over a label: the label's halo hides
/// what runs under it.
pub fn shape_svg(s: &mut String, item: &Item) {
    open_item(s, item);
    draw_shape(s, item);
    s.push_str("</g>");
}

/// Renders an item's label alone, in a group like its shape's, if it has one.
pub fn label_item_svg(s: &mut String, item: &Item) {
    if let Some(label) = &item.label {
        open_item(s, item);
        label_svg(s, label);
        s.push_str("</g>");
    }
}

fn open_item(s: &mut String, item: &Item) {
    let _ = write!(s, r#"<g class="item {}" data-events="{} {}">"#, class(item.kind()), item.events.0, item.events.1);
}

fn draw_shape(s: &mut String, item: &Item) {
    match item.shape {
        Shape::Arrow { x1, y1, x2, y2, arrow } => {
            let (x1, y1, x2, y2) = (Px(x1), Px(y1), Px(x2), Px(y2));
            let _ = write!(s, r#"<line class="shaft" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" marker-end="url(#{})"/>"#, marker(arrow));
        }
        Shape::Span { x, y0, y1, span } => {
            let width = span_width(span);
            let _ = write!(
                s,
                r#"<rect class="span" x="{}" y="{}" width="{}" height="{}" rx="2"/>"#,
                Px(x - width / 2.0),
                Px(y0),
                Px(width),
                Px((y1 - y0).max(1.0))
            );
        }
        Shape::Band { x0, x1, y0, y1 } => {
            let _ = write!(
                s,
                r#"<rect class="band" x="{}" y="{}" width="{}" height="{}"/>"#,
                Px(x0),
                Px(y0),
                Px(x1 - x0),
                Px((y1 - y0).max(1.0))
            );
        }
        Shape::Mark { x, y, mark } => {
            let _ = write!(
                s,
                r#"<circle class="dot" cx="{}" cy="{}" r="{}"/><text class="glyph" x="{}" y="{}" text-anchor="middle">{}</text>"#,
                Px(x),
                Px(y),
                Px(MARK_R),
                Px(x),
                Px(y + 4.0),
                mark.glyph()
            );
        }
    }
}

fn label_svg(s: &mut String, l: &Label) {
    let anchor = match l.anchor {
        Anchor::Start => "start",
        Anchor::Middle => "middle",
        Anchor::End => "end",
    };
    let _ = write!(s, r#"<text class="label" x="{}" y="{}" text-anchor="{anchor}">"#, Px(l.x), Px(l.y));
    lines_svg(s, l.lines(), l.x);
    s.push_str("</text>");
}

/// Writes a text's lines: one line as it is, several as a `<tspan>` each, a line apart (the
/// space that ended a line stays, so the text reads whole when copied).
fn lines_svg<'a>(s: &mut String, lines: impl Iterator<Item = &'a str>, x: f32) {
    let mut lines = lines.peekable();
    let mut first = true;
    while let Some(line) = lines.next() {
        let last = lines.peek().is_none();
        if first && last {
            let _ = write!(s, "{}", Escaped(line));
            return;
        }
        let dy = if first { String::new() } else { format!(r#" dy="{}""#, Px(LINE_H)) };
        let _ = write!(s, r#"<tspan x="{}"{dy}>{}{}</tspan>"#, Px(x), Escaped(line), if last { "" } else { " " });
        first = false;
    }
}

const DEFS: &str = concat!(
    "<defs>",
    r#"<marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="11" markerHeight="11" orient="auto-start-reverse"><path class="head" d="M0,0 L10,5 L0,10 z"/></marker>"#,
    r#"<marker id="head-reply" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="11" markerHeight="11" orient="auto-start-reverse"><path class="head head--reply" d="M0,0 L10,5 L0,10 z"/></marker>"#,
    r#"<marker id="head-refusal" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="11" markerHeight="11" orient="auto-start-reverse"><path class="head head--refusal" d="M0,0 L10,5 L0,10 z"/></marker>"#,
    r#"<marker id="head-rejected" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="11" markerHeight="11" orient="auto-start-reverse"><path class="head head--rejected" d="M0,0 L10,5 L0,10 z"/></marker>"#,
    r#"<marker id="cross" viewBox="0 0 10 10" refX="5" refY="5" markerUnits="userSpaceOnUse" markerWidth="14" markerHeight="14" orient="0"><path class="cross" d="M1,1 L9,9 M9,1 L1,9"/></marker>"#,
    r#"<pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect class="hatch-bg" width="6" height="6"/><line class="hatch-line" x1="0" y1="0" x2="0" y2="6"/></pattern>"#,
    r#"<pattern id="stale" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)"><rect class="stale-bg" width="8" height="8"/><line class="stale-line" x1="0" y1="0" x2="0" y2="8"/></pattern>"#,
    "</defs>"
);
