//! Every error explanation names its cause (issue 32, item 4): the explain
//! tree's node where an error starts says why, in words, as the page, the
//! CLI's JSON and the embed module receive it. The values themselves are
//! libclassad's (each of these is `error` there too: see the conformance
//! suite); what is checked here is the sentence.

use classad::api::{handle, Request, Response, TraceNode};

/// `expr`'s value and its explain tree, asked as the page asks.
fn traced(expr: &str) -> (String, Option<TraceNode>) {
    let Response::Value { value, trace, .. } = handle(Request::Evaluate {
        expr: expr.into(),
        my: None,
        target: None,
        scope: vec![],
        dialect: Default::default(),
        trace: true,
        context: Default::default(),
    }) else {
        panic!("{expr}: no value")
    };
    (value, trace)
}

/// The first node (preorder) that carries a cause, and the root's value.
fn cause_of(expr: &str) -> (String, Option<(String, String)>) {
    let (value, trace) = traced(expr);
    fn find(n: &TraceNode) -> Option<(String, String)> {
        if let Some(c) = &n.cause {
            return Some((n.label.clone(), c.clone()));
        }
        n.children.iter().find_map(find)
    }
    (value, trace.as_ref().and_then(find))
}

#[test]
fn each_error_says_why() {
    let cases: &[(&str, &str, &str)] = &[
        ("1 / 0", "operator /", "division by zero"),
        ("7 % 0", "operator %", "remainder of a division by zero"),
        ("1.5 / 0.0", "operator /", "division by zero"),
        ("{1, 2, 3}[5]", "subscript", "index 5 is out of range: the list has 3 items (0 to 2)"),
        ("memeber(1, {1})", "call memeber", "`memeber` is not a function; did you mean `member`?"),
        ("substr(\"abc\")", "call substr", "substr(string, integer offset [, integer length]) takes 2 or 3 arguments, given 1: \"abc\""),
        ("size(1)", "call size", "size(string, list or record) cannot take an integer (1)"),
        ("\"a\" + 1", "operator +", "operator + cannot combine a string (\"a\") and an integer (1)"),
        ("- \"a\"", "operator -", "operator - cannot take a string (\"a\")"),
        ("0.5 * \"x\"", "operator *", "operator * cannot combine a real (0.5) and a string (\"x\")"),
        ("makeAbsTime(1)", "call makeAbsTime", "`makeAbsTime` is a function of the seed papers' notation, which HTCondor does not have"),
    ];
    let mut bad = vec![];
    for (expr, label, why) in cases {
        let (value, found) = cause_of(expr);
        if value != "error" {
            bad.push(format!("{expr}: {value}, expected error"));
        }
        if found != Some((label.to_string(), why.to_string())) {
            bad.push(format!("{expr}: {found:?}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The cause is where the error starts, not every node above it; values
/// that are not error carry none.
#[test]
fn only_where_the_error_starts() {
    let (value, found) = cause_of("(1 + 1 / 0) * 2 > 3 || false");
    assert_eq!(value, "error");
    assert_eq!(
        found,
        Some(("operator /".into(), "division by zero".into()))
    );
    let (_, none) = cause_of("1 / 2 + size(\"ab\")");
    assert_eq!(none, None);
}

/// The operator keeps the spelling the user typed in the tree.
#[test]
fn meta_operators_keep_their_spelling() {
    let t = traced("x =?= undefined").1.unwrap();
    assert_eq!(t.label, "operator =?=");
    assert_eq!(t.text, "x =?= undefined");
}

#[test]
fn reals_read_as_people_write_them() {
    use classad::api::reals_for_people as people;
    assert_eq!(people("5.000000000000000E-01"), "0.5");
    assert_eq!(
        people("{ 2.684354560000000E+08, \"1.000000000000000E+00\", -3.000000000000000E-01 }"),
        "{ 268435456.0, \"1.000000000000000E+00\", -0.3 }"
    );
    assert_eq!(people("8.388629892999999E+06"), "8388629.893");
    assert_eq!(
        people("[ a = 1.500000000000000E+00; b = x1.0E5 ]"),
        "[ a = 1.5; b = x1.0E5 ]"
    );
    assert_eq!(people("12"), "12");
}

/// A call with a count of arguments outside the signature is error
/// (the counts are libclassad's; the types do not matter then).
#[test]
fn counts_outside_a_signature_are_errors() {
    use classad::{EvalOptions, Evaluator};
    let mut bad = vec![];
    for name in classad::lang::builtins::NAMES {
        let s = classad::lang::signatures::signature(name).unwrap();
        for k in 0..=6u8 {
            let inside = k >= s.min && s.max.is_none_or(|m| k <= m);
            if inside {
                continue;
            }
            let args = vec!["1"; k as usize].join(", ");
            let src = format!("{name}({args})");
            let e = classad::parse_expr(&src).unwrap();
            let v = Evaluator::new(EvalOptions::default()).eval_expr(&e);
            if !matches!(v, classad::Value::Error) {
                bad.push(format!("{src} = {v}"));
            }
        }
    }
    assert!(bad.is_empty(), "{bad:?}");
}
