//! The Yew components and browser services: everything here touches the DOM.

mod app;
mod browser;
mod compare_table;
mod controls;
mod diagram_view;
mod event_log;
mod guarantees;
mod inspector;
mod legend;
mod narration;
mod picker;
mod questions;
mod run;

pub use app::App;
