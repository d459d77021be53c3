//! Pointer and keyboard input on the editor's layer over the diagram (see
//! [`crate::ui::panels::handles`]), turned into [`Gesture`]s: a drag of a handle's grip or a
//! message's head, a click on a handle or a lifeline, a key on a focused handle. What a gesture
//! changes is worked out by [`crate::edit::handles`]; here only diagram units are read.

use crate::diagram::svg::Px;
use crate::edit::handles::{Axis, Gesture, Grip};
use crate::present::number::group_u;
use crate::ui::shell::RunRef;
use gloo::events::{EventListener, EventListenerOptions};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{Element, PointerEvent};

/// A press on the layer, until it is let go.
struct Press {
    /// The element that follows the pointer while it moves.
    moving: Element,
    /// A window's body when one of its ends is grabbed, with its y and height, to stretch.
    body: Option<(Element, f32, f32)>,
    fault: Option<usize>,
    send: Option<usize>,
    lane: Option<usize>,
    grip: Grip,
    /// The grabbed edge's y, and where the pointer started, in client pixels.
    y: f32,
    client_y: f32,
    px_per_unit: f32,
    moved: bool,
}

/// A pointer this close to where it was pressed has clicked, not dragged.
const CLICK_PX: f32 = 4.0;

/// Reads a decimal with the browser's parseFloat (Rust's float reader would weigh more than
/// this whole module).
fn decimal(text: &str) -> Option<f32> {
    let v = js_sys::parse_float(text);
    (!v.is_nan()).then_some(v as f32)
}

fn number(el: &Element, name: &str) -> Option<f32> {
    decimal(&el.get_attribute(name)?)
}

/// Returns the layer's screen pixels per diagram unit, and its top in client pixels.
fn scale(layer: &Element) -> (f32, f32) {
    let rect = layer.get_bounding_client_rect();
    let units = layer.get_attribute("viewBox").and_then(|v| decimal(v.rsplit_once(' ')?.1)).unwrap_or(1.0);
    (rect.height() as f32 / units.max(1.0), rect.top() as f32)
}

/// Reads a press on the layer: a grip, a message's head or a lifeline's strip.
fn press(e: &PointerEvent) -> Option<Press> {
    let target = e.target()?.dyn_into::<Element>().ok()?;
    let layer = target.closest("svg.handles").ok()??;
    let (px_per_unit, top) = scale(&layer);
    let client_y = e.client_y() as f32;
    let handle = target.closest("[data-fault]").ok().flatten();
    let fault = handle.as_ref().and_then(|h| h.get_attribute("data-fault")?.parse().ok());
    let send = target.get_attribute("data-send").and_then(|s| s.parse().ok());
    let lane = target.get_attribute("data-lane").and_then(|s| s.parse().ok());
    // A grip may hold parts of its own (a band's tab holds its box and glyph).
    let target = target.closest("[data-grip]").ok().flatten().unwrap_or(target);
    let grip = target.get_attribute("data-grip").and_then(|g| Grip::parse(&g)).unwrap_or(Grip::Move);
    let y = number(&target, "data-y").unwrap_or((client_y - top) / px_per_unit);
    // Moving a whole fault moves its whole handle; an edge stretches its body; a head moves alone.
    let body = match (&handle, grip) {
        (Some(h), Grip::Start | Grip::End) => h.query_selector("rect.body").ok().flatten(),
        _ => None,
    };
    let body = body.and_then(|b| Some((b.clone(), number(&b, "y")?, number(&b, "height")?)));
    let moving = match (&handle, grip) {
        (Some(h), Grip::Move) => h.clone(),
        _ => target,
    };
    let p = Press { moving, body, fault, send, lane, grip, y, client_y, px_per_unit, moved: false };
    (fault.is_some() || send.is_some() || lane.is_some()).then_some(p)
}

/// Sets a window body's top and height (never below 2 units).
fn stretch(body: &Element, y: f32, height: f32) {
    let _ = body.set_attribute("y", &Px(y).to_string());
    let _ = body.set_attribute("height", &Px(height.max(2.0)).to_string());
}

/// Shows the time a drag would move to beside the pointer.
fn show_time(layer: Option<Element>, run: &RunRef, y: f32, x: f32) {
    let Some(tip) = layer.and_then(|l| l.query_selector(".drag-time").ok().flatten()) else { return };
    let axis = Axis::new(&run.layout, &run.trace);
    let _ = tip.remove_attribute("hidden");
    let _ = tip.set_attribute("transform", &format!("translate({} {})", Px(x + 12.0), Px(y - 24.0)));
    if let Ok(Some(text)) = tip.query_selector("text") {
        text.set_text_content(Some(&format!("{} ms", group_u(axis.ms(y).0))));
    }
}

/// Listens for presses, drags and releases on the editor's layer over `run`'s diagram; `send`
/// gets each finished gesture. Returns the listeners, which stop when dropped.
pub fn on_pointer(run: RunRef, send: impl Fn(Gesture) + 'static) -> [EventListener; 3] {
    let document = gloo::utils::document();
    let pressed: Rc<RefCell<Option<Press>>> = Rc::default();
    let options = EventListenerOptions::enable_prevent_default();
    let down = {
        let pressed = pressed.clone();
        EventListener::new_with_options(&document, "pointerdown", options, move |e| {
            let e: &PointerEvent = e.unchecked_ref();
            if let Some(p) = press(e).filter(|_| e.button() == 0) {
                // Keep the page from selecting text or scrolling while a handle is dragged.
                if p.send.is_some() || p.fault.is_some() {
                    e.prevent_default();
                }
                *pressed.borrow_mut() = Some(p);
            }
        })
    };
    let moved = {
        let pressed = pressed.clone();
        EventListener::new(&document, "pointermove", move |e| {
            let e: &PointerEvent = e.unchecked_ref();
            let mut pressed = pressed.borrow_mut();
            let Some(p) = pressed.as_mut().filter(|p| p.lane.is_none()) else { return };
            let dy = e.client_y() as f32 - p.client_y;
            p.moved |= dy.abs() > CLICK_PX;
            if p.moved {
                let units = dy / p.px_per_unit;
                let _ = p.moving.set_attribute("transform", &format!("translate(0 {})", Px(units)));
                if let Some((body, y, height)) = &p.body {
                    let (y, height) = if p.grip == Grip::Start { (y + units, height - units) } else { (*y, height + units) };
                    stretch(body, y, height);
                }
                let layer = p.moving.closest("svg.handles").ok().flatten();
                let x = layer.as_ref().map_or(0.0, |l| (e.client_x() as f32 - l.get_bounding_client_rect().left() as f32) / p.px_per_unit);
                show_time(layer, &run, p.y + units, x);
            }
        })
    };
    let up = EventListener::new(&document, "pointerup", move |e| {
        let e: &PointerEvent = e.unchecked_ref();
        let Some(p) = pressed.borrow_mut().take() else { return };
        let _ = p.moving.remove_attribute("transform");
        if let Some((body, y, height)) = &p.body {
            stretch(body, *y, *height);
        }
        let to = p.y + (e.client_y() as f32 - p.client_y) / p.px_per_unit;
        let gesture = match (p.moved, p.fault, p.send, p.lane) {
            (true, Some(fault), _, _) => Gesture::Drag { fault, grip: p.grip, from: p.y, to, px_per_unit: p.px_per_unit },
            (true, None, Some(send), _) => Gesture::Delay { send, from: p.y, to, px_per_unit: p.px_per_unit },
            (false, Some(fault), _, _) => Gesture::Select(fault),
            (false, None, None, Some(lane)) => Gesture::Add { lane, y: p.y },
            _ => return,
        };
        send(gesture);
    });
    [down, moved, up]
}

/// Reads a key pressed on a focused fault handle (see [`Gesture::key`]).
pub fn key(e: &web_sys::KeyboardEvent) -> Option<Gesture> {
    let target = e.target()?.dyn_into::<Element>().ok()?;
    let fault = target.get_attribute("data-fault")?.parse().ok()?;
    Gesture::key(fault, &e.key(), e.alt_key(), e.shift_key())
}

/// Keeps the two diagrams drawn side by side scrolled together. Returns the listener, which
/// stops when dropped.
pub fn scroll_together() -> EventListener {
    let options = EventListenerOptions::run_in_capture_phase();
    EventListener::new_with_options(&gloo::utils::document(), "scroll", options, |e| {
        let Some(el) = e.target().and_then(|t| t.dyn_into::<Element>().ok()) else { return };
        if !el.matches(".pair .diagram-scroll").unwrap_or(false) {
            return;
        }
        let Ok(all) = gloo::utils::document().query_selector_all(".pair .diagram-scroll") else { return };
        for i in 0..all.length() {
            if let Some(other) = all.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
                if other != el && (other.scroll_top() - el.scroll_top()).abs() > 1 {
                    other.set_scroll_top(el.scroll_top());
                }
            }
        }
    })
}
