//! The Yew components and browser services: everything here touches the DOM.

mod app;
mod browser;
mod controls;
mod diagram_view;
mod editing;
mod event_log;
mod finder;
mod fit;
#[cfg(feature = "editor")]
mod gestures;
mod legend;
mod panels;
mod run;

pub use app::App;
