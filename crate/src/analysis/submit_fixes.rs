//! The analyzer's fixes as edits of the submit file the job came from.
//!
//! A fix sets job attributes (`RequestMemory = 1900`) and may rewrite the
//! requirements. In the file, an attribute is the line that set it
//! (`request_memory = 2GB` becomes `request_memory = 1900MB`, the file's
//! own spelling of the key) or a line added before the queue statement;
//! the requirements are the file's `requirements =` line, which holds only
//! what the user wrote: condor_submit appends its own clauses
//! (`TARGET.Memory >= RequestMemory`, …) to it. So the fix's requirements
//! lose the clauses condor_submit appends, and what is left is the line.
//!
//! condor_submit may undo a fix: a clause it appends that the fix removed
//! comes back. So every edit is checked the way it would be run: the file
//! edited, submitted again, the same proc's job ad counted over the pool.
//! A fix is shown with those counts, or not shown, with what undid it.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::fixes::Counted;
use super::suggest::Suggestion;
use crate::constraint::predicate::{conjunction, strip_parens};
use crate::lang::ast::{BinaryOp, ClassAd, Expr, ExprKind};
use crate::lang::unparse::{unparse, unparse_typed};
use crate::submit::job::BuiltJob;
use crate::submit::{Origin, SubmitSource};

/// One edit of the file: `lines` lines from `line` (1-based) replaced by
/// `new` (nothing: removed); `lines == 0` puts `new` before `line`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineEdit {
    pub line: u32,
    pub lines: u32,
    /// The file's text of the lines replaced (empty for an insertion).
    pub old: String,
    pub new: String,
}

/// A fix of the analysis as edits of the submit file, counted on the job
/// condor_submit makes from the edited file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SubmitFix {
    /// The fix: its index in the analysis' `suggestions`.
    pub suggestion: usize,
    pub edits: Vec<LineEdit>,
    pub matches: u64,
    pub both_ways: u64,
    pub willing: u64,
}

/// A fix that the file cannot say: condor_submit puts back a clause the
/// fix removes (or refuses the edited file).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Undone {
    pub suggestion: usize,
    pub why: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SubmitFixes {
    /// The submit file's name.
    pub file: String,
    pub fixes: Vec<SubmitFix>,
    pub undone: Vec<Undone>,
}

/// What the fixes are edits of: the file and the job it made.
pub struct SubmittedJob<'a> {
    pub file: &'a str,
    pub text: &'a str,
    pub built: &'a BuiltJob,
    /// The queue statement's line that made the job.
    pub queue_line: u32,
}

impl<'a> SubmittedJob<'a> {
    /// The job of `file` (its text `text`) that a submit made.
    pub fn of(file: &'a str, text: &'a str, job: &'a crate::submit::run::Job) -> Self {
        SubmittedJob {
            file,
            text,
            built: &job.built,
            queue_line: job.queue_line,
        }
    }
}

/// At most this many fixes are checked (each a submit and a count per
/// edit it makes).
pub const MAX_CHECKED: usize = 12;

/// The analysis' fixes (best first) as edits of the file. `resubmit`
/// makes the same proc's job ad from an edited text (`Err`: condor_submit's
/// first error); `count` counts a job over the pool both ways (the job as
/// submitted is the count a fix must beat).
pub fn submit_fixes(
    job: &SubmittedJob,
    suggestions: &[Suggestion],
    resubmit: &mut dyn FnMut(&str) -> Result<BuiltJob, String>,
    count: &mut dyn FnMut(&Arc<ClassAd>) -> Counted,
) -> SubmitFixes {
    let now = count(&Arc::new(job.built.ad()));
    let mut out = SubmitFixes {
        file: job.file.to_string(),
        ..Default::default()
    };
    let mut tried: Vec<Vec<LineEdit>> = vec![];
    for (i, s) in suggestions.iter().enumerate().filter(|(_, s)| s.listed) {
        if tried.len() >= MAX_CHECKED {
            break;
        }
        let Some(edits) = edits_of(job, s) else {
            continue;
        };
        if edits.is_empty() {
            // The fix changes only clauses condor_submit appends itself.
            let dropped: Vec<&str> = clauses_not_in(s, job.built)
                .iter()
                .map(|(c, _)| c.as_str())
                .collect();
            if !dropped.is_empty() {
                out.undone.push(Undone {
                    suggestion: i,
                    why: format!(
                        "it changes {}, which condor_submit appends itself (a requirements line cannot remove it)",
                        dropped.join(" and ")
                    ),
                });
            }
            continue;
        }
        if tried.contains(&edits) {
            continue;
        }
        tried.push(edits.clone());
        let mut check = |edits: &[LineEdit]| {
            let built = resubmit(&apply(job.text, edits))?;
            let c = count(&Arc::new(built.ad()));
            Ok::<_, String>((built, c))
        };
        let (built, c) = match check(&edits) {
            Ok(x) => x,
            Err(e) => {
                out.undone.push(Undone {
                    suggestion: i,
                    why: format!("condor_submit refuses the edited file: {e}"),
                });
                continue;
            }
        };
        // The least change: an edit the counts do not need is left out.
        let mut edits = edits;
        let mut k = 0;
        while edits.len() > 1 && k < edits.len() {
            let mut fewer = edits.clone();
            fewer.remove(k);
            match check(&fewer) {
                Ok((_, d)) if d == c => edits = fewer,
                _ => k += 1,
            }
        }
        if out.fixes.iter().any(|f| f.edits == edits) {
            continue;
        }
        edits.sort_by_key(|e| e.line);
        if c.both_ways > now.both_ways || c.matches > now.matches {
            out.fixes.push(SubmitFix {
                suggestion: i,
                edits,
                matches: c.matches,
                both_ways: c.both_ways,
                willing: c.willing,
            });
        } else {
            out.undone.push(Undone {
                suggestion: i,
                why: why_undone(s, &built),
            });
        }
    }
    // As the analysis ranks its fixes: what keeps the job's requests
    // first, then the most willing slots; equal gains, the fewest edits.
    let lowers = |f: &SubmitFix| {
        suggestions
            .get(f.suggestion)
            .is_some_and(|s| !s.lowers.is_empty())
    };
    out.fixes.sort_by(|a, b| {
        lowers(a)
            .cmp(&lowers(b))
            .then((b.willing, b.both_ways).cmp(&(a.willing, a.both_ways)))
            .then(a.edits.len().cmp(&b.edits.len()))
    });
    out
}

/// The fixes of `analysis` (of `job`, proc `proc` of `source`) as edits of
/// the file; `None` when the file does not make that job as analyzed (it
/// changed since, or condor_submit refuses it).
pub fn for_source(
    source: &SubmitSource,
    proc: usize,
    job: &Arc<ClassAd>,
    analysis: &super::Analysis,
    count: &mut dyn FnMut(&Arc<ClassAd>) -> Counted,
) -> Option<SubmitFixes> {
    let made = |text: &str| {
        let out = source.run_text(text, proc + 1);
        if let Some(e) = out.errors.first() {
            return Err(format!("line {}: {}", e.line, e.message));
        }
        let j = out.jobs.into_iter().nth(proc).ok_or("no such proc")?;
        if let Some(e) = j.built.errors.first() {
            return Err(format!("line {}: {}", e.line, e.message));
        }
        Ok(j)
    };
    let j = made(&source.text).ok()?;
    let requirements = |ad: &ClassAd| super::requirements_of(ad).map(|(_, e)| unparse(e));
    if requirements(&j.built.ad()) != requirements(job) {
        return None;
    }
    Some(submit_fixes(
        &SubmittedJob::of(&source.name, &source.text, &j),
        &analysis.suggestions,
        &mut |t| made(t).map(|j| j.built),
        count,
    ))
}

/// The file's text with the edits made.
pub fn apply(text: &str, edits: &[LineEdit]) -> String {
    let mut lines: Vec<String> = text.split_inclusive('\n').map(String::from).collect();
    if lines.last().is_some_and(|l| !l.ends_with('\n')) {
        if let Some(l) = lines.last_mut() {
            l.push('\n');
        }
    }
    // From the bottom, so each edit's line numbers still hold.
    let mut order: Vec<&LineEdit> = edits.iter().collect();
    order.sort_by_key(|e| std::cmp::Reverse((e.line, e.lines)));
    for e in order {
        let at = (e.line.max(1) as usize - 1).min(lines.len());
        let end = (at + e.lines as usize).min(lines.len());
        let new: Vec<String> = e.new.lines().map(|l| format!("{l}\n")).collect();
        lines.splice(at..end, new);
    }
    lines.concat()
}

/// The edits that make a fix, `None` when the file cannot say it.
fn edits_of(job: &SubmittedJob, s: &Suggestion) -> Option<Vec<LineEdit>> {
    let mut edits = vec![];
    for (name, value) in &s.job_attributes {
        edits.push(set_line(job, name, &command_line(job, name, value)));
    }
    if let Some(line) = requirements_line(job, s)? {
        edits.push(line);
    }
    Some(edits)
}

/// The line that sets a job attribute: the file's own key where a line set
/// it, else the submit command (`request_memory = 1900MB`, units as the
/// attribute has them) or `+Name = value`.
fn command_line(job: &SubmittedJob, name: &str, value: &str) -> String {
    let unit = match name.to_ascii_lowercase().as_str() {
        "requestmemory" => "MB",
        "requestdisk" => "KB",
        _ => "",
    };
    let value = if !unit.is_empty() && value.parse::<i64>().is_ok() {
        format!("{value}{unit}")
    } else {
        value.to_string()
    };
    let key = match line_origin(job, name) {
        Some((_, key)) => key,
        None => super::fixes::submit_command(name).map_or_else(|| format!("+{name}"), String::from),
    };
    format!("{key} = {value}")
}

/// The line of the file that set attribute `name`, and its key as written,
/// when that line is in the file itself and sets that key.
fn line_origin(job: &SubmittedJob, name: &str) -> Option<(u32, String)> {
    let (_, origin) = job
        .built
        .origins
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))?;
    let Origin::Line { line, key } = origin else {
        return None;
    };
    let text = job.text.lines().nth(*line as usize - 1)?;
    let (k, _) = text.split_once('=')?;
    let k = k.trim().trim_end_matches(['@', ':']).trim();
    k.eq_ignore_ascii_case(key).then(|| (*line, key.clone()))
}

/// Replace the statement that set `name`, or add `line` before the queue
/// statement.
fn set_line(job: &SubmittedJob, name: &str, line: &str) -> LineEdit {
    match line_origin(job, name) {
        Some((at, _)) => {
            let n = statement_lines(job.text, at);
            LineEdit {
                line: at,
                lines: n,
                old: physical(job.text, at, n),
                new: line.to_string(),
            }
        }
        None => LineEdit {
            line: job.queue_line.max(1),
            lines: 0,
            old: String::new(),
            new: line.to_string(),
        },
    }
}

/// How many physical lines the statement starting at `line` takes: its
/// `\` continuations, or a `key @= tag` value up to `@tag`.
fn statement_lines(text: &str, line: u32) -> u32 {
    let lines: Vec<&str> = text.lines().skip(line as usize - 1).collect();
    let Some(first) = lines.first() else {
        return 1;
    };
    if let Some((_, tag)) = first.split_once("@=") {
        let end = format!("@{}", tag.trim());
        if let Some(k) = lines.iter().position(|l| l.trim_start().starts_with(&end)) {
            return k as u32 + 1;
        }
        return 1;
    }
    let mut n = 1;
    for l in &lines {
        if l.trim_end().ends_with('\\') && (n as usize) < lines.len() {
            n += 1;
        } else {
            break;
        }
    }
    n
}

/// Lines `line..line + n` of the text, as written.
fn physical(text: &str, line: u32, n: u32) -> String {
    text.lines()
        .skip(line as usize - 1)
        .take(n as usize)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The `&&` factors of an expression, through parentheses.
fn conjuncts(e: &Expr, out: &mut Vec<Expr>) {
    match &strip_parens(e).kind {
        ExprKind::Binary(BinaryOp::And, l, r) => {
            conjuncts(l, out);
            conjuncts(r, out);
        }
        _ => out.push(strip_parens(e).clone()),
    }
}

/// The factors of the requirements the user wrote: all but the clauses
/// condor_submit appended (compared as canonical text).
fn users_part(requirements: &Expr, built: &BuiltJob) -> Vec<Expr> {
    let appended = appended(built);
    let mut all = vec![];
    conjuncts(requirements, &mut all);
    all.into_iter()
        .filter(|c| !appended.contains(&unparse(c)))
        .collect()
}

/// The factors of a fix's requirements that are the user's: those of the
/// job's requirements kept or changed where the user wrote them. A factor
/// the fix changed is matched to the one it replaced by position (the fix
/// rewrites the requirements in place, so the factors it kept are in
/// order around it); a changed clause of condor_submit's is left out, as
/// condor_submit appends its own.
fn users_part_of_fix(current: &Expr, fixed: &Expr, built: &BuiltJob) -> Vec<Expr> {
    let appended = appended(built);
    let (mut c, mut f) = (vec![], vec![]);
    conjuncts(current, &mut c);
    conjuncts(fixed, &mut f);
    let ct: Vec<String> = c.iter().map(unparse).collect();
    let ft: Vec<String> = f.iter().map(unparse).collect();
    // Longest common subsequence: the factors the fix kept.
    let (n, m) = (ct.len(), ft.len());
    let mut l = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            l[i][j] = if ct[i] == ft[j] {
                l[i + 1][j + 1] + 1
            } else {
                l[i + 1][j].max(l[i][j + 1])
            };
        }
    }
    // The kept pairs, in order.
    let mut kept = vec![];
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        if ct[i] == ft[j] {
            kept.push((i, j));
            i += 1;
            j += 1;
        } else if l[i + 1][j] >= l[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    let users = |i: usize| !appended.contains(&ct[i]);
    let mut out = vec![];
    let (mut pi, mut pj) = (0, 0);
    for (ki, kj) in kept.into_iter().chain([(n, m)]) {
        // Between kept factors, the fix's changed factors replace the
        // job's in order.
        for (k, fj) in (pj..kj).enumerate() {
            if (pi + k < ki).then_some(pi + k).is_none_or(users) {
                out.push(f[fj].clone());
            }
        }
        if ki < n && users(ki) {
            out.push(f[kj].clone());
        }
        (pi, pj) = (ki + 1, kj + 1);
    }
    out
}

/// condor_submit's clauses, as canonical text (each of its factors).
fn appended(built: &BuiltJob) -> Vec<String> {
    let mut out = vec![];
    for (clause, _) in &built.clauses {
        if let Ok(e) = crate::lang::parser::parse_expr(clause) {
            let mut cs = vec![];
            conjuncts(&e, &mut cs);
            out.extend(cs.iter().map(unparse));
            out.push(unparse(strip_parens(&e)));
        }
    }
    out
}

/// The edit of the `requirements =` line a fix makes: `Some(None)` when
/// the user's part is unchanged, `None` when the fix's requirements do not
/// read.
fn requirements_line(job: &SubmittedJob, s: &Suggestion) -> Option<Option<LineEdit>> {
    let current = job.built.get("Requirements")?;
    let fixed = crate::lang::parser::parse_expr(&s.requirements).ok()?;
    let before = users_part(current, job.built);
    let after = users_part_of_fix(current, &fixed, job.built);
    // A fix in the analyzer's normal form (a disjunction of clauses with
    // the job's values put in) keeps none of condor_submit's clauses as
    // factors: it is not a line a user would write.
    let mut all = vec![];
    conjuncts(current, &mut all);
    let kept = {
        let mut f = vec![];
        conjuncts(&fixed, &mut f);
        f.len() - after.len()
    };
    if kept == 0 && all.len() > before.len() {
        return None;
    }
    let text = |v: &[Expr]| v.iter().map(unparse).collect::<Vec<_>>();
    if text(&before) == text(&after) {
        return Some(None);
    }
    let new = if after.is_empty() {
        // Nothing of the user's left: the line goes (or none is added).
        if line_origin(job, "Requirements").is_none() {
            return Some(None);
        }
        String::new()
    } else {
        let key = line_origin(job, "Requirements").map_or("requirements".to_string(), |(_, k)| k);
        format!("{key} = {}", unparse_typed(&conjunction(&after)))
    };
    Some(Some(set_line(job, "Requirements", &new)))
}

/// The clauses condor_submit appended to `built` (with their reasons)
/// that a fix's requirements do not hold as they are.
fn clauses_not_in<'b>(s: &Suggestion, built: &'b BuiltJob) -> Vec<&'b (String, String)> {
    let mut kept = vec![];
    if let Ok(e) = crate::lang::parser::parse_expr(&s.requirements) {
        conjuncts(&e, &mut kept);
    }
    let kept: Vec<String> = kept.iter().map(unparse).collect();
    built
        .clauses
        .iter()
        .filter(|(c, _)| {
            crate::lang::parser::parse_expr(c)
                .is_ok_and(|e| !kept.contains(&unparse(strip_parens(&e))))
        })
        .collect()
}

/// Why the edited file's job does not gain: the clauses condor_submit
/// appended to it that the fix's requirements do not hold.
fn why_undone(s: &Suggestion, built: &BuiltJob) -> String {
    let back: Vec<String> = clauses_not_in(s, built)
        .iter()
        .map(|(c, why)| format!("{c} ({why})"))
        .collect();
    if back.is_empty() {
        "the job condor_submit makes from the edited file gains no slot".into()
    } else {
        format!("condor_submit appends {} again", back.join(" and "))
    }
}

#[cfg(test)]
mod tests;
