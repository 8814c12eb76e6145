//! Specialization, references and the evaluation trace.

use std::sync::Arc;

use classad::lang::eval::Env;
use classad::lang::refs::{ad_refs, expr_refs};
use classad::lang::specialize::{specialize, SpecContext};
use classad::{parse_classad, parse_expr, unparse, EvalOptions, Evaluator, Mode};

fn spec(expr: &str, my: &str, target: Option<&str>) -> String {
    let ctx = SpecContext {
        my: Arc::new(parse_classad(my).unwrap()),
        target: target.map(|t| Arc::new(parse_classad(t).unwrap())),
        opts: EvalOptions::default(),
    };
    unparse(&specialize(&parse_expr(expr).unwrap(), &ctx))
}

#[test]
fn specialization_folds_what_is_known() {
    // Thesis §2.6.1: the job's own attributes are known, the machine's not.
    let job = r#"[ ImageSize = 28000; Owner = "raman"; MinMem = ImageSize / 1000 ]"#;
    assert_eq!(
        spec(
            "other.Memory >= MinMem && other.Arch == \"INTEL\"",
            job,
            None
        ),
        "other.Memory >= 28 && other.Arch == \"INTEL\""
    );
    // Decided by the known part alone.
    assert_eq!(spec("Owner == \"raman\" || other.X", job, None), "true");
    assert_eq!(spec("Owner == \"x\" && other.X", job, None), "false");
    assert_eq!(
        spec("ImageSize > 1 ? other.A : other.B", job, None),
        "other.A"
    );
    // Internal references that stay open are inlined in parentheses.
    assert_eq!(
        spec("Need", "[ Need = other.Memory * 2 ]", None),
        "(other.Memory * 2)"
    );
    // With a target, its values are substituted.
    assert_eq!(
        spec(
            "other.Memory >= 100 && Free",
            "[ Free = true ]",
            Some("[ Memory = 512 ]")
        ),
        "true"
    );
    // Cycles do not hang.
    assert_eq!(
        spec("a", "[ a = b + other.x; b = a ]", None),
        "(a + other.x)"
    );
}

#[test]
fn specialization_is_sound_on_samples() {
    let my = r#"[ a = 3; b = "s"; c = a * 2; l = { 1, 2 } ]"#;
    let target = r#"[ x = 5; y = "S"; z = undefined ]"#;
    for e in [
        "a + x > c",
        "b == y && member(1, l)",
        "ifThenElse(a > 1, x, y)",
        "z =?= undefined || other.x < 2",
        "strcat(b, y) == \"sS\"",
        "c ?: x",
    ] {
        let full = {
            let mut ev = Evaluator::new(EvalOptions::default());
            ev.set_ads(
                Some(Arc::new(parse_classad(my).unwrap())),
                Some(Arc::new(parse_classad(target).unwrap())),
            );
            ev.eval_expr(&parse_expr(e).unwrap()).to_string()
        };
        let partial = spec(e, my, None);
        let mut ev = Evaluator::new(EvalOptions::default());
        ev.set_ads(
            Some(Arc::new(parse_classad(my).unwrap())),
            Some(Arc::new(parse_classad(target).unwrap())),
        );
        let after = ev.eval_expr(&parse_expr(&partial).unwrap()).to_string();
        assert_eq!(full, after, "{e} specialized to {partial}");
    }
}

#[test]
fn references_internal_and_external() {
    let ad = parse_classad(
        r#"[ Requirements = TARGET.Memory >= Need && Arch == "X86_64" && MY.Owner != "x";
             Need = ImageSize * 2; ImageSize = 100; Owner = "me" ]"#,
    )
    .unwrap();
    let r = ad_refs(&ad);
    assert!(r.external.contains("TARGET.Memory"), "{r:?}");
    assert!(r.external.contains("Arch"), "{r:?}");
    assert!(r.internal.contains("Need") && r.internal.contains("ImageSize"));
    assert!(r.internal.contains("Owner"));
    let only = expr_refs(&parse_expr("Need > other.Disk").unwrap(), &ad);
    assert_eq!(
        only.external.iter().collect::<Vec<_>>(),
        vec!["TARGET.Disk"]
    );
    assert!(only.internal.contains("ImageSize"), "followed through Need");
}

#[test]
fn trace_covers_every_subexpression() {
    let ad = Arc::new(parse_classad("[ a = 1; b = a + undefinedThing ]").unwrap());
    let mut ev = Evaluator::new(EvalOptions {
        mode: Mode::HTCondor,
        ..Default::default()
    });
    ev.set_ads(Some(ad), None);
    let src = "b > 0 || a == 1";
    let e = parse_expr(src).unwrap();
    let (v, tree) = ev.eval_traced(&e, &Env::Root(classad::lang::eval::Side::My));
    assert_eq!(v.to_string(), "true");
    let root = tree.expect("a trace");
    assert_eq!(root.label, "operator ||");
    assert_eq!(&src[root.span.start as usize..root.span.end as usize], src);
    // b > 0 is undefined because b's definition refers to a missing name.
    let left = &root.children[0];
    assert_eq!(left.value, "undefined");
    let b_ref = &left.children[0];
    assert_eq!(b_ref.text, "b");
    let def = &b_ref.children[0];
    assert_eq!(def.attribute.as_deref(), Some("b"));
    let plus = &def.children[0];
    assert_eq!(plus.children[1].text, "undefinedThing");
    assert_eq!(plus.children[1].value, "undefined");
    // The right side is evaluated too (|| needs it when the left is undefined).
    assert_eq!(root.children[1].value, "true");
}

#[test]
fn json_api_round_trip() {
    let r = classad::api::handle_json(
        r#"{"op":"evaluate","expr":"x + parent.y","my":"[y = 1; inner = [x = 2]]","scope":["inner"]}"#,
    );
    assert!(r.contains(r#""value":"3""#), "{r}");
    let r = classad::api::handle_json(r#"{"op":"evaluate","expr":"1 +"}"#);
    assert!(
        r.contains(r#""kind":"failed""#) && r.contains(r#""which":"expr""#),
        "{r}"
    );
    assert!(
        r.contains(r#""line":1"#) && r.contains(r#""column":4"#),
        "{r}"
    );
    let r =
        classad::api::handle_json(r#"{"op":"parse_pool","text":"A = 1\nB = \n\nName = \"x\"\n"}"#);
    assert!(r.contains(r#""label":"x""#), "{r}");
    assert!(r.contains(r#""line":2"#), "{r}");
    let r = classad::api::handle_json("not json");
    assert!(r.contains("bad request"), "{r}");
}

#[test]
fn parse_pool_reports_each_ads_line() {
    let text = "A = 1\n\nB = 2\nC = 3\n\n\nD = 4\n";
    let r = classad::api::handle(classad::api::Request::ParsePool {
        text: text.into(),
        format: Default::default(),
        dialect: Default::default(),
    });
    let classad::api::Response::Pool { ads, .. } = r else {
        panic!("not a pool response");
    };
    let lines: Vec<u32> = ads.iter().map(|a| a.line).collect();
    assert_eq!(lines, vec![1, 3, 7]);
}

/// A run of `&&` (or of `||`) is one node whose children are its clauses —
/// how people read a hand-written machine list — however long it is; other
/// operators, and parenthesized runs, keep their shape.
#[test]
fn trace_gives_a_clause_run_as_one_node() {
    let traced = |src: &str| {
        let e = parse_expr(src).unwrap();
        let mut ev = Evaluator::new(EvalOptions::default());
        ev.eval_traced(&e, &Env::Root(classad::lang::eval::Side::My))
            .1
            .unwrap()
    };
    let labels = |n: &classad::lang::eval::TraceNode| {
        n.children
            .iter()
            .map(|c| c.label.clone())
            .collect::<Vec<_>>()
    };

    let list = (0..80)
        .map(|i| format!("x == {i}"))
        .collect::<Vec<_>>()
        .join(" || ");
    let root = traced(&list);
    assert_eq!(root.label, "operator ||");
    // x is undefined, so every clause is evaluated.
    assert_eq!(root.children.len(), 80);
    assert!(labels(&root).iter().all(|l| l == "operator =="));

    // Short-circuit: the clauses after the deciding one are not evaluated.
    let root = traced("true && false && 1 && 2");
    assert_eq!(labels(&root), ["literal", "literal"]);
    assert_eq!(root.value, "false");

    // Mixed operators: `a && b || c` is `(a && b) || c`.
    let root = traced("true && false || false || 3 > 2");
    assert_eq!(labels(&root), ["operator &&", "literal", "operator >"]);
    // Brackets keep a run apart; arithmetic keeps its pairs.
    let root = traced("(true && true) && true");
    assert_eq!(labels(&root), ["parentheses", "literal"]);
    let root = traced("1 + 2 + 3");
    assert_eq!(labels(&root), ["operator +", "literal"]);
    assert_eq!(root.value, "6");

    // The longest chain the parser takes is still a shallow trace.
    let long = (0..1_999)
        .map(|i| format!("x{i}"))
        .collect::<Vec<_>>()
        .join(" && ");
    let root = traced(&long);
    assert_eq!(root.children.len(), 1_999);
}
