//! Text from JavaScript into Rust, fast at any size. wasm-bindgen's own
//! conversion copies a string's leading ASCII into wasm memory one
//! character at a time in JavaScript: 90 ms on the main thread for a
//! 17.6 MB pool. The browser's `TextEncoder` encodes natively, and the
//! bytes come over in one copy.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Below this many UTF-16 units the plain conversion is as fast.
const NATIVE_FROM: u32 = 64 * 1024;

#[wasm_bindgen]
extern "C" {
    type Encoder;
    #[wasm_bindgen(constructor, js_class = "TextEncoder")]
    fn new() -> Encoder;
    /// `encode` taking the JavaScript string as it is.
    #[wasm_bindgen(method, js_name = encode)]
    fn encode_js(this: &Encoder, text: &js_sys::JsString) -> js_sys::Uint8Array;
}

/// A file's text from its bytes, as `FileReader.readAsText` decodes it
/// (UTF-8, a byte-order mark dropped, UTF-16 by its mark; bytes that are
/// not UTF-8 become U+FFFD), without going through a JavaScript string.
pub fn text_of_bytes(bytes: Vec<u8>) -> String {
    let utf16 = |b: &[u8], le: bool| {
        let units: Vec<u16> = b
            .chunks(2)
            .map(|c| match (c, le) {
                ([a, b], true) => u16::from_le_bytes([*a, *b]),
                ([a, b], false) => u16::from_be_bytes([*a, *b]),
                _ => 0xfffd,
            })
            .collect();
        String::from_utf16_lossy(&units)
    };
    match bytes.as_slice() {
        [0xef, 0xbb, 0xbf, rest @ ..] => String::from_utf8_lossy(rest).into_owned(),
        [0xff, 0xfe, rest @ ..] => utf16(rest, true),
        [0xfe, 0xff, rest @ ..] => utf16(rest, false),
        _ => utf8_lossy(bytes),
    }
}

/// UTF-8 decoded a part at a time, as [`text_of_bytes`] decodes the whole
/// (a byte-order mark dropped, bad sequences U+FFFD), for files too big to
/// decode in one task. UTF-16 files (by their mark) are gathered and
/// decoded whole at the end.
#[derive(Default)]
pub struct Utf8Parts {
    started: bool,
    /// The start of a character cut by the end of the last part.
    carry: Vec<u8>,
    /// A UTF-16 file's bytes (mark included), decoded at the end.
    utf16: Option<Vec<u8>>,
}

impl Utf8Parts {
    /// Decode `part`, handing the text to `out` (in pieces).
    pub fn feed(&mut self, part: &[u8], mut out: impl FnMut(&str)) {
        let mut part = part;
        if !self.started {
            self.started = true;
            match part {
                [0xff, 0xfe, ..] | [0xfe, 0xff, ..] => self.utf16 = Some(vec![]),
                [0xef, 0xbb, 0xbf, rest @ ..] => part = rest,
                _ => {}
            }
        }
        if let Some(all) = &mut self.utf16 {
            all.extend_from_slice(part);
            return;
        }
        let joined;
        if !self.carry.is_empty() {
            joined = [std::mem::take(&mut self.carry).as_slice(), part].concat();
            part = &joined;
        }
        // Keep back a character the part's end cut: from its lead byte
        // (at most 3 bytes back), if it needs more bytes than are here.
        let n = part.len();
        let mut cut = n;
        for back in 1..=3.min(n) {
            let b = part[n - back];
            if b & 0xc0 != 0x80 {
                let want = match b {
                    0xc0..=0xdf => 2,
                    0xe0..=0xef => 3,
                    0xf0..=0xf7 => 4,
                    _ => 1,
                };
                if want > back {
                    cut = n - back;
                }
                break;
            }
        }
        self.carry = part[cut..].to_vec();
        decode_lossy(&part[..cut], &mut out);
    }

    /// The end of the text: what was kept back.
    pub fn finish(self, mut out: impl FnMut(&str)) {
        match self.utf16 {
            Some(all) => out(&text_of_bytes(all)),
            None => decode_lossy(&self.carry, &mut out),
        }
    }
}

fn decode_lossy(bytes: &[u8], out: &mut impl FnMut(&str)) {
    for chunk in bytes.utf8_chunks() {
        out(chunk.valid());
        if !chunk.invalid().is_empty() {
            out("\u{fffd}");
        }
    }
}

/// UTF-8 bytes as text, a bad sequence as U+FFFD (no copy when they are
/// valid, as they are when the page or a worker wrote them).
pub fn utf8_lossy(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// A message's text, sent as UTF-8 bytes (a `Uint8Array`, taken in one
/// copy) or as a string; not text: empty.
pub fn text_of_message(v: JsValue) -> String {
    match v.dyn_into::<js_sys::Uint8Array>() {
        Ok(bytes) => utf8_lossy(bytes.to_vec()),
        Err(v) => string_of(&v).unwrap_or_default(),
    }
}

/// The string `v` holds, or `None` when it is not a string.
pub fn string_of(v: &JsValue) -> Option<String> {
    let s = v.dyn_ref::<js_sys::JsString>()?;
    if s.length() < NATIVE_FROM {
        return v.as_string();
    }
    let bytes = Encoder::new().encode_js(s).to_vec();
    // TextEncoder writes UTF-8 (a lone surrogate becomes U+FFFD).
    Some(utf8_lossy(bytes))
}

/// Units (UTF-16) encoded per task by [`string_of_in_steps`]: about 15 ms
/// of `TextEncoder` work on this project's machine (4 M units took 45-70).
const STEP_UNITS: u32 = 1 << 20;

/// [`string_of`] a slice at a time, each slice in a task of its own (the
/// first too: the caller's task, a paste event, has just spent the
/// browser's own time reading the clipboard), so that taking a pasted
/// 20 MB pool never blocks the page for long; `done` gets the string
/// (`None`: `v` is not one).
pub fn string_of_in_steps(v: JsValue, done: impl FnOnce(Option<String>) + 'static) {
    match v.dyn_into::<js_sys::JsString>() {
        Ok(s) => {
            let out = Vec::with_capacity(s.length() as usize);
            let done: Box<dyn FnOnce(Option<String>)> = Box::new(done);
            gloo_timers::callback::Timeout::new(0, move || step(s, 0, out, done)).forget();
        }
        Err(_) => done(None),
    }
}

fn step(s: js_sys::JsString, from: u32, mut out: Vec<u8>, done: Box<dyn FnOnce(Option<String>)>) {
    let n = s.length();
    let mut to = from.saturating_add(STEP_UNITS).min(n);
    // Never between the two halves of a surrogate pair.
    if to < n && (0xd800..0xdc00).contains(&(s.char_code_at(to - 1) as u32)) {
        to -= 1;
    }
    let bytes = Encoder::new().encode_js(&s.slice(from, to));
    let at = out.len();
    out.resize(at + bytes.length() as usize, 0);
    bytes.copy_to(&mut out[at..]);
    if to >= n {
        done(Some(utf8_lossy(out)));
        return;
    }
    gloo_timers::callback::Timeout::new(0, move || step(s, to, out, done)).forget();
}

#[cfg(test)]
mod tests {
    use super::{text_of_bytes, Utf8Parts};

    #[test]
    fn parts_decode_as_the_whole_does() {
        let cases: Vec<Vec<u8>> = vec![
            b"\xef\xbb\xbf[ a = \"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\" ]".to_vec(),
            vec![b'a', 0xff, b'b', 0xe2, 0x82, b'c', 0xf0, 0x9f, 0x98],
            vec![0xff, 0xfe, b'a', 0, 0xe9, 0],
            "plain \u{e9}t\u{e9} \u{1f600}".as_bytes().to_vec(),
        ];
        for bytes in cases {
            let whole = text_of_bytes(bytes.clone());
            for size in 3..=bytes.len() {
                let mut d = Utf8Parts::default();
                let mut out = String::new();
                for part in bytes.chunks(size) {
                    d.feed(part, |s| out.push_str(s));
                }
                d.finish(|s| out.push_str(s));
                assert_eq!(out, whole, "parts of {size}");
            }
        }
    }

    #[test]
    fn files_decode_as_read_as_text_does() {
        assert_eq!(text_of_bytes(b"[ a = 1 ]".to_vec()), "[ a = 1 ]");
        assert_eq!(
            text_of_bytes(b"\xef\xbb\xbf[ a = \"\xc3\xa9\" ]".to_vec()),
            "[ a = \"\u{e9}\" ]"
        );
        assert_eq!(text_of_bytes(vec![0xff, 0xfe, b'a', 0, 0xe9, 0]), "a\u{e9}");
        assert_eq!(text_of_bytes(vec![0xfe, 0xff, 0, b'a']), "a");
        assert_eq!(text_of_bytes(vec![b'a', 0xff, b'b']), "a\u{fffd}b");
    }
}
