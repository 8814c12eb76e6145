//! Hostile input: deep nesting, exponential sharing, huge values, garbage.
//! Nothing may panic, hang or overflow the stack.

use std::sync::Arc;

use classad::{formats, parse_classad, parse_expr, Dialect, EvalOptions, Evaluator};

fn eval(src: &str) -> String {
    let e = parse_expr(src).unwrap_or_else(|d| panic!("{src:.60}: {d}"));
    Evaluator::new(EvalOptions::default())
        .eval_expr(&e)
        .to_string()
}

#[test]
fn hundred_thousand_open_brackets_is_an_error() {
    for open in ["(", "[", "{", "-", "!"] {
        let src = open.repeat(100_000);
        let err = parse_expr(&src).expect_err("must not parse");
        assert!(
            err.message.contains("nested") || err.message.contains("unexpected"),
            "{open}: {}",
            err.message
        );
    }
    let src = format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000));
    let err = parse_expr(&src).unwrap_err();
    assert!(err.message.contains("nested more than"), "{}", err.message);
}

#[test]
fn long_operator_chain_is_bounded() {
    // 1,500 terms parse and evaluate; 100,000 are refused with a message.
    let ok = vec!["1"; 1500].join(" + ");
    assert_eq!(eval(&ok), "1500");
    let huge = vec!["1"; 100_000].join(" + ");
    let err = parse_expr(&huge).unwrap_err();
    assert!(err.message.contains("nested more than"), "{}", err.message);
}

#[test]
fn exponential_sharing_is_fast() {
    // a0 = a1 + a1; … a60 = 1: 2^60 paths, but each attribute is evaluated once.
    let mut src = String::from("[");
    for i in 0..60 {
        src.push_str(&format!("a{i} = a{} + a{};", i + 1, i + 1));
    }
    src.push_str("a60 = 1].a0");
    assert_eq!(eval(&src), (1i64 << 60).to_string());
}

#[test]
fn circular_references_are_undefined() {
    assert_eq!(eval("[a = b; b = a].a"), "undefined");
    assert_eq!(eval("[a = a + 1].a"), "undefined");
    let ad = Arc::new(parse_classad("[x = y; y = z; z = x]").unwrap());
    let mut ev = Evaluator::new(EvalOptions::default());
    ev.set_ads(Some(ad), None);
    assert_eq!(ev.eval_attr("x").to_string(), "undefined");
}

#[test]
fn long_reference_chain_is_bounded() {
    // a0 = a1, a1 = a2, … a20000 = 7: deeper than the evaluator allows;
    // the answer is error (as libclassad's depth guard gives), not a crash.
    let mut ad = String::from("[");
    for i in 0..20_000 {
        ad.push_str(&format!("a{i} = a{};", i + 1));
    }
    ad.push_str("a20000 = 7]");
    let ad = Arc::new(parse_classad(&ad).unwrap());
    let mut ev = Evaluator::new(EvalOptions::default());
    ev.set_ads(Some(ad.clone()), None);
    // 300 references deep: within the bound (MAX_EVAL_DEPTH).
    assert_eq!(ev.eval_attr("a19700").to_string(), "7");
    ev.set_ads(Some(ad), None);
    assert_eq!(ev.eval_attr("a0").to_string(), "error");
}

#[test]
fn huge_lists_and_strings() {
    let list = format!("{{{}}}", vec!["1"; 200_000].join(","));
    assert_eq!(eval(&format!("size({list})")), "200000");
    let s = "x".repeat(5_000_000);
    assert_eq!(eval(&format!("size(\"{s}\")")), "5000000");
    assert_eq!(eval(&format!("strcat(\"{s}\", \"{s}\") == \"\"")), "false");
}

#[test]
fn garbage_never_panics() {
    // A deterministic stream of nasty byte soup through every entry point.
    let mut x: u64 = 0x9E3779B97F4A7C15;
    let alphabet: Vec<char> = "[]{}()=;,.?:!~&|^<>+-*/%\"'\\ \n\tabcxyz019eE_$#@é\u{0}"
        .chars()
        .collect();
    for _ in 0..3000 {
        let len = (x % 64) as usize;
        let mut s = String::new();
        for _ in 0..len {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            s.push(alphabet[(x % alphabet.len() as u64) as usize]);
        }
        if let Ok(e) = parse_expr(&s) {
            let _ = Evaluator::new(EvalOptions::default())
                .eval_expr(&e)
                .to_string();
            let _ = classad::unparse(&e);
        }
        for f in [
            formats::InputFormat::New,
            formats::InputFormat::Old,
            formats::InputFormat::Json,
        ] {
            let _ = formats::read_pool(&s, f, Dialect::Auto);
        }
        let _ = classad::lang::lexer::highlight(&s, Dialect::Auto);
    }
}

#[test]
fn errors_name_line_and_column() {
    let err = parse_expr("1 +\n  (2 * )").unwrap_err();
    assert_eq!((err.line, err.column), (2, 8), "{err:?}");
    assert!(err.expected.as_deref().unwrap_or("").contains("expression"));
    let err = parse_classad("[\n a = 1;\n b = 2 +;\n]").unwrap_err();
    assert_eq!(err.line, 3);
    assert_eq!(err.attribute.as_deref(), Some("b"));
}

#[test]
fn records_built_during_evaluation_do_not_share_cache_entries() {
    // Each splitTime() result is a fresh record; the second must not see
    // the first one's cached attributes.
    assert_eq!(eval("splitTime(3600).Hours + splitTime(7200).Hours"), "3");
}
