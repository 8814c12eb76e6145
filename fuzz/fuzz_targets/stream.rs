//! Arbitrary bytes read as a pool, as a stream (`classad query`) and
//! whole (`fmt`, the page): bytes that are not UTF-8 anywhere (the first
//! byte too), UTF-16/UTF-32 byte-order marks, and lines longer than the
//! stream's record bound (the input's first byte, when it is `~`, repeats
//! the second line to past 16 MB). Every reader's buffer size cuts the
//! input somewhere else. Nothing may panic, hang or overflow the stack;
//! a stream's ads are a whole read's, and the stream holds no more than
//! its bound.
#![no_main]

use std::io::BufReader;

use classad::formats::stream::{AdStream, Streamed, MAX_RECORD_BYTES};
use classad::formats::{read_pool_bytes, InputFormat};
use classad::Dialect;
use libfuzzer_sys::fuzz_target;

/// The input, with its second line made longer than a record may be
/// when it asks for that.
fn input(data: &[u8]) -> Vec<u8> {
    let Some((b'~', rest)) = data.split_first() else {
        return data.to_vec();
    };
    let mut lines = rest.splitn(3, |&b| b == b'\n');
    let (first, second, tail) = (
        lines.next().unwrap_or_default(),
        lines.next().unwrap_or(b"x"),
        lines.next().unwrap_or_default(),
    );
    let mut out = first.to_vec();
    out.push(b'\n');
    let unit = if second.is_empty() { &b"x"[..] } else { second };
    while out.len() <= MAX_RECORD_BYTES + 16 {
        out.extend_from_slice(unit);
    }
    out.push(b'\n');
    out.extend_from_slice(tail);
    out
}

fuzz_target!(|data: &[u8]| {
    let bytes = input(data);
    let cap = 1 + data.first().map_or(0, |&b| b as usize) * 7;
    let mut streamed = 0usize;
    for item in AdStream::new(BufReader::with_capacity(cap, &bytes[..]), Dialect::Auto) {
        match item {
            Streamed::Ad(_) => streamed += 1,
            Streamed::Problem(d) => assert!(d.line >= 1 || d.message.contains("marked as")),
        }
    }
    if bytes.len() <= MAX_RECORD_BYTES {
        let (text, pool) = read_pool_bytes(&bytes, InputFormat::Auto, Dialect::Auto);
        for d in &pool.diagnostics {
            let _ = d.render(&text, "fuzz");
        }
        std::hint::black_box((streamed, pool.ads.len()));
    }
});
