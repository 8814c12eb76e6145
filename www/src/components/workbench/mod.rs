//! The workbench: pools of ads edited with the engine's highlighting and diagnostics, and the evaluator with its explain tree.
//! Beside them, `identity`: MY and TARGET followed by identity as the pools change; `submit_bar`:
//! a pool that is a submit file, made into job ads.

pub mod ad_editor;
pub mod ad_list;
pub mod ad_picker;
pub mod evaluator;
pub mod identity;
pub mod pool_editor;
pub mod pool_viewer;
pub mod submit_bar;
