//! The browser app's entry point; the app itself lives in `lockstep::ui`.

/// Talc in place of the default allocator: a smaller module, and faster.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

#[cfg(target_arch = "wasm32")]
fn main() {
    lockstep::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("lockstep-web runs in the browser (see README.md); the command line is `lockstep`.");
    std::process::exit(2);
}
