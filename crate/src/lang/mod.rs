//! The ClassAd language itself, with nothing of matchmaking in it: the
//! syntax tree and its values, lexing and parsing (HTCondor 25's syntax and
//! the seed papers' dialect), evaluation with its function library, time,
//! unparsing, specialization, references and diagnostics.
//!
//! Everything above (formats, matchmaking, analysis, gangmatching, the
//! API) builds on this layer; nothing here imports from them.
//!
//! Inside, lowest first: names, time, mode, reals as C prints them
//! (`real_text`) and the built-in functions' names; the data model (`ast`)
//! and `value`; the syntax (diagnostic, lexer, parser, unparse, refs); then
//! evaluation (`eval`, `functions`, `specialize`). Syntax never imports
//! evaluation (tests/layers.rs checks).

pub mod ast;
pub mod builtins;
pub mod clock;
pub mod diagnostic;
pub mod eval;
pub mod functions;
pub mod lexer;
pub mod mode;
pub mod names;
pub mod parser;
pub mod real_text;
pub mod refs;
pub mod signatures;
pub mod specialize;
pub mod time;
pub mod unparse;
pub mod value;
