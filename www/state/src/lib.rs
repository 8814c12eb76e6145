//! What a ClassAd Playground user has made, as plain data: the page (a
//! Yew app, `classad-playground`) keeps it, its engine worker opens and
//! packs it, and nothing here needs a browser, so it is tested natively and
//! in wasm32 without the app's web dependencies.
//!
//! - `app_state`: the state itself (`AppState`: pools, expression, chosen
//!   ads, view, each view's settings): what autosave stores and a share link carries.
//! - `analyzer_settings`: the analyzer's choices (job, edits, pins, plane axes, undo).
//! - `share`: share links (the state in the URL fragment).
//! - `wire`: a state as the engine worker hands it to the page (its texts apart).

pub mod analyzer_settings;
pub mod app_state;
pub mod share;
pub mod wire;
