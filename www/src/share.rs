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
//! entry. Nothing in a link is ever executed: it is data for the state.

use base64::Engine as _;
use serde::{Deserialize, Serialize};

use crate::state::AppState;

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
    State(Box<AppState>),
    Example(String),
}

#[derive(Debug, PartialEq)]
pub enum LinkError {
    /// The link was made by a newer playground.
    Future(u32),
    /// Not a link this playground understands, or damaged in transit.
    Corrupt(String),
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
        }
    }
}

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::URL_SAFE_NO_PAD;

pub fn encode(state: &AppState) -> String {
    let env = Envelope {
        engine: classad::VERSION.to_string(),
        state: state.clone(),
    };
    let json = serde_json::to_vec(&env).unwrap_or_default();
    let packed = miniz_oxide::deflate::compress_to_vec_zlib(&json, 9);
    format!(
        "s={LINK_VERSION}.{}.{}",
        classad::VERSION,
        B64.encode(packed)
    )
}

/// Decode a URL fragment (without the leading `#`).
pub fn decode(fragment: &str) -> Result<Fragment, LinkError> {
    let f = fragment.trim_start_matches('#').trim();
    if f.is_empty() {
        return Ok(Fragment::Empty);
    }
    if let Some(id) = f.strip_prefix("example=") {
        return Ok(Fragment::Example(id.to_string()));
    }
    let Some(rest) = f.strip_prefix("s=") else {
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
    // Bound the inflated size: a small link must not expand into gigabytes.
    const LIMIT: usize = 64 << 20;
    let json = if version >= 2 {
        miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(&packed, LIMIT).map_err(|e| {
            LinkError::Corrupt(match e.status {
                miniz_oxide::inflate::TINFLStatus::Adler32Mismatch => {
                    "its checksum does not match: it was changed or cut when copied".into()
                }
                _ => "compressed data is cut off or invalid".into(),
            })
        })?
    } else {
        miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, LIMIT)
            .map_err(|_| LinkError::Corrupt("compressed data is cut off or invalid".into()))?
    };
    let env: Envelope = serde_json::from_slice(&json)
        .map_err(|e| LinkError::Corrupt(format!("state does not read: {e}")))?;
    let mut state = env.state;
    state.normalize();
    Ok(Fragment::State(Box::new(state)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let mut s = AppState::default();
        s.expr = "strcat(\"<script>\", 'a b')".into();
        let link = encode(&s);
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
        assert_eq!(s.expr, "a");
        assert_eq!(s.matching, crate::state::MatchSettings::default());
    }

    /// Every single-character change of a link's payload is refused (or
    /// opens the very same state): none opens with other text.
    #[test]
    fn a_changed_link_is_refused() {
        let mut s = AppState::default();
        s.expr = "TARGET.Memory >= 1024 && MY.Requirements".into();
        let link = encode(&s);
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
        let link = encode(&AppState::default());
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
            Ok(Fragment::Example("000-fig2".into()))
        );
    }
}
