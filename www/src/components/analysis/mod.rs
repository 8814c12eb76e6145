//! The analyzer (why doesn't it match?): summary, conditions, suggestions, the lattice of conflicts, the plane of Nobody Likes Me, the report.
//! Beside them, their logic: the worker's answers as the view reads them (`answers`), what applying a suggestion does to the job's edits (`edits`), Figure 4's lattice (`lattice`), Figure 5's plane (`plane`), the numbers as shown (`figures`), and a finished analysis as the view and its parts share it (`shown`). The choices that persist are in `state/analyzer_settings.rs`.

pub mod analyzer;
pub mod analyzer_lattice;
pub mod analyzer_plane;
pub mod analyzer_rejections;
pub mod analyzer_report;
pub mod analyzer_results;
pub mod analyzer_submit;
pub mod answers;
pub mod edits;
pub mod figures;
pub mod lattice;
pub mod plane;
pub mod shown;
#[cfg(test)]
mod tests;
