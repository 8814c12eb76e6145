//! The job's state before its matches, as condor_q's `doJobRunAnalysis`
//! words it (`src/condor_q.V6/jobmatch.cpp`): a held job is held whatever
//! the slots say, a running one runs. The analysis still counts the slots
//! (as better-analyze does), but says this first.

use std::sync::Arc;

use crate::lang::ast::ClassAd;
use crate::lang::eval::{EvalOptions, Evaluator};
use crate::lang::value::Value;

/// condor_q's words for the job's state, `None` for an idle job that may
/// match now.
pub fn job_state(job: &Arc<ClassAd>, opts: EvalOptions) -> Option<String> {
    let mut ev = Evaluator::new(opts);
    ev.set_ads(Some(job.clone()), None);
    let int = |ev: &mut Evaluator, name: &str| match ev.eval_attr(name) {
        Value::Int(i) => Some(i),
        Value::Real(r) => Some(r as i64),
        _ => None,
    };
    let status = int(&mut ev, "JobStatus")?;
    Some(match status {
        2 | 6 | 7 => "Job is running.".into(),
        5 => match ev.eval_attr("HoldReason") {
            Value::Str(r) if !r.is_empty() => format!("Job is held.\n\nHold reason: {r}"),
            _ => "Job is held.".into(),
        },
        3 => "Job is removed.".into(),
        4 => "Job is completed.".into(),
        1 => {
            let cool = int(&mut ev, "JobCoolDownExpiration")?;
            let now = int(&mut ev, "ServerTime").unwrap_or(opts.clock.now() as i64);
            if cool > now {
                "Job is in cool down.".into()
            } else {
                return None;
            }
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(text: &str) -> Option<String> {
        job_state(
            &Arc::new(crate::lang::parser::parse_classad(text).unwrap()),
            EvalOptions::default(),
        )
    }

    #[test]
    fn condor_qs_words_for_each_state() {
        assert_eq!(state("[ JobStatus = 1 ]"), None);
        assert_eq!(state("[ Owner = \"x\" ]"), None);
        assert_eq!(
            state("[ JobStatus = 5; HoldReason = \"Job has gone over memory limit of 2048 megabytes.\" ]").as_deref(),
            Some("Job is held.\n\nHold reason: Job has gone over memory limit of 2048 megabytes.")
        );
        assert_eq!(state("[ JobStatus = 5 ]").as_deref(), Some("Job is held."));
        assert_eq!(
            state("[ JobStatus = 2 ]").as_deref(),
            Some("Job is running.")
        );
        assert_eq!(
            state("[ JobStatus = 7 ]").as_deref(),
            Some("Job is running.")
        );
        assert_eq!(
            state("[ JobStatus = 3 ]").as_deref(),
            Some("Job is removed.")
        );
        assert_eq!(
            state("[ JobStatus = 4 ]").as_deref(),
            Some("Job is completed.")
        );
        assert_eq!(
            state("[ JobStatus = 1; JobCoolDownExpiration = 2000; ServerTime = 1000 ]").as_deref(),
            Some("Job is in cool down.")
        );
        assert_eq!(
            state("[ JobStatus = 1; JobCoolDownExpiration = 900; ServerTime = 1000 ]"),
            None
        );
    }
}
