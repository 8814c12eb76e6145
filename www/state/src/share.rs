//! Share links: the whole state in the URL fragment.
//!
//! Format `#s=<version>.<engine>.<payload>`: `version` is the link format
//! (2 today), `engine` the engine version that wrote it, `payload` the
//! state as JSON, deflated in the zlib format — whose Adler-32 checksum of
//! the state is checked when the link is opened, so a link changed in
//! transit is refused rather than opened with other text — and
//! base64url-encoded without padding. Format 1 (raw deflate, no checksum)
//! still opens.
//! Readers keep accepting every older format; a newer one is refused with
//! a message instead of being misread. `#example=<id>` opens a gallery
//! entry. `#expr=…&my=…&target=…&mode=…` is the readable prefill link for
//! course material (see [`decode_prefill`]). Nothing in a link is ever
//! executed: it is data for the state.

use base64::Engine as _;
use serde::{Deserialize, Serialize};

use crate::app_state::{AdRef, AppState, PoolText, View};

pub const LINK_VERSION: u32 = 2;
/// Links longer than this are unreliable in chat tools and some browsers.
pub const LINK_WARN_BYTES: usize = 8 * 1024;

#[derive(Serialize, Deserialize)]
struct Envelope {
    engine: String,
    state: AppState,
}

#[derive(Debug, PartialEq)]
pub enum Fragment {
    Empty,
    /// A prefill link's state.
    State(Box<AppState>),
    /// A share link's packed state (`s=…`, the part without the place):
    /// the engine worker unpacks it ([`unpack`]), so the page links no
    /// inflating.
    Packed(String, Place),
    /// A place in the playground: a gallery example, a view, a step.
    Place(Place),
}

/// Where the address says the user is (`example=<id>&view=<v>&step=<n>`,
/// every part optional): what the address bar shows, what back and
/// forward move between, and the tail a share link or an embedded view
/// carries (`&embed=1`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Place {
    pub example: Option<String>,
    pub view: Option<View>,
    /// The classroom's step, 0-based (1-based in the address).
    pub step: Option<usize>,
    /// Shown inside another page (an embedded view): no header, no
    /// autosave, nothing of the user's own work touched.
    pub embed: bool,
}

impl Place {
    /// The place `state` shows: its example while it is unchanged.
    pub fn of(state: &AppState) -> Place {
        Place {
            // The id first: the fingerprint reads every pool's text.
            example: state
                .example_id
                .clone()
                .filter(|_| state.is_untouched_example()),
            view: Some(state.view),
            step: (state.view == View::Negotiation)
                .then_some(state.matching.step)
                .flatten(),
            embed: false,
        }
    }

    /// The address's fragment (without `#`): `example=…&view=…&step=…`.
    pub fn fragment(&self) -> String {
        let mut parts = Vec::new();
        if let Some(id) = &self.example {
            parts.push(format!("example={}", escape(id)));
        }
        if let Some(v) = self.view {
            parts.push(format!("view={}", view_name(v)));
        }
        if let Some(n) = self.step {
            parts.push(format!("step={}", n + 1));
        }
        if self.embed {
            parts.push("embed=1".into());
        }
        parts.join("&")
    }

    /// Read one `key=value` part of a place; `false`: not a place's part.
    fn read(&mut self, part: &str) -> Result<bool, LinkError> {
        let Some((key, value)) = part.split_once('=') else {
            return Ok(false);
        };
        let bad = |why: String| LinkError::Corrupt(why);
        match key {
            "example" => self.example = Some(unescape(value).map_err(bad)?.trim().to_string()),
            "view" => {
                self.view = Some(
                    serde_json::from_value(serde_json::Value::String(value.to_string()))
                        .map_err(|_| bad(format!("there is no view called `{value}`")))?,
                )
            }
            "step" => {
                let n: usize = value
                    .trim()
                    .parse()
                    .map_err(|_| bad(format!("step `{value}` is not a number")))?;
                self.step = Some(n.saturating_sub(1));
                // A step is the classroom's: of the Negotiation view.
                self.view.get_or_insert(View::Negotiation);
            }
            "embed" => self.embed = value != "0",
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// A view's name in addresses and links (its serde name: `negotiation`).
pub fn view_name(v: View) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// The most a share link's state may unpack to (its JSON). The page makes
/// links only of states within this ([`encode`]), and inflating this much
/// takes a tenth of a second in the page; a link that would unpack to more
/// (a "zip bomb": a gigabyte of zeros packs into a megabyte) is refused as
/// soon as it passes the bound, before the rest is inflated.
pub const MAX_LINK_STATE_BYTES: usize = 4 << 20;

/// The most pools a link (or a state file) may carry, and the most the page
/// lets one have: each pool is parsed, listed and shown as a tab, and ten
/// thousand of them held the page for minutes.
pub const MAX_POOLS: usize = 100;

#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub enum LinkError {
    /// The link was made by a newer playground.
    Future(u32),
    /// Not a link this playground understands, or damaged in transit.
    Corrupt(String),
    /// The link unpacks to more than [`MAX_LINK_STATE_BYTES`].
    TooBig,
    /// The link carries this many pools, more than [`MAX_POOLS`].
    TooManyPools(usize),
    /// The engine worker, which unpacks and packs links, failed.
    Worker(String),
}

/// Whole megabytes: `4 MB`.
fn mb(bytes: usize) -> String {
    format!("{} MB", (bytes as f64 / 1048576.0).round() as u64)
}

impl std::fmt::Display for LinkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LinkError::Future(v) => write!(
                f,
                "This link was made by a newer version of the playground (link format {v}; this one reads up to {LINK_VERSION}). Your own work is untouched."
            ),
            LinkError::Corrupt(why) => write!(
                f,
                "This share link is damaged or incomplete ({why}). Your own work is untouched."
            ),
            LinkError::TooBig => write!(
                f,
                "This share link was not opened: it unpacks to more than {}, the most a link may carry (the playground makes links only of smaller work; share bigger work as a state file). Your own work is untouched.",
                mb(MAX_LINK_STATE_BYTES)
            ),
            LinkError::TooManyPools(n) => write!(
                f,
                "This share link was not opened: it carries {n} pools, and the playground opens at most {MAX_POOLS}. Your own work is untouched."
            ),
            LinkError::Worker(why) => write!(
                f,
                "This share link could not be opened: the engine failed ({why}). Your own work is untouched."
            ),
        }
    }
}

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// The link's fragment for `state`, or why no link can carry it (too big,
/// too many pools: it would not open).
pub fn encode(state: &AppState) -> Result<String, LinkError> {
    check_pools(state)?;
    let env = Envelope {
        engine: classad::api::VERSION.to_string(),
        state: state.clone(),
    };
    let json = serde_json::to_vec(&env).unwrap_or_default();
    if json.len() > MAX_LINK_STATE_BYTES {
        return Err(LinkError::TooBig);
    }
    let packed = miniz_oxide::deflate::compress_to_vec_zlib(&json, 9);
    Ok(format!(
        "s={LINK_VERSION}.{}.{}",
        classad::api::VERSION,
        B64.encode(packed)
    ))
}

/// A state with more pools than the page takes is refused whole (opening
/// part of it would leave MY and TARGET pointing at pools left out).
pub fn check_pools(state: &AppState) -> Result<(), LinkError> {
    match state.pools.len() {
        n if n > MAX_POOLS => Err(LinkError::TooManyPools(n)),
        _ => Ok(()),
    }
}

/// Inflate a link's payload, stopping at [`MAX_LINK_STATE_BYTES`].
fn inflate(packed: &[u8], zlib: bool) -> Result<Vec<u8>, LinkError> {
    use miniz_oxide::inflate::{self, TINFLStatus};
    let out = if zlib {
        inflate::decompress_to_vec_zlib_with_limit(packed, MAX_LINK_STATE_BYTES)
    } else {
        inflate::decompress_to_vec_with_limit(packed, MAX_LINK_STATE_BYTES)
    };
    out.map_err(|e| match e.status {
        // The output reached the bound with more to come.
        TINFLStatus::HasMoreOutput => LinkError::TooBig,
        TINFLStatus::Adler32Mismatch => LinkError::Corrupt(
            "its checksum does not match: it was changed or cut when copied".into(),
        ),
        _ => LinkError::Corrupt("compressed data is cut off or invalid".into()),
    })
}

/// What a URL fragment (without the leading `#`) holds, without
/// unpacking a share link's state (the engine worker does: [`unpack`]).
pub fn classify(fragment: &str) -> Result<Fragment, LinkError> {
    let f = fragment.trim_start_matches('#').trim();
    if f.is_empty() {
        return Ok(Fragment::Empty);
    }
    if PREFILL_KEYS.iter().any(|k| prefill_field(f, k).is_some()) {
        return decode_prefill(f).map(|s| Fragment::State(Box::new(s)));
    }
    let mut place = Place::default();
    let mut packed = None;
    for part in f.split('&') {
        if part.starts_with("s=") && packed.is_none() {
            packed = Some(part.to_string());
        } else if !place.read(part)? {
            return Err(LinkError::Corrupt(
                if packed.is_some() || part.starts_with("s=") {
                    format!("`{}` is not part of a link", cut(part))
                } else {
                    "unknown fragment".into()
                },
            ));
        }
    }
    Ok(match packed {
        Some(p) => Fragment::Packed(p, place),
        None => Fragment::Place(place),
    })
}

/// A part of a link shown in a message: its first 40 characters.
fn cut(part: &str) -> String {
    match part.char_indices().nth(40) {
        Some((i, _)) => format!("{}\u{2026}", &part[..i]),
        None => part.to_string(),
    }
}

/// Decode a URL fragment, a share link's state unpacked (tests and the
/// worker: the page asks the worker, [`classify`]).
pub fn decode(fragment: &str) -> Result<Fragment, LinkError> {
    match classify(fragment)? {
        Fragment::Packed(p, _) => unpack(&p).map(|s| Fragment::State(Box::new(s))),
        f => Ok(f),
    }
}

/// A share link's state from its `s=<version>.<engine>.<payload>` part.
pub fn unpack(packed: &str) -> Result<AppState, LinkError> {
    let Some(rest) = packed.trim().strip_prefix("s=") else {
        return Err(LinkError::Corrupt("unknown fragment".into()));
    };
    let (version, rest) = rest
        .split_once('.')
        .ok_or_else(|| LinkError::Corrupt("no format version".into()))?;
    let version: u32 = version
        .parse()
        .map_err(|_| LinkError::Corrupt("bad format version".into()))?;
    if version > LINK_VERSION {
        return Err(LinkError::Future(version));
    }
    // <engine>.<payload>; the engine version may contain dots.
    let (_, payload) = rest
        .rsplit_once('.')
        .ok_or_else(|| LinkError::Corrupt("no payload".into()))?;
    let packed = B64
        .decode(payload)
        .map_err(|e| LinkError::Corrupt(format!("not base64url: {e}")))?;
    let json = inflate(&packed, version >= 2)?;
    let env: Envelope = serde_json::from_slice(&json)
        .map_err(|e| LinkError::Corrupt(format!("state does not read: {e}")))?;
    let mut state = env.state;
    check_pools(&state)?;
    state.normalize();
    Ok(state)
}

/// The parts a prefill link may have.
const PREFILL_KEYS: [&str; 5] = ["expr", "my", "target", "mode", "dialect"];

/// `part` as `key=value`: the value, still encoded.
fn prefill_field<'a>(part: &'a str, key: &str) -> Option<&'a str> {
    part.strip_prefix(key)?.strip_prefix('=')
}

/// Decoding of one part as `application/x-www-form-urlencoded`, the way
/// `URLSearchParams` and Python's `urlencode` write it: `%XX` is a byte
/// (the bytes must spell UTF-8) and `+` is a space, so a literal plus is
/// `%2B` — what `encodeURIComponent` writes too, so links built with
/// either read back as they were.
fn unescape(v: &str) -> Result<String, String> {
    let b = v.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = b
                .get(i + 1..i + 3)
                .filter(|h| h.iter().all(u8::is_ascii_hexdigit));
            let Some(hex) = hex else {
                return Err(format!("a `%` not followed by two hex digits at {}", i + 1));
            };
            let hex = std::str::from_utf8(hex).unwrap_or("00");
            out.push(u8::from_str_radix(hex, 16).unwrap_or(0));
            i += 3;
        } else {
            out.push(if b[i] == b'+' { b' ' } else { b[i] });
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| "the %-escapes are not UTF-8 text".into())
}

/// One part of a prefill link, as `encodeURIComponent` writes it: every
/// byte but `A–Z a–z 0–9 - _ . ! ~ * ' ( )` as `%XX` (so a space is `%20`
/// and a plus `%2B`, which [`decode_prefill`] reads back either way).
fn escape(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    for &b in v.as_bytes() {
        if b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The readable prefill link's fragment (without the `#`) for an
/// expression, the MY and TARGET ads' texts and the mode: what the page's
/// "Copy link" gives and the embed module's `prefillLink` builds.
pub fn encode_prefill(
    expr: &str,
    my: Option<&str>,
    target: Option<&str>,
    mode: classad::api::Mode,
    dialect: classad::api::Dialect,
) -> String {
    let mut parts = vec![format!("expr={}", escape(expr))];
    for (key, text) in [("my", my), ("target", target)] {
        if let Some(t) = text.filter(|t| !t.trim().is_empty()) {
            parts.push(format!("{key}={}", escape(t)));
        }
    }
    if mode == classad::api::Mode::Strict {
        parts.push("mode=strict".into());
    }
    if dialect != classad::api::Dialect::Modern {
        parts.push(format!("dialect={}", dialect.name()));
    }
    parts.join("&")
}

/// A prefill link `expr=…&my=…&target=…&mode=…` (without the `#`): each
/// part URL-encoded text, only `expr` needed. `my` and `target` become
/// pools named so, whose first ads are MY and TARGET; `mode` is
/// `htcondor` (the default) or `strict`. An `&` not followed by one of
/// these names and `=` is text of the part before (`a && b` typed by hand
/// stays whole); encoded links write it `%26`.
pub fn decode_prefill(fragment: &str) -> Result<AppState, LinkError> {
    let bad = |why: String| LinkError::Corrupt(format!("prefill link: {why}"));
    let mut fields: Vec<(&str, String)> = Vec::new();
    for part in fragment.split('&') {
        let field = PREFILL_KEYS
            .iter()
            .find_map(|k| prefill_field(part, k).map(|v| (*k, v)));
        if let Some((k, v)) = field {
            if fields.iter().any(|(seen, _)| *seen == k) {
                return Err(bad(format!("`{k}` is given twice")));
            }
            fields.push((k, v.to_string()));
        } else if let Some((_, v)) = fields.last_mut() {
            v.push('&');
            v.push_str(part);
        } else {
            return Err(bad(format!(
                "`{part}` is not expr=, my=, target=, mode= or dialect="
            )));
        }
    }
    let mut get = |key: &str| -> Result<Option<String>, LinkError> {
        match fields.iter().position(|(k, _)| *k == key) {
            Some(i) => unescape(&fields.swap_remove(i).1)
                .map(Some)
                .map_err(|e| bad(format!("{key}: {e}"))),
            None => Ok(None),
        }
    };
    let expr = get("expr")?.ok_or_else(|| bad("it has no expr= part".into()))?;
    let (my, target) = (get("my")?, get("target")?);
    let mode = match get("mode")? {
        Some(m) => m.trim().parse().map_err(bad)?,
        None => classad::api::Mode::default(),
    };
    let dialect = match get("dialect")?.as_deref().map(str::trim) {
        None | Some("htcondor") | Some("modern") => classad::api::Dialect::Modern,
        Some("seed") => classad::api::Dialect::Seed,
        Some("auto") => classad::api::Dialect::Auto,
        Some(d) => return Err(bad(format!("dialect `{d}` is not htcondor, seed or auto"))),
    };
    let mut pools = Vec::new();
    let mut pool = |name: &str, text: Option<String>| {
        let text = text.filter(|t| !t.trim().is_empty())?;
        pools.push(PoolText {
            name: name.into(),
            text: text.into(),
        });
        Some(AdRef {
            pool: pools.len() - 1,
            ad: 0,
        })
    };
    let (my, target) = (pool("my", my), pool("target", target));
    let mut state = AppState {
        pools,
        active_pool: 0,
        expr: expr.into(),
        my,
        target,
        mode,
        dialect,
        ..AppState::default()
    };
    state.normalize();
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let mut s = AppState::default();
        s.expr = "strcat(\"<script>\", 'a b')".into();
        let link = encode(&s).unwrap();
        assert!(link.starts_with("s=2."));
        assert_eq!(decode(&link), Ok(Fragment::State(Box::new(s))));
    }

    /// A link made before the matchmaking views (no `matching` in it)
    /// still opens.
    #[test]
    fn links_from_before_matchmaking_open() {
        let json = r#"{"engine":"0.1.0","state":{"pools":[{"name":"m","text":"[a=1]"}],"active_pool":0,
            "expr":"a","my":null,"target":null,"scope":[],"mode":"htcondor","view":"evaluate"}}"#;
        let packed = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9);
        let link = format!("s=1.0.1.0.{}", B64.encode(packed));
        let Ok(Fragment::State(s)) = decode(&link) else {
            panic!("the old link does not open")
        };
        assert_eq!(&*s.expr, "a");
        assert_eq!(s.matching, crate::app_state::MatchSettings::default());
    }

    /// Every single-character change of a link's payload is refused (or
    /// opens the very same state): none opens with other text.
    #[test]
    fn a_changed_link_is_refused() {
        let mut s = AppState::default();
        s.expr = "TARGET.Memory >= 1024 && MY.Requirements".into();
        let link = encode(&s).unwrap();
        let start = link.rfind('.').unwrap() + 1;
        let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        let mut refused = 0;
        let mut tried = 0;
        for i in (start..link.len()).step_by(3) {
            for c in alphabet.chars().step_by(7) {
                if link[i..].starts_with(c) {
                    continue;
                }
                let bad = format!("{}{c}{}", &link[..i], &link[i + 1..]);
                tried += 1;
                match decode(&bad) {
                    Ok(Fragment::State(t)) => assert_eq!(*t, s, "a changed link opened other work"),
                    Ok(_) => panic!("not a state"),
                    Err(_) => refused += 1,
                }
            }
        }
        assert!(
            tried > 100 && refused * 10 >= tried * 9,
            "{refused} of {tried} refused"
        );
    }

    #[test]
    fn corrupt_truncated_and_future_links() {
        let link = encode(&AppState::default()).unwrap();
        let cut = &link[..link.len() - 10];
        assert!(matches!(decode(cut), Err(LinkError::Corrupt(_))));
        assert!(matches!(decode("s=1.0.1.@@@"), Err(LinkError::Corrupt(_))));
        assert_eq!(decode("s=99.9.9.abc"), Err(LinkError::Future(99)));
        assert_eq!(
            decode("garbage"),
            Err(LinkError::Corrupt("unknown fragment".into()))
        );
        assert_eq!(decode(""), Ok(Fragment::Empty));
        assert_eq!(
            decode("#example=000-fig2"),
            Ok(Fragment::Place(Place {
                example: Some("000-fig2".into()),
                ..Place::default()
            }))
        );
    }

    /// A zlib stream of `n` zero bytes (a multiple of 258, plus one) in
    /// 13 bits per 258 bytes: one fixed-Huffman block of a literal 0, then
    /// matches of length 258 at distance 1. A gigabyte packs into 6.5 MB,
    /// made in a moment (compressing it would take minutes in a debug test).
    fn zeros_bomb(matches: usize) -> Vec<u8> {
        let mut out = vec![0x78, 0x01];
        let (mut acc, mut nbits) = (0u64, 0u32);
        let mut put = |out: &mut Vec<u8>, bits: u64, n: u32| {
            acc |= bits << nbits;
            nbits += n;
            while nbits >= 8 {
                out.push(acc as u8);
                acc >>= 8;
                nbits -= 8;
            }
        };
        // Huffman codes go in most significant bit first.
        let code = |c: u64, n: u32| (0..n).fold(0, |r, i| r | ((c >> (n - 1 - i)) & 1) << i);
        put(&mut out, 0b011, 3); // BFINAL, BTYPE = fixed
        put(&mut out, code(0x30, 8), 8); // literal 0
        for _ in 0..matches {
            put(&mut out, code(0xc5, 8), 8); // length 258 (symbol 285)
            put(&mut out, 0, 5); // distance 1
        }
        put(&mut out, 0, 7); // end of block
        put(&mut out, 0, 7); // to a byte boundary
        let n = (matches * 258 + 1) as u64;
        let adler = ((n % 65521) << 16) | 1;
        out.extend_from_slice(&(adler as u32).to_be_bytes());
        out
    }

    #[test]
    fn the_bomb_is_a_real_zlib_stream() {
        let small = zeros_bomb(10);
        let out = miniz_oxide::inflate::decompress_to_vec_zlib(&small).unwrap();
        assert_eq!(out, vec![0; 2581]);
    }

    /// A link that unpacks past the bound is refused as too big, saying the
    /// bound, not as damaged; inflating stops at the bound.
    #[test]
    fn a_link_bomb_is_refused_as_too_big() {
        let gigabyte = zeros_bomb((1 << 30) / 258);
        let link = format!("s=2.0.1.0.{}", B64.encode(&gigabyte));
        assert_eq!(decode(&link), Err(LinkError::TooBig));
        let why = LinkError::TooBig.to_string();
        assert!(why.contains("more than 4 MB"), "{why}");
        assert!(!why.contains("cut off"), "{why}");
        // Just past the bound, in either format.
        let past = zeros_bomb(MAX_LINK_STATE_BYTES / 258 + 1);
        assert_eq!(
            decode(&format!("s=2.0.1.0.{}", B64.encode(&past))),
            Err(LinkError::TooBig)
        );
        let raw = &past[2..past.len() - 4];
        assert_eq!(
            decode(&format!("s=1.0.1.0.{}", B64.encode(raw))),
            Err(LinkError::TooBig)
        );
        // Within it, zeros are simply not a state.
        let within = zeros_bomb(1000);
        assert!(matches!(
            decode(&format!("s=2.0.1.0.{}", B64.encode(&within))),
            Err(LinkError::Corrupt(why)) if why.starts_with("state does not read")
        ));
    }

    /// The page makes no link it would refuse: too much work, too many pools.
    #[test]
    fn links_are_bounded_in_pools_and_size_both_ways() {
        let with_pools = |n: usize| {
            let mut s = AppState::default();
            s.pools = (0..n)
                .map(|i| PoolText {
                    name: format!("pool {i}"),
                    text: format!("[ Name = \"slot{i}\"; Cpus = {i} ]").into(),
                })
                .collect();
            s
        };
        let full = with_pools(MAX_POOLS);
        let Ok(Fragment::State(back)) = decode(&encode(&full).unwrap()) else {
            panic!("a link of {MAX_POOLS} pools does not open")
        };
        assert_eq!(back.pools.len(), MAX_POOLS);
        assert_eq!(&*back.pools[0].text, "[ Name = \"slot0\"; Cpus = 0 ]");
        let many = with_pools(10_000);
        assert_eq!(encode(&many), Err(LinkError::TooManyPools(10_000)));
        // A link made elsewhere with 10,000 pools is refused whole.
        let env = Envelope {
            engine: "0.1.0".into(),
            state: many,
        };
        let packed =
            miniz_oxide::deflate::compress_to_vec_zlib(&serde_json::to_vec(&env).unwrap(), 6);
        let link = format!("s=2.0.1.0.{}", B64.encode(packed));
        assert_eq!(decode(&link), Err(LinkError::TooManyPools(10_000)));
        let why = LinkError::TooManyPools(10_000).to_string();
        assert!(
            why.contains("10000 pools") && why.contains("at most 100"),
            "{why}"
        );
        // Too much text for a link.
        let mut big = AppState::default();
        big.pools[0].text = "x".repeat(MAX_LINK_STATE_BYTES).into();
        assert_eq!(encode(&big), Err(LinkError::TooBig));
    }

    fn prefill(link: &str) -> AppState {
        match decode(link) {
            Ok(Fragment::State(s)) => *s,
            other => panic!("{link}: {other:?}"),
        }
    }

    #[test]
    fn a_prefill_link_opens_its_expression_and_ads() {
        let s = prefill("#expr=MY.Memory%20%3E%201024&my=%5B%20Memory%20%3D%202048%20%5D");
        assert_eq!(&*s.expr, "MY.Memory > 1024");
        assert_eq!(s.pools.len(), 1);
        assert_eq!(s.pools[0].name, "my");
        assert_eq!(&*s.pools[0].text, "[ Memory = 2048 ]");
        assert_eq!(s.my, Some(AdRef { pool: 0, ad: 0 }));
        assert_eq!(s.target, None);
        assert_eq!(s.mode, classad::api::Mode::HTCondor);
        assert_eq!(s.view, crate::app_state::View::Evaluate);
        // Any order; target and mode too.
        let s = prefill("target=%5Ba%3D1%5D&mode=strict&expr=a&my=%5Bb%3D2%5D");
        assert_eq!(
            s.pools.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(),
            ["my", "target"]
        );
        assert_eq!(s.my, Some(AdRef { pool: 0, ad: 0 }));
        assert_eq!(s.target, Some(AdRef { pool: 1, ad: 0 }));
        assert_eq!(s.mode, classad::api::Mode::Strict);
        // No ads: MY is an empty ad, as in a fresh evaluator; an empty
        // part is no pool.
        let s = prefill("expr=1%2B2&my=");
        assert_eq!((s.my, s.target), (None, None));
        assert_eq!(s.pools.len(), 1, "normalize keeps one (empty) pool");
        assert_eq!(&*s.expr, "1+2");
    }

    #[test]
    fn prefill_encodings() {
        // Read as URLSearchParams writes: `+` is a space, `%2B` a plus;
        // `%20` is a space, `%25` a percent sign, `%C3%A9` an é.
        assert_eq!(
            prefill("expr=MY.Memory+%3E+1024").expr.0.as_ref(),
            "MY.Memory > 1024"
        );
        assert_eq!(prefill("expr=Cpus+%2B+1").expr.0.as_ref(), "Cpus + 1");
        assert_eq!(prefill("expr=Cpus%2B1").expr.0.as_ref(), "Cpus+1");
        assert_eq!(prefill("expr=a%20%25%20b").expr.0.as_ref(), "a % b");
        assert_eq!(prefill("expr=%22caf%C3%A9%22").expr.0.as_ref(), "\"café\"");
        assert_eq!(
            prefill("expr=%3d%3D").expr.0.as_ref(),
            "==",
            "either case of hex"
        );
        // `&&` typed by hand stays in its part; a raw `=` is text.
        let s = prefill("expr=a > 1 && b == 2&my=[ a = 2; b = 2 ]");
        assert_eq!(&*s.expr.0.as_ref(), "a > 1 && b == 2");
        assert_eq!(&*s.pools[0].text, "[ a = 2; b = 2 ]");
        assert_eq!(prefill("expr=x%26%26my%3D1").expr.0.as_ref(), "x&&my=1");
    }

    /// What "Copy link" writes opens as the same expression, MY, TARGET and
    /// mode; so do links built the ways course authors build them.
    #[test]
    fn prefill_links_round_trip_whoever_encodes_them() {
        let expr = "regexp(\"^slot1@\", Name) && MY.Memory > 1024 + 2 && x =?= \"a&b=c%d\"";
        let (my, target) = (
            "[ Memory = 2048; Name = \"slot1@h\" ]",
            "[ Owner = \"alice\" ]",
        );
        let link = encode_prefill(
            expr,
            Some(my),
            Some(target),
            classad::api::Mode::Strict,
            classad::api::Dialect::Seed,
        );
        let s = prefill(&link);
        assert_eq!(&*s.expr, expr);
        assert_eq!(&*s.pools[0].text, my);
        assert_eq!(&*s.pools[1].text, target);
        assert_eq!(s.mode, classad::api::Mode::Strict);
        // URLSearchParams / urlencode: spaces as `+`, `+` as `%2B`.
        let form = |t: &str| {
            t.bytes()
                .map(|b| match b {
                    b' ' => "+".to_string(),
                    b if b.is_ascii_alphanumeric() || b"*-._".contains(&b) => {
                        (b as char).to_string()
                    }
                    b => format!("%{b:02X}"),
                })
                .collect::<String>()
        };
        let s = prefill(&format!("expr={}&my={}", form(expr), form(my)));
        assert_eq!((&*s.expr, &*s.pools[0].text), (expr, my));
    }

    #[test]
    fn bad_prefill_links_are_refused_with_a_reason() {
        let why = |link: &str| match decode(link) {
            Err(LinkError::Corrupt(why)) => why,
            other => panic!("{link} should be refused: {other:?}"),
        };
        assert!(why("my=%5Ba%3D1%5D").contains("no expr="));
        assert!(why("mode=strict").contains("no expr="));
        assert!(why("expr=1%zz").contains("hex"));
        assert!(why("expr=1%4").contains("hex"));
        assert!(why("expr=%+1").contains("hex"), "a sign is not a hex digit");
        assert!(why("expr=1&my=%FF").contains("UTF-8"));
        assert!(why("expr=1&mode=lax").contains("unknown mode"));
        assert!(why("expr=1&expr=2").contains("twice"));
        // Not a prefill link at all.
        assert_eq!(
            decode("exp=1"),
            Err(LinkError::Corrupt("unknown fragment".into()))
        );
        assert_eq!(
            decode("expression=1"),
            Err(LinkError::Corrupt("unknown fragment".into()))
        );
    }

    #[test]
    fn places_read_and_write_back() {
        let place = |f: &str| match classify(f) {
            Ok(Fragment::Place(p)) => p,
            other => panic!("{f}: {other:?}"),
        };
        let p = place("example=lesson-idle&view=negotiation&step=3");
        assert_eq!(p.example.as_deref(), Some("lesson-idle"));
        assert_eq!(
            (p.view, p.step, p.embed),
            (Some(View::Negotiation), Some(2), false)
        );
        assert_eq!(p.fragment(), "example=lesson-idle&view=negotiation&step=3");
        // A step alone is the classroom's; the old `example=<id>&step=<n>`.
        assert_eq!(place("example=x&step=1").view, Some(View::Negotiation));
        assert_eq!(
            place("view=analyze&embed=1").fragment(),
            "view=analyze&embed=1"
        );
        for v in [
            View::Evaluate,
            View::Examples,
            View::Matrix,
            View::Gangs,
            View::Query,
        ] {
            let p = Place {
                view: Some(v),
                ..Place::default()
            };
            assert_eq!(place(&p.fragment()), p);
        }
        assert!(
            matches!(classify("view=nowhere"), Err(LinkError::Corrupt(w)) if w.contains("nowhere"))
        );
        assert!(matches!(
            classify("example=x&step=two"),
            Err(LinkError::Corrupt(_))
        ));
        // A share link carries a place after its state.
        let link = encode(&AppState::default()).unwrap();
        let Ok(Fragment::Packed(packed, p)) = classify(&format!("{link}&view=matrix&embed=1"))
        else {
            panic!("not a packed link")
        };
        assert_eq!((p.view, p.embed), (Some(View::Matrix), true));
        assert_eq!(unpack(&packed), Ok(AppState::default()));
        // The place of a state: its example only while unchanged.
        let mut s = AppState {
            example_id: Some("demo".into()),
            view: View::Negotiation,
            ..AppState::default()
        };
        s.example = Some(s.fingerprint());
        s.matching.step = Some(1);
        assert_eq!(
            Place::of(&s).fragment(),
            "example=demo&view=negotiation&step=2"
        );
        s.expr = format!("{} ", s.expr).into();
        assert_eq!(Place::of(&s).fragment(), "view=negotiation&step=2");
        s.view = View::Matrix;
        assert_eq!(Place::of(&s).fragment(), "view=matrix");
    }
}
