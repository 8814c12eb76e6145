//! The function library: every function libclassad defines plus the ones
//! HTCondor registers (marked `htcondor_only`, unavailable in strict mode).
//!
//! Functions receive their arguments unevaluated, so lazy ones
//! (`ifThenElse`, `unparse`, `evalInEachContext`) can choose what to
//! evaluate. Each family lives in its own module and exports a `FUNCS`
//! table. A call is resolved to its function by the parser, against the
//! names in `builtins`, whose order the library's table keeps.

mod def;
mod lists;
mod misc;
mod pcre;
mod stringlists;
mod strings;
mod time_fns;
mod types;

use std::sync::OnceLock;

pub use self::def::{eval_args, eval_n, exceptional, f, hf, list_items, FnImpl, FuncDef};
use crate::lang::builtins;
// Name resolution is the parser's (syntax knows the names, not the library).
pub use crate::lang::builtins::{lookup, lookup_seed};
use crate::lang::eval::{EvalOptions, Evaluator};

/// The definitions by index: the order of `builtins::NAMES` (then
/// `SEED_NAMES`), which the parser resolves names against.
fn table() -> &'static [&'static FuncDef] {
    static T: OnceLock<Vec<&'static FuncDef>> = OnceLock::new();
    T.get_or_init(|| {
        let families = [
            types::FUNCS,
            lists::FUNCS,
            misc::FUNCS,
            strings::FUNCS,
            stringlists::FUNCS,
            time_fns::FUNCS,
            // The seed papers' retired functions, known outside the modern
            // dialect only.
            time_fns::SEED_FUNCS,
            lists::SEED_FUNCS,
        ];
        let defs: Vec<&'static FuncDef> = families.iter().flat_map(|f| f.iter()).collect();
        let names = builtins::NAMES.iter().chain(builtins::SEED_NAMES);
        assert!(
            defs.iter().map(|d| d.name).eq(names.copied()),
            "the function library and builtins::NAMES list different functions"
        );
        defs
    })
}

/// The implementations by index, as the evaluator runs them.
fn imps() -> &'static [FnImpl] {
    static I: OnceLock<Vec<FnImpl>> = OnceLock::new();
    I.get_or_init(|| table().iter().map(|d| d.imp).collect())
}

// Here, not in `eval`: the evaluator runs whatever functions it is handed,
// and this library is what every evaluator is handed.
impl Evaluator {
    /// An evaluator with the whole function library.
    pub fn new(opts: EvalOptions) -> Evaluator {
        Evaluator::with_builtins(opts, imps())
    }
}

pub fn get(id: u16) -> &'static FuncDef {
    table()[id as usize]
}

/// Every known function name, for completion and documentation.
pub fn names() -> Vec<&'static str> {
    table().iter().map(|d| d.name).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_library_defines_what_builtins_names_in_its_order() {
        assert_eq!(
            super::table().len(),
            super::builtins::NAMES.len() + super::builtins::SEED_NAMES.len()
        );
    }
}
