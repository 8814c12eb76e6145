//! The embed module's wasm: the library's exported functions
//! ([`classad_embed`]: `evaluate`, `match`, `parse`, …), linked into a
//! binary (see `Cargo.toml` for why not a cdylib). `main` does nothing: the
//! JS glue calls it once when the module loads.

use classad_embed as _;

fn main() {}
