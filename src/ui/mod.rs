//! The browser app: a thin Yew layer over the engine and the pure diagram.
//!
//! [`route`] and [`player`] are plain state, tested natively; everything that touches the DOM
//! is compiled for wasm32 only.

pub mod player;
pub mod route;

#[cfg(target_arch = "wasm32")]
mod app;
#[cfg(target_arch = "wasm32")]
mod browser;
#[cfg(target_arch = "wasm32")]
mod controls;
#[cfg(target_arch = "wasm32")]
mod diagram_view;
#[cfg(target_arch = "wasm32")]
mod event_log;
#[cfg(target_arch = "wasm32")]
mod guarantees;
#[cfg(target_arch = "wasm32")]
mod inspector;
#[cfg(target_arch = "wasm32")]
mod legend;
#[cfg(target_arch = "wasm32")]
mod narration;
#[cfg(target_arch = "wasm32")]
mod picker;
#[cfg(target_arch = "wasm32")]
mod run;

#[cfg(target_arch = "wasm32")]
pub use app::App;

/// Mounts the app on the page's body.
#[cfg(target_arch = "wasm32")]
pub fn start() {
    yew::Renderer::<App>::new().render();
}
