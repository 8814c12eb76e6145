//! `classad fmt`: read ads in any supported format, write them in another.

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
    let pool = formats::read_pool(&text, formats::InputFormat::Auto, a.dialect.dialect());
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
    print!("{}", formats::write_pool(&ads, fmt));
    Ok(if !pool.diagnostics.iter().any(|d| d.is_error()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
