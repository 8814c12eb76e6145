//! Gangmatching: the gang table, one gang in detail, the classroom steps, the algorithm comparison, the index inspector.

pub mod gang_compare;
pub mod gang_detail;
pub mod gang_index;
pub mod gang_steps;
pub mod gang_view;
