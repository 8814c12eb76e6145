//! `classad eval`: each expression (or each line of standard input)
//! evaluated, one line per expression.

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;
use classad::{ClassAd, Evaluator};

use crate::input::read_one_ad;
use crate::options::{DialectArg, EvalArgs};

#[derive(Args)]
pub struct EvalCmd {
    #[command(flatten)]
    eval: EvalArgs,
    /// The syntax: htcondor (exactly libclassad), seed (the papers' notation) or auto.
    #[arg(long, value_enum, default_value = "htcondor")]
    dialect: DialectArg,
    /// The ad that is MY / self (default: an empty ad).
    #[arg(long)]
    my: Option<String>,
    /// The ad that is TARGET / other.
    #[arg(long)]
    target: Option<String>,
    exprs: Vec<String>,
}

pub fn run(a: EvalCmd) -> Result<ExitCode, String> {
    let d = a.dialect.dialect();
    let my_ad = match &a.my {
        Some(p) => read_one_ad(p, d)?,
        None => ClassAd::new(),
    };
    let target_ad = match &a.target {
        Some(p) => Some(Arc::new(read_one_ad(p, d)?)),
        None => None,
    };
    let opts = a.eval.options();
    let mut ev = Evaluator::new(opts);
    let my_ad = Arc::new(my_ad);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut all_parsed = true;
    let mut one = |src: &str, out: &mut dyn Write| -> std::io::Result<()> {
        match classad::parse_expr_noted(src, d, opts.mode) {
            Ok((e, noted)) => {
                for s in noted {
                    let at = s;
                    let written = src.get(at.start as usize..at.end as usize).unwrap_or("");
                    let note = classad::api::literal_warning(written, at).locate(src);
                    eprintln!(
                        "warning: {src:.60}:{}:{}: {}",
                        note.line, note.column, note.message
                    );
                    if let Some(help) = &note.help {
                        eprintln!("  help: {help}");
                    }
                }
                ev.set_ads(Some(my_ad.clone()), target_ad.clone());
                let v = ev.eval_expr(&e);
                if let Some(deep) = ev.take_depth_exceeded() {
                    let note = classad::api::depth_diagnostic(&deep, src.len());
                    eprintln!("warning: {src:.60}: {}", note.message);
                }
                if let Some(big) = ev.take_value_too_large() {
                    let note = classad::api::too_large_diagnostic(&big, src.len());
                    let note = note.locate(src);
                    eprintln!(
                        "warning: {src:.60}:{}:{}: {}",
                        note.line, note.column, note.message
                    );
                }
                writeln!(out, "{v}")
            }
            Err(diag) => {
                all_parsed = false;
                // One line per expression, whatever the message holds.
                let msg = diag.summary().replace('\n', "\\n").replace('\r', "\\r");
                writeln!(out, "PARSE_ERROR {msg}")
            }
        }
    };
    let io = |e: std::io::Error| format!("cannot write output: {e}");
    if a.exprs.is_empty() {
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            let line = line.map_err(|e| format!("cannot read standard input: {e}"))?;
            one(&line, &mut out).map_err(io)?;
        }
    } else {
        for e in &a.exprs {
            one(e, &mut out).map_err(io)?;
        }
    }
    out.flush().map_err(io)?;
    Ok(if all_parsed {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
