//! `classad refs`: each ad's internal and external references.

use std::process::ExitCode;

use clap::Args;
use classad::formats;

use crate::input::read_input;
use crate::options::{DialectArg, ModeArg};

#[derive(Args)]
pub struct RefsCmd {
    /// The syntax: htcondor (exactly libclassad), seed (the papers' notation) or auto.
    #[arg(long, value_enum, default_value = "htcondor")]
    dialect: DialectArg,
    /// HTCondor's semantics (`MY` and `CurrentTime` are special) or plain
    /// new-ClassAd (libclassad alone: both are ordinary names).
    #[arg(long, value_enum, default_value = "htcondor")]
    mode: ModeArg,
    file: Option<String>,
}

pub fn run(a: RefsCmd) -> Result<ExitCode, String> {
    let (text, name) = read_input(&a.file)?;
    let pool = formats::read_pool(&text, formats::InputFormat::Auto, a.dialect.dialect());
    for diag in &pool.diagnostics {
        eprint!("{}", diag.render(&text, &name));
    }
    for (i, entry) in pool.ads.iter().enumerate() {
        let (internal, external) =
            classad::lang::refs::ad_refs_as_written(&entry.ad, matches!(a.mode, ModeArg::Strict));
        println!("ad {} ({})", i, entry.label);
        println!("  internal: {}", internal.join(" "));
        println!("  external: {}", external.join(" "));
    }
    Ok(if !pool.diagnostics.iter().any(|d| d.is_error()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
