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
    let s = String::from(Number::from(shortest).to_string_with_radix(10).ok()?);
    Some(if s.contains(['.', 'e']) {
        s
    } else {
        format!("{s}.0")
    })
}

/// `x` rounded to one decimal (`2.5`, `0.1`), written without Rust's float
/// formatting (the page links none of it: about 5 KB gzip).
pub fn tenths(x: f64) -> String {
    let t = (x.abs() * 10.0).round() as u64;
    let sign = if x < 0.0 && t > 0 { "-" } else { "" };
    format!("{sign}{}.{}", t / 10, t % 10)
}

/// `x` rounded to a whole number, as `{:.0}` writes it.
pub fn whole(x: f64) -> String {
    let t = x.abs().round() as u64;
    let sign = if x < 0.0 && t > 0 { "-" } else { "" };
    format!("{sign}{t}")
}

/// Bytes as megabytes with one decimal: `2.5 MB`.
/// A text's size as the page says it: KB below a megabyte, else MB.
pub fn size(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        megabytes(bytes)
    } else {
        format!("{} KB", bytes.div_ceil(1024))
    }
}

pub fn megabytes(bytes: usize) -> String {
    format!("{} MB", tenths(bytes as f64 / 1048576.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_in_kb_below_a_megabyte() {
        assert_eq!(size(1), "1 KB");
        assert_eq!(size((1 << 20) - 1), "1024 KB");
        assert_eq!(size(1 << 20), "1.0 MB");
        assert_eq!(size(22_500_000), "21.5 MB");
    }

    #[test]
    fn tenths_and_whole_round_as_rust_does() {
        // Away from halfway cases (where Rust rounds the exact binary value).
        for x in [
            0.0, 0.04, 0.06, 0.14, 1.0, 2.449, 2.46, 99.96, 1048575.9, -0.04, -3.27,
        ] {
            assert_eq!(
                tenths(x).parse::<f64>().unwrap(),
                format!("{x:.1}").parse::<f64>().unwrap(),
                "{x}"
            );
            assert_eq!(
                whole(x).parse::<f64>().unwrap(),
                format!("{x:.0}").parse::<f64>().unwrap(),
                "{x}"
            );
        }
        assert_eq!(tenths(2.25), "2.3");
        assert_eq!(megabytes(3 << 20), "3.0 MB");
        assert_eq!(whole(-0.2), "0");
    }
}
