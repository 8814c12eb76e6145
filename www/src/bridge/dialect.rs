//! The syntax the page reads every text in (the header's Syntax menu):
//! HTCondor's, exactly as libclassad reads it, unless the user (or a
//! gallery example written in the seed papers' notation) picks another.
//!
//! The page sets it once per render (`App`); every verb that parses in a
//! worker carries it (`pool@seed`), and the caches of parsed pools keep
//! the dialect they were read in, so a switch reads everything again.

use std::cell::Cell;

use classad::api::Dialect;

thread_local! {
    static CURRENT: Cell<Dialect> = Cell::new(Dialect::default());
}

/// The dialect the page reads in now.
pub fn current() -> Dialect {
    CURRENT.with(Cell::get)
}

/// Set by the root component on each render, from the state.
pub fn set(d: Dialect) {
    CURRENT.with(|c| c.set(d));
}

/// `verb` as sent to a worker: `pool`, `pool@seed`.
pub fn verb(verb: &str) -> String {
    match current() {
        Dialect::Modern => verb.to_string(),
        d => format!("{verb}@{}", d.name()),
    }
}

/// A worker's reading of a verb: its name and the dialect it carries.
pub fn split_verb(verb: &str) -> (&str, Dialect) {
    match verb.split_once('@') {
        Some((v, "seed")) => (v, Dialect::Seed),
        Some((v, "auto")) => (v, Dialect::Auto),
        Some((v, _)) => (v, Dialect::Modern),
        None => (verb, Dialect::Modern),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbs_carry_the_dialect_both_ways() {
        for d in [Dialect::Modern, Dialect::Seed, Dialect::Auto] {
            set(d);
            assert_eq!(split_verb(&verb("pool-lines")), ("pool-lines", d));
        }
        set(Dialect::default());
        assert_eq!(verb("load"), "load");
    }
}
