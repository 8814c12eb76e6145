//! The job ad of one proc, built from its [`SubmitHash`] as
//! condor_submit's `SubmitHash::make_job_ad` builds it.
