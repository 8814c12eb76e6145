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
