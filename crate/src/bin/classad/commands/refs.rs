//! `classad refs`: each ad's internal and external references.

use std::collections::BTreeSet;
use std::process::ExitCode;

use clap::Args;
use classad::formats;

use crate::input::read_input;
use crate::options::DialectArg;

#[derive(Args)]
pub struct RefsCmd {
    /// The syntax: htcondor (exactly libclassad), seed (the papers' notation) or auto.
    #[arg(long, value_enum, default_value = "htcondor")]
    dialect: DialectArg,
    file: Option<String>,
}

pub fn run(a: RefsCmd) -> Result<ExitCode, String> {
    let (text, name) = read_input(&a.file)?;
    let pool = formats::read_pool(&text, formats::InputFormat::Auto, a.dialect.dialect());
    for diag in &pool.diagnostics {
        eprint!("{}", diag.render(&text, &name));
    }
    let join = |s: &BTreeSet<String>| s.iter().cloned().collect::<Vec<_>>().join(" ");
    for (i, entry) in pool.ads.iter().enumerate() {
        let r = classad::lang::refs::ad_refs(&entry.ad);
        println!("ad {} ({})", i, entry.label);
        println!("  internal: {}", join(&r.internal));
        println!("  external: {}", join(&r.external));
    }
    Ok(if !pool.diagnostics.iter().any(|d| d.is_error()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
