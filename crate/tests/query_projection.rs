//! A query reads only what it reaches (`AdStream::projected`): the same
//! matches and values as reading every definition, on ads whose
//! definitions reach each other, shadow each other, hide in nested
//! records, are reached only through `eval()` or the ad itself, or sit
//! on lines only a whole read reports.

use std::io::Cursor;
use std::sync::Arc;

use classad::formats::stream::{AdStream, Streamed};
use classad::query::Query;
use classad::{Dialect, EvalOptions, Evaluator, Value};

const POOL: &str = r#"MyType = "Machine"
Name = "chain"
A = B + 1
B = C * 2
C = 3
Memory = 2048
Noise = this is not an expression (
Z = 0

MyType = "Machine"
Name = "twice"
C = 1
memory = 512
C = 10
A = C

MyType = "Machine"
Name = "nested"
R = [ q = C; w = Deep ]
Deep = 7
C = 4
A = R.q + R.w

MyType = "Machine"
Name = "continued"
S = "one
two"
C = 5
A = C

Name = "bad name"
foo bar = 3
C = 6
A = C

Unrelated = 1
Other = "x"

MyType = "Machine"
Name = "through eval"
Hidden = 41
A = eval("Hidden") + 1
"#;

/// Each ad's label and the values of `columns` where `constraint` holds.
fn run(constraint: &str, columns: &[&str], projected: bool) -> (Vec<(String, Vec<Value>)>, usize) {
    let cols: Vec<String> = columns.iter().map(|c| c.to_string()).collect();
    let q = Query::parse(Some(constraint), &cols, &[], Dialect::Modern).unwrap();
    let mut stream = AdStream::new(Cursor::new(POOL.as_bytes()), Dialect::Modern);
    if projected {
        stream = stream.projected(q.projection(false, false));
    }
    let mut ev = Evaluator::new(EvalOptions::default());
    let (mut rows, mut ads) = (Vec::new(), 0);
    for item in stream {
        if let Streamed::Ad(a) = item {
            ads += 1;
            let ad = Arc::new(a.ad);
            if let Some(sel) = q.select(&mut ev, &ad) {
                rows.push((a.label, sel.values));
            }
        }
    }
    (rows, ads)
}

#[test]
fn a_projected_query_selects_and_shows_what_a_whole_read_does() {
    let queries: &[(&str, &[&str])] = &[
        ("A > 0", &["A", "C", "Memory"]),
        ("A > 6", &["Name"]),
        ("MEMORY > 1000", &["memory", "MY.Memory"]),
        ("C >= 4", &["strcat(Name, \":\", C)", "R.w"]),
        ("true", &["A", "S"]),
        ("size(MY) > 3", &["A"]),
        ("A == 42", &["Hidden"]),
        ("isUndefined(Noise)", &["Name", "Z"]),
        ("toplevel.C > 2", &["unparse(A)"]),
    ];
    for (constraint, columns) in queries {
        let whole = run(constraint, columns, false);
        let projected = run(constraint, columns, true);
        assert_eq!(
            format!("{projected:?}"),
            format!("{whole:?}"),
            "{constraint} {columns:?}"
        );
        assert_eq!(whole.1, 7, "every ad is there, wanted definitions or not");
    }
    // Not vacuous: the chain and the eval'd attribute were reached.
    let (rows, _) = run("A > 6", &["Name"], true);
    let names: Vec<_> = rows.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(names, ["chain", "twice", "nested", "through eval"]);
}

#[test]
fn what_the_query_never_reaches_is_not_checked_but_what_it_reaches_is() {
    let problems = |constraint: &str| {
        let q = Query::parse(Some(constraint), &[], &[], Dialect::Modern).unwrap();
        AdStream::new(Cursor::new(POOL.as_bytes()), Dialect::Modern)
            .projected(q.projection(false, false))
            .filter_map(|i| match i {
                Streamed::Problem(d) => Some(format!("{}:{} {}", d.line, d.column, d.message)),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    let far = problems("C > 0");
    let near = problems("isUndefined(Noise)");
    // The bad name and the continued string are reported either way (a
    // line that is not a plain definition makes its ad read whole).
    for p in [&far, &near] {
        assert!(p.iter().any(|d| d.starts_with("32:")), "{p:?}");
        assert!(p.iter().any(|d| d.starts_with("26:")), "{p:?}");
    }
    assert!(!far.iter().any(|d| d.starts_with("7:")), "{far:?}");
    assert!(near.iter().any(|d| d.starts_with("7:")), "{near:?}");
}
