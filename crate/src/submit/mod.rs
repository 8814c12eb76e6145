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
pub mod hash;
pub mod job;
pub mod origin;

pub use config::{HtcVersion, SubmitConfig};
pub use hash::{Param, SubmitHash};
pub use origin::Origin;
