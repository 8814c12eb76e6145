//! The negotiator's user priorities, as `condor_userprio -allusers`
//! prints them (or one `name priority` per line, as a user edits them).
//!
//! `condor_userprio` (src/condor_tools/user_prio.cpp) prints two heading
//! rows, a row of dashes under each column, one row per submitter, dashes
//! again and totals. Its columns depend on its options, so they are found
//! by their headings: the first is the name, "Effective Priority" the
//! priority the negotiator orders submitters by (lower is better),
//! "Priority Factor" and "Wghted In Use" are kept when present.
//!
//! A submitter the table does not list has HTCondor's priority for a new
//! one: the minimum, 0.5, times `DEFAULT_PRIO_FACTOR` (1000 in HTCondor
//! 25): 500.

use serde::Serialize;

/// HTCondor's lowest real priority (Accountant.cpp's `MinPriority`).
pub const MIN_PRIORITY: f64 = 0.5;
/// `DEFAULT_PRIO_FACTOR`'s default in HTCondor 25 (param_info.in).
pub const DEFAULT_PRIO_FACTOR: f64 = 1000.0;

/// One submitter's row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SubmitterPrio {
    /// As printed: `alice@cs.wisc.edu`, `group_physics.bob@cs.wisc.edu`.
    pub name: String,
    /// Effective priority (lower is better).
    pub priority: f64,
    pub factor: Option<f64>,
    /// Weighted resources in use.
    pub in_use: Option<f64>,
    /// The line it came from (1-based).
    pub line: usize,
}

/// The priorities a cycle negotiates with.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PriorityTable {
    pub submitters: Vec<SubmitterPrio>,
}

/// A line of the table that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

/// A column: where its dashes are and what its headings say.
struct Column {
    start: usize,
    end: usize,
    heading: String,
}

fn is_dashes(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && t.chars().all(|c| c == '-' || c == ' ') && t.contains("--")
}

/// The columns a row of dashes marks, headed by the two rows above it.
fn columns(dashes: &str, head1: &str, head2: &str) -> Vec<Column> {
    let mut out = vec![];
    let bytes = dashes.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'-' {
            let start = i;
            while i < bytes.len() && bytes[i] == b'-' {
                i += 1;
            }
            let cut = |s: &str| {
                s.get(start..i.min(s.len()))
                    .unwrap_or("")
                    .trim()
                    .to_string()
            };
            let heading = format!("{} {}", cut(head1), cut(head2)).trim().to_string();
            out.push(Column {
                start,
                end: i,
                heading,
            });
        } else {
            i += 1;
        }
    }
    out
}

fn number(text: &str, line: usize, column: usize, what: &str) -> Result<f64, TableError> {
    text.trim().parse::<f64>().map_err(|_| TableError {
        line,
        column,
        message: format!("{what} `{}` is not a number", text.trim()),
    })
}

impl PriorityTable {
    /// Read `condor_userprio` output, or `name priority` lines (`#`
    /// starts a comment). Errors name the line and column.
    pub fn parse(text: &str) -> Result<PriorityTable, TableError> {
        let lines: Vec<&str> = text.lines().collect();
        match lines.iter().position(|l| is_dashes(l)) {
            Some(d) if d >= 2 => Self::parse_userprio(&lines, d),
            _ => Self::parse_pairs(&lines),
        }
    }

    fn parse_userprio(lines: &[&str], dashes: usize) -> Result<PriorityTable, TableError> {
        let cols = columns(lines[dashes], lines[dashes - 2], lines[dashes - 1]);
        let find = |h: &str| cols.iter().position(|c| c.heading.eq_ignore_ascii_case(h));
        let Some(prio) = find("Effective Priority") else {
            return Err(TableError {
                line: dashes - 1,
                column: 1,
                message:
                    "no `Effective Priority` column: paste what `condor_userprio -allusers` prints"
                        .into(),
            });
        };
        let (factor, in_use) = (find("Priority Factor"), find("Wghted In Use"));
        let mut out = PriorityTable::default();
        for (i, line) in lines.iter().enumerate().skip(dashes + 1) {
            if is_dashes(line) || line.trim_start().starts_with("Number of users") {
                break;
            }
            if line.trim().is_empty() {
                continue;
            }
            let n = i + 1;
            let cell = |c: &Column| {
                let end = if std::ptr::eq(c, cols.last().expect("a column")) {
                    line.len()
                } else {
                    c.end.min(line.len())
                };
                line.get(c.start.min(line.len())..end).unwrap_or("")
            };
            // Names may be wider than their dashes: the name is the text
            // before the first column's end, up to the first space after.
            let name = line.split_whitespace().next().unwrap_or("").to_string();
            let field = |k: usize, what: &str| -> Result<f64, TableError> {
                let c = &cols[k];
                number(cell(c), n, c.start + 1, what)
            };
            let wide = name.len() > cols[0].end;
            let priority = if wide {
                // Shifted right by the long name: read by position.
                let words: Vec<&str> = line.split_whitespace().collect();
                number(
                    words.get(prio).copied().unwrap_or(""),
                    n,
                    1,
                    "the effective priority",
                )?
            } else {
                field(prio, "the effective priority")?
            };
            out.submitters.push(SubmitterPrio {
                name,
                priority,
                factor: if wide {
                    None
                } else {
                    factor
                        .map(|k| field(k, "the priority factor"))
                        .transpose()?
                },
                in_use: if wide {
                    None
                } else {
                    in_use
                        .map(|k| field(k, "the weighted in-use"))
                        .transpose()?
                },
                line: n,
            });
        }
        Ok(out)
    }

    fn parse_pairs(lines: &[&str]) -> Result<PriorityTable, TableError> {
        let mut out = PriorityTable::default();
        for (i, line) in lines.iter().enumerate() {
            let text = line.split('#').next().unwrap_or("");
            let words: Vec<&str> = text.split_whitespace().collect();
            match words.as_slice() {
                [] => continue,
                [name, prio] => {
                    let column = text.find(prio).map_or(1, |c| c + 1);
                    out.submitters.push(SubmitterPrio {
                        name: name.to_string(),
                        priority: number(prio, i + 1, column, "the priority")?,
                        factor: None,
                        in_use: None,
                        line: i + 1,
                    });
                }
                _ => return Err(TableError {
                    line: i + 1,
                    column: 1,
                    message:
                        "expected `name priority` (or the table `condor_userprio -allusers` prints)"
                            .into(),
                }),
            }
        }
        Ok(out)
    }

    /// The row for `name`: the same name (case-insensitive), else the only
    /// row whose name before `@` is `name`'s before `@`.
    pub fn find(&self, name: &str) -> Option<&SubmitterPrio> {
        if let Some(s) = self
            .submitters
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
        {
            return Some(s);
        }
        let base = |n: &str| n.split('@').next().unwrap_or(n).to_ascii_lowercase();
        let want = base(name);
        let mut same = self.submitters.iter().filter(|s| base(&s.name) == want);
        match (same.next(), same.next()) {
            (Some(s), None) => Some(s),
            _ => None,
        }
    }

    /// `name`'s effective priority, HTCondor's for a new submitter when the
    /// table does not list it (`default_factor` × 0.5).
    pub fn priority(&self, name: &str, default_factor: f64) -> f64 {
        self.find(name)
            .map_or(MIN_PRIORITY * default_factor, |s| s.priority)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // As user_prio.cpp lays it out (headings centred over their dashes).
    const ALLUSERS: &str = "Last Priority Update: 11/28 10:00
                               Effective   Priority  Wghted Total Usage  Time Since
User Name                       Priority    Factor   In Use (wghted-hrs) Last Usage
----------------------------- ------------ --------- ------ ------------ ----------
alice@cs.wisc.edu                     0.50      1.00      0         0.12    0+00:10
group_physics.bob@cs.wisc.edu       512.37   1000.00     10       100.00      <now>
----------------------------- ------------ --------- ------ ------------ ----------
Number of users: 2                                       10       100.12
";

    #[test]
    fn reads_condor_userprio_by_its_headings() {
        let t = PriorityTable::parse(ALLUSERS).unwrap();
        assert_eq!(t.submitters.len(), 2);
        assert_eq!(t.submitters[1].name, "group_physics.bob@cs.wisc.edu");
        assert_eq!(t.submitters[1].priority, 512.37);
        assert_eq!(t.submitters[1].factor, Some(1000.0));
        assert_eq!(t.submitters[1].in_use, Some(10.0));
        assert_eq!(t.submitters[0].line, 5);
        assert_eq!(t.priority("alice", DEFAULT_PRIO_FACTOR), 0.5);
        assert_eq!(t.priority("ALICE@cs.wisc.edu", DEFAULT_PRIO_FACTOR), 0.5);
        assert_eq!(t.priority("carol@cs.wisc.edu", DEFAULT_PRIO_FACTOR), 500.0);
    }

    #[test]
    fn pairs_and_errors_with_their_place() {
        let t = PriorityTable::parse("# edited\nalice 0.5\nbob  100 # busy\n").unwrap();
        assert_eq!(t.submitters.len(), 2);
        assert_eq!(t.priority("bob", DEFAULT_PRIO_FACTOR), 100.0);
        let e = PriorityTable::parse("alice 0.5\nbob lots\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 5));
        assert!(e.message.contains("`lots` is not a number"), "{e}");
        let e = PriorityTable::parse("alice 0.5 extra\n").unwrap_err();
        assert_eq!(e.line, 1);
        let bad = ALLUSERS.replace("512.37", "many  ");
        let e = PriorityTable::parse(&bad).unwrap_err();
        assert_eq!(e.line, 6);
        assert!(e.message.contains("effective priority"), "{e}");
    }
}
