//! Gangmatching: the gang table, one gang in detail, the classroom steps, the algorithm comparison, the index inspector.
//! Beside them: the algorithms offered (`algorithms`) and a finished search as the view and its steps share it (`shown`).

pub mod algorithms;
pub mod gang_compare;
pub mod gang_detail;
pub mod gang_index;
pub mod gang_steps;
pub mod gang_view;
pub mod shown;
