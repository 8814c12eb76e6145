//! Constraints over one ad's attributes, the language the analyzer and the
//! ClassAd index share: a requirements expression as predicates in
//! disjunctive normal form (`predicate`), and the exact sets of values
//! that make a predicate true (`intervals`). It builds on the language
//! alone; the analyzer (`analysis/`), the index (`index/`) and gangmatching
//! build on it.

pub mod intervals;
pub mod predicate;
