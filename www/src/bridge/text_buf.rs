//! Building a long text (a pool's: up to hundreds of MB) a part at a time,
//! straight into the shared `Rc<str>` the state holds. `Rc::<str>::from`
//! a finished `String` would copy it again, in one task (tens of ms for
//! 250 MB, and the memory twice over meanwhile); this fills the `Rc`'s own
//! allocation instead when the final length is known from the start (a
//! file's size, a text sent with its length), and falls back to a
//! `String` when it is not.

use std::mem::MaybeUninit;
use std::rc::Rc;

pub enum TextBuf {
    /// Room for exactly this many bytes, `len` of them written (each part
    /// a whole `&str`, so the written bytes are UTF-8).
    Exact {
        buf: Rc<[MaybeUninit<u8>]>,
        len: usize,
    },
    Grow(String),
}

impl TextBuf {
    /// A buffer for a text expected to be `bytes` long.
    pub fn expecting(bytes: usize) -> TextBuf {
        TextBuf::Exact {
            buf: Rc::new_uninit_slice(bytes),
            len: 0,
        }
    }

    pub fn len(&self) -> usize {
        match self {
            TextBuf::Exact { len, .. } => *len,
            TextBuf::Grow(s) => s.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The text so far.
    fn written(&self) -> &str {
        match self {
            TextBuf::Exact { buf, len } => {
                // SAFETY: the first `len` bytes were written by `push_str`,
                // from whole `&str`s, so they are initialized UTF-8.
                unsafe {
                    std::str::from_utf8_unchecked(std::slice::from_raw_parts(
                        buf.as_ptr() as *const u8,
                        *len,
                    ))
                }
            }
            TextBuf::Grow(s) => s,
        }
    }

    pub fn push_str(&mut self, s: &str) {
        if let TextBuf::Exact { buf, len } = self {
            let end = *len + s.len();
            if let (true, Some(room)) = (end <= buf.len(), Rc::get_mut(buf)) {
                // SAFETY: `room[*len..end]` is in bounds (checked above)
                // and is not `s`'s memory (this allocation is ours alone).
                unsafe {
                    std::ptr::copy_nonoverlapping(
                        s.as_ptr(),
                        room[*len..end].as_mut_ptr() as *mut u8,
                        s.len(),
                    );
                }
                *len = end;
                return;
            }
            // Longer than expected: carry on in a `String`.
            let mut grown = String::with_capacity(end.max(buf.len()));
            grown.push_str(self.written());
            *self = TextBuf::Grow(grown);
        }
        if let TextBuf::Grow(g) = self {
            g.push_str(s);
        }
    }

    /// The text, shared.
    pub fn finish(self) -> Rc<str> {
        match self {
            TextBuf::Exact { buf, len } if len == buf.len() => {
                // SAFETY: every byte was written (`len` == the length),
                // all of it UTF-8 (see `written`); `Rc<[u8]>` and `Rc<str>`
                // have the same layout (std's `From<&str> for Rc<str>`
                // converts the same way).
                unsafe {
                    let bytes: Rc<[u8]> = buf.assume_init();
                    Rc::from_raw(Rc::into_raw(bytes) as *const str)
                }
            }
            short @ TextBuf::Exact { .. } => Rc::from(short.written()),
            TextBuf::Grow(s) => Rc::from(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::TextBuf;

    #[test]
    fn exact_short_and_long() {
        let mut b = TextBuf::expecting(7);
        b.push_str("ab");
        b.push_str("c\u{e9}de");
        assert!(matches!(b, TextBuf::Exact { .. }));
        assert_eq!(&*b.finish(), "abc\u{e9}de");
        let mut b = TextBuf::expecting(10);
        b.push_str("abc");
        assert_eq!(&*b.finish(), "abc");
        let mut b = TextBuf::expecting(2);
        b.push_str("ab");
        b.push_str("cd");
        assert!(matches!(b, TextBuf::Grow(_)));
        assert_eq!(b.len(), 4);
        assert_eq!(&*b.finish(), "abcd");
        assert_eq!(&*TextBuf::expecting(0).finish(), "");
    }
}
