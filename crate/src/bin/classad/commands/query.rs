//! `classad query`: a pool's ads that satisfy a constraint, as
//! `condor_status -constraint` / `condor_q -constraint` list them.
//!
//! With `--af` and no `--sort`, ads are read, tested and printed one at a
//! time (memory does not grow with the pool); a table, `--sort` or
//! `--json` keep only the matching rows.

use std::io::BufReader;
use std::process::ExitCode;
use std::sync::Arc;

/// Bytes read at a time: a production pool is hundreds of megabytes, and
/// the long format is taken a buffer of whole lines at a time.
const READ_BUFFER: usize = 1 << 20;

use classad::formats::stream::{AdStream, Streamed};
use classad::query::summary::Summary;
use classad::query::tables::{self, AdKind};
use classad::query::{autoformat, compare_keys, Query};
use classad::{Evaluator, Value};

use crate::options::{DialectArg, EvalArgs};

#[derive(clap::Args)]
pub struct QueryCmd {
    /// Pool files (any format; `-` for standard input), read ad by ad.
    #[arg(required = true)]
    files: Vec<String>,
    #[arg(long, visible_alias = "const")]
    constraint: Option<String>,
    /// Autoformat: print these expressions of each matching ad, one
    /// line per ad, separated by one space.
    #[arg(long, num_args = 1.., value_name = "EXPR")]
    af: Vec<String>,
    /// The condor_status summary (machines by Arch/OpSys and State) or
    /// the condor_q totals line.
    #[arg(long)]
    summary: bool,
    /// Sort the matching ads by these expressions (stable).
    #[arg(long, num_args = 1.., value_name = "EXPR")]
    sort: Vec<String>,
    /// `{ "matched", "total", "rows", "summary" }`.
    #[arg(long)]
    json: bool,
    /// The syntax: htcondor (exactly libclassad), seed (the papers' notation) or auto.
    #[arg(long, value_enum, default_value = "htcondor")]
    dialect: DialectArg,
    #[command(flatten)]
    eval: EvalArgs,
}

/// A matching ad's row as it will be printed.
struct Row {
    cells: Vec<Value>,
    table: Vec<String>,
    keys: Vec<Value>,
}

pub fn run(a: QueryCmd) -> Result<ExitCode, String> {
    let (opts, dialect) = (a.eval.options(), a.dialect.dialect());
    let q = match Query::parse(a.constraint.as_deref(), &a.af, &a.sort, dialect) {
        Ok(q) => q,
        Err(e) => {
            eprintln!("{}", e.diagnostic.render(&e.text, &e.which));
            return Ok(ExitCode::from(2));
        }
    };
    let clock = opts.clock;
    let mut ev = Evaluator::new(opts);
    let stream_lines = !a.af.is_empty() && a.sort.is_empty() && !a.json;
    let (mut total, mut matched, mut left_out) = (0u64, 0u64, 0u64);
    let mut kind: Option<AdKind> = None;
    let mut summary: Option<Summary> = None;
    let mut rows: Vec<Row> = Vec::new();
    for file in &a.files {
        let reader: Box<dyn std::io::BufRead> = if file == "-" {
            Box::new(BufReader::with_capacity(READ_BUFFER, std::io::stdin()))
        } else {
            // A directory opens on Linux and fails on the first read: refuse
            // it up front, as a missing file is (exit status 2).
            if std::fs::metadata(file).is_ok_and(|m| m.is_dir()) {
                return Err(format!("cannot read {file}: it is a directory"));
            }
            Box::new(BufReader::with_capacity(
                READ_BUFFER,
                std::fs::File::open(file).map_err(|e| format!("cannot read {file}: {e}"))?,
            ))
        };
        // Only what the query reads of each ad is read.
        let projection = q.projection(a.af.is_empty(), a.summary);
        for item in AdStream::new(reader, dialect).projected(projection) {
            let ad = match item {
                Streamed::Ad(ad) => ad,
                Streamed::Problem(d) => {
                    let level = if d.is_error() {
                        left_out += 1;
                        ""
                    } else {
                        "warning: "
                    };
                    eprintln!("{file}:{}:{}: {level}{}", d.line, d.column, d.detail());
                    continue;
                }
            };
            total += 1;
            let ad = Arc::new(ad.ad);
            let selected = q.select(&mut ev, &ad);
            if let Some(big) = ev.take_value_too_large() {
                let ad = classad::formats::label(&ad, (total - 1) as usize);
                eprintln!("{file}: {ad}: warning: {}", big.message());
            }
            let Some(sel) = selected else {
                continue;
            };
            matched += 1;
            let k = *kind.get_or_insert_with(|| AdKind::of(&ad));
            if a.summary {
                summary
                    .get_or_insert_with(|| Summary::for_kind(k))
                    .add(&mut ev);
            }
            if stream_lines {
                println!("{}", autoformat::line(&sel.values));
                continue;
            }
            let table = if a.af.is_empty() {
                match k {
                    AdKind::Machine => tables::machine_row(&mut ev, &clock),
                    AdKind::Job => tables::job_row(&mut ev, &clock),
                    AdKind::Other => vec![classad::formats::label(&ad, (total - 1) as usize)],
                }
            } else {
                vec![]
            };
            rows.push(Row {
                cells: sel.values,
                table,
                keys: sel.keys,
            });
        }
    }
    if !a.sort.is_empty() {
        rows.sort_by(|x, y| compare_keys(&x.keys, &y.keys));
    }
    if a.json {
        let rows: Vec<serde_json::Value> = rows
            .iter()
            .map(|r| {
                if a.af.is_empty() {
                    r.table
                        .iter()
                        .map(|c| serde_json::Value::from(c.as_str()))
                        .collect()
                } else {
                    r.cells.iter().map(autoformat::json).collect()
                }
            })
            .collect();
        let out = serde_json::json!({
            "matched": matched,
            "total": total,
            "rows": rows,
            "summary": summary,
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?
        );
    } else {
        if !stream_lines {
            if a.af.is_empty() {
                let k = kind.unwrap_or(AdKind::Other);
                let table: Vec<Vec<String>> = rows.into_iter().map(|r| r.table).collect();
                if !table.is_empty() {
                    for line in tables::layout(k, &table) {
                        println!("{line}");
                    }
                }
            } else {
                for r in &rows {
                    println!("{}", autoformat::line(&r.cells));
                }
            }
        }
        if let Some(s) = &summary {
            // A summary exists only after matching rows: set it apart.
            println!();
            for line in s.lines() {
                println!("{line}");
            }
        } else if a.summary {
            println!("0 ads matched");
        }
    }
    if left_out > 0 {
        eprintln!("{left_out} problem(s) in the input: each says what was left out");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
