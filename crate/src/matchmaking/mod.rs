//! Bilateral matchmaking (thesis ch. 2-3, the Condor manual): whether two
//! ads accept each other, ads compiled for fast matching, the match matrix,
//! the negotiation cycle with auto-clustering, pool-supplied functions and
//! post-match `$$(attr)` substitution (Condor-G), and the thesis' base
//! workload.

pub mod autocluster;
mod best_first;
pub mod claims;
pub mod compiled;
mod docking;
pub mod matching;
pub mod matrix;
pub mod negotiate;
pub mod substitute;
mod survey;
pub mod userfn;
pub mod workload;
