//! One module per subcommand: its flags (a clap `Args` struct) and `run`.

pub mod analyze;
pub mod autocluster;
pub mod eval;
pub mod fmt;
pub mod gang;
pub mod negotiate;
pub mod query;
pub mod refs;
pub mod submit;
pub mod workload;
