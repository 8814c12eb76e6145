//! What the user has made and where it is kept.
//!
//! - `app_state`: the state itself (`AppState`: pools, expression, chosen
//!   ads, view, each view's settings): what autosave stores and a share link carries.
//! - `actions`: every change the UI can make to it (`Action`) and the store
//!   that applies them (`Store`); views dispatch, the shell owns the store.
//! - `autosave`: the state in localStorage, big pools' texts apart.
//! - `storage`: set-aside work, the theme, the introduction seen.
//! - `share`: share links (the state in the URL fragment).
//! - `examples`: the gallery's entries, which open as a state.
//! - `pool_roles`: which pool holds the jobs and which the machines.
//! - `analyzer_settings`: the analyzer's choices (job, edits, pins, plane axes, undo).
//! - `wire`: a state as the engine worker hands it to the page (its texts apart).

pub mod actions;
pub mod analyzer_settings;
pub mod app_state;
pub mod autosave;
pub mod examples;
pub mod pool_roles;
pub mod share;
pub mod storage;
pub mod wire;
