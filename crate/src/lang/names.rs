//! Attribute names: compared without regard to ASCII case, hashed and
//! interned once, and recognised when they are one of the scope words
//! (`self`, `parent`, `TARGET`, …) that lookups treat specially.

use std::sync::Arc;

/// An attribute name: as written, its case-folded key, the key's hash and
/// whether it is one of the scope words the evaluator treats specially —
/// all computed once at parse time, so lookups neither allocate nor rehash.
#[derive(Clone, Debug)]
pub struct Name {
    pub text: Arc<str>,
    pub key: Arc<str>,
    pub hash: u64,
    pub special: Special,
}

/// Names with a meaning of their own in lookups (thesis §2.5; libclassad's
/// LookupInScope and match context).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Special {
    None,
    Root,
    SelfAd,
    My,
    Parent,
    CurrentTime,
    Other,
    Ad,
    Left,
    Right,
}

impl Special {
    fn of(key: &str) -> Special {
        match key {
            "toplevel" | "root" => Special::Root,
            "self" => Special::SelfAd,
            "my" => Special::My,
            "parent" => Special::Parent,
            "currenttime" => Special::CurrentTime,
            "other" | "target" => Special::Other,
            "ad" => Special::Ad,
            "left" => Special::Left,
            "right" => Special::Right,
            _ => Special::None,
        }
    }
}

/// An interned attribute name: as written, its folded key and the key's
/// hash ([`key_hash`]). Ads list their names as these, one pointer each.
#[derive(Debug)]
pub struct NameEntry {
    pub text: Arc<str>,
    pub key: Arc<str>,
    pub hash: u64,
    /// Whether HTCondor's unparser writes it quoted ([`needs_quotes`]).
    pub quoted: bool,
}

/// Names that HTCondor's unparser always quotes.
const RESERVED: &[&str] = &[
    "error",
    "false",
    "is",
    "isnt",
    "parent",
    "true",
    "undefined",
];

/// Whether HTCondor's unparser writes `name` as `'quoted'`: not a plain
/// identifier, or a reserved word.
pub fn needs_quotes(name: &str) -> bool {
    let b = name.as_bytes();
    if b.is_empty() || !(b[0].is_ascii_alphabetic() || b[0] == b'_') {
        return true;
    }
    if !b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_') {
        return true;
    }
    // Reserved words are 2 to 9 letters: most names are longer.
    b.len() <= 9 && RESERVED.iter().any(|r| r.eq_ignore_ascii_case(name))
}

/// Attribute names are interned per thread, as written and case-folded:
/// the same name in an expression and in an ad, or in ten thousand ads of
/// a pool, is one allocation, and folded keys compare by pointer.
/// `hash` is [`key_hash`] of `text`. Returns (the spelling, the folded key).
pub fn intern_name(text: &str, hash: u64) -> (Arc<str>, Arc<str>) {
    let e = intern_entry(text, hash);
    (e.text.clone(), e.key.clone())
}

/// [`intern_name`]'s entry.
///
/// Each thread looks in its own table first; a name it has not seen is
/// looked up in (or added to) one table all threads share, so a pool read
/// on several threads names its attributes with the same entries the
/// work after it compares by pointer.
pub fn intern_entry(text: &str, hash: u64) -> Arc<NameEntry> {
    use std::cell::RefCell;
    type Table = hashbrown::HashTable<Arc<NameEntry>>;
    thread_local! {
        static NAMES: RefCell<Table> = RefCell::new(Default::default());
    }
    static SHARED: std::sync::Mutex<Option<Table>> = std::sync::Mutex::new(None);
    // Bounded: a stream of unique names (generated ads) must not grow
    // these without limit.
    const MAX_INTERNED: usize = 1 << 17;
    NAMES.with(|t| {
        let mut t = t.borrow_mut();
        if let Some(e) = t.find(hash, |e| *e.text == *text) {
            return e.clone();
        }
        let e = {
            let mut shared = SHARED.lock().unwrap_or_else(|p| p.into_inner());
            let shared = shared.get_or_insert_with(Table::default);
            match shared.find(hash, |e| *e.text == *text) {
                Some(e) => e.clone(),
                None => {
                    let key: Arc<str> =
                        match shared.find(hash, |e| e.key.eq_ignore_ascii_case(text)) {
                            Some(e) => e.key.clone(),
                            None => fold(text).into(),
                        };
                    let e = Arc::new(NameEntry {
                        text: text.into(),
                        key,
                        hash,
                        quoted: needs_quotes(text),
                    });
                    if shared.len() < MAX_INTERNED {
                        shared.insert_unique(hash, e.clone(), |e| e.hash);
                    }
                    e
                }
            }
        };
        if t.len() < MAX_INTERNED {
            t.insert_unique(hash, e.clone(), |e| e.hash);
        }
        e
    })
}

impl Name {
    pub fn new(text: &str) -> Name {
        let hash = key_hash(text);
        let (text, key) = intern_name(text, hash);
        Name {
            text,
            hash,
            special: Special::of(&key),
            key,
        }
    }
    pub fn is(&self, lower: &str) -> bool {
        &*self.key == lower
    }
}

impl PartialEq for Name {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

/// Attribute names compare without regard to ASCII case.
pub fn fold(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// Hash of a name, without regard to ASCII case (no allocation).
#[inline]
pub fn key_hash(name: &str) -> u64 {
    use std::hash::Hasher;
    let mut h = rustc_hash::FxHasher::default();
    let b = name.as_bytes();
    let mut chunks = b.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        if w & 0x8080_8080_8080_8080 == 0 {
            // Eight ASCII bytes lower-cased at once: a byte gets 0x20 when
            // it is in 'A'..='Z' (no carries: every byte is below 0x80).
            let upper = (w.wrapping_add(0x3f3f_3f3f_3f3f_3f3f)
                & !w.wrapping_add(0x2525_2525_2525_2525))
                & 0x8080_8080_8080_8080;
            h.write_u64(w | (upper >> 2));
        } else {
            let mut l = [0u8; 8];
            for (d, s) in l.iter_mut().zip(c) {
                *d = s.to_ascii_lowercase();
            }
            h.write_u64(u64::from_le_bytes(l));
        }
    }
    for &c in chunks.remainder() {
        h.write_u8(c.to_ascii_lowercase());
    }
    h.write_usize(b.len());
    h.finish()
}

/// Case-insensitive ordering of strings, as libclassad's strcasecmp.
pub fn cmp_nocase(a: &str, b: &str) -> std::cmp::Ordering {
    let ai = a.bytes().map(|c| c.to_ascii_lowercase());
    let bi = b.bytes().map(|c| c.to_ascii_lowercase());
    ai.cmp(bi)
}
