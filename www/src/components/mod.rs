//! The playground's UI, one folder per view (workbench, matchmaking,
//! analysis, gangmatching, query), the shell around them, and the widgets
//! they share; each folder keeps its view's logic beside its components.

pub mod analysis;
pub mod gangmatching;
pub mod matchmaking;
pub mod query;
pub mod shell;
pub mod widgets;
pub mod workbench;
