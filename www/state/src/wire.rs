//! A state crossing from the engine worker to the page (a share link's, a
//! gallery example's): its JSON with the texts (the pools', the
//! expression) left out, then the texts as they are,
//!
//! ```text
//! <JSON of Ok(state) or Err(why)>\n<bytes of text 1> <bytes of text 2> …\n<text 1><text 2>…
//! ```
//!
//! Escaping megabytes of text into JSON is the worker's time, but reading
//! them back was the page's: 26 ms of one task for a link near its 4 MB
//! bound. Here the page only slices them.

use std::rc::Rc;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::app_state::{AppState, SharedText};

/// The wire form of `r`.
pub fn write<E: Serialize>(r: Result<AppState, E>) -> String {
    let (r, texts) = match r {
        Ok(mut s) => {
            let texts = take_texts(&mut s);
            (Ok(s), texts)
        }
        Err(e) => (Err(e), vec![]),
    };
    let mut out = serde_json::to_string(&r).unwrap_or_default();
    out.push('\n');
    let lengths: Vec<String> = texts.iter().map(|t| t.len().to_string()).collect();
    out.push_str(&lengths.join(" "));
    out.push('\n');
    out.reserve(texts.iter().map(|t| t.len()).sum());
    for t in &texts {
        out.push_str(t);
    }
    out
}

/// The result [`write`] wrote, or why `wire` is not one.
pub fn read<E: DeserializeOwned>(wire: &str) -> Result<Result<AppState, E>, String> {
    let (json, texts) = split(wire)?;
    let mut r: Result<AppState, E> = serde_json::from_str(json).map_err(|e| bad(&e.to_string()))?;
    match &mut r {
        Ok(s) => put_back(s, &texts)?,
        Err(_) if !texts.is_empty() => return Err(bad("texts after an error")),
        Err(_) => {}
    }
    Ok(r)
}

fn bad(why: &str) -> String {
    format!("unreadable answer from the engine worker: {why}")
}

/// The JSON and the texts after it (apart from [`read`], which is compiled
/// once per error type: this is the same for all).
fn split(wire: &str) -> Result<(&str, Vec<&str>), String> {
    let (json, rest) = wire.split_once('\n').ok_or_else(|| bad("no state"))?;
    let (lengths, mut texts) = rest
        .split_once('\n')
        .ok_or_else(|| bad("no text lengths"))?;
    let mut each = Vec::new();
    for n in lengths.split_ascii_whitespace() {
        let n: usize = n
            .parse()
            .map_err(|_| bad("a text length is not a number"))?;
        match (texts.get(..n), texts.get(n..)) {
            (Some(t), Some(after)) => {
                each.push(t);
                texts = after;
            }
            _ => return Err(bad("the texts are cut off")),
        }
    }
    if !texts.is_empty() {
        return Err(bad("more text than its lengths say"));
    }
    Ok((json, each))
}

/// The pools' texts and the expression, back into `s`.
fn put_back(s: &mut AppState, texts: &[&str]) -> Result<(), String> {
    if texts.len() != s.pools.len() + 1 {
        return Err(bad(
            "as many texts as pools and the expression were expected",
        ));
    }
    for (p, t) in s.pools.iter_mut().zip(texts) {
        p.text = Rc::from(*t);
    }
    s.expr = SharedText::from(texts[s.pools.len()]);
    Ok(())
}

/// The pools' texts and then the expression, taken out of `s`.
fn take_texts(s: &mut AppState) -> Vec<Rc<str>> {
    let mut texts: Vec<Rc<str>> = s
        .pools
        .iter_mut()
        .map(|p| std::mem::replace(&mut p.text, Rc::from("")))
        .collect();
    texts.push(std::mem::take(&mut s.expr).0);
    texts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app_state::PoolText;

    fn state() -> AppState {
        AppState {
            pools: vec![
                PoolText {
                    name: "jobs".into(),
                    text: Rc::from("[ a = \"\u{e9}t\u{e9}\\n\" ]\n\n[ b = 2 ]\n"),
                },
                PoolText {
                    name: "empty".into(),
                    text: Rc::from(""),
                },
            ],
            expr: SharedText::from("MY.a =?= \"x\"\n && true"),
            ..AppState::default()
        }
    }

    #[test]
    fn a_state_comes_back_whole() {
        let wire = write::<String>(Ok(state()));
        // The texts are not in the JSON.
        assert!(!wire.lines().next().unwrap().contains("[ b = 2 ]"));
        let back = read::<String>(&wire).unwrap().unwrap();
        assert_eq!(back, state());
    }

    #[test]
    fn an_error_comes_back() {
        let wire = write::<String>(Err("no such example".into()));
        assert_eq!(
            read::<String>(&wire).unwrap(),
            Err("no such example".to_string())
        );
    }

    #[test]
    fn damaged_answers_are_refused() {
        let wire = write::<String>(Ok(state()));
        let cut = &wire[..wire.len() - 3];
        assert!(read::<String>(cut).unwrap_err().contains("cut off"));
        let longer = format!("{wire}x");
        assert!(read::<String>(&longer).unwrap_err().contains("more text"));
        assert!(read::<String>("{\"Ok\":{}}").is_err());
        // A length that would cut a character in two.
        let (json, _) = wire.split_once('\n').unwrap();
        let split = format!("{json}\n1 0 0\n\u{e9}");
        assert!(read::<String>(&split).is_err());
    }
}
