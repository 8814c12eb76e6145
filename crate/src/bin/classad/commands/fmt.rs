//! `classad fmt`: read ads in any supported format, write them in another.

use std::io::Write;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use classad::formats::{self, OutputFormat};
use classad::ClassAd;

use crate::input::read_input;
use crate::options::DialectArg;

#[derive(Clone, Copy, ValueEnum)]
enum ToArg {
    New,
    Old,
    Json,
    Jsonl,
    Pretty,
    Xml,
}

#[derive(Args)]
pub struct FmtCmd {
    #[arg(long, value_enum, default_value = "new")]
    to: ToArg,
    /// The syntax: htcondor (exactly libclassad), seed (the papers' notation) or auto.
    #[arg(long, value_enum, default_value = "htcondor")]
    dialect: DialectArg,
    file: Option<String>,
}

pub fn run(a: FmtCmd) -> Result<ExitCode, String> {
    let (text, name) = read_input(&a.file)?;
    // Every definition is written: each is parsed once, as it is read.
    let pool = formats::read_pool_eager(&text, formats::InputFormat::Auto, a.dialect.dialect());
    for diag in &pool.diagnostics {
        eprint!("{}", diag.render(&text, &name));
    }
    let fmt = match a.to {
        ToArg::New => OutputFormat::New,
        ToArg::Old => OutputFormat::Old,
        ToArg::Json => OutputFormat::Json,
        ToArg::Jsonl => OutputFormat::JsonLines,
        ToArg::Pretty => OutputFormat::Pretty,
        ToArg::Xml => OutputFormat::Xml,
    };
    let ads: Vec<&ClassAd> = pool.ads.iter().map(|a| &a.ad).collect();
    let out = formats::write_pool(&ads, fmt);
    std::io::stdout()
        .lock()
        .write_all(out.as_bytes())
        .map_err(|e| format!("cannot write: {e}"))?;
    let failed = pool.diagnostics.iter().any(|d| d.is_error());
    // The process ends here: freeing a pool's millions of nodes one by one
    // would cost a tenth of the command.
    drop(ads);
    std::mem::forget((pool, text, out));
    Ok(if !failed {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
