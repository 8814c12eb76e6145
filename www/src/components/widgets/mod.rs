//! What the views share: the highlighted text editor, highlighting, the explain tree, help in place.
//! And the logic they share: reading an evaluation trace (`trace`), numbers in words (`words`), keyboard focus after an action (`focus`).

pub mod escape;
pub mod explain;
pub mod focus;
pub mod highlight;
pub mod numbers;
pub mod term;
pub mod text_editor;
pub mod trace;
pub mod words;
