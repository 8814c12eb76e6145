//! `\p{…}` and `\P{…}` as libclassad's PCRE2 reads them. It matches in
//! non-UTF mode, so every byte is one character, the code point of the
//! same number (Latin-1), and a property is the set of those 256 code
//! points that have it: `\p{L}` matches the byte 0xC3 (Ã) of a UTF-8 `é`,
//! and not its 0xA9 (©). The names are PCRE2 10.3x's, with Unicode 11's
//! scripts, spelled exactly (libclassad refuses `\p{lu}`, `\p{Latn}`,
//! `\p{sc:Latin}` and scripts added since, and so does this).

/// A set of bytes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Bytes([u64; 4]);

impl Bytes {
    const NONE: Bytes = Bytes([0; 4]);

    fn of(ranges: &[(u8, u8)]) -> Bytes {
        let mut s = Bytes::NONE;
        for &(lo, hi) in ranges {
            for b in lo..=hi {
                s.0[(b >> 6) as usize] |= 1 << (b & 63);
            }
        }
        s
    }

    fn has(self, b: u8) -> bool {
        self.0[(b >> 6) as usize] & (1 << (b & 63)) != 0
    }

    fn or(self, o: Bytes) -> Bytes {
        Bytes([
            self.0[0] | o.0[0],
            self.0[1] | o.0[1],
            self.0[2] | o.0[2],
            self.0[3] | o.0[3],
        ])
    }

    pub(super) fn not(self) -> Bytes {
        Bytes(self.0.map(|w| !w))
    }

    /// The set as the inside of a byte class: `\x{41}-\x{5A}\x{61}-…`.
    /// An empty set is written as a class that matches nothing.
    pub(super) fn class_body(self) -> String {
        let mut out = String::new();
        let mut b = 0u16;
        while b < 256 {
            if !self.has(b as u8) {
                b += 1;
                continue;
            }
            let lo = b;
            while b + 1 < 256 && self.has((b + 1) as u8) {
                b += 1;
            }
            if lo == b {
                out.push_str(&format!(r"\x{{{lo:02X}}}"));
            } else {
                out.push_str(&format!(r"\x{{{lo:02X}}}-\x{{{b:02X}}}"));
            }
            b += 1;
        }
        out
    }
}

/// The Latin-1 code points of each two-letter general category.
const CATEGORIES: [(&str, &[(u8, u8)]); 30] = [
    ("Cc", &[(0x00, 0x1F), (0x7F, 0x9F)]),
    ("Cf", &[(0xAD, 0xAD)]),
    ("Cn", &[]),
    ("Co", &[]),
    ("Cs", &[]),
    (
        "Ll",
        &[(0x61, 0x7A), (0xB5, 0xB5), (0xDF, 0xF6), (0xF8, 0xFF)],
    ),
    ("Lm", &[]),
    ("Lo", &[(0xAA, 0xAA), (0xBA, 0xBA)]),
    ("Lt", &[]),
    ("Lu", &[(0x41, 0x5A), (0xC0, 0xD6), (0xD8, 0xDE)]),
    ("Mc", &[]),
    ("Me", &[]),
    ("Mn", &[]),
    ("Nd", &[(0x30, 0x39)]),
    ("Nl", &[]),
    ("No", &[(0xB2, 0xB3), (0xB9, 0xB9), (0xBC, 0xBE)]),
    ("Pc", &[(0x5F, 0x5F)]),
    ("Pd", &[(0x2D, 0x2D)]),
    ("Pe", &[(0x29, 0x29), (0x5D, 0x5D), (0x7D, 0x7D)]),
    ("Pf", &[(0xBB, 0xBB)]),
    ("Pi", &[(0xAB, 0xAB)]),
    (
        "Po",
        &[
            (0x21, 0x23),
            (0x25, 0x27),
            (0x2A, 0x2A),
            (0x2C, 0x2C),
            (0x2E, 0x2F),
            (0x3A, 0x3B),
            (0x3F, 0x40),
            (0x5C, 0x5C),
            (0xA1, 0xA1),
            (0xA7, 0xA7),
            (0xB6, 0xB7),
            (0xBF, 0xBF),
        ],
    ),
    ("Ps", &[(0x28, 0x28), (0x5B, 0x5B), (0x7B, 0x7B)]),
    ("Sc", &[(0x24, 0x24), (0xA2, 0xA5)]),
    (
        "Sk",
        &[
            (0x5E, 0x5E),
            (0x60, 0x60),
            (0xA8, 0xA8),
            (0xAF, 0xAF),
            (0xB4, 0xB4),
            (0xB8, 0xB8),
        ],
    ),
    (
        "Sm",
        &[
            (0x2B, 0x2B),
            (0x3C, 0x3E),
            (0x7C, 0x7C),
            (0x7E, 0x7E),
            (0xAC, 0xAC),
            (0xB1, 0xB1),
            (0xD7, 0xD7),
            (0xF7, 0xF7),
        ],
    ),
    (
        "So",
        &[(0xA6, 0xA6), (0xA9, 0xA9), (0xAE, 0xAE), (0xB0, 0xB0)],
    ),
    ("Zl", &[]),
    ("Zp", &[]),
    ("Zs", &[(0x20, 0x20), (0xA0, 0xA0)]),
];

/// Unicode 11's scripts but Latin and Common (which have Latin-1 code
/// points): known to PCRE2, matching no byte.
const OTHER_SCRIPTS: &[&str] = &[
    "Adlam",
    "Ahom",
    "Anatolian_Hieroglyphs",
    "Arabic",
    "Armenian",
    "Avestan",
    "Balinese",
    "Bamum",
    "Bassa_Vah",
    "Batak",
    "Bengali",
    "Bhaiksuki",
    "Bopomofo",
    "Brahmi",
    "Braille",
    "Buginese",
    "Buhid",
    "Canadian_Aboriginal",
    "Carian",
    "Caucasian_Albanian",
    "Chakma",
    "Cham",
    "Cherokee",
    "Coptic",
    "Cuneiform",
    "Cypriot",
    "Cyrillic",
    "Deseret",
    "Devanagari",
    "Dogra",
    "Duployan",
    "Egyptian_Hieroglyphs",
    "Elbasan",
    "Ethiopic",
    "Georgian",
    "Glagolitic",
    "Gothic",
    "Grantha",
    "Greek",
    "Gujarati",
    "Gunjala_Gondi",
    "Gurmukhi",
    "Han",
    "Hangul",
    "Hanifi_Rohingya",
    "Hanunoo",
    "Hatran",
    "Hebrew",
    "Hiragana",
    "Imperial_Aramaic",
    "Inherited",
    "Inscriptional_Pahlavi",
    "Inscriptional_Parthian",
    "Javanese",
    "Kaithi",
    "Kannada",
    "Katakana",
    "Kayah_Li",
    "Kharoshthi",
    "Khmer",
    "Khojki",
    "Khudawadi",
    "Lao",
    "Lepcha",
    "Limbu",
    "Linear_A",
    "Linear_B",
    "Lisu",
    "Lycian",
    "Lydian",
    "Mahajani",
    "Makasar",
    "Malayalam",
    "Mandaic",
    "Manichaean",
    "Marchen",
    "Masaram_Gondi",
    "Medefaidrin",
    "Meetei_Mayek",
    "Mende_Kikakui",
    "Meroitic_Cursive",
    "Meroitic_Hieroglyphs",
    "Miao",
    "Modi",
    "Mongolian",
    "Mro",
    "Multani",
    "Myanmar",
    "Nabataean",
    "New_Tai_Lue",
    "Newa",
    "Nko",
    "Nushu",
    "Ogham",
    "Ol_Chiki",
    "Old_Hungarian",
    "Old_Italic",
    "Old_North_Arabian",
    "Old_Permic",
    "Old_Persian",
    "Old_Sogdian",
    "Old_South_Arabian",
    "Old_Turkic",
    "Oriya",
    "Osage",
    "Osmanya",
    "Pahawh_Hmong",
    "Palmyrene",
    "Pau_Cin_Hau",
    "Phags_Pa",
    "Phoenician",
    "Psalter_Pahlavi",
    "Rejang",
    "Runic",
    "Samaritan",
    "Saurashtra",
    "Sharada",
    "Shavian",
    "Siddham",
    "SignWriting",
    "Sinhala",
    "Sogdian",
    "Sora_Sompeng",
    "Soyombo",
    "Sundanese",
    "Syloti_Nagri",
    "Syriac",
    "Tagalog",
    "Tagbanwa",
    "Tai_Le",
    "Tai_Tham",
    "Tai_Viet",
    "Takri",
    "Tamil",
    "Tangut",
    "Telugu",
    "Thaana",
    "Thai",
    "Tibetan",
    "Tifinagh",
    "Tirhuta",
    "Ugaritic",
    "Vai",
    "Warang_Citi",
    "Yi",
    "Zanabazar_Square",
];

fn category(name: &str) -> Option<Bytes> {
    CATEGORIES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, r)| Bytes::of(r))
}

/// The categories whose name starts with `major` (`L`: Ll, Lm, Lo, Lt, Lu).
fn major(major: char) -> Bytes {
    CATEGORIES
        .iter()
        .filter(|(n, _)| n.starts_with(major))
        .fold(Bytes::NONE, |s, (_, r)| s.or(Bytes::of(r)))
}

/// The bytes a property name (as inside `\p{…}`, without a `^`) stands
/// for; `None` for a name PCRE2 does not know.
pub(super) fn property(name: &str) -> Option<Bytes> {
    let cats = |names: &[&str]| {
        names
            .iter()
            .fold(Bytes::NONE, |s, n| s.or(category(n).unwrap_or(Bytes::NONE)))
    };
    let letters_digits = major('L').or(major('N'));
    // POSIX space: Z, and tab, LF, VT, FF, CR.
    let space = major('Z').or(Bytes::of(&[(0x09, 0x0D)]));
    Some(match name {
        "Any" => Bytes::NONE.not(),
        "L&" => cats(&["Lu", "Ll", "Lt"]),
        "C" | "L" | "M" | "N" | "P" | "S" | "Z" => major(name.chars().next()?),
        "Xan" => letters_digits,
        "Xwd" => letters_digits.or(Bytes::of(&[(b'_', b'_')])),
        "Xps" | "Xsp" => space,
        // What a C++ universal character name may be: $ @ ` and ≥ U+00A0.
        "Xuc" => Bytes::of(&[(b'$', b'$'), (b'@', b'@'), (b'`', b'`'), (0xA0, 0xFF)]),
        "Latin" => Bytes::of(&[
            (b'A', b'Z'),
            (b'a', b'z'),
            (0xAA, 0xAA),
            (0xBA, 0xBA),
            (0xC0, 0xD6),
            (0xD8, 0xF6),
            (0xF8, 0xFF),
        ]),
        "Common" => property("Latin")?.not(),
        _ if OTHER_SCRIPTS.contains(&name) => Bytes::NONE,
        _ => category(name)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_categories_split_latin1_exactly_once() {
        let mut seen = Bytes::NONE;
        for (name, r) in CATEGORIES {
            let s = Bytes::of(r);
            for b in 0..=255u8 {
                assert!(!(s.has(b) && seen.has(b)), "{b:#x} twice (in {name})");
            }
            seen = seen.or(s);
        }
        assert_eq!(seen, Bytes::NONE.not(), "every byte has a category");
    }

    #[test]
    fn properties_agree_with_rust_where_rust_knows() {
        let l = property("L").unwrap();
        let n = property("Nd").unwrap();
        for b in 0..=255u8 {
            let c = char::from(b);
            assert_eq!(l.has(b), c.is_alphabetic(), "{c:?}");
            assert_eq!(n.has(b), c.is_ascii_digit(), "{c:?}");
        }
        assert_eq!(property("lu"), None);
        assert_eq!(property("Latn"), None);
        assert_eq!(property("Yezidi"), None, "a Unicode 13 script");
        assert_eq!(property("Greek"), Some(Bytes::NONE));
        assert_eq!(property("Cn").map(Bytes::class_body), Some(String::new()));
        assert_eq!(
            property("Lu").unwrap().class_body(),
            r"\x{41}-\x{5A}\x{C0}-\x{D6}\x{D8}-\x{DE}"
        );
    }
}
