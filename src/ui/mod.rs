//! The browser app: a thin Yew layer over the engine and the pure diagram.
//!
//! [`route`] and [`player`] are plain state, tested natively; `web` holds the components and
//! is compiled for wasm32 only.

pub mod player;
pub mod route;

#[cfg(target_arch = "wasm32")]
mod web;

#[cfg(target_arch = "wasm32")]
pub use web::App;

/// Mounts the app on the page's body.
#[cfg(target_arch = "wasm32")]
pub fn start() {
    yew::Renderer::<App>::new().render();
}
