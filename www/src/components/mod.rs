//! The playground's components, one per file.

pub mod ad_editor;
pub mod ad_list;
pub mod ad_picker;
pub mod analyzer;
pub mod analyzer_lattice;
pub mod analyzer_plane;
pub mod analyzer_report;
pub mod analyzer_results;
pub mod autocluster_view;
pub mod classroom;
pub mod evaluator;
pub mod explain;
pub mod gallery;
pub mod header;
pub mod highlight;
pub mod match_bar;
pub mod match_matrix;
pub mod matrix_canvas;
pub mod matrix_handle;
pub mod negotiation;
pub mod pair_detail;
pub mod pool_editor;
pub mod pool_viewer;
pub mod text_editor;
