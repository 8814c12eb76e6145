//! The second page module: every view but the workbench and the gallery
//! (the matchmaking views, the analyzer, gangmatching, the pool query).
//! They are most of the app's code and the workbench needs none of it, so
//! they are built into a wasm module of their own (`bin/views.rs`, a Yew
//! app of its own) that the page loads when one is first wanted, or once
//! the page has settled.
//!
//! - `host`: the page's side: loads the module, mounts it, keeps it fed.
//! - `root`: the module's side: the views, their matchmaking worker.
//! - `wire`: what crosses between the two (both link it).

pub mod host;
pub mod root;
pub mod wire;
