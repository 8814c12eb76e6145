//! Submit description files turned into job ads, as HTCondor's
//! condor_submit makes them (`src/condor_utils/submit_utils.cpp`,
//! `config.cpp` and `docs/man-pages/condor_submit.rst` in HTCondor's
//! sources are the specification).
//!
//! Two halves: the submit language (the file read into statements, the
//! macro table and its expansion, the queue statements and their items)
//! and the job ads built from the macro table of each proc (`job`). They
//! meet at [`SubmitHash`]: what condor_submit's `SubmitHash` answers to
//! `submit_param`, a key's value expanded for the proc being built.

pub mod config;
pub mod explain;
pub mod hash;
pub mod job;
pub mod lines;
pub mod macros;
pub mod origin;
mod printf;
pub mod queue;
pub mod reader;
pub mod run;
pub mod source;

pub use config::{HtcVersion, SubmitConfig};
pub use hash::{Param, SubmitHash};
pub use origin::Origin;
pub use reader::Problem;
pub use run::{submit, SubmitInput, Submitted};
pub use source::SubmitSource;
