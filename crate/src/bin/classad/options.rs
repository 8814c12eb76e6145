//! The flags several subcommands share: how to evaluate (`--mode`, `--now`,
//! `--tz-offset`, one [`EvalArgs`]) and how to read (`--dialect`).

use clap::{Args, ValueEnum};
use classad::{Clock, Dialect, EvalOptions, Mode};

#[derive(Clone, Copy, ValueEnum)]
pub enum ModeArg {
    Htcondor,
    Strict,
}

/// `--dialect`: the syntax input is read in. `htcondor` (the default) is
/// exactly what libclassad accepts; `seed` is the seed papers' notation
/// (scale suffixes, octal and hexadecimal integers, time literals); `auto`
/// takes HTCondor's syntax and the papers' forms where they mean nothing
/// else.
#[derive(Clone, Copy, ValueEnum)]
pub enum DialectArg {
    #[value(alias = "modern")]
    Htcondor,
    Seed,
    Auto,
}

impl DialectArg {
    pub fn dialect(self) -> Dialect {
        match self {
            DialectArg::Auto => Dialect::Auto,
            DialectArg::Htcondor => Dialect::Modern,
            DialectArg::Seed => Dialect::Seed,
        }
    }
}

/// The evaluation context of a command: semantics and clock.
#[derive(Args)]
pub struct EvalArgs {
    /// HTCondor's semantics or plain new-ClassAd (libclassad alone).
    #[arg(long, value_enum, default_value = "htcondor")]
    mode: ModeArg,
    /// Pin the clock (seconds since the epoch) for time functions.
    #[arg(long, value_parser = finite_seconds)]
    now: Option<f64>,
    /// Pin the local time-zone offset (seconds east of UTC).
    #[arg(long, allow_hyphen_values = true)]
    tz_offset: Option<i32>,
}

impl EvalArgs {
    pub fn options(&self) -> EvalOptions {
        EvalOptions {
            mode: match self.mode {
                ModeArg::Htcondor => Mode::HTCondor,
                ModeArg::Strict => Mode::Strict,
            },
            clock: Clock {
                now: self.now,
                local_offset: self.tz_offset,
            },
        }
    }
}

/// `--now`: seconds since the epoch, a finite number (`NaN` or `inf` would
/// silently become 0 or a clock no time function can print).
fn finite_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        Ok(_) => Err(format!("{s} is not a finite number of seconds")),
        Err(_) => Err(format!("{s} is not a number of seconds since the epoch")),
    }
}
