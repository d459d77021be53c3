//! Browser tests in headless Chromium: mount the app, choose a lesson, step, and read the DOM.
//! Run by `cargo test --target wasm32-unknown-unknown` (see scripts/test).

#![cfg(target_arch = "wasm32")]

mod support;

use lockstep::ui::App;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

fn set_hash(hash: &str) {
    let history = web_sys::window().unwrap().history().unwrap();
    history.replace_state_with_url(&JsValue::NULL, "", Some(if hash.is_empty() { "#" } else { hash })).unwrap();
}

fn hash() -> String {
    web_sys::window().unwrap().location().hash().unwrap()
}

/// The address's hash once stepping has paused long enough for the app to write it.
async fn settled_hash() -> String {
    let pause = js_sys::Promise::new(&mut |done, _| {
        web_sys::window().unwrap().set_timeout_with_callback_and_timeout_and_arguments_0(&done, 300).unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(pause).await.unwrap();
    hash()
}

struct Mounted {
    root: Element,
    handle: Option<yew::AppHandle<App>>,
}

impl Mounted {
    /// Mounts the app at `hash`, with predictions off: these tests step whole runs (the
    /// end-to-end tests answer predictions).
    async fn new(hash: &str) -> Mounted {
        let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
        storage.set_item("lockstep-predict", "off").unwrap();
        set_hash(hash);
        let root = document().create_element("div").unwrap();
        document().body().unwrap().append_child(&root).unwrap();
        let handle = yew::Renderer::<App>::with_root(root.clone()).render();
        yew::scheduler::flush().await;
        Mounted { root, handle: Some(handle) }
    }

    fn find(&self, selector: &str) -> Element {
        self.root.query_selector(selector).unwrap().unwrap_or_else(|| panic!("{selector} is on the page"))
    }

    fn text(&self, selector: &str) -> String {
        self.find(selector).text_content().unwrap_or_default()
    }

    async fn click(&self, selector: &str) {
        self.find(selector).dyn_into::<HtmlElement>().unwrap().click();
        yew::scheduler::flush().await;
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        if let Some(h) = self.handle.take() {
            h.destroy();
        }
        self.root.remove();
    }
}

fn trace_of(id: &str) -> support::Ran {
    support::run_lesson(id)
}

#[wasm_bindgen_test]
async fn stepping_to_the_end_shows_the_rejected_write_and_stepping_back_restores() {
    let app = Mounted::new("").await;
    app.click("[data-testid=lesson-short-pause]").await;
    app.click("[data-testid=lesson-lease-race-fenced]").await;
    assert_eq!(app.text("[data-testid=lesson-title]"), "The lease expiration race, fenced");
    let t = trace_of("lease-race-fenced");
    let n = t.events.len();

    app.click("[data-testid=to-end]").await;
    assert_eq!(app.text("[data-testid=step-count]"), format!("Step {n} of {n} · 1,570 ms"));
    assert_eq!(settled_hash().await, format!("#/lease-race-fenced/{n}"));
    let diagram = app.text("[data-testid=diagram]");
    assert!(diagram.contains("rejected: token 41 < 42"), "the rejection is drawn with its token");
    assert_eq!(app.text("[data-testid=verdict]"), "Safe: data intact, though two clients held it at once");
    assert!(app.text("[data-testid=inspect-R]").contains("data \"B\" (by Client B, token 42), version 1, highest seen: token 42"));

    // Step back to the rejection itself: the narration and the state are exactly those of that event.
    let narration = t.narration();
    let reject = narration.iter().position(|text| text.contains("rejects")).unwrap();
    for _ in 0..(n - 1 - reject) {
        app.click("[data-testid=step-back]").await;
    }
    assert_eq!(app.text("[data-testid=narration-text]"), narration[reject]);
    assert!(app.text("[data-testid=narration]").contains("write rejected"));
    assert!(app.text("[data-testid=inspect-A]").contains("believes it holds the lock (token 41)"), "A still believes");
    // One more step back: the write has not been judged yet.
    app.click("[data-testid=step-back]").await;
    assert_eq!(app.text("[data-testid=narration-text]"), narration[reject - 1]);
    assert!(app.find(".overlay .current").inner_html().contains("write"), "the arriving write is highlighted");
}

#[wasm_bindgen_test]
async fn the_unfenced_race_ends_unsafe() {
    let app = Mounted::new("#/lease-race-unfenced/0").await;
    assert_eq!(app.text("[data-testid=verdict]"), "No harm so far");
    app.click("[data-testid=to-end]").await;
    assert_eq!(app.text("[data-testid=verdict]"), "Unsafe: writes out of order");
    assert!(app.text("[data-testid=diagram]").contains("accepted, token 41: STALE, WRITES OUT OF ORDER"));
}

#[wasm_bindgen_test]
async fn a_shared_link_restores_lesson_and_step() {
    let t = trace_of("clock-jump");
    let app = Mounted::new("#/clock-jump/5").await;
    assert_eq!(app.text("[data-testid=lesson-title]"), "The lock service's clock jumps");
    assert_eq!(app.text("[data-testid=narration-text]"), t.narration()[4]);
}

#[wasm_bindgen_test]
async fn a_bad_link_gets_a_message_naming_the_problem() {
    let app = Mounted::new("#/short-pause/abc").await;
    assert_eq!(app.text("[data-testid=notice]"), "Could not read the link: the link's step “abc” is not a whole number.✕");
    drop(app);
    let app = Mounted::new("#/lease-race-fence/3").await;
    assert!(app
        .text("[data-testid=notice]")
        .starts_with("there is no lesson named “lease-race-fence”; did you mean lease-race-fenced or lease-race-unfenced?"));
    // The first lesson instead: the problem, before its fix.
    assert_eq!(app.text("[data-testid=lesson-title]"), "The same race without fencing");
    drop(app);
    let app = Mounted::new("#/short-pause/999").await;
    assert!(app.text("[data-testid=notice]").contains("asks for step 999"));
    drop(app);
    // A step past what 32-bit wasm counts clamps to the last step; it does not wrap to step 1.
    let app = Mounted::new("#/short-pause/4294967297").await;
    assert!(app.text("[data-testid=notice]").starts_with("The link asks for step 4,294,967,297, but this run has"));
    assert_eq!(&app.text("[data-testid=narration-text]"), trace_of("short-pause").narration().last().unwrap());
    drop(app);
    let long = format!("#/short-pause/{}", "9x".repeat(50_000));
    let app = Mounted::new(&long).await;
    assert!(app.text("[data-testid=notice]").chars().count() < 120, "a long link is quoted only in part");
}

#[wasm_bindgen_test]
async fn keyboard_steps_the_run() {
    let app = Mounted::new("#/short-pause/0").await;
    let key = |k: &str| {
        let init = web_sys::KeyboardEventInit::new();
        init.set_key(k);
        init.set_bubbles(true);
        let e = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
        document().dispatch_event(&e).unwrap();
    };
    key("ArrowRight");
    key("ArrowRight");
    yew::scheduler::flush().await;
    assert!(app.text("[data-testid=step-count]").starts_with("Step 2 of"));
    key("End");
    key("ArrowLeft");
    yew::scheduler::flush().await;
    let n = trace_of("short-pause").events.len();
    assert!(app.text("[data-testid=step-count]").starts_with(&format!("Step {} of {n}", n - 1)));
    key("Home");
    yew::scheduler::flush().await;
    assert!(app.text("[data-testid=narration]").contains("The setup"));
}

#[wasm_bindgen_test]
fn traces_in_the_browser_match_the_native_snapshots() {
    // Lessons with seeded latency ranges and random retry delays among them.
    let snapshots = [
        ("lease-race-fenced", include_str!("snapshots/lease-race-fenced.txt")),
        ("redlock-slow-acquisition", include_str!("snapshots/redlock-slow-acquisition.txt")),
        ("redis-renewal-carry-on", include_str!("snapshots/redis-renewal-carry-on.txt")),
        ("redis-failover-replicated", include_str!("snapshots/redis-failover-replicated.txt")),
        ("zk-herd", include_str!("snapshots/zk-herd.txt")),
        ("idempotency-table", include_str!("snapshots/idempotency-table.txt")),
    ];
    for (id, native) in snapshots {
        assert_eq!(trace_of(id).words().to_text(), native, "{id}");
    }
}

#[wasm_bindgen_test]
fn the_stress_run_has_the_native_digest() {
    assert_eq!(support::stress_1000_digest(), support::STRESS_1000_DIGEST);
}
