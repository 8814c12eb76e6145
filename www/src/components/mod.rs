//! The playground's components, one per file.

pub mod evaluator;
pub mod explain;
pub mod gallery;
pub mod header;
pub mod highlight;
pub mod pool_editor;
