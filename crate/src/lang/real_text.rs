//! A real as C's `printf("%.15E")` writes it (`2.470000000000000E-01`),
//! which is how libclassad's canonical unparser writes every real.
//!
//! The exact conversion (Rust's `{:.15E}`, Grisu with a Dragon fallback)
//! costs thousands of instructions a number; a pool's reals usually have a
//! short shortest form (`0.247`), and when the double's own spacing is
//! finer than the 16-digit grid, rounding the exact value to 16 digits
//! gives that short form padded with zeros. Only then is it taken; every
//! other number goes the exact way.

use std::fmt::Write;

/// `r` (finite) as `%.{prec}E`: `1.500000000000000E+00`.
pub fn write_e(out: &mut String, r: f64, prec: usize) {
    if prec == 15 && write_e15_from_shortest(out, r) {
        return;
    }
    let start = out.len();
    let _ = write!(out, "{:.*E}", prec, r);
    // Rust writes `E-1` / `E1`; C writes at least two exponent digits and
    // always a sign.
    let Some(e) = out[start..].rfind('E').map(|i| start + i) else {
        return;
    };
    let exp: i32 = out[e + 1..].parse().unwrap_or(0);
    out.truncate(e);
    push_exponent(out, exp);
}

/// `E+05`, `E-300`: C's exponent, signed and at least two digits.
fn push_exponent(out: &mut String, exp: i32) {
    out.push('E');
    out.push(if exp < 0 { '-' } else { '+' });
    if exp.unsigned_abs() < 10 {
        out.push('0');
    }
    out.push_str(itoa::Buffer::new().format(exp.unsigned_abs()));
}

/// The fast way, or false (nothing written) when it cannot be sure.
fn write_e15_from_shortest(out: &mut String, r: f64) -> bool {
    let bits = r.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    // Zero, subnormals, infinities and NaN go the exact way.
    if biased == 0 || biased == 0x7ff {
        return false;
    }
    let mut shortest = ryu::Buffer::new();
    let text = shortest.format_finite(r.abs());
    let (mantissa, exp) = match text.find('e') {
        Some(i) => match text[i + 1..].parse::<i32>() {
            Ok(e) => (&text[..i], e),
            Err(_) => return false,
        },
        None => (text, 0),
    };
    // The significant digits, and where the point is among all digits.
    let mut digits = [b'0'; 17];
    let (mut k, mut count, mut point, mut first) = (0usize, 0i32, None, None);
    for &c in mantissa.as_bytes() {
        if c == b'.' {
            point = Some(count);
            continue;
        }
        if !c.is_ascii_digit() {
            return false;
        }
        if first.is_none() && c != b'0' {
            first = Some(count);
        }
        if first.is_some() {
            if k == digits.len() {
                return false;
            }
            digits[k] = c;
            k += 1;
        }
        count += 1;
    }
    let Some(first) = first else { return false };
    while k > 1 && digits[k - 1] == b'0' {
        k -= 1;
    }
    if k > 16 {
        return false;
    }
    let decimal_exp = point.unwrap_or(count) - first - 1 + exp;
    // The shortest form d is within half the double's spacing (ulp) of the
    // exact value x; when the ulp is under the 16-digit grid's spacing, x
    // rounds to d on that grid. A power of ten may have x just below it,
    // in the decade whose grid is ten times finer.
    let power_of_ten = k == 1 && digits[0] == b'1';
    let grid = 10f64.powi(decimal_exp - 15 - i32::from(power_of_ten));
    let ulp_exp = biased - 1075;
    if ulp_exp < -1022 || !grid.is_normal() {
        return false;
    }
    let ulp = f64::from_bits(((ulp_exp + 1023) as u64) << 52);
    // `powi` is off by a few of its own ulps at most: a wide margin.
    if ulp >= grid * 0.999 {
        return false;
    }
    if r < 0.0 {
        out.push('-');
    }
    out.push(digits[0] as char);
    out.push('.');
    // Digits are ASCII.
    out.push_str(std::str::from_utf8(&digits[1..k]).unwrap_or_default());
    for _ in k..16 {
        out.push('0');
    }
    push_exponent(out, decimal_exp);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// C's `%.15E` the plain way: Rust's exact conversion, exponent mended.
    fn exact(r: f64) -> String {
        let s = format!("{:.15E}", r);
        let (mant, exp) = s.split_once('E').unwrap();
        let exp: i32 = exp.parse().unwrap();
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mant}E{sign}{:02}", exp.abs())
    }

    fn fast(r: f64) -> String {
        let mut out = String::new();
        write_e(&mut out, r, 15);
        out
    }

    /// xorshift64*: the same numbers on every run.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
    }

    #[test]
    fn as_c_writes_them() {
        assert_eq!(fast(0.247), "2.470000000000000E-01");
        assert_eq!(fast(-1.5), "-1.500000000000000E+00");
        assert_eq!(fast(1e100), "1.000000000000000E+100");
        // 1e23 is 99999999999999991611392 as a double.
        assert_eq!(fast(1e23), "9.999999999999999E+22");
        assert_eq!(fast(0.1 + 0.2), "3.000000000000000E-01");
        assert_eq!(fast(8388629.893), "8.388629892999999E+06");
        assert_eq!(fast(f64::MAX), exact(f64::MAX));
        assert_eq!(fast(f64::MIN_POSITIVE), exact(f64::MIN_POSITIVE));
        assert_eq!(fast(5e-324), exact(5e-324));
    }

    #[test]
    fn the_same_as_the_exact_conversion() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut checked = 0;
        for i in 0..400_000u64 {
            let r = match i % 4 {
                // Any double.
                0 => f64::from_bits(rng.next()),
                // Short decimals, as pools have them (0.247, 1234.5).
                1 => {
                    let digits = (rng.next() % 1_000_000) as f64;
                    digits / 10f64.powi((rng.next() % 12) as i32)
                }
                // Powers of ten and their neighbours.
                2 => {
                    let p = 10f64.powi((rng.next() % 600) as i32 - 300);
                    let step = (rng.next() % 5) as i64 - 2;
                    f64::from_bits((p.to_bits() as i64 + step) as u64)
                }
                // Many digits: halfway cases at the 16th.
                _ => {
                    let m = (rng.next() % 10_000_000_000_000_000) as f64;
                    m * 10f64.powi((rng.next() % 40) as i32 - 20) + 0.5
                }
            };
            if !r.is_finite() || r == 0.0 {
                continue;
            }
            assert_eq!(fast(r), exact(r), "{r:e} ({:#x})", r.to_bits());
            checked += 1;
        }
        assert!(checked > 350_000);
    }

    #[test]
    fn other_precisions_as_c() {
        let mut out = String::new();
        write_e(&mut out, 1234.56, 3);
        assert_eq!(out, "1.235E+03");
        out.clear();
        write_e(&mut out, 1e-300, 2);
        assert_eq!(out, "1.00E-300");
    }
}
