//! Reals as people read them (`0.5`, not `5.000000000000000E-01`), for
//! every sentence, tree and tooltip of the page; the value line keeps the
//! exact unparse. The engine finds the reals; in the browser JavaScript
//! writes them (its shortest round-trip form), so the page links none of
//! Rust's float formatting.

/// `text` (values as the canonical unparser writes them) with its reals
/// written for people.
pub fn people(text: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        classad::api::reals_for_people_with(text, &js_people)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        classad::api::reals_for_people(text)
    }
}

/// The fewest digits whose canonical text (`%.15E`) is the token's, in
/// JavaScript's shortest form, a whole number keeping its `.0`.
#[cfg(target_arch = "wasm32")]
fn js_people(token: &str) -> Option<String> {
    use js_sys::Number;
    let r = js_sys::parse_float(token);
    if r.is_nan() {
        return None;
    }
    let exact = Number::from(r).to_exponential(15).ok()?;
    let shortest = (1..=17u8)
        .filter_map(|p| Number::from(r).to_precision(p).ok())
        .map(|t| js_sys::parse_float(&String::from(t)))
        .find(|c| Number::from(*c).to_exponential(15).ok().as_ref() == Some(&exact))
        .unwrap_or(r);
    let s = String::from(Number::from(shortest).to_string(10).ok()?);
    Some(if s.contains(['.', 'e']) {
        s
    } else {
        format!("{s}.0")
    })
}
