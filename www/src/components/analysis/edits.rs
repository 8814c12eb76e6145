//! What the analyzer's buttons do to the job's edits: a suggestion, a fix
//! or a job change (Nobody Likes Me) applied becomes overrides, and pinned
//! predicates follow the clause they were in.

use crate::components::analysis::answers::{Action, JobChange, Suggestion};
use crate::components::analysis::answers::{ChangedAttributes, FixAttributes};
use crate::state::analyzer_settings::{set_override, Edits};

/// The edits after applying a suggestion: the job's requirements become
/// the suggestion's, and pinned predicates of its clause move down past
/// the predicates it removes (the rewritten clause keeps the order).
pub fn apply_suggestion(edits: &Edits, attribute: &str, s: &Suggestion) -> Edits {
    let mut e = edits.clone();
    set_override(&mut e.overrides, attribute, &s.requirements);
    let removed: Vec<usize> = s
        .changes
        .iter()
        .filter(|c| c.action == Action::Remove)
        .map(|c| c.predicate)
        .collect();
    e.fixed = e
        .fixed
        .iter()
        .filter_map(|&(c, p)| {
            if c.is_some_and(|c| c != s.clause) || (c.is_none() && removed.is_empty()) {
                return Some((c, p));
            }
            if removed.contains(&p) {
                return None;
            }
            Some((
                c,
                p.saturating_sub(removed.iter().filter(|&&r| r < p).count()),
            ))
        })
        .collect();
    e
}

/// The edits after applying a fix: its job attributes become overrides,
/// and its requirements when they differ from those analyzed.
pub fn apply_fix(edits: &Edits, attribute: &str, analyzed: &str, s: &Suggestion) -> Edits {
    let mut e = if s.requirements != analyzed {
        apply_suggestion(edits, attribute, s)
    } else {
        edits.clone()
    };
    for (name, value) in s.job_attributes() {
        set_override(&mut e.overrides, &name, &value);
    }
    e
}

/// The edits after applying a job change (Nobody Likes Me): each changed
/// attribute becomes an override.
pub fn apply_job_change(edits: &Edits, change: &JobChange) -> Edits {
    let mut e = edits.clone();
    for (name, value) in change.changes() {
        set_override(&mut e.overrides, &name, &value);
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::components::analysis::answers::Change;
    use crate::state::analyzer_settings::override_of;

    #[test]
    fn suggestions_and_job_changes_become_overrides() {
        let sug = Suggestion {
            metric: "M1".into(),
            clause: 0,
            changes: vec![
                Change {
                    predicate: 0,
                    action: Action::Remove,
                    value: None,
                },
                Change {
                    predicate: 2,
                    action: Action::Modify,
                    value: Some("5".into()),
                },
            ],
            requirements: "TARGET.B == 1 && TARGET.C >= 5".into(),
            matches: 2,
            distance: 2.0,
            job_attributes: Default::default(),
            both_ways: 0,
            willing: 0,
            submit: vec![],
            metric_rank: 0,
            clause_only: true,
            listed: true,
            lowers: vec![],
        };
        // Pins after a removed predicate move down; those of other clauses stay.
        let e = Edits::of(
            &[("ImageSize", "7")],
            &[(Some(0), 1), (Some(0), 3), (Some(1), 3)],
        );
        let out = apply_suggestion(&e, "Requirements", &sug);
        assert_eq!(
            out,
            Edits::of(
                &[
                    ("ImageSize", "7"),
                    ("Requirements", "TARGET.B == 1 && TARGET.C >= 5")
                ],
                &[(Some(0), 0), (Some(0), 2), (Some(1), 3)]
            )
        );
        let jc = JobChange {
            changes: [("ImageSize".to_string(), "1220608".to_string())].into(),
            range: String::new(),
            matches: 837,
            machines: vec![],
            gained: 30,
            mutual: 30,
            distance: 1.0,
            advice: vec![],
        };
        let out = apply_job_change(&out, &jc);
        assert_eq!(override_of(&out.overrides, "imagesize"), Some("1220608"));
        assert_eq!(out.overrides.len(), 2);
        // A fix: its job attributes, and its requirements only when changed.
        let fix = Suggestion {
            job_attributes: [("RequestMemory".to_string(), "1900".to_string())].into(),
            requirements: "TARGET.Memory >= RequestMemory".into(),
            changes: vec![],
            ..sug
        };
        let applied = apply_fix(
            &Edits::default(),
            "Requirements",
            "TARGET.Memory >= RequestMemory",
            &fix,
        );
        assert_eq!(applied, Edits::of(&[("RequestMemory", "1900")], &[]));
        let applied = apply_fix(
            &Edits::default(),
            "Requirements",
            "TARGET.Memory >= 2000",
            &fix,
        );
        assert_eq!(
            override_of(&applied.overrides, "requirements"),
            Some("TARGET.Memory >= RequestMemory")
        );
    }
}
