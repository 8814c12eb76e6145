//! The analyzer (why doesn't it match?): summary, conditions, suggestions, the lattice of conflicts, the plane of Nobody Likes Me, the report.

pub mod analyzer;
pub mod analyzer_lattice;
pub mod analyzer_plane;
pub mod analyzer_report;
pub mod analyzer_results;
