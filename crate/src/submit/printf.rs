//! The printf formats `$INT(x,fmt)`, `$REAL(x,fmt)` and `$STRING(x,fmt)`
//! take (`validatePrintfFormat`: one conversion of the value's kind, with
//! flags, width and precision; any text around it; `%%` a percent).

/// One conversion: `%[flags][width][.precision][length]conv`.
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    zero: bool,
    alt: bool,
    width: usize,
    precision: Option<usize>,
    conv: char,
}

/// Split `fmt` into the text before, the one conversion, the text after
/// (with `%%` read as `%`); `None` unless there is exactly one conversion.
fn parse(fmt: &str) -> Option<(String, Spec, String)> {
    let b: Vec<char> = fmt.chars().collect();
    let mut before = String::new();
    let mut after = String::new();
    let mut spec = None;
    let mut i = 0;
    while i < b.len() {
        if b[i] != '%' {
            if spec.is_none() {
                &mut before
            } else {
                &mut after
            }
            .push(b[i]);
            i += 1;
            continue;
        }
        if b.get(i + 1) == Some(&'%') {
            if spec.is_none() {
                &mut before
            } else {
                &mut after
            }
            .push('%');
            i += 2;
            continue;
        }
        if spec.is_some() {
            return None;
        }
        i += 1;
        let mut s = Spec {
            left: false,
            plus: false,
            space: false,
            zero: false,
            alt: false,
            width: 0,
            precision: None,
            conv: ' ',
        };
        while let Some(&c) = b.get(i) {
            match c {
                '-' => s.left = true,
                '+' => s.plus = true,
                ' ' => s.space = true,
                '0' => s.zero = true,
                '#' => s.alt = true,
                _ => break,
            }
            i += 1;
        }
        while let Some(d) = b.get(i).and_then(|c| c.to_digit(10)) {
            s.width = (s.width * 10 + d as usize).min(1000);
            i += 1;
        }
        if b.get(i) == Some(&'.') {
            i += 1;
            let mut p = 0usize;
            while let Some(d) = b.get(i).and_then(|c| c.to_digit(10)) {
                p = (p * 10 + d as usize).min(1000);
                i += 1;
            }
            s.precision = Some(p);
        }
        while matches!(b.get(i), Some('l' | 'h' | 'q' | 'L' | 'j' | 'z' | 't')) {
            i += 1;
        }
        s.conv = *b.get(i)?;
        i += 1;
        spec = Some(s);
    }
    Some((before, spec?, after))
}

fn pad(spec: &Spec, sign: &str, digits: String, numeric: bool) -> String {
    let len = sign.len() + digits.chars().count();
    if len >= spec.width {
        return format!("{sign}{digits}");
    }
    let fill = spec.width - len;
    if spec.left {
        format!("{sign}{digits}{}", " ".repeat(fill))
    } else if spec.zero && numeric {
        format!("{sign}{}{digits}", "0".repeat(fill))
    } else {
        format!("{}{sign}{digits}", " ".repeat(fill))
    }
}

fn sign_of(spec: &Spec, negative: bool) -> &'static str {
    if negative {
        "-"
    } else if spec.plus {
        "+"
    } else if spec.space {
        " "
    } else {
        ""
    }
}

/// `fmt` applied to an integer (`%d %i %u %x %X %o %c`).
pub fn format_int(fmt: &str, v: i64) -> Option<String> {
    let (before, spec, after) = parse(fmt)?;
    let mag = v.unsigned_abs();
    let mut digits = match spec.conv {
        'd' | 'i' | 'u' => mag.to_string(),
        'x' => format!("{mag:x}"),
        'X' => format!("{mag:X}"),
        'o' => format!("{mag:o}"),
        _ => return None,
    };
    if let Some(p) = spec.precision {
        if digits.len() < p {
            digits = format!("{}{digits}", "0".repeat(p - digits.len()));
        }
    }
    let sign = sign_of(&spec, v < 0);
    let zero_ok = spec.precision.is_none();
    let body = pad(&spec, sign, digits, zero_ok);
    Some(format!("{before}{body}{after}"))
}

/// `fmt` applied to a real (`%f %e %E %g %G`).
pub fn format_real(fmt: &str, v: f64) -> Option<String> {
    let (before, spec, after) = parse(fmt)?;
    let p = spec.precision.unwrap_or(6);
    let mag = v.abs();
    let digits = if !v.is_finite() {
        let t = if v.is_nan() { "nan" } else { "inf" };
        if spec.conv.is_ascii_uppercase() {
            t.to_uppercase()
        } else {
            t.to_string()
        }
    } else {
        match spec.conv {
            'f' | 'F' => format!("{mag:.p$}"),
            'e' | 'E' => exponent(mag, p, spec.conv == 'E'),
            'g' | 'G' => general(mag, p, spec.conv == 'G', spec.alt),
            _ => return None,
        }
    };
    let sign = sign_of(&spec, v.is_sign_negative() && !v.is_nan());
    Some(format!(
        "{before}{}{after}",
        pad(&spec, sign, digits, v.is_finite())
    ))
}

/// `fmt` applied to a string (`%s`).
pub fn format_str(fmt: &str, v: &str) -> Option<String> {
    let (before, spec, after) = parse(fmt)?;
    if spec.conv != 's' {
        return None;
    }
    let v: String = match spec.precision {
        Some(p) => v.chars().take(p).collect(),
        None => v.to_string(),
    };
    Some(format!("{before}{}{after}", pad(&spec, "", v, false)))
}

/// `%.pe`: one digit, `p` decimals, a signed exponent of at least two digits.
fn exponent(mag: f64, p: usize, upper: bool) -> String {
    let s = format!("{mag:.p$e}");
    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
    let e: i32 = e.parse().unwrap_or(0);
    let sign = if e < 0 { '-' } else { '+' };
    let out = format!("{m}e{sign}{:02}", e.abs());
    if upper {
        out.to_uppercase()
    } else {
        out
    }
}

/// `%.pg`: the shorter of `%e` and `%f` at `p` significant digits, trailing
/// zeros dropped (unless `#`).
fn general(mag: f64, p: usize, upper: bool, alt: bool) -> String {
    let p = p.max(1);
    // The exponent the value has once rounded to p significant digits.
    let e = if mag == 0.0 {
        0
    } else {
        let s = format!("{:.*e}", p - 1, mag);
        s.split_once('e')
            .and_then(|(_, e)| e.parse::<i32>().ok())
            .unwrap_or(0)
    };
    let mut out = if e < -4 || e >= p as i32 {
        exponent(mag, p - 1, upper)
    } else {
        let decimals = (p as i32 - 1 - e).max(0) as usize;
        format!("{mag:.decimals$}")
    };
    if !alt {
        // Drop trailing zeros of the fraction (and a bare point).
        let (mant, exp) = match out.find(['e', 'E']) {
            Some(i) => (out[..i].to_string(), out[i..].to_string()),
            None => (out.clone(), String::new()),
        };
        let mant = if mant.contains('.') {
            mant.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            mant
        };
        out = mant + &exp;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_reals_and_strings_print_as_c_does() {
        assert_eq!(format_int("%lld", -42).as_deref(), Some("-42"));
        assert_eq!(format_int("job_%03d", 7).as_deref(), Some("job_007"));
        assert_eq!(format_int("%x", 255).as_deref(), Some("ff"));
        assert_eq!(format_int("%-4d|", 5).as_deref(), Some("5   |"));
        assert_eq!(format_int("%d %d", 5), None, "one conversion");
        assert_eq!(format_int("%s", 5), None, "of the value's kind");
        assert_eq!(format_real("%.16G", 0.1).as_deref(), Some("0.1"));
        assert_eq!(format_real("%.16G", 1e20).as_deref(), Some("1E+20"));
        assert_eq!(format_real("%.16G", 3.0).as_deref(), Some("3"));
        assert_eq!(format_real("%.2f", 2.345).as_deref(), Some("2.35"));
        assert_eq!(format_real("%g", 0.0001).as_deref(), Some("0.0001"));
        assert_eq!(format_real("%g", 0.00001).as_deref(), Some("1e-05"));
        assert_eq!(format_real("%e", 1234.5).as_deref(), Some("1.234500e+03"));
        assert_eq!(format_str("[%5s]", "ab").as_deref(), Some("[   ab]"));
        assert_eq!(format_str("%.1s", "ab").as_deref(), Some("a"));
        assert_eq!(format_str("100%% %s", "x").as_deref(), Some("100% x"));
    }
}
