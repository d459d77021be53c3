//! Pure presentation of a trace: layout geometry, SVG and Mermaid text, and the inspector's
//! per-event snapshots. Tested natively; nothing here touches the DOM.

pub mod inspect;
pub mod layout;
pub mod mermaid;
pub mod obstacles;
pub mod svg;
pub mod window;

pub use layout::{layout, Layout};
