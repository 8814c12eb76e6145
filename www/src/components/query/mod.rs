//! Pool queries, as condor_status and condor_q ask them.

pub mod query_view;
