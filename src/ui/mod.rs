//! The browser app: a thin Yew layer over the engine and the pure diagram.
//!
//! [`shell`] holds the app's state and actions with their reducer; [`route`], [`player`],
//! [`course`] and [`drill`] are plain state and [`panels`] the page's panels as text; all are pure and tested
//! natively. `web` holds the components and browser services and is compiled for wasm32 only.

pub mod course;
pub mod drill;
pub mod panels;
pub mod player;
pub mod progress;
pub mod route;
pub mod shell;

#[cfg(target_arch = "wasm32")]
mod web;

#[cfg(target_arch = "wasm32")]
pub use web::App;

/// Mounts the app on the page's body, after giving the page the diagram's style sheet (the
/// one exported SVG files carry, so the page does not download it a second time).
#[cfg(target_arch = "wasm32")]
pub fn start() {
    let document = gloo::utils::document();
    if let Ok(style) = document.create_element("style") {
        style.set_text_content(Some(crate::diagram::svg::STYLE));
        let _ = gloo::utils::head().append_child(&style);
    }
    yew::Renderer::<App>::new().render();
}
