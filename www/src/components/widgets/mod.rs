//! What the views share: the highlighted text editor, highlighting, the explain tree, help in place.

pub mod explain;
pub mod highlight;
pub mod term;
pub mod text_editor;
