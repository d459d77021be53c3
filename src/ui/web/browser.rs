//! The few browser services the app uses: the URL hash, fetching a file, downloads, the theme,
//! scrolling.

use crate::ui::panels::{CURRENT_CLASS, ROUTE_ATTRIBUTE};
use crate::ui::route;
use crate::ui::shell::effect::Content;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

fn window() -> web_sys::Window {
    web_sys::window().expect("the app runs in a window")
}

/// Returns the location hash, `#` included.
pub fn hash() -> String {
    window().location().hash().unwrap_or_default()
}

/// Shows `hash` in the address bar: a new history entry for another page, else in place.
pub fn show_hash(hash: &str) {
    let now = self::hash();
    if now != hash {
        // No hash at all (the front page) is the page's own address without one.
        let location = window().location();
        let url = if hash.is_empty() {
            format!("{}{}", location.pathname().unwrap_or_default(), location.search().unwrap_or_default())
        } else {
            hash.to_string()
        };
        if let Ok(history) = window().history() {
            // Another lesson is a new entry, so Back returns to the last one; another step is not.
            let _ = if route::is_new_page(&now, hash) {
                history.push_state_with_url(&JsValue::NULL, "", Some(&url))
            } else {
                history.replace_state_with_url(&JsValue::NULL, "", Some(&url))
            };
        }
    }
}

/// The tag of the element a keyboard event is aimed at.
fn key_target(e: &web_sys::KeyboardEvent) -> String {
    e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).map(|el| el.tag_name()).unwrap_or_default()
}

/// Says whether a key was pressed in a form field (which takes the keys for itself).
pub fn in_field(e: &web_sys::KeyboardEvent) -> bool {
    matches!(key_target(e).as_str(), "INPUT" | "SELECT" | "TEXTAREA")
}

/// Says whether a key was pressed in a field that takes text.
pub fn in_text_field(e: &web_sys::KeyboardEvent) -> bool {
    matches!(key_target(e).as_str(), "INPUT" | "TEXTAREA")
}

/// Focuses an HTML or SVG element (both have focus(), on different interfaces).
pub fn focus(el: &web_sys::Element) {
    focus_scrolling(el, true);
}

/// Focuses an element, scrolling it into view or (`scroll` false) leaving the page where it is.
fn focus_scrolling(el: &web_sys::Element, scroll: bool) {
    let f = js_sys::Reflect::get(el, &JsValue::from_str("focus")).ok().and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    if let Some(f) = f {
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &JsValue::from_str("preventScroll"), &JsValue::from_bool(!scroll));
        let _ = f.call1(el, &options);
    }
}

/// Focuses the element matching `selector`, if there is one; says whether there was.
pub fn focus_on(selector: &str) -> bool {
    let el = window().document().and_then(|d| d.query_selector(selector).ok().flatten());
    el.inspect(focus).is_some()
}

/// Fetches a file of the site as text and hands it to `done`; the error says why it could not.
/// (A request with one listener: no futures machinery in the page for its one download.)
pub fn fetch_text(url: &str, done: impl FnOnce(Result<String, String>) + 'static) {
    let Ok(request) = web_sys::XmlHttpRequest::new() else { return done(Err("this browser cannot fetch files".into())) };
    if request.open("GET", url).and_then(|()| request.send()).is_err() {
        return done(Err(format!("{url} could not be requested")));
    }
    let url = url.to_string();
    let on_end = request.clone();
    gloo::events::EventListener::once(&request, "loadend", move |_| {
        done(match on_end.status().unwrap_or(0) {
            0 => Err("the network failed".into()),
            200 => on_end.response_text().ok().flatten().ok_or_else(|| format!("{url} is not text")),
            status => Err(format!("the server answered {status} for {url}")),
        })
    })
    .forget();
}

/// Returns `attribute` of the element under an event (or its nearest ancestor) that matches
/// `selector`: how one handler serves a whole list of buttons.
pub fn clicked_attribute(e: &web_sys::Event, selector: &str, attribute: &str) -> Option<String> {
    let el = e.target()?.dyn_into::<web_sys::Element>().ok()?;
    el.closest(selector).ok().flatten()?.get_attribute(attribute)
}

/// Marks the picker's entry for `link` as the current page, and no other.
pub fn mark_current(link: &str) {
    let Some(document) = window().document() else { return };
    let select = |selector: &str| document.query_selector(selector).ok().flatten();
    if let Some(old) = select(&format!(".lesson-link.{CURRENT_CLASS}")) {
        let _ = old.set_attribute("class", "lesson-link");
        let _ = old.remove_attribute("aria-current");
    }
    if let Some(new) = select(&format!(".lesson-link[{ROUTE_ATTRIBUTE}=\"{link}\"]")) {
        let _ = new.set_attribute("class", &format!("lesson-link {CURRENT_CLASS}"));
        let _ = new.set_attribute("aria-current", "page");
    }
}

/// Marks each lesson of the lesson menu by what this device has done with it
/// (`data-progress`: `visited` or `finished`, which the style sheet shows as a mark).
pub fn mark_progress(visited: &[String], finished: &[String]) {
    let Some(document) = window().document() else { return };
    let Ok(links) = document.query_selector_all(&format!(".sidebar .lesson-link[{ROUTE_ATTRIBUTE}]")) else { return };
    for i in 0..links.length() {
        let Some(el) = links.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) else { continue };
        let link = el.get_attribute(ROUTE_ATTRIBUTE).unwrap_or_default();
        let Ok(Some(route::Route { target: route::Target::Lesson(id), .. })) = route::parse(&link) else { continue };
        let mark = if finished.contains(&id) {
            Some("finished")
        } else if visited.contains(&id) {
            Some("visited")
        } else {
            None
        };
        let _ = match mark {
            Some(m) => el.set_attribute("data-progress", m),
            None => el.remove_attribute("data-progress"),
        };
    }
}

/// Scrolls the page to its top.
pub fn to_top() {
    window().scroll_to_with_x_and_y(0.0, 0.0);
}

/// Opens the editor's page (`edit/`) at the same link.
pub fn open_editor() {
    let _ = window().location().assign(&format!("edit/{}", hash()));
}

/// Opens the player's page (a folder up from the editor's) at the same link.
pub fn open_player() {
    let _ = window().location().assign(&format!("../{}", hash()));
}

/// Gathers text into pieces of a JavaScript array, for a file made of parts.
struct Parts {
    array: js_sys::Array,
    piece: String,
}

impl std::fmt::Write for Parts {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.piece.push_str(s);
        if self.piece.len() >= 1 << 16 {
            self.array.push(&JsValue::from_str(&self.piece));
            self.piece.clear();
        }
        Ok(())
    }
}

/// Offers a file download, its text written a piece at a time into the file's parts.
pub fn download(filename: &str, mime: &str, content: &Content) {
    let mut parts = Parts { array: js_sys::Array::new(), piece: String::new() };
    if content.write_to(&mut parts).is_err() {
        return;
    }
    parts.array.push(&JsValue::from_str(&parts.piece));
    let parts = parts.array;
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    let document = window().document().expect("a window has a document");
    if let Ok(a) = document.create_element("a") {
        let a: web_sys::HtmlAnchorElement = a.unchecked_into();
        a.set_href(&url);
        a.set_download(filename);
        a.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// Switches the page between the light and dark theme, and saves the choice. (The page sets
/// the saved or preferred theme itself before the first paint.)
pub fn toggle_theme() {
    let Some(root) = window().document().and_then(|d| d.document_element()) else { return };
    let theme = if root.get_attribute("data-theme").as_deref() == Some("dark") { "light" } else { "dark" };
    let _ = root.set_attribute("data-theme", theme);
    super::storage::keep_setting("lockstep-theme", theme);
}

/// The widest screen on which the lesson list is a menu (see `.sidebar` in the style sheet).
const MENU_SCREENS: &str = "(max-width: 1499px)";

/// Says whether the lesson menu is open.
pub fn menu_open() -> bool {
    window().document().and_then(|d| d.document_element()).is_some_and(|root| root.has_attribute("data-menu"))
}

/// Opens or closes the lesson menu (the lesson list, on screens too narrow to show it beside
/// the run); `open: None` toggles it. While it is open the rest of the page is inert, so the
/// keyboard and a screen reader stay in it; closing it returns the focus to its button.
pub fn menu(open: Option<bool>) {
    let Some(document) = window().document() else { return };
    let Some(root) = document.document_element() else { return };
    let was_open = root.has_attribute("data-menu");
    let is_menu = window().match_media(MENU_SCREENS).ok().flatten().is_some_and(|m| m.matches());
    let open = open.unwrap_or(!was_open) && is_menu;
    if open == was_open {
        return;
    }
    let _ = if open { root.set_attribute("data-menu", "") } else { root.remove_attribute("data-menu") };
    if let Ok(rest) = document.query_selector_all(".app > :not(.sidebar)") {
        for i in 0..rest.length() {
            if let Some(el) = rest.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) {
                let _ = if open { el.set_attribute("inert", "") } else { el.remove_attribute("inert") };
            }
        }
    }
    if open {
        let _ = focus_on(".sidebar .lesson-link.is-current") || focus_on(".sidebar .menu-close");
    } else {
        focus_on("[data-testid=menu]");
    }
}

/// Keeps Tab inside the open lesson menu: from its last control to its first, and Shift+Tab
/// the other way. Returns whether it moved the focus.
pub fn wrap_tab(shift: bool) -> bool {
    let Some(document) = window().document() else { return false };
    // The menu's controls the keyboard can reach now: its buttons and the questions' summaries,
    // but not those inside a question that is folded.
    let Ok(all) = document.query_selector_all(".sidebar button, .sidebar summary") else { return false };
    let shown: Vec<web_sys::Element> = (0..all.length())
        .filter_map(|i| all.item(i)?.dyn_into::<web_sys::Element>().ok())
        .filter(|el| el.tag_name() == "SUMMARY" || el.closest("details:not([open])").ok().flatten().is_none())
        .collect();
    let (Some(first), Some(last)) = (shown.first(), shown.last()) else { return false };
    let active = document.active_element();
    let (from, to) = if shift { (first, last) } else { (last, first) };
    if active.as_ref() == Some(from) || active.as_ref().is_none_or(|a| !contains(".sidebar", a.unchecked_ref())) {
        focus(to);
        return true;
    }
    false
}

/// Says whether `node` is inside the element matching `selector`.
fn contains(selector: &str, node: &web_sys::Node) -> bool {
    window().document().and_then(|d| d.query_selector(selector).ok().flatten()).is_some_and(|el| el.contains(Some(node)))
}

/// Copies `text` to the clipboard; returns whether the browser offers a clipboard.
pub fn copy(text: &str) -> bool {
    let clipboard = js_sys::Reflect::get(&window().navigator(), &JsValue::from_str("clipboard")).ok().filter(|c| !c.is_undefined());
    let Some(clipboard) = clipboard else { return false };
    let write = js_sys::Reflect::get(&clipboard, &JsValue::from_str("writeText")).ok().and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    write.is_some_and(|write| write.call1(&clipboard, &JsValue::from_str(text)).is_ok())
}

/// Says whether the page's query (`?…`) has `word` in it.
pub fn query_has(word: &str) -> bool {
    window().location().search().is_ok_and(|q| q.contains(word))
}

/// Returns the page's address without its query (`?embed`) or hash.
fn page() -> String {
    let location = window().location();
    format!("{}{}", location.origin().unwrap_or_default(), location.pathname().unwrap_or_default())
}

/// Returns the code that embeds the run on screen (titled `title`) in another page: 960 × 600,
/// shrinking with a narrower page, and a comment that says how to change it.
pub fn embed_code(title: &str) -> String {
    format!(
        r#"<!-- Lockstep works at any size from 640×480: change width and height to fit your slide. --><iframe src="{}?embed{}" title="Lockstep: {}" width="960" height="600" style="border:0; max-width:100%" loading="lazy"></iframe>"#,
        page(),
        hash(),
        crate::ui::panels::Escaped(title)
    )
}

/// Returns the address that opens `hash` in presenter mode.
pub fn presenting(hash: &str) -> String {
    format!("{}?present{hash}", page())
}

/// Opens the page of notes (`?notes`), which follows the course this page takes, in a window of
/// its own.
pub fn open_notes() {
    let _ = window().open_with_url_and_target_and_features(&format!("{}?notes", page()), "lockstep-notes", "width=640,height=720");
}

/// Returns the address of the run on screen in a full page of its own.
pub fn full_page() -> String {
    format!("{}{}", page(), hash())
}

/// Returns the page's whole address.
pub fn address() -> String {
    window().location().href().unwrap_or_default()
}

/// Opens `url` in a new tab.
pub fn open_tab(url: &str) {
    let _ = window().open_with_url_and_target(url, "_blank");
}

/// Runs `f` once in the next animation frame, when the browser lays the page out anyway, rather
/// than forcing a layout in the middle of a step; or after 100 ms, if no frame has come by then
/// (a browser busy or not painting holds frames back). Dropping what it returns cancels it.
pub fn in_next_frame(f: impl FnOnce() + 'static) -> impl Sized {
    let [first, later] = either(f);
    let frame = gloo::render::request_animation_frame(move |_| first());
    (frame, gloo::timers::callback::Timeout::new(100, later))
}

/// Two calls of which the first made runs `f` and the other does nothing.
fn either<F: FnOnce() + 'static>(f: F) -> [impl Fn() + 'static; 2] {
    let f = std::rc::Rc::new(std::cell::Cell::new(Some(f)));
    let call = |f: std::rc::Rc<std::cell::Cell<Option<F>>>| move || f.take().map_or((), |f| f());
    [call(f.clone()), call(f)]
}

/// Runs `f` once when the browser is next idle (after 100 ms where it cannot say when it is).
/// Dropping what it returns cancels it.
pub fn when_idle(f: impl FnOnce() + 'static) -> impl Sized {
    /// An idle callback asked for, cancelled when dropped.
    struct Idle {
        id: u32,
        /// Kept until called or cancelled.
        _callback: Closure<dyn FnMut()>,
    }
    impl Drop for Idle {
        fn drop(&mut self) {
            window().cancel_idle_callback(self.id);
        }
    }
    let [first, later] = either(f);
    let callback = Closure::<dyn FnMut()>::new(first);
    match window().request_idle_callback(callback.as_ref().unchecked_ref()) {
        Ok(id) => Ok(Idle { id, _callback: callback }),
        Err(_) => Err(gloo::timers::callback::Timeout::new(100, later)),
    }
}

/// Scrolls `container` so that a point `y_px` down its content is comfortably in view.
pub fn keep_in_view(container: &web_sys::Element, y_px: f64, x_px: Option<f64>) {
    let top = f64::from(container.scroll_top());
    let height = f64::from(container.client_height());
    let margin = (height * 0.12).min(100.0);
    // What has happened is the story: the cursor goes low in the box, with the past above it.
    if y_px < top + margin || y_px > top + height - margin {
        container.set_scroll_top((y_px - height * 0.85).max(0.0) as i32);
    }
    // Sideways too, when the diagram is wider than its box (zoomed in, or a phone).
    let (left, width) = (f64::from(container.scroll_left()), f64::from(container.client_width()));
    if let Some(x) = x_px.filter(|&x| x < left + 60.0 || x > left + width - 60.0) {
        container.set_scroll_left((x - width / 2.0).max(0.0) as i32);
    }
}

/// What only the editor's page uses: its fields, their focus, and copying its link.
#[cfg(editing)]
pub mod fields {
    use super::window;
    use crate::edit::input::Input;
    use gloo::events::{EventListener, EventListenerOptions};
    use wasm_bindgen::{JsCast, JsValue};

    /// Returns the field path (the element's `attribute`), kind (`data-kind`) and value of the form
    /// field an input or change event came from: `true` or `false` for a checkbox.
    pub fn changed(e: &web_sys::Event, attribute: &str) -> Option<(String, Input, String)> {
        let el = e.target()?.dyn_into::<web_sys::Element>().ok()?;
        let path = el.get_attribute(attribute)?;
        let kind = Input::parse(&el.get_attribute("data-kind").unwrap_or_default());
        let key = if kind == Input::Flag { "checked" } else { "value" };
        let value = js_sys::Reflect::get(&el, &JsValue::from_str(key)).ok()?;
        let text = value.as_string().or_else(|| value.as_bool().map(|b| b.to_string()))?;
        Some((path, kind, text))
    }

    /// Runs `f` in the next animation frame, after the page has been written again.
    pub fn after_render(f: impl FnOnce() + 'static) {
        let f = wasm_bindgen::closure::Closure::once_into_js(f);
        let _ = window().request_animation_frame(f.unchecked_ref());
    }

    /// Focuses the element matching `selector`, unless something else already has the focus;
    /// `scroll` says whether to bring it into view.
    pub fn refocus(selector: &str, scroll: bool) {
        let Some(document) = window().document() else { return };
        let idle = document.active_element().is_none_or(|el| el.tag_name() == "BODY");
        if let (true, Ok(Some(el))) = (idle, document.query_selector(selector)) {
            super::focus_scrolling(&el, scroll);
        }
    }

    /// Scrolls the element matching `selector` into view, and focuses it if `focus`.
    pub fn reveal(selector: &str, focus: bool) {
        let Some(el) = window().document().and_then(|d| d.query_selector(selector).ok().flatten()) else { return };
        let options = web_sys::ScrollIntoViewOptions::new();
        options.set_block(web_sys::ScrollLogicalPosition::Nearest);
        el.scroll_into_view_with_scroll_into_view_options(&options);
        if focus {
            super::focus(&el);
        }
    }

    /// Hands `open` the text of a scenario file the user picks with an editor's file field
    /// (`data-open-file`), drops on the page, or pastes outside a field; or why it cannot be read.
    /// Returns the listeners, which stop when dropped.
    pub fn on_scenario_file(open: impl Fn(Result<String, String>) + Clone + 'static) -> [EventListener; 4] {
        let document = gloo::utils::document();
        let picked = open.clone();
        let change = EventListener::new(&document, "change", move |e| {
            let Some(input) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
            if input.has_attribute("data-open-file") {
                if let Some(file) = input.files().and_then(|f| f.get(0)) {
                    super::super::files::read(&file, picked.clone());
                }
                input.set_value("");
            }
        });
        let options = EventListenerOptions::enable_prevent_default();
        let over = EventListener::new_with_options(&document, "dragover", options, |e| e.prevent_default());
        let dropped = open.clone();
        let drop = EventListener::new_with_options(&document, "drop", options, move |e| {
            let e: &web_sys::DragEvent = e.unchecked_ref();
            if let Some(file) = e.data_transfer().and_then(|d| d.files()).and_then(|f| f.get(0)) {
                e.prevent_default();
                super::super::files::read(&file, dropped.clone());
            }
        });
        let paste = EventListener::new(&document, "paste", move |e| {
            let e: &web_sys::ClipboardEvent = e.unchecked_ref();
            let tag = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).map(|el| el.tag_name()).unwrap_or_default();
            let text = e.clipboard_data().and_then(|d| d.get_data("text").ok()).unwrap_or_default();
            if !matches!(tag.as_str(), "INPUT" | "TEXTAREA") && text.trim_start().starts_with('{') {
                open(Ok(text));
            }
        });
        [change, over, drop, paste]
    }
}
