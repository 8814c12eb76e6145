//! The playground's UI, one folder per view (workbench, matchmaking,
//! analysis, gangmatching, query), the shell around them, and the widgets
//! they share. Every component module is also reachable by its own name
//! (`crate::components::explain`), so views name each other plainly.

pub mod analysis;
pub mod gangmatching;
pub mod matchmaking;
pub mod query;
pub mod shell;
pub mod widgets;
pub mod workbench;

pub use analysis::{analyzer, analyzer_lattice, analyzer_plane, analyzer_report, analyzer_results};
pub use gangmatching::{gang_compare, gang_detail, gang_index, gang_steps, gang_view};
pub use matchmaking::{
    autocluster_view, classroom, match_bar, match_matrix, matrix_canvas, matrix_handle,
    matrix_table, negotiation, pair_detail,
};
pub use query::query_view;
pub use shell::{gallery, header, intro, set_aside};
pub use widgets::{explain, highlight, term, text_editor};
pub use workbench::{ad_editor, ad_list, ad_picker, evaluator, pool_editor, pool_viewer};
