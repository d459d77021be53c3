//! The editor's layer over the diagram, as SVG text: each fault as a handle to drag (its body
//! moves it, its ends resize it) or to focus and move with the keyboard, each message as a target
//! to click (drop it) or whose head to drag (delay it), and each lifeline as a strip where a click
//! adds a fault. Every element names what it is in `data-*` attributes; the page reads them.

use super::Escaped;
use crate::diagram::layout::{Layout, TOP};
use crate::diagram::svg::Px;
use crate::edit::handles::{Grip, Handle, HandleShape, Message};
use std::fmt::Write;

/// How to move a focused fault with the keyboard, said to screen readers and in tooltips.
pub const KEYS_HELP: &str = "↑/↓ move it, shift+↑/↓ change its length, alt for 100 ms steps, delete removes it, enter edits its numbers";

/// The half-width of a lifeline's strip where a click adds a fault.
const LANE_HIT: f32 = 22.0;

fn grip(s: &mut String, grip: Grip, x: f32, y: f32, w: f32, h: f32) {
    let _ = write!(
        s,
        r#"<rect class="grip grip--{g}" data-grip="{g}" data-y="{}" x="{}" y="{}" width="{}" height="{}"/>"#,
        Px(y + h / 2.0),
        Px(x),
        Px(y),
        Px(w),
        Px(h),
        g = grip.name()
    );
}

/// Writes one fault's handle.
fn handle(s: &mut String, h: &Handle, selected: bool) {
    let _ = write!(
        s,
        r#"<g class="handle{}" data-fault="{}" tabindex="0" role="button" aria-label="{}: {KEYS_HELP}"><title>{}</title>"#,
        if selected { " handle--selected" } else { "" },
        h.fault,
        Escaped(&h.name),
        Escaped(&h.name)
    );
    match h.shape {
        HandleShape::Bar { x, y0, y1 } => {
            let _ = write!(
                s,
                r#"<rect class="body" data-grip="move" data-y="{}" x="{}" y="{}" width="16" height="{}" rx="3"/>"#,
                Px(y0),
                Px(x - 8.0),
                Px(y0),
                Px(y1 - y0)
            );
            grip(s, Grip::Start, x - 12.0, y0 - 5.0, 24.0, 10.0);
            grip(s, Grip::End, x - 12.0, y1 - 5.0, 24.0, 10.0);
        }
        HandleShape::Band { x0, x1, y0, y1 } => {
            // A band spans lanes and often much of the run: only its tab and its edges take the
            // pointer, so what lies under it stays reachable.
            let _ = write!(
                s,
                r#"<rect class="body body--band" x="{}" y="{}" width="{}" height="{}"/><g class="tab" data-grip="move" data-y="{}"><rect x="{}" y="{}" width="24" height="20" rx="4"/><text x="{}" y="{}">⇕</text></g>"#,
                Px(x0),
                Px(y0),
                Px(x1 - x0),
                Px(y1 - y0),
                Px(y0),
                Px(x1 - 26.0),
                Px(y0 + 2.0),
                Px(x1 - 14.0),
                Px(y0 + 16.0)
            );
            grip(s, Grip::Start, x0, y0 - 5.0, x1 - x0, 10.0);
            grip(s, Grip::End, x0, y1 - 5.0, x1 - x0, 10.0);
        }
        HandleShape::Dot { x, y } => {
            let _ = write!(s, r#"<circle class="body" data-grip="move" data-y="{}" cx="{}" cy="{}" r="13"/>"#, Px(y), Px(x), Px(y));
        }
        HandleShape::Arrow { x1, y1, x2, y2 } => {
            let _ = write!(
                s,
                r#"<line class="body" data-grip="move" data-y="{}" x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
                Px(y1),
                Px(x1),
                Px(y1),
                Px(x2),
                Px(y2)
            );
            if h.ends.contains(&Grip::End) {
                let _ = write!(
                    s,
                    r#"<circle class="grip grip--end" data-grip="end" data-y="{}" cx="{}" cy="{}" r="8"/>"#,
                    Px(y2),
                    Px(x2),
                    Px(y2)
                );
            }
        }
    }
    s.push_str("</g>");
}

/// Returns the layer over `layout`: message targets and fault handles, the fault `selected`
/// marked, and, when a kind of fault to add (`tool`) is chosen, a strip on each lifeline.
pub fn handles(layout: &Layout, handles: &[Handle], messages: &[Message], selected: Option<usize>, tool: Option<&str>) -> String {
    let (w, h) = (Px(layout.width), Px(layout.height));
    let mut s = String::with_capacity(600 + messages.len() * 300 + handles.len() * 500);
    let adding = if tool.is_some() { " adding" } else { "" };
    let _ = write!(s, r#"<svg class="lockstep-diagram handles{adding}" viewBox="0 0 {w} {h}" data-testid="handles">"#);
    for (i, lane) in layout.lanes.iter().enumerate().filter(|_| tool.is_some()) {
        let _ = write!(
            s,
            r#"<rect class="lane-hit" data-lane="{i}" data-testid="lane-hit-{i}" x="{}" y="{}" width="{}" height="{}"><title>Click to add a {} on {}</title></rect>"#,
            Px(lane.x - LANE_HIT),
            Px(TOP),
            Px(LANE_HIT * 2.0),
            Px(layout.height - TOP - 12.0),
            Escaped(&tool.unwrap_or_default().replace('_', " ")),
            Escaped(&lane.name)
        );
    }
    for m in messages {
        let (x1, y1, x2, y2) = m.arrow;
        let _ = write!(
            s,
            r#"<line class="msg-hit" data-action="drop-message:{}" x1="{}" y1="{}" x2="{}" y2="{}"><title>Click to drop this message; drag its head down to delay it</title></line>"#,
            m.send,
            Px(x1),
            Px(y1),
            Px(x2),
            Px(y2)
        );
        let _ = write!(
            s,
            r#"<circle class="msg-head" data-send="{}" data-grip="end" data-y="{}" cx="{}" cy="{}" r="7"/>"#,
            m.send,
            Px(y2),
            Px(x2),
            Px(y2)
        );
    }
    // Bands first: the smaller handles sit on top of them.
    let (bands, others): (Vec<&Handle>, Vec<&Handle>) = handles.iter().partition(|h| matches!(h.shape, HandleShape::Band { .. }));
    for h in bands.into_iter().chain(others) {
        handle(&mut s, h, selected == Some(h.fault));
    }
    s.push_str(r#"<g class="drag-time" hidden=""><rect rx="4" width="92" height="20"/><text x="46" y="14"></text></g></svg>"#);
    s
}
