//! Bilateral matchmaking: the pool bar, the match matrix (canvas, tiles, table), a pair in detail, the negotiation cycle with its classroom, auto-clusters.

pub mod autocluster_view;
pub mod classroom;
pub mod match_bar;
pub mod match_matrix;
pub mod matrix_canvas;
pub mod matrix_handle;
pub mod matrix_table;
pub mod negotiation;
pub mod pair_detail;
