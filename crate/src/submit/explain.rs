//! Job ads as text a user reads: each attribute under a comment saying
//! where it came from, each clause condor_submit appended to Requirements
//! with its reason (`classad submit --explain`, the page's job-ads pool).

use super::job::BuiltJob;
use super::origin::Origin;

/// Where an attribute came from, in words: `line 3: request_memory`.
pub fn origin_words(o: &Origin) -> String {
    match o {
        Origin::Line { line, key } => format!("line {line}: {key}"),
        Origin::Default { why } => format!("default: {why}"),
        Origin::Config { key } => format!("configuration: {key}"),
        Origin::Derived { why } => why.clone(),
    }
}

/// One job ad in the new syntax, every attribute under a `//` comment
/// naming its origin; the Requirements clauses' reasons before it.
pub fn commented_ad(b: &BuiltJob, heading: &str) -> String {
    let mut out = format!("// {heading}\n[\n");
    for (name, expr) in &b.attrs {
        if name.eq_ignore_ascii_case("Requirements") && !b.clauses.is_empty() {
            for (clause, why) in &b.clauses {
                out.push_str(&format!("  // {clause}: {why}\n"));
            }
        }
        if let Some(o) = b.origins.get(name) {
            out.push_str(&format!("  // {}\n", one_line(&origin_words(o))));
        }
        out.push_str(&format!(
            "  {name} = {};\n",
            crate::lang::unparse::unparse(expr)
        ));
    }
    out.push_str("]\n");
    out
}

/// A comment stays on its line.
fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

/// What one line of the submit file made in a job ad: the attributes it
/// set and the Requirements clauses condor_submit added because of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineMade {
    /// The line (1-based); 0 for what no line made (condor_submit's
    /// defaults, the submit host's configuration).
    pub line: u32,
    /// The key as the line writes it (empty for line 0).
    pub key: String,
    /// `RequestMemory = 2048`, `Requirements clause (TARGET.Memory >=
    /// RequestMemory): added because request_memory is set`.
    pub made: Vec<String>,
}

/// A job ad by the lines that made it, in line order (what no line made
/// last). A clause goes to the line whose key, or whose attribute, its
/// reason names.
pub fn lines_made(b: &BuiltJob) -> Vec<LineMade> {
    let mut out: Vec<LineMade> = vec![];
    let mut at = |line: u32, key: &str, what: String| match out.iter_mut().find(|m| m.line == line)
    {
        Some(m) => m.made.push(what),
        None => out.push(LineMade {
            line,
            key: key.to_string(),
            made: vec![what],
        }),
    };
    let mut keys: Vec<(u32, String)> = vec![];
    for (name, expr) in &b.attrs {
        let value = one_line(&crate::lang::unparse::unparse(expr));
        match b.origins.get(name) {
            Some(Origin::Line { line, key }) => {
                keys.push((*line, key.to_ascii_lowercase()));
                keys.push((*line, name.to_ascii_lowercase()));
                at(*line, key, format!("{name} = {value}"));
            }
            Some(o) => at(
                0,
                "",
                format!("{name} = {value} ({})", one_line(&origin_words(o))),
            ),
            None => at(0, "", format!("{name} = {value}")),
        }
    }
    for (clause, why) in &b.clauses {
        let reason = why.to_ascii_lowercase();
        let named = keys.iter().find(|(_, k)| {
            reason
                .match_indices(k.as_str())
                .any(|(i, _)| word_at(&reason, i, k.len()))
        });
        let what = format!("Requirements clause {clause}: {why}");
        match named {
            Some((line, key)) => at(*line, key, what),
            None => at(0, "", what),
        }
    }
    out.sort_by_key(|m| if m.line == 0 { u32::MAX } else { m.line });
    out
}

/// Whether `s[i..i + n]` is a whole word (a key, not part of a longer one).
fn word_at(s: &str, i: usize, n: usize) -> bool {
    let part = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.';
    !s[..i].chars().next_back().is_some_and(part) && !s[i + n..].chars().next().is_some_and(part)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::submit::SubmitSource;

    #[test]
    fn each_line_names_what_it_made() {
        let s = SubmitSource {
            name: "j.sub".into(),
            text: "executable = a.sh\nrequest_memory = 2GB\nqueue\n".into(),
            htcondor: 25,
            cluster: 1,
            now: 1_700_000_000,
            max_procs: 1,
            ..Default::default()
        };
        let out = s.run();
        let made = lines_made(&out.jobs[0].built);
        let line2 = made.iter().find(|m| m.line == 2).unwrap();
        assert_eq!(line2.key, "request_memory");
        assert!(
            line2.made.contains(&"RequestMemory = 2048".to_string()),
            "{made:?}"
        );
        assert!(
            line2
                .made
                .iter()
                .any(|m| m.starts_with("Requirements clause (TARGET.Memory >= RequestMemory)")),
            "{made:?}"
        );
        // Defaults and the host's configuration last, as no line's.
        let last = made.last().unwrap();
        assert_eq!(last.line, 0);
        assert!(
            last.made
                .iter()
                .any(|m| m.starts_with("RequestCpus = 1 (default")),
            "{made:?}"
        );
        assert!(made
            .iter()
            .any(|m| m.line == 1 && m.made.iter().any(|x| x.starts_with("Cmd = "))));
    }
}
