//! What the playground's Query view asks, as serializable requests and
//! answers: run a query over a loaded pool (with progress and a stop), read
//! a page of its matching rows, and explain why the constraint held or
//! failed for one ad.
//!
//! A run keeps its rows ([`QueryRun`]) so scrolling a 100,000-ad result
//! asks only for the rows in sight.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::lang::ast::ClassAd;
use crate::lang::eval::{EvalOptions, Evaluator, TraceNode};
use crate::lang::lexer::Dialect;

use super::summary::Summary;
use super::tables::AdKind;
use super::{autoformat, compare_keys, holds, Query, QueryError};

/// A query as the view states it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct QuerySpec {
    /// Empty: every ad matches.
    #[serde(default)]
    pub constraint: String,
    /// Column expressions (attribute names or any expression).
    #[serde(default)]
    pub columns: Vec<String>,
    /// Sort by this column (ascending unless `descending`); none: pool order.
    #[serde(default)]
    pub sort: Option<usize>,
    #[serde(default)]
    pub descending: bool,
    /// The syntax the constraint and columns are read in.
    #[serde(default)]
    pub dialect: Dialect,
}

/// One matching ad: its place in the pool and its cells (as `-af` prints).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct QueryRow {
    pub ad: usize,
    pub cells: Vec<String>,
    /// The cells typed as `classad query --json` gives them (numbers,
    /// booleans, null for undefined); sent only when asked for (a
    /// download), empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub typed: Vec<serde_json::Value>,
}

/// A run's matching rows, kept for paging.
#[derive(Clone, Debug, Default)]
pub struct QueryRun {
    pub rows: Vec<QueryRow>,
    /// Each row's cell types, for its typed cells when a page asks.
    types: Vec<Vec<autoformat::CellType>>,
    pub total: usize,
    pub summary: Option<Summary>,
    pub kind: Option<AdKind>,
}

/// What a run answers at once: the counts, the summary, the first page.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct QueryAnswer {
    pub matched: usize,
    pub total: usize,
    pub summary: Option<Summary>,
    /// `machine`, `job` or `other`: the matching ads' kind (the first's).
    pub kind: Option<AdKind>,
    pub page: Vec<QueryRow>,
    /// Rows of the page start at this index of the result.
    pub from: usize,
}

/// Rows sent with the first answer.
pub const FIRST_PAGE: usize = 200;

/// Run `spec` over `ads`; `progress(done, total)` is called now and then
/// and stops the run by returning false (then `None`).
pub fn run(
    ads: &[Arc<ClassAd>],
    spec: &QuerySpec,
    opts: EvalOptions,
    mut progress: impl FnMut(usize, usize) -> bool,
) -> Result<Option<QueryRun>, Box<QueryError>> {
    let sort: Vec<String> = spec
        .sort
        .and_then(|i| spec.columns.get(i))
        .map(|c| vec![c.clone()])
        .unwrap_or_default();
    let q = Query::parse(Some(&spec.constraint), &spec.columns, &sort, spec.dialect)?;
    let mut ev = Evaluator::new(opts);
    // (row, its cell types, its sort keys)
    let mut rows: Vec<(
        QueryRow,
        Vec<autoformat::CellType>,
        Vec<crate::lang::value::Value>,
    )> = Vec::new();
    let mut summary: Option<Summary> = None;
    let mut kind = None;
    for (i, ad) in ads.iter().enumerate() {
        if i % 2048 == 0 && !progress(i, ads.len()) {
            return Ok(None);
        }
        let Some(sel) = q.select(&mut ev, ad) else {
            continue;
        };
        let k = *kind.get_or_insert_with(|| AdKind::of(ad));
        summary
            .get_or_insert_with(|| Summary::for_kind(k))
            .add(&mut ev);
        rows.push((
            QueryRow {
                ad: i,
                cells: sel.values.iter().map(autoformat::text).collect(),
                typed: vec![],
            },
            sel.values.iter().map(autoformat::CellType::of).collect(),
            sel.keys,
        ));
    }
    progress(ads.len(), ads.len());
    if !sort.is_empty() {
        rows.sort_by(|a, b| {
            let o = compare_keys(&a.2, &b.2);
            if spec.descending {
                o.reverse()
            } else {
                o
            }
        });
    }
    let (rows, types) = rows.into_iter().map(|(row, types, _)| (row, types)).unzip();
    Ok(Some(QueryRun {
        rows,
        types,
        total: ads.len(),
        summary,
        kind,
    }))
}

impl QueryRun {
    pub fn answer(&self) -> QueryAnswer {
        QueryAnswer {
            matched: self.rows.len(),
            total: self.total,
            summary: self.summary.clone(),
            kind: self.kind,
            page: self.page(0, FIRST_PAGE, false),
            from: 0,
        }
    }

    /// Rows `from..to` of the result (clipped), with their typed cells
    /// when `typed`.
    pub fn page(&self, from: usize, to: usize, typed: bool) -> Vec<QueryRow> {
        let to = to.min(self.rows.len());
        let from = from.min(to);
        self.rows[from..to]
            .iter()
            .zip(&self.types[from..to])
            .map(|(r, types)| QueryRow {
                ad: r.ad,
                cells: r.cells.clone(),
                typed: if typed {
                    types.iter().zip(&r.cells).map(|(t, c)| t.json(c)).collect()
                } else {
                    vec![]
                },
            })
            .collect()
    }
}

/// Why the constraint held or failed for one ad: its value and trace.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct QueryExplain {
    pub value: String,
    pub matches: bool,
    pub trace: Option<TraceNode>,
}

pub fn explain(
    ad: &Arc<ClassAd>,
    constraint: &str,
    opts: EvalOptions,
    dialect: Dialect,
) -> Result<QueryExplain, Box<QueryError>> {
    let q = Query::parse(Some(constraint), &[], &[], dialect)?;
    let mut ev = Evaluator::new(opts);
    ev.set_ads(Some(ad.clone()), None);
    let Some(c) = &q.constraint else {
        return Ok(QueryExplain {
            value: "true".into(),
            matches: true,
            trace: None,
        });
    };
    let env = ev.my_env();
    let (v, trace) = ev.eval_traced(c, &env);
    Ok(QueryExplain {
        value: crate::lang::unparse::value_to_string(&v),
        matches: holds(&v),
        trace,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::{read_pool, InputFormat};

    fn pool() -> Vec<Arc<ClassAd>> {
        let text = (0..10)
            .map(|i| format!("[ Name = \"m{i}\"; MyType = \"Machine\"; Memory = {}; State = \"Claimed\"; Arch = \"X\"; OpSys = \"Y\" ]\n", i * 100))
            .collect::<String>();
        read_pool(&text, InputFormat::Auto, Dialect::Auto)
            .ads
            .into_iter()
            .map(|a| Arc::new(a.ad))
            .collect()
    }

    #[test]
    fn a_run_keeps_its_rows_sorted_and_pages_them() {
        let spec = QuerySpec {
            constraint: "Memory > 250".into(),
            columns: vec!["Name".into(), "Memory".into()],
            sort: Some(1),
            descending: true,
            dialect: Dialect::default(),
        };
        let run = run(&pool(), &spec, EvalOptions::default(), |_, _| true)
            .unwrap()
            .unwrap();
        let a = run.answer();
        assert_eq!((a.matched, a.total), (7, 10));
        assert_eq!(a.page[0].cells, ["m9", "900"]);
        assert_eq!(run.page(5, 100, false).len(), 2);
        assert!(run.page(5, 100, false)[0].typed.is_empty());
        assert_eq!(
            run.page(5, 100, true)[0].typed.len(),
            run.page(5, 100, true)[0].cells.len()
        );
        let Some(Summary::Machines(m)) = a.summary else {
            panic!()
        };
        assert_eq!(m.total.states[1], 7);
    }

    #[test]
    fn a_stopped_run_gives_nothing_and_errors_name_the_column() {
        let spec = QuerySpec {
            constraint: "true".into(),
            ..Default::default()
        };
        assert!(run(&pool(), &spec, EvalOptions::default(), |_, _| false)
            .unwrap()
            .is_none());
        let bad = QuerySpec {
            columns: vec!["Name".into(), "1 +".into()],
            ..Default::default()
        };
        let e = run(&pool(), &bad, EvalOptions::default(), |_, _| true).unwrap_err();
        assert_eq!(e.which, "column 2");
    }

    #[test]
    fn explain_says_why_for_one_ad() {
        let ads = pool();
        let x = explain(
            &ads[1],
            "Memory > 250 && State == \"Claimed\"",
            EvalOptions::default(),
            Dialect::default(),
        )
        .unwrap();
        assert!(!x.matches);
        assert_eq!(x.value, "false");
        assert!(x.trace.is_some());
    }
}
