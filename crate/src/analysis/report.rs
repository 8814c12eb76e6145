//! The analysis as text: the paper's §3.3 tables (predicates by ascending
//! matches, a suggestion column, conflicts, attributes to change) and
//! better-analyze's summary and steps, for people who know that one.

use std::fmt::Write;

use super::{Action, Analysis};

/// The job's id as condor_q prints it: `769012.000` (the label when the
/// job has no ClusterId and ProcId), and the summary line's `%03d.%03d`.
fn condor_ids(label: &str) -> (String, String) {
    match label
        .split_once('.')
        .and_then(|(c, p)| Some((c.parse::<i64>().ok()?, p.parse::<i64>().ok()?)))
    {
        Some((c, p)) => (format!("{c}.{p:03}"), format!("{c:03}.{p:03}")),
        None => (label.to_string(), label.to_string()),
    }
}

pub fn render(a: &Analysis) -> String {
    let mut o = String::new();
    let (id, summary_id) = condor_ids(&a.job);
    // The job's state first (condor_q prints this block after the counts:
    // here the reader meets it before counts that cannot run it).
    if let Some(st) = &a.job_state {
        let _ = writeln!(o, "{summary_id}:  {st}\n");
    }
    // better-analyze's parts, in its words and order (HTCondor 25's
    // condor_q), so the two can be read side by side.
    let _ = writeln!(
        o,
        "The {} expression for job {id} is\n\n    {}\n",
        a.requirements_attribute, a.requirements
    );
    if a.specialized != a.requirements {
        let _ = writeln!(
            o,
            "With the job's own attributes substituted:\n\n    {}\n",
            a.specialized
        );
    }
    if !a.job_attributes.is_empty() {
        let _ = writeln!(o, "Job {id} defines the following attributes:\n");
        for (n, v) in &a.job_attributes {
            // condor_q's units ("gross empiricism" in expr_analyze.cpp).
            let unit = match n.as_str() {
                "RequestDisk" => " (kb)",
                "RequestMemory" => " (mb)",
                _ => "",
            };
            let _ = writeln!(o, "    {n} = {v}{unit}");
        }
        o.push('\n');
    }
    if !a.steps.is_empty() {
        let _ = writeln!(
            o,
            "The {} expression for job {id} reduces to these conditions:\n",
            a.requirements_attribute
        );
        o.push_str(&super::steps::render(&a.steps, false));
    }
    summary(&mut o, a, &summary_id);
    // The paper's parts (seed 000 §3): its tables, conflicts and the fixes.
    for (ci, c) in a.clauses.iter().enumerate() {
        if c.predicates.is_empty() {
            continue;
        }
        o.push('\n');
        if a.clauses.len() > 1 {
            let _ = writeln!(
                o,
                "Clause {} of {} ({} {}): {}",
                ci + 1,
                a.clauses.len(),
                c.matches,
                plural(c.matches, "match", "matches"),
                c.text
            );
        }
        // The paper's table: ascending matches, numbered as shown.
        let mut order: Vec<usize> = (0..c.predicates.len()).collect();
        order.sort_by_key(|&j| c.predicates[j].matches);
        let number = |j: usize| order.iter().position(|&x| x == j).map_or(0, |p| p + 1);
        // The column shows the least drastic change (the nearest, M2), as
        // the paper's tables do: MODIFY TO 1911, not REMOVE.
        let first_of = |metric: &str| {
            a.suggestions
                .iter()
                .filter(|s| s.metric == metric && s.clause == ci)
                .min_by_key(|s| s.metric_rank)
        };
        let best = first_of("M2").or_else(|| first_of("M1"));
        let _ = writeln!(o, "Predicate\tMatches\tSuggestion");
        for &j in &order {
            let p = &c.predicates[j];
            let suggestion = best
                .and_then(|s| s.changes.iter().find(|ch| ch.predicate == j))
                .map(|ch| match (ch.action, &ch.value) {
                    (Action::Modify, Some(v)) => format!("MODIFY TO {v}"),
                    _ => "REMOVE".to_string(),
                })
                .unwrap_or_default();
            let fixed = if p.fixed { " (fixed)" } else { "" };
            let _ = writeln!(
                o,
                "{} {}{fixed}\t{}\t{suggestion}",
                number(j),
                p.display,
                p.matches
            );
        }
        let conflicts: Vec<String> = a
            .conflicts
            .iter()
            .filter(|k| k.clause == ci)
            .map(|k| {
                let mut n: Vec<usize> = k.predicates.iter().map(|&j| number(j)).collect();
                n.sort_unstable();
                let n: Vec<String> = n.iter().map(|x| x.to_string()).collect();
                let why = if k.kind == "always" {
                    " (never true together, in any pool)"
                } else {
                    ""
                };
                format!(" predicates: {}{why}", n.join(", "))
            })
            .collect();
        if !conflicts.is_empty() {
            let _ = writeln!(o, "\nConflicts:");
            for l in conflicts {
                let _ = writeln!(o, "{l}");
            }
            let mss: Vec<String> = a
                .succeeding
                .iter()
                .filter(|s| s.clause == ci)
                .map(|s| {
                    let mut n: Vec<usize> = s.predicates.iter().map(|&j| number(j)).collect();
                    n.sort_unstable();
                    format!(
                        "{{{}}}",
                        n.iter()
                            .map(|x| x.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })
                .collect();
            if !mss.is_empty() {
                let _ = writeln!(
                    o,
                    "Largest sets that some machine satisfies: {}",
                    mss.join(" ")
                );
            }
        }
    }
    rejections(&mut o, a);
    suggestions(&mut o, a);
    if !a.missing_attributes.is_empty() {
        let _ = writeln!(
            o,
            "\nNo machine defines: {} (only removing those predicates helps)",
            a.missing_attributes.join(", ")
        );
    }
    if !a.job_lacks.is_empty() {
        let _ = writeln!(
            o,
            "\nThe machines that reject your job read these attributes, which your job does not define: {}",
            a.job_lacks.join(", ")
        );
    }
    job_changes(&mut o, a);
    for n in &a.notes {
        let _ = writeln!(o, "\nNote: {n}");
    }
    o
}

fn plural<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// better-analyze's run analysis summary, as HTCondor 25 words it
/// (`appendJobMatchTotalsToBuffer`, ignoring user priority).
fn summary(o: &mut String, a: &Analysis, id: &str) {
    let s = &a.summary;
    let machines = a.by_machine.as_ref().map_or(a.machines, |m| m.machines);
    let _ = writeln!(
        o,
        "\n{id}:  Run analysis summary ignoring user priority.  Of {} slots on {machines} machines,",
        a.machines
    );
    let _ = writeln!(
        o,
        "  {:5} slots are rejected by your job's requirements",
        s.rejected_by_job
    );
    let _ = writeln!(
        o,
        "  {:5} slots reject your job because of their own requirements",
        s.reject_job
    );
    if s.match_but_busy > 0 {
        let _ = writeln!(
            o,
            "  {:5} slots match but are serving other users",
            s.match_but_busy
        );
    }
    let _ = writeln!(
        o,
        "  {:5} slots match and are willing to run your job",
        s.matched
    );
    if s.rejected_by_job == a.machines || s.matched + s.match_but_busy == 0 {
        let _ = writeln!(o, "\nWARNING:  Be advised:");
        if s.rejected_by_job == a.machines {
            let _ = writeln!(o, "   No machines matched the jobs's constraints");
        } else {
            let _ = writeln!(
                o,
                "   Job did not match any machines's constraints\n   To see why, pick a machine that you think should match and add\n     -reverse -machine <name>\n   to your query."
            );
        }
    }
    busy(o, a);
}

/// The fixes, best first: what to set on the job and write in its
/// requirements, what it gives both ways, and the submit lines.
fn suggestions(o: &mut String, a: &Analysis) {
    if !a.suggestions.iter().any(|s| s.listed) {
        return;
    }
    let slots = |n: u64| match a.by_machine {
        Some(_) => plural(n, "slot", "slots"),
        None => plural(n, "machine", "machines"),
    };
    let _ = writeln!(
        o,
        "\nFixes, best first (each applied to a copy of the job and evaluated over the pool, both ways):"
    );
    let mut shown: Vec<(&str, &std::collections::BTreeMap<String, String>)> = vec![];
    for s in a.suggestions.iter().filter(|s| s.listed) {
        // The same fix found by two metrics is listed once.
        if shown.contains(&(s.requirements.as_str(), &s.job_attributes)) {
            continue;
        }
        shown.push((s.requirements.as_str(), &s.job_attributes));
        let paper: Vec<String> = a
            .clauses
            .get(s.clause)
            .map(|c| {
                s.changes
                    .iter()
                    .map(|ch| {
                        let p = c
                            .predicates
                            .get(ch.predicate)
                            .map_or("?", |p| p.display.as_str());
                        match (ch.action, &ch.value) {
                            (Action::Modify, Some(v)) => format!("MODIFY {p} TO {v}"),
                            _ => format!("REMOVE {p}"),
                        }
                    })
                    .collect()
            })
            .unwrap_or_default();
        let set: Vec<String> = s
            .job_attributes
            .iter()
            .map(|(k, v)| format!("SET {k} = {v}"))
            .collect();
        let what = match (set.is_empty(), paper.is_empty()) {
            (false, false) => format!("{} (for {})", set.join(", "), paper.join(", ")),
            (false, true) => set.join(", "),
            _ => paper.join(", "),
        };
        let measure = match s.metric.as_str() {
            "M2" => format!("M2, distance {:.3}", s.distance),
            "M1" => format!(
                "M1, {} {}",
                s.changes.len(),
                plural(s.changes.len() as u64, "change", "changes")
            ),
            "least" => "searched among the slots' values: the least change that lets it run".into(),
            "most" => "searched among the slots' values: the most slots".into(),
            _ => format!("Nobody Likes Me, distance {:.3}", s.distance),
        };
        let clause = if a.clauses.len() > 1 && s.clause_only {
            format!(", in clause {} of {}", s.clause + 1, a.clauses.len())
        } else {
            String::new()
        };
        // Asking for less than the job asked is said, never implied.
        let what = if s.lowers.is_empty() {
            what
        } else {
            format!(
                "{what}; asks for less than the job requested: {}",
                s.lowers.join(", ")
            )
        };
        let _ = writeln!(o, "  {what} ({measure}{clause})");
        let _ = writeln!(
            o,
            "      -> {} {} match both ways, {} of them willing; the job's requirements accept {}",
            s.both_ways,
            slots(s.both_ways),
            s.willing,
            s.matches
        );
        for line in &s.submit {
            let _ = writeln!(o, "      submit: {line}");
        }
    }
}

/// What "busy" means for the slots the job matches but cannot have now.
fn busy(o: &mut String, a: &Analysis) {
    if let Some(b) = &a.busy {
        let _ = writeln!(o, "\n{}", b.words());
    }
}

/// Nobody Likes Me by clause: what in the slots' own requirements rejects
/// the job, what each clause reads, what the slots hold, what would do.
fn rejections(o: &mut String, a: &Analysis) {
    if a.rejections.is_empty() {
        return;
    }
    let total = a.summary.reject_job;
    let slots = |n: u64| match a.by_machine {
        Some(_) => plural(n, "slot", "slots"),
        None => plural(n, "machine", "machines"),
    };
    let _ = writeln!(
        o,
        "\nTheir own requirements reject your job on {total} {}; the clauses that are not true for it, by text:",
        slots(total)
    );
    for r in &a.rejections {
        let how_many = if r.slots == total {
            if total == 1 {
                format!("the one {}", slots(1))
            } else {
                format!("all {total} {}", slots(total))
            }
        } else {
            format!("{} {}", r.slots, slots(r.slots))
        };
        let only = if r.only > 0 && r.only < r.slots {
            format!(", the only reason on {}", r.only)
        } else {
            String::new()
        };
        let _ = writeln!(o, "\n  {how_many}{only}: {}  {}", r.attribute, r.clause);
        let offered: Vec<String> = r
            .offered
            .iter()
            .take(6)
            .map(|v| format!("{} ({})", v.value, v.slots))
            .collect();
        let offered = if offered.is_empty() {
            String::new()
        } else {
            let more = if r.offered.len() > 6 {
                format!(", … ({} values)", r.offered.len())
            } else {
                String::new()
            };
            format!(
                "; the slots hold {}: {}{more}",
                r.slot_reads.join(", "),
                offered.join(", ")
            )
        };
        if r.machine_side() {
            let _ = writeln!(o, "      {}", r.machine_side_words());
            continue;
        }
        let values: Vec<String> = r
            .reads
            .iter()
            .zip(&r.job_values)
            .map(|(k, v)| format!("{k} = {v}"))
            .collect();
        let _ = writeln!(o, "      reads your job's {}{offered}", values.join(", "));
        if r.options.is_empty() {
            let _ = writeln!(
                o,
                "      no value of {} the slots hold opens one of them",
                r.reads.join(", ")
            );
        }
        for v in &r.options {
            let tag = match (v.least, v.most) {
                (true, true) => "  [the least change, and the most slots]",
                (true, false) => "  [the least change]",
                (false, true) => "  [the most slots]",
                _ => "",
            };
            let _ = writeln!(
                o,
                "      {} = {} ({}) -> {} {} match both ways, {} willing{tag}",
                v.attribute,
                v.value,
                v.change,
                v.both_ways,
                slots(v.both_ways),
                v.willing
            );
        }
    }
}

fn job_changes(o: &mut String, a: &Analysis) {
    let Some(best) = a.job_changes.first() else {
        return;
    };
    let _ = writeln!(
        o,
        "\nThe following attributes should be added or modified:\n"
    );
    let _ = writeln!(o, "Attribute\tSuggestion");
    for (attr, how) in &best.advice {
        let _ = writeln!(o, "{attr}\t{how}");
    }
    let _ = writeln!(o, "\nJob attribute changes, nearest first (each checked against every machine's requirements):");
    for c in &a.job_changes {
        let changes: Vec<String> = c
            .changes
            .iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect();
        let names = if c.machines.len() as u64 > 8 {
            format!("{}, …", c.machines[..8].join(", "))
        } else {
            c.machines.join(", ")
        };
        let _ = writeln!(
            o,
            "  {} -> {} {} accept the job, {} of them matching both ways (gains {}: {names})",
            changes.join("; "),
            c.matches,
            plural(c.matches, "machine would", "machines would"),
            c.mutual,
            c.gained,
        );
        let _ = writeln!(o, "      range: {}", c.range);
    }
}
