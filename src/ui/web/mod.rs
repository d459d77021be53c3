//! The Yew components and browser services: everything here touches the DOM.

mod app;
mod band;
mod browser;
mod controls;
mod diagram_view;
mod draft_input;
#[cfg(editing)]
mod editor_input;
mod effects;
mod event_log;
mod files;
mod fit;
#[cfg(editing)]
mod gestures;
mod kept;
mod panels;
mod screen;
mod search_worker;
mod storage;
mod view;
mod warm;

pub use app::App;
