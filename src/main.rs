//! The browser app's entry point; the app itself lives in `lockstep::ui`.

#[cfg(target_arch = "wasm32")]
fn main() {
    lockstep::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("lockstep-web runs in the browser (see README.md); the command line is `lockstep`.");
    std::process::exit(2);
}
