//! The encodings a pool file arrives in. Almost always UTF-8, with or
//! without a byte-order mark; but PowerShell's `condor_status -l > pool.txt`
//! writes UTF-16LE with a mark, and some editors save UTF-16BE or UTF-32.
//! Those are recognised by their mark and read as the text they are,
//! whole ([`decode`]) or as a stream ([`Decoded`]); bytes that are not
//! text in their encoding read as U+FFFD.

use std::io::{BufRead, Read};

/// An encoding recognised by its byte-order mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16Le,
    Utf16Be,
    Utf32Le,
    Utf32Be,
}

impl Encoding {
    /// The encoding the first bytes announce, and the length of its mark
    /// (0 for UTF-8: its own mark stays in the text, where the readers
    /// skip it). UTF-32LE's mark starts as UTF-16LE's does, so it is
    /// tried first.
    pub fn sniff(start: &[u8]) -> (Encoding, usize) {
        match start {
            [0xFF, 0xFE, 0, 0, ..] => (Encoding::Utf32Le, 4),
            [0, 0, 0xFE, 0xFF, ..] => (Encoding::Utf32Be, 4),
            [0xFF, 0xFE, ..] => (Encoding::Utf16Le, 2),
            [0xFE, 0xFF, ..] => (Encoding::Utf16Be, 2),
            _ => (Encoding::Utf8, 0),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::Utf16Le => "UTF-16LE",
            Encoding::Utf16Be => "UTF-16BE",
            Encoding::Utf32Le => "UTF-32LE",
            Encoding::Utf32Be => "UTF-32BE",
        }
    }

    /// Bytes per code unit.
    fn unit(self) -> usize {
        match self {
            Encoding::Utf8 => 1,
            Encoding::Utf16Le | Encoding::Utf16Be => 2,
            Encoding::Utf32Le | Encoding::Utf32Be => 4,
        }
    }
}

/// A UTF-16 or UTF-32 decoder that takes its bytes in pieces.
struct Transcoder {
    encoding: Encoding,
    /// Bytes of a code unit cut by the end of the last piece.
    partial: Vec<u8>,
    /// A UTF-16 high surrogate waiting for its low half.
    high: Option<u16>,
    /// Code units that were not text (read as U+FFFD).
    bad: usize,
}

impl Transcoder {
    fn new(encoding: Encoding) -> Transcoder {
        Transcoder {
            encoding,
            partial: Vec::new(),
            high: None,
            bad: 0,
        }
    }

    /// Decode `bytes` onto `out`; the end of the text when `last`.
    fn push(&mut self, mut bytes: &[u8], last: bool, out: &mut String) {
        let unit = self.encoding.unit();
        if !self.partial.is_empty() {
            let take = (unit - self.partial.len()).min(bytes.len());
            self.partial.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
            if self.partial.len() == unit {
                let whole = std::mem::take(&mut self.partial);
                self.units(&whole, out);
            }
        }
        let whole = bytes.len() / unit * unit;
        self.units(&bytes[..whole], out);
        self.partial.extend_from_slice(&bytes[whole..]);
        if last {
            if self.high.take().is_some() {
                self.replace(out);
            }
            if !std::mem::take(&mut self.partial).is_empty() {
                self.replace(out);
            }
        }
    }

    fn units(&mut self, bytes: &[u8], out: &mut String) {
        out.reserve(bytes.len());
        match self.encoding {
            Encoding::Utf16Le | Encoding::Utf16Be => {
                for u in bytes.chunks_exact(2) {
                    let u = if self.encoding == Encoding::Utf16Le {
                        u16::from_le_bytes([u[0], u[1]])
                    } else {
                        u16::from_be_bytes([u[0], u[1]])
                    };
                    self.utf16(u, out);
                }
            }
            Encoding::Utf32Le | Encoding::Utf32Be => {
                for u in bytes.chunks_exact(4) {
                    let u = [u[0], u[1], u[2], u[3]];
                    let u = if self.encoding == Encoding::Utf32Le {
                        u32::from_le_bytes(u)
                    } else {
                        u32::from_be_bytes(u)
                    };
                    match char::from_u32(u) {
                        Some(c) => out.push(c),
                        None => self.replace(out),
                    }
                }
            }
            Encoding::Utf8 => out.push_str(&String::from_utf8_lossy(bytes)),
        }
    }

    fn utf16(&mut self, u: u16, out: &mut String) {
        match (self.high.take(), u) {
            (Some(h), 0xDC00..=0xDFFF) => {
                let c = 0x10000 + ((u32::from(h) - 0xD800) << 10) + (u32::from(u) - 0xDC00);
                out.push(char::from_u32(c).unwrap_or('\u{fffd}'));
            }
            (high, _) => {
                if high.is_some() {
                    self.replace(out);
                }
                match u {
                    0xD800..=0xDBFF => self.high = Some(u),
                    0xDC00..=0xDFFF => self.replace(out),
                    _ => out.push(char::from_u32(u32::from(u)).unwrap_or('\u{fffd}')),
                }
            }
        }
    }

    fn replace(&mut self, out: &mut String) {
        self.bad += 1;
        out.push('\u{fffd}');
    }
}

/// The text of bytes marked as UTF-16 or UTF-32 (`None` for anything
/// else: UTF-8 is read as it is), and how many code units were not text.
pub fn decode_marked(bytes: &[u8]) -> Option<(Encoding, String, usize)> {
    let (encoding, mark) = Encoding::sniff(bytes);
    if encoding == Encoding::Utf8 {
        return None;
    }
    let mut t = Transcoder::new(encoding);
    let mut text = String::with_capacity(bytes.len());
    t.push(&bytes[mark..], true, &mut text);
    Some((encoding, text, t.bad))
}

/// A reader giving UTF-8 whatever the mark at the start of `R` announces:
/// UTF-8 passes through untouched (no copy), UTF-16 and UTF-32 are
/// decoded a buffer at a time.
pub struct Decoded<R: BufRead> {
    inner: R,
    /// Decided from the first bytes (`None` until they have been read).
    transcoder: Option<Option<Transcoder>>,
    /// Text decoded (or the first bytes held back while sniffing) and not
    /// yet consumed, from `pos`.
    out: Vec<u8>,
    pos: usize,
}

impl<R: BufRead> Decoded<R> {
    pub fn new(inner: R) -> Decoded<R> {
        Decoded {
            inner,
            transcoder: None,
            out: Vec::new(),
            pos: 0,
        }
    }

    /// The encoding, once known.
    pub fn encoding(&self) -> Option<Encoding> {
        self.transcoder
            .as_ref()
            .map(|t| t.as_ref().map_or(Encoding::Utf8, |t| t.encoding))
    }

    /// Code units that were not text in their encoding, so far.
    pub fn bad_units(&self) -> usize {
        match &self.transcoder {
            Some(Some(t)) => t.bad,
            _ => 0,
        }
    }

    /// Read the first four bytes (fewer at the end) and decide.
    fn sniff(&mut self) -> std::io::Result<()> {
        let mut start = Vec::with_capacity(4);
        while start.len() < 4 {
            let buf = self.inner.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            let take = (4 - start.len()).min(buf.len());
            start.extend_from_slice(&buf[..take]);
            self.inner.consume(take);
        }
        let (encoding, mark) = Encoding::sniff(&start);
        if encoding == Encoding::Utf8 {
            self.out = start;
            self.transcoder = Some(None);
        } else {
            let mut t = Transcoder::new(encoding);
            let mut text = String::new();
            t.push(&start[mark..], false, &mut text);
            self.out = text.into_bytes();
            self.transcoder = Some(Some(t));
        }
        self.pos = 0;
        Ok(())
    }
}

impl<R: BufRead> Read for Decoded<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let have = self.fill_buf()?;
        let n = have.len().min(buf.len());
        buf[..n].copy_from_slice(&have[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Decoded<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.transcoder.is_none() {
            self.sniff()?;
        }
        if self.pos >= self.out.len() {
            if let Some(Some(t)) = self.transcoder.as_mut() {
                // Decode the next buffer (some bytes may only complete a
                // unit: go on until there is text or the input ends).
                let mut text = String::new();
                while text.is_empty() {
                    let buf = self.inner.fill_buf()?;
                    let last = buf.is_empty();
                    t.push(buf, last, &mut text);
                    let n = buf.len();
                    self.inner.consume(n);
                    if last {
                        break;
                    }
                }
                self.out = text.into_bytes();
                self.pos = 0;
            } else {
                self.out.clear();
                self.pos = 0;
                return self.inner.fill_buf();
            }
        }
        Ok(&self.out[self.pos..])
    }

    fn consume(&mut self, amt: usize) {
        if self.pos < self.out.len() {
            self.pos = (self.pos + amt).min(self.out.len());
        } else {
            self.inner.consume(amt);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16le(s: &str) -> Vec<u8> {
        let mut b = vec![0xFF, 0xFE];
        b.extend(s.encode_utf16().flat_map(|u| u.to_le_bytes()));
        b
    }

    fn utf32be(s: &str) -> Vec<u8> {
        let mut b = vec![0, 0, 0xFE, 0xFF];
        b.extend(s.chars().flat_map(|c| (c as u32).to_be_bytes()));
        b
    }

    #[test]
    fn marked_text_decodes_whole() {
        let s = "Name = \"slot1@höst\"\nEmoji = \"🦀\"\n";
        assert_eq!(
            decode_marked(&utf16le(s)),
            Some((Encoding::Utf16Le, s.to_string(), 0))
        );
        assert_eq!(
            decode_marked(&utf32be(s)),
            Some((Encoding::Utf32Be, s.to_string(), 0))
        );
        assert_eq!(decode_marked(b"\xef\xbb\xbfA = 1"), None);
        assert_eq!(decode_marked(b"\xffA = 1"), None);
    }

    #[test]
    fn a_lone_surrogate_and_a_cut_unit_read_as_replacement() {
        let mut b = utf16le("A");
        b.extend([0x00, 0xD8]); // a high surrogate, then a plain unit
        b.extend(utf16le("B")[2..].iter());
        b.push(0x41); // half a unit at the end
        let (_, text, bad) = decode_marked(&b).unwrap();
        assert_eq!(text, "A\u{fffd}B\u{fffd}");
        assert_eq!(bad, 2);
    }

    #[test]
    fn a_stream_decodes_alike_whatever_its_buffer_cuts() {
        let s = "[ Name = \"a\"; X = \"🦀é\" ]\n[ Name = \"b\" ]\n";
        for bytes in [utf16le(s), utf32be(s), s.as_bytes().to_vec()] {
            for cap in [1, 2, 3, 5, 8, 64] {
                let mut r = Decoded::new(std::io::BufReader::with_capacity(cap, &bytes[..]));
                let mut got = String::new();
                r.read_to_string(&mut got).unwrap();
                assert_eq!(got, s, "buffer of {cap}");
            }
        }
    }
}
