//! `'3:00'` reads two ways (issue 32): in HTCondor's syntax an attribute's
//! name (libclassad 25: `'3:00' + 1` is undefined, `Start = '3:00'` in an
//! ad looks up `3:00`), in the seed papers' notation three hours. The value
//! is HTCondor's; every reader in HTCondor's syntax warns, naming both
//! readings and what to write instead, and the seed notation does not.

use std::process::Command;

use classad::api::{handle, Request, Response, Severity};
use classad::formats::{read_pool, InputFormat};
use classad::Dialect;

fn evaluate(expr: &str, dialect: Dialect) -> Response {
    handle(Request::Evaluate {
        expr: expr.into(),
        my: None,
        target: None,
        scope: vec![],
        dialect,
        trace: false,
        context: Default::default(),
    })
}

#[test]
fn the_evaluator_warns_where_the_name_is() {
    let Response::Value {
        value, diagnostics, ..
    } = evaluate("1 +\n  '3:00'", Dialect::Modern)
    else {
        panic!("a value")
    };
    assert_eq!(
        value, "undefined",
        "libclassad 25: an attribute nobody defines"
    );
    let [d] = &diagnostics[..] else {
        panic!("{diagnostics:?}")
    };
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!((d.line, d.column), (2, 3));
    assert_eq!((d.span.start, d.span.end), (6, 12));
    assert!(
        d.message
            .starts_with("'3:00' is an attribute's name in HTCondor"),
        "{}",
        d.message
    );
    assert!(
        d.message
            .contains("in the seed papers' notation it is a time"),
        "{}",
        d.message
    );
    assert_eq!(
        d.help.as_deref(),
        Some("for the text write \"3:00\"; for the time in seconds write 10800")
    );
    // An absolute time literal, and a quoted name that is no time.
    let Response::Value { diagnostics, .. } =
        evaluate("'Mon Feb 10 10:53:31 2003 (CST) -06:00'", Dialect::Modern)
    else {
        panic!()
    };
    assert_eq!(diagnostics.len(), 1);
    assert!(diagnostics[0]
        .help
        .as_deref()
        .unwrap()
        .ends_with("(CST) -06:00\""));
    let Response::Value { diagnostics, .. } = evaluate("'my name' + 1", Dialect::Modern) else {
        panic!()
    };
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    // The seed notation reads the time: nothing to warn about.
    let Response::Value { diagnostics, .. } = evaluate("'3:00'", Dialect::Seed) else {
        panic!()
    };
    assert!(diagnostics.is_empty());
}

#[test]
fn pools_in_both_formats_warn_at_the_definition() {
    for (text, format) in [
        ("[ Start = '3:00'; x = 1 ]\n", InputFormat::New),
        ("Start = '3:00'\nx = 1\n", InputFormat::Old),
    ] {
        let pool = read_pool(text, format, Dialect::Modern);
        assert_eq!(pool.ads.len(), 1, "{text}");
        let warnings: Vec<_> = pool.diagnostics.iter().filter(|d| !d.is_error()).collect();
        assert_eq!(warnings.len(), 1, "{text}: {:?}", pool.diagnostics);
        let at = &text[warnings[0].span.start as usize..warnings[0].span.end as usize];
        assert_eq!(at, "'3:00'", "{text}");
    }
}

#[test]
fn the_cli_prints_the_value_and_warns_on_stderr() {
    let out = Command::new(env!("CARGO_BIN_EXE_classad"))
        .args(["eval", "'3:00' + 1"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "undefined\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("1:1: '3:00' is an attribute's name in HTCondor"),
        "{err}"
    );
    assert!(err.contains("help: for the text write \"3:00\""), "{err}");
}
