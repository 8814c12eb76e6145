//! The summaries under `condor_status` (machines by Arch/OpSys and State)
//! and `condor_q` (the totals line), counted over the matching ads.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::lang::eval::Evaluator;
use crate::lang::value::Value;

/// The states condor_status counts, in its column order.
pub const STATES: [&str; 7] = [
    "Owner",
    "Claimed",
    "Unclaimed",
    "Matched",
    "Preempting",
    "Backfill",
    "Drain",
];

/// One Arch/OpSys row: how many machines, and how many in each state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateCounts {
    pub total: u64,
    /// In the order of [`STATES`].
    pub states: [u64; 7],
}

impl StateCounts {
    fn add(&mut self, state: Option<usize>) {
        self.total += 1;
        if let Some(s) = state {
            self.states[s] += 1;
        }
    }
}

/// Machines by `Arch/OpSys` (sorted), with a total row.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MachineSummary {
    pub rows: BTreeMap<String, StateCounts>,
    pub total: StateCounts,
}

/// The attributes a summary reads.
pub const SUMMARY_READS: &[&str] = &["Arch", "OpSys", "State", "JobStatus"];

fn text(ev: &mut Evaluator, attr: &str) -> String {
    super::tables::string(ev, attr).unwrap_or_else(|| "?".into())
}

impl MachineSummary {
    /// Count the machine the evaluator holds as MY.
    pub fn add(&mut self, ev: &mut Evaluator) {
        let platform = format!("{}/{}", text(ev, "Arch"), text(ev, "OpSys"));
        let state = text(ev, "State");
        // A draining machine's State is "Drained".
        let which = STATES.iter().position(|s| {
            s.eq_ignore_ascii_case(&state)
                || (*s == "Drain" && state.eq_ignore_ascii_case("Drained"))
        });
        self.rows.entry(platform).or_default().add(which);
        self.total.add(which);
    }

    /// The table, as lines: a head, one row per platform, the total.
    pub fn lines(&self) -> Vec<String> {
        let mut rows: Vec<(String, &StateCounts)> =
            self.rows.iter().map(|(k, v)| (k.clone(), v)).collect();
        rows.push(("Total".into(), &self.total));
        let first = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
        let mut heads = vec!["Total"];
        heads.extend(STATES);
        let widths: Vec<usize> = heads
            .iter()
            .enumerate()
            .map(|(i, h)| {
                let widest = rows
                    .iter()
                    .map(|(_, c)| {
                        (if i == 0 { c.total } else { c.states[i - 1] })
                            .to_string()
                            .len()
                    })
                    .max()
                    .unwrap_or(0);
                h.len().max(widest)
            })
            .collect();
        let mut out = Vec::new();
        let mut head = format!("{:first$}", "");
        for (h, w) in heads.iter().zip(&widths) {
            head += &format!(" {h:>w$}");
        }
        out.push(head.trim_end().to_string());
        for (name, c) in rows {
            let mut line = format!("{name:>first$}");
            for (i, w) in widths.iter().enumerate() {
                let n = if i == 0 { c.total } else { c.states[i - 1] };
                line += &format!(" {n:>w$}");
            }
            out.push(line);
        }
        out
    }
}

/// condor_q's totals over the jobs shown.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobTotals {
    pub jobs: u64,
    pub completed: u64,
    pub removed: u64,
    pub idle: u64,
    pub running: u64,
    pub held: u64,
    pub suspended: u64,
}

impl JobTotals {
    /// Count the job the evaluator holds as MY (by its `JobStatus`).
    pub fn add(&mut self, ev: &mut Evaluator) {
        self.jobs += 1;
        let status = match ev.eval_attr("JobStatus") {
            Value::Int(i) => i,
            Value::Real(x) => x as i64,
            _ => 0,
        };
        match status {
            1 => self.idle += 1,
            // Transferring output (6) is still running.
            2 | 6 => self.running += 1,
            3 => self.removed += 1,
            4 => self.completed += 1,
            5 => self.held += 1,
            7 => self.suspended += 1,
            _ => {}
        }
    }

    pub fn line(&self) -> String {
        format!(
            "Total for query: {} jobs; {} completed, {} removed, {} idle, {} running, {} held, {} suspended",
            self.jobs, self.completed, self.removed, self.idle, self.running, self.held, self.suspended
        )
    }
}

/// A query's summary: machines or jobs, by the ads' kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Summary {
    Machines(MachineSummary),
    Jobs(JobTotals),
}

impl Summary {
    /// The summary the tools print for ads of this kind: condor_q's totals
    /// for jobs, condor_status's table for anything else.
    pub fn for_kind(kind: super::tables::AdKind) -> Summary {
        match kind {
            super::tables::AdKind::Job => Summary::Jobs(JobTotals::default()),
            _ => Summary::Machines(MachineSummary::default()),
        }
    }

    pub fn add(&mut self, ev: &mut Evaluator) {
        match self {
            Summary::Machines(m) => m.add(ev),
            Summary::Jobs(j) => j.add(ev),
        }
    }

    pub fn lines(&self) -> Vec<String> {
        match self {
            Summary::Machines(m) => m.lines(),
            Summary::Jobs(j) => vec![j.line()],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::eval::EvalOptions;
    use crate::lang::parser::parse_classad;
    use std::sync::Arc;

    #[test]
    fn machines_are_counted_by_platform_and_state() {
        let mut ev = Evaluator::new(EvalOptions::default());
        let mut s = MachineSummary::default();
        for (arch, state) in [
            ("INTEL", "Claimed"),
            ("INTEL", "Unclaimed"),
            ("SUN4u", "Claimed"),
            ("INTEL", "Drained"),
        ] {
            let ad = parse_classad(&format!(
                r#"[ Arch = "{arch}"; OpSys = "SOLARIS251"; State = "{state}" ]"#
            ))
            .unwrap();
            ev.set_ads(Some(Arc::new(ad)), None);
            s.add(&mut ev);
        }
        assert_eq!(s.rows["INTEL/SOLARIS251"].total, 3);
        assert_eq!(s.rows["INTEL/SOLARIS251"].states, [0, 1, 1, 0, 0, 0, 1]);
        assert_eq!(s.total.states[1], 2);
        let lines = s.lines();
        assert_eq!(lines.len(), 4);
        assert!(
            lines[0].ends_with("Total Owner Claimed Unclaimed Matched Preempting Backfill Drain")
        );
        assert!(lines[3].starts_with("           Total     4"), "{lines:?}");
    }

    #[test]
    fn jobs_are_counted_by_status() {
        let mut ev = Evaluator::new(EvalOptions::default());
        let mut t = JobTotals::default();
        for st in [1, 2, 2, 5, 4, 9] {
            ev.set_ads(
                Some(Arc::new(
                    parse_classad(&format!("[ JobStatus = {st} ]")).unwrap(),
                )),
                None,
            );
            t.add(&mut ev);
        }
        assert_eq!(
            t.line(),
            "Total for query: 6 jobs; 1 completed, 0 removed, 1 idle, 2 running, 1 held, 0 suspended"
        );
    }
}
