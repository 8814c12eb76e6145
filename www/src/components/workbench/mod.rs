//! The workbench: pools of ads edited with the engine's highlighting and diagnostics, and the evaluator with its explain tree.

pub mod ad_editor;
pub mod ad_list;
pub mod ad_picker;
pub mod evaluator;
pub mod pool_editor;
pub mod pool_viewer;
