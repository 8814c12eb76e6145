//! What the user has made and where it is kept.
//!
//! - `app_state`, `analyzer_settings`, `share`, `wire`: the state as plain
//!   data, its share links and the worker's answers that carry it (the
//!   `classad-playground-state` crate, re-exported here).
//! - `actions`: every change the UI can make to it (`Action`) and the store
//!   that applies them (`Store`); views dispatch, the shell owns the store.
//! - `autosave`: the state in localStorage, big pools' texts apart.
//! - `storage`: set-aside work, the theme, the introduction seen.
//! - `examples`: the gallery's entries, which open as a state.
//! - `pool_roles`: which pool holds the jobs and which the machines.

pub use classad_playground_state::{analyzer_settings, app_state, share, wire};

pub mod actions;
pub mod autosave;
pub mod examples;
pub mod pool_roles;
pub mod storage;
