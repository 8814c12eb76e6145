//! Arbitrary text through every parser entry point: expressions in each
//! dialect, a single ad, and pools in each input format. Nothing may panic.
#![no_main]

use classad::formats::{read_pool, InputFormat};
use classad::lang::parser::parse_expr_in;
use classad::lang::unparse::unparse_ad;
use classad::{parse_classad, unparse, Dialect};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for dialect in [Dialect::Auto, Dialect::Modern, Dialect::Seed] {
        if let Ok(e) = parse_expr_in(text, dialect) {
            let _ = unparse(&e);
        }
    }
    if let Ok(ad) = parse_classad(text) {
        let _ = unparse_ad(&ad);
    }
    for format in [
        InputFormat::Auto,
        InputFormat::New,
        InputFormat::Old,
        InputFormat::Json,
        InputFormat::Xml,
    ] {
        let pool = read_pool(text, format, Dialect::Auto);
        std::hint::black_box(pool.ads.len() + pool.diagnostics.len());
    }
    let _ = read_pool(text, InputFormat::Old, Dialect::Modern);
});
