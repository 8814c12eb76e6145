//! `classad gang`: gangmatch each request against the offers (thesis ch. 3
//! and 5), one line per request, or the result as JSON.

use std::process::ExitCode;

use clap::Args;
use classad::gang::{gangmatch, Algorithm, GangOptions};
use classad::{Expr, ExprKind};

use crate::input::read_ads;

#[derive(Args)]
pub struct GangCmd {
    /// naive (the ranked search, default), lr, rl, lrc, rlc, dyn, dyns
    /// or dynsr (the indexed algorithms of the thesis' chapter 5).
    #[arg(long, default_value = "naive")]
    algorithm: String,
    /// DYNSR's random start.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Process the requests in file order, as the thesis' experiments
    /// do (default: root order, by priority).
    #[arg(long)]
    file_order: bool,
    /// The root ordering expression (thesis §3.2.4), evaluated with
    /// each request as MY: the largest value first.
    #[arg(long, value_name = "EXPR", allow_hyphen_values = true)]
    root_order: Option<String>,
    /// The docking vector of the naive search, e.g. `{ self.Rank,
    /// -label.Memory }`: evaluated in the port being filled (`label` is
    /// the candidate); the largest vector wins, a candidate whose vector
    /// has an undefined, error or non-numeric component is not eligible.
    #[arg(long, value_name = "VECTOR", allow_hyphen_values = true)]
    docking_vector: Option<String>,
    #[arg(long)]
    requests: String,
    #[arg(long)]
    offers: String,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
    /// The syntax: htcondor (exactly libclassad), seed (the papers' notation) or auto.
    #[arg(long, value_enum, default_value = "htcondor")]
    dialect: crate::options::DialectArg,
}

pub fn run(a: GangCmd) -> Result<ExitCode, String> {
    let algorithm = Algorithm::parse(&a.algorithm).ok_or_else(|| {
        format!(
            "unknown algorithm {}: expected naive, lr, rl, lrc, rlc, dyn, dyns or dynsr",
            a.algorithm
        )
    })?;
    let root_order_expr = a
        .root_order
        .as_deref()
        .map(|t| parse_flag("root-order", t, a.dialect.dialect()))
        .transpose()?;
    let docking_vector = a
        .docking_vector
        .as_deref()
        .map(|t| docking_vector(t, a.dialect.dialect()))
        .transpose()?;
    let (req_ads, _) = read_ads(&a.requests, a.dialect.dialect())?;
    let (offer_ads, _) = read_ads(&a.offers, a.dialect.dialect())?;
    let opts = GangOptions {
        algorithm,
        seed: a.seed,
        root_order: !a.file_order,
        root_order_expr,
        docking_vector,
        ..GangOptions::default()
    };
    let result = gangmatch(&req_ads, &offer_ads, &opts).map_err(|e| e.to_string())?;
    for (i, msg) in &result.offer_errors {
        eprintln!("{}: offer {}: {msg} (left out)", a.offers, i + 1);
    }
    for r in &result.requests {
        if let Some(msg) = &r.error {
            eprintln!("{}: request {}: {msg}", a.requests, r.name);
        }
        if r.limit_hit && r.probes > 0 {
            // The indexed algorithms' budget counts index probes too.
            eprintln!(
                "request {}: gave up after {} evaluations and {} index probes \
                 (limit {} on the two together)",
                r.name, r.evaluations, r.probes, opts.max_evaluations_per_request
            );
        } else if r.limit_hit {
            eprintln!(
                "request {}: gave up after {} evaluations (limit {})",
                r.name, r.evaluations, opts.max_evaluations_per_request
            );
        }
    }
    if a.json {
        let text = serde_json::to_string_pretty(&result).map_err(|e| e.to_string())?;
        println!("{text}");
    } else {
        for r in &result.requests {
            match &r.gang {
                Some(g) => println!("{} {}", r.name, g.line()),
                None => println!("{} -", r.name),
            }
        }
        let c = &result.counters;
        println!(
            "# evaluations={} probes={} backtracks={} gangs={} seconds={:.3}",
            c.evaluations, c.probes, c.backtracks, c.gangs, c.seconds
        );
    }
    // As `fmt` does: a malformed request or offer (reported above) is a failure.
    let malformed =
        !result.offer_errors.is_empty() || result.requests.iter().any(|r| r.error.is_some());
    Ok(if malformed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// An expression given as a flag's value, its problem located in the flag.
fn parse_flag(flag: &str, text: &str, dialect: classad::Dialect) -> Result<Expr, String> {
    classad::parse_expr_with(text, dialect, classad::Mode::HTCondor).map_err(|d| {
        format!(
            "--{flag}: {}:{}: {}",
            d.line.max(1),
            d.column.max(1),
            d.message
        )
    })
}

/// `--docking-vector`: a list of expressions, the braces optional.
fn docking_vector(text: &str, dialect: classad::Dialect) -> Result<Vec<Expr>, String> {
    let t = text.trim();
    let text = if t.starts_with('{') {
        t.to_string()
    } else {
        format!("{{ {t} }}")
    };
    match parse_flag("docking-vector", &text, dialect)?.kind {
        ExprKind::List(items) if !items.is_empty() => Ok(items.to_vec()),
        _ => Err(
            "--docking-vector: expected a list of expressions, e.g. { self.Rank, -label.Memory }"
                .into(),
        ),
    }
}
