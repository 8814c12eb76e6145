//! Bilateral matchmaking: the pool bar, the match matrix (canvas, tiles, table), a pair in detail, the negotiation cycle with its classroom, auto-clusters.
//! Beside them, the matrix' own logic: its layout (`matrix_layout`: order, filter, tiles), the tiles fetched (`matrix_cache`) and a finished cycle as the negotiation view and its classroom share it (`shown`).

pub mod autocluster_view;
pub mod classroom;
pub mod match_bar;
pub mod match_matrix;
pub mod matrix_cache;
pub mod matrix_canvas;
pub mod matrix_handle;
pub mod matrix_layout;
pub mod matrix_table;
pub mod negotiation;
pub mod pair_detail;
pub mod shown;
