//! Numbers as people read them: thousands separators, counted nouns,
//! durations. No view state: anything may use them.

/// 12345678 → "12,345,678".
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// "1 job", "2,000 jobs".
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

/// A duration for people: "850 ms", "2.4 s", "3 min 5 s".
pub fn duration(ms: f64) -> String {
    if ms < 1000.0 {
        format!("{} ms", super::numbers::whole(ms))
    } else if ms < 60_000.0 {
        format!("{} s", super::numbers::tenths(ms / 1000.0))
    } else {
        let s = (ms / 1000.0).round() as u64;
        format!("{} min {} s", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_for_people() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(100_000_000), "100,000,000");
        assert_eq!(count(1, "job", "jobs"), "1 job");
        assert_eq!(count(2000, "job", "jobs"), "2,000 jobs");
        assert_eq!(duration(850.2), "850 ms");
        assert_eq!(duration(2449.0), "2.4 s");
        assert_eq!(duration(185_000.0), "3 min 5 s");
    }
}
