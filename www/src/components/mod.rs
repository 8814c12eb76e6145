//! The playground's components, one per file.

pub mod ad_editor;
pub mod ad_list;
pub mod ad_picker;
pub mod evaluator;
pub mod explain;
pub mod gallery;
pub mod header;
pub mod highlight;
pub mod pool_editor;
pub mod pool_viewer;
pub mod text_editor;
