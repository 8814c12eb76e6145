//! Why a node of an explain tree is `error`, in words: division by zero, an
//! index out of range, a name that is not a function (and the one meant), a
//! call with the wrong number or kinds of arguments, operands an operator
//! cannot combine. Worked out from the node and its operands' values, for
//! the node where an error starts (none of its operands is error).

use crate::lang::signatures::{nearest, signature};

/// What a value's canonical text is, in words (`an integer`, `a string`).
fn kind(v: &str) -> &'static str {
    let v = v.trim();
    match v {
        "undefined" => "undefined",
        "error" => "error",
        "true" | "false" => "a boolean",
        _ if v.starts_with('"') => "a string",
        _ if v.starts_with('{') => "a list",
        _ if v.starts_with('[') => "a record",
        _ if v.starts_with("absTime(") => "an absolute time",
        _ if v.starts_with("relTime(") => "a relative time",
        _ if v.contains(['.', 'E', 'e']) || v.contains("inf") || v.contains("nan") => "a real",
        _ => "an integer",
    }
}

/// `0`, `0.0`, `-0.0`, `0.000000000000000E+00`: a zero.
fn is_zero(v: &str) -> bool {
    v.trim_start_matches('-').parse::<f64>() == Ok(0.0)
}

/// The items of a list's canonical text, counted at its top level.
fn list_len(v: &str) -> Option<usize> {
    let inner = v.trim().strip_prefix('{')?.strip_suffix('}')?;
    if inner.trim().is_empty() {
        return Some(0);
    }
    let (mut depth, mut n, mut quoted, mut escaped) = (0i32, 1usize, false, false);
    for c in inner.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '{' | '[' | '(' if !quoted => depth += 1,
            '}' | ']' | ')' if !quoted => depth -= 1,
            ',' if !quoted && depth == 0 => n += 1,
            _ => {}
        }
    }
    Some(n)
}

/// Why a call to `name` is error when no function has that name.
pub fn unknown_function(name: &str) -> String {
    if crate::lang::builtins::lookup_seed(name).is_some() {
        return format!(
            "`{name}` is a function of the seed papers' notation, which HTCondor does not have"
        );
    }
    match nearest(name) {
        Some(n) => format!("`{name}` is not a function; did you mean `{n}`?"),
        None => format!("`{name}` is not a function HTCondor knows"),
    }
}

/// Why the node labelled `label` is `error`, given its operands' values.
pub fn cause(label: &str, operands: &[&str]) -> Option<String> {
    if operands.iter().any(|v| v.trim() == "error") {
        return None; // the error came from below
    }
    if let Some(name) = label.strip_prefix("call ") {
        return call_cause(name, operands);
    }
    if label == "subscript" {
        return subscript_cause(operands);
    }
    let op = label.strip_prefix("operator ")?;
    match operands {
        [a, b] if matches!(op, "/" | "%") && is_zero(b) && kind(a) != "a string" => {
            Some(if op == "/" {
                "division by zero".to_string()
            } else {
                "remainder of a division by zero".to_string()
            })
        }
        [a, b] => Some(format!(
            "operator {op} cannot combine {} ({}) and {} ({})",
            kind(a),
            short(a),
            kind(b),
            short(b)
        )),
        [a] => Some(format!(
            "operator {op} cannot take {} ({})",
            kind(a),
            short(a)
        )),
        _ => None,
    }
}

fn subscript_cause(operands: &[&str]) -> Option<String> {
    let [base, index] = operands else {
        return None;
    };
    match (kind(base), kind(index)) {
        ("a list", "an integer") => {
            let n = list_len(base)?;
            Some(format!(
                "index {} is out of range: the list has {n} item{}{}",
                index.trim(),
                if n == 1 { "" } else { "s" },
                if n > 0 {
                    format!(" (0 to {})", n - 1)
                } else {
                    String::new()
                }
            ))
        }
        ("a list", k) => Some(format!("a list's index must be an integer, not {k}")),
        ("a record", k) => Some(format!("a record's index must be a string, not {k}")),
        (k, _) => Some(format!(
            "only a list or a record has items to index, not {k}"
        )),
    }
}

/// A call to a function that exists with a count of arguments it does not
/// take (`args`: the arguments as written); none for a count it takes.
pub fn wrong_count(name: &str, args: &[String]) -> Option<String> {
    let s = signature(name)?;
    let k = args.len() as u8;
    if k >= s.min && s.max.is_none_or(|m| k <= m) {
        return None;
    }
    let takes = match s.max {
        Some(m) if m == s.min => format!("{m}"),
        Some(m) if m == s.min + 1 => format!("{} or {m}", s.min),
        Some(m) => format!("{} to {m}", s.min),
        None => format!("at least {}", s.min),
    };
    let plural = if s.max == Some(1) && s.min == 1 {
        ""
    } else {
        "s"
    };
    let given = if args.is_empty() {
        "none".to_string()
    } else {
        args.iter().map(|a| short(a)).collect::<Vec<_>>().join(", ")
    };
    Some(format!(
        "{} takes {takes} argument{plural}, given {k}: {given}",
        s.usage
    ))
}

/// A call with a count of arguments its function takes, all evaluated:
/// their kinds are what it cannot take (none said for the seed papers'
/// functions, which have no signature).
fn call_cause(name: &str, args: &[&str]) -> Option<String> {
    let s = signature(name)?;
    let given = if args.is_empty() {
        "no arguments".to_string()
    } else {
        args.iter()
            .map(|a| format!("{} ({})", kind(a), short(a)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    Some(format!("{} cannot take {given}", s.usage))
}

fn short(v: &str) -> String {
    let v = crate::lang::unparse::reals_for_people(v.trim());
    if v.chars().count() > 40 {
        let cut: String = v.chars().take(37).collect();
        format!("{cut}…")
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn causes_in_words() {
        assert_eq!(
            cause("operator /", &["1", "0"]).unwrap(),
            "division by zero"
        );
        assert_eq!(
            cause("operator /", &["1", "0.000000000000000E+00"]).unwrap(),
            "division by zero"
        );
        assert_eq!(
            cause("operator +", &["\"a\"", "1"]).unwrap(),
            "operator + cannot combine a string (\"a\") and an integer (1)"
        );
        assert_eq!(
            cause("subscript", &["{ 1,2,3 }", "5"]).unwrap(),
            "index 5 is out of range: the list has 3 items (0 to 2)"
        );
        assert_eq!(
            unknown_function("memeber"),
            "`memeber` is not a function; did you mean `member`?"
        );
        assert_eq!(
            wrong_count("substr", &["\"abc\"".to_string()]).unwrap(),
            "substr(string, integer offset [, integer length]) takes 2 or 3 arguments, given 1: \"abc\""
        );
        assert_eq!(
            cause("call size", &["1"]).unwrap(),
            "size(string, list or record) cannot take an integer (1)"
        );
        assert!(unknown_function("makeAbsTime").contains("seed papers' notation"));
        assert_eq!(cause("operator +", &["error", "1"]), None);
        assert_eq!(list_len("{ \"a,b\",{ 1,2 },3 }"), Some(3));
    }
}
