//! The compiled form of ads (`classad::matchmaking::compiled`) must answer exactly as
//! the evaluator does: on the generated match pools, and on random ads
//! built to poke at every corner (own and other attributes, scope words,
//! circular references, functions pure and not, both modes).

use std::sync::Arc;

use classad::matchmaking::compiled::{compile_pool, Columns, CompiledAd, CompiledExpr};
use classad::matchmaking::matching::DEFAULT_REQUIREMENTS;
use classad::{
    parse_classad, parse_expr, ClassAd, Clock, EvalOptions, Evaluator, Mode, Name, Value,
};
use proptest::prelude::*;

/// The clock is pinned: `CurrentTime` read by the compiled ad and by the
/// evaluator a moment later must be the same second.
fn opts(mode: Mode) -> EvalOptions {
    EvalOptions {
        mode,
        clock: Clock::fixed(1_700_000_000.0, 0),
        ..Default::default()
    }
}

/// Values compare by kind and canonical text (NaN equals NaN).
fn same(a: &Value, b: &Value) -> bool {
    a.kind() == b.kind() && a.to_string() == b.to_string()
}

/// Every attribute of `my` (and a few names it lacks) evaluated against
/// `target` both ways; the disagreements, described.
fn disagreements(my: &Arc<ClassAd>, target: &Arc<ClassAd>, mode: Mode) -> Vec<String> {
    let o = opts(mode);
    let cm = CompiledAd::new(my.clone(), o, DEFAULT_REQUIREMENTS);
    let ct = CompiledAd::new(target.clone(), o, DEFAULT_REQUIREMENTS);
    compiled_disagreements(&cm, &ct, mode)
}

/// [`disagreements`] of ads compiled some way (`cm.ad` against `ct.ad`).
fn compiled_disagreements(cm: &CompiledAd, ct: &CompiledAd, mode: Mode) -> Vec<String> {
    let (my, target) = (&cm.ad, &ct.ad);
    let mut ev = Evaluator::new(opts(mode));
    let mut names: Vec<String> = my.iter().map(|(n, _)| n.to_string()).collect();
    names.extend(["Requirements", "Rank", "zz"].map(String::from));
    let mut out = Vec::new();
    for n in names {
        let fast = cm.eval_attr(&Name::new(&n), ct, &mut ev);
        ev.set_ads(Some(my.clone()), Some(target.clone()));
        let slow = ev.eval_attr(&n);
        if !same(&fast, &slow) {
            out.push(format!("{mode:?} {n}: compiled {fast}, evaluator {slow}"));
        }
    }
    let fast = cm.requirements_value(ct, &mut ev);
    let slow = classad::matchmaking::matching::requirements_value(
        &mut ev,
        my,
        target,
        DEFAULT_REQUIREMENTS,
    );
    if !same(&fast, &slow) {
        out.push(format!(
            "{mode:?} requirements: compiled {fast}, evaluator {slow}"
        ));
    }
    out
}

#[derive(serde::Deserialize)]
struct Pairs {
    jobs: Vec<String>,
    machines: Vec<String>,
}

/// The generated pools of `matching/pairs.json` (jobs, machines).
fn generated_pools() -> (Vec<Arc<ClassAd>>, Vec<Arc<ClassAd>>) {
    let p: Pairs = serde_json::from_str(include_str!("matching/pairs.json")).unwrap();
    let ads = |v: &[String]| -> Vec<Arc<ClassAd>> {
        v.iter()
            .map(|t| Arc::new(parse_classad(t).unwrap()))
            .collect()
    };
    (ads(&p.jobs), ads(&p.machines))
}

#[test]
fn generated_pools_agree_with_the_evaluator() {
    let (jobs, machines) = generated_pools();
    let mut wrong = Vec::new();
    for mode in [Mode::HTCondor, Mode::Strict] {
        for j in &jobs {
            for m in &machines {
                wrong.extend(disagreements(j, m, mode));
                wrong.extend(disagreements(m, j, mode));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{}",
        wrong[..wrong.len().min(20)].join("\n")
    );
}

#[test]
fn pools_compiled_by_shape_agree_with_the_evaluator() {
    let (jobs, machines) = generated_pools();
    let mut wrong = Vec::new();
    for mode in [Mode::HTCondor, Mode::Strict] {
        let cj = compile_pool(&jobs, opts(mode), DEFAULT_REQUIREMENTS);
        let cm = compile_pool(&machines, opts(mode), DEFAULT_REQUIREMENTS);
        for j in &cj {
            for m in &cm {
                wrong.extend(compiled_disagreements(j, m, mode));
                wrong.extend(compiled_disagreements(m, j, mode));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{}",
        wrong[..wrong.len().min(20)].join("\n")
    );
}

/// Where the column prefilter decides a job's requirements on a machine,
/// it decides as evaluation does; the disagreements, described.
fn prefilter_disagreements(
    jobs: &[Arc<ClassAd>],
    machines: &[Arc<ClassAd>],
    mode: Mode,
) -> Vec<String> {
    let o = opts(mode);
    let compile = |ads: &[Arc<ClassAd>]| -> Vec<CompiledAd> {
        ads.iter()
            .map(|a| CompiledAd::new(a.clone(), o, DEFAULT_REQUIREMENTS))
            .collect()
    };
    let (cj, cm) = (compile(jobs), compile(machines));
    let mut columns = Columns::new(&cm);
    let mut ev = Evaluator::new(o);
    let mut out = Vec::new();
    for (j, job) in cj.iter().enumerate() {
        let p = columns.prefilter(job);
        for (m, machine) in cm.iter().enumerate() {
            if let Some(said) = columns.decide(&p, m) {
                let real = job.accepts(machine, &mut ev);
                if said != real {
                    out.push(format!(
                        "{mode:?} job {j} machine {m}: prefilter {said}, evaluation {real}"
                    ));
                }
            }
        }
    }
    out
}

#[test]
fn prefilter_agrees_with_evaluation() {
    let (jobs, machines) = generated_pools();
    let pool = |text: String| -> Vec<Arc<ClassAd>> {
        classad::formats::read_pool(
            &text,
            classad::formats::InputFormat::Old,
            classad::Dialect::Auto,
        )
        .ads
        .into_iter()
        .map(|a| Arc::new(a.ad))
        .collect()
    };
    let (wj, wm) = (
        pool(classad::matchmaking::workload::jobs(300, 2)),
        pool(classad::matchmaking::workload::machines(300, 1)),
    );
    // Every comparison, either way round, on every kind of cell.
    let mut pj = Vec::new();
    for op in ["==", "!=", "<", "<=", ">", ">="] {
        for k in ["3", "\"abc\"", "2.5"] {
            for req in [
                format!("TARGET.x {op} {k}"),
                format!("{k} {op} TARGET.x"),
                format!("TARGET.x {op} {k} && TARGET.y == \"ABC\""),
                format!("TARGET.y != \"abc\" && x {op} {k}"),
            ] {
                pj.push(Arc::new(
                    parse_classad(&format!("[ Requirements = {req} ]")).unwrap(),
                ));
            }
        }
    }
    let mut pm = Vec::new();
    for x in [
        "2",
        "3",
        "4",
        "-3",
        "\"abc\"",
        "\"ABC\"",
        "\"abd\"",
        "2.5",
        "true",
        "1 + 2",
        "undefined",
    ] {
        for y in ["y = \"abc\";", "y = \"ABC\";", "y = \"x\";", ""] {
            pm.push(Arc::new(
                parse_classad(&format!("[ x = {x}; {y} ]")).unwrap(),
            ));
        }
        pm.push(Arc::new(parse_classad("[ y = \"abc\" ]").unwrap()));
    }
    let mut wrong = Vec::new();
    for mode in [Mode::HTCondor, Mode::Strict] {
        wrong.extend(prefilter_disagreements(&pj, &pm, mode));
        wrong.extend(prefilter_disagreements(&jobs, &machines, mode));
        wrong.extend(prefilter_disagreements(&machines, &jobs, mode));
        wrong.extend(prefilter_disagreements(&wj, &wm, mode));
    }
    assert!(
        wrong.is_empty(),
        "{}",
        wrong[..wrong.len().min(20)].join("\n")
    );
}

#[test]
fn docking_vector_components_agree() {
    let job = Arc::new(
        parse_classad(
            "[ Rank = TARGET.KFlops / 1000; UserPrio = 5; ImageSize = 100; Requirements = true ]",
        )
        .unwrap(),
    );
    let machines = [
        "[ KFlops = 2000; Requirements = true ]",
        "[ KFlops = 2000; RemoteUser = \"a\"; CurrentRank = 1; Rank = 2 ]",
        "[ KFlops = 3000; RemoteUser = \"a\"; CurrentRank = 2; Rank = 2; RemoteUserPrio = 50; ServiceTime = 20000 ]",
        "[ RemoteUser = \"a\"; CurrentRank = 2; Rank = 2; RemoteUserPrio = 1 ]",
    ];
    let o = EvalOptions::default();
    let cj = CompiledAd::new(job.clone(), o, DEFAULT_REQUIREMENTS);
    let mut ev = Evaluator::new(o);
    for src in classad::matchmaking::negotiate::CONDOR_DOCKING_VECTOR {
        let e = parse_expr(src).unwrap();
        let c = CompiledExpr::new(&e, &cj, o);
        for m in machines {
            let m = Arc::new(parse_classad(m).unwrap());
            let cm = CompiledAd::new(m.clone(), o, DEFAULT_REQUIREMENTS);
            let fast = c.eval(&cj, &cm, &mut ev);
            ev.set_ads(Some(job.clone()), Some(m.clone()));
            let slow = ev.eval_expr(&e);
            assert!(
                same(&fast, &slow),
                "{src}: compiled {fast}, evaluator {slow}"
            );
        }
    }
}

#[test]
fn own_constants_fold() {
    let ad = Arc::new(
        parse_classad("[ Memory = 128; Start = TARGET.RequestMemory < Memory - 15 && 2 > 1 ]")
            .unwrap(),
    );
    let o = EvalOptions::default();
    let c = CompiledAd::new(ad, o, &["Start"]);
    let job = |m: i64| {
        let mut a = ClassAd::new();
        a.insert_value("RequestMemory", Value::Int(m));
        CompiledAd::new(Arc::new(a), o, DEFAULT_REQUIREMENTS)
    };
    let mut ev = Evaluator::new(o);
    assert!(c.accepts(&job(100), &mut ev));
    assert!(!c.accepts(&job(113), &mut ev));
    assert!(!c.accepts(&CompiledAd::new(Arc::new(ClassAd::new()), o, &[]), &mut ev));
}

#[test]
fn typical_requirements_compile_whole() {
    let o = EvalOptions::default();
    for src in [
        "[ Start = KeyboardIdle > 15 * 60 && LoadAvg < 0.3 && TARGET.Owner != \"riffraff\"; \
           KeyboardIdle = 1000; LoadAvg = 0.1; Memory = 100; \
           Requirements = START && TARGET.RequestMemory < Memory - 15 ]",
        "[ Start = KeyboardIdle > 15 * 60 && LoadAvg < 0.3; KeyboardIdle = 10; LoadAvg = 0.1; \
           Requirements = START ]",
        "[ ImageSize = 5; Requirements = TARGET.Arch == \"INTEL\" && TARGET.OpSys == \"LINUX\" \
           && TARGET.VirtualMemory > ImageSize && (TARGET.HasFileTransfer || false) ]",
        "[ Requirements = isUndefined(TARGET.x) || stringListMember(TARGET.Name, \"a,b\") \
           ? TARGET.Memory ?: 0 : -1 ]",
        "[ Requirements = true && true ]",
        "[ Requirements = false || false || TARGET.x ]",
    ] {
        let ad = Arc::new(parse_classad(src).unwrap());
        let c = CompiledAd::new(ad, o, DEFAULT_REQUIREMENTS);
        assert!(c.requirements_compiled(), "{src} left to the evaluator");
    }
}

// ---- random ads ----

const NAMES: &[&str] = &["a", "b", "c", "Requirements", "Rank", "target", "my", "x"];

fn leaf() -> impl Strategy<Value = String> {
    prop_oneof![
        (-3i64..40).prop_map(|i| i.to_string()),
        Just("2.5".to_string()),
        Just("0.0".to_string()),
        Just("\"abc\"".to_string()),
        Just("\"ABC\"".to_string()),
        Just("\"a,b,x\"".to_string()),
        Just("true".to_string()),
        Just("false".to_string()),
        Just("undefined".to_string()),
        Just("error".to_string()),
        Just("relTime(\"1:00\")".to_string()),
        prop::sample::select(NAMES).prop_map(|n| n.to_string()),
        prop::sample::select(NAMES).prop_map(|n| format!("MY.{n}")),
        prop::sample::select(NAMES).prop_map(|n| format!("TARGET.{n}")),
        prop::sample::select(NAMES).prop_map(|n| format!("other.{n}")),
        prop::sample::select(NAMES).prop_map(|n| format!(".{n}")),
        Just("parent".to_string()),
        Just("CurrentTime".to_string()),
        Just("time()".to_string()),
        Just("{1, a}".to_string()),
        Just("[p = 1; q = a].q".to_string()),
        Just("nosuchfn(1)".to_string()),
    ]
}

fn expr() -> impl Strategy<Value = String> {
    leaf().prop_recursive(4, 24, 3, |inner| {
        let ops = prop::sample::select(vec![
            "+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "=?=", "=!=", "is", "isnt",
            "&&", "||", "&", "|", "^", "<<", ">>",
        ]);
        prop_oneof![
            (inner.clone(), ops, inner.clone()).prop_map(|(a, o, b)| format!("({a} {o} {b})")),
            inner.clone().prop_map(|a| format!("(!{a})")),
            inner.clone().prop_map(|a| format!("(-{a})")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| format!("({c} ? {a} : {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} ?: {b})")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| format!("ifThenElse({c}, {a}, {b})")),
            inner.clone().prop_map(|a| format!("isUndefined({a})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("strcat({a}, {b})")),
            inner
                .clone()
                .prop_map(|a| format!("stringListMember({a}, \"a,b,x\")")),
            inner.clone().prop_map(|a| format!("int({a})")),
            inner.clone().prop_map(|a| format!("size({a})")),
            inner
                .clone()
                .prop_map(|a| format!("member({a}, {{1, 2, \"abc\"}})")),
            (inner.clone(), inner).prop_map(|(a, b)| format!("{a}[{b}]")),
        ]
    })
}

fn ad() -> impl Strategy<Value = String> {
    prop::collection::vec((prop::sample::select(NAMES), expr()), 0..6).prop_map(|attrs| {
        let body: Vec<String> = attrs.iter().map(|(n, e)| format!("{n} = {e}")).collect();
        format!("[ {} ]", body.join("; "))
    })
}

/// Two ads of one shape: the same attributes and expressions, but each
/// attribute drawn as a literal has a literal of its own in either ad.
fn same_shape_ads() -> impl Strategy<Value = (String, String)> {
    let literal = || {
        prop_oneof![
            (-3i64..40).prop_map(|i| i.to_string()),
            Just("2.5".to_string()),
            Just("\"abc\"".to_string()),
            Just("true".to_string()),
            Just("undefined".to_string()),
            Just("relTime(\"1:00\")".to_string()),
        ]
    };
    let attr = (
        prop::sample::select(NAMES),
        prop_oneof![expr().prop_map(|e| (e.clone(), e)), (literal(), literal())],
    );
    prop::collection::vec(attr, 0..6).prop_map(|attrs| {
        let ad = |pick: fn(&(String, String)) -> &String| {
            let body: Vec<String> = attrs
                .iter()
                .map(|(n, e)| format!("{n} = {}", pick(e)))
                .collect();
            format!("[ {} ]", body.join("; "))
        };
        (ad(|e| &e.0), ad(|e| &e.1))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn ads_sharing_a_template_agree_with_the_evaluator((a, a2) in same_shape_ads(), b in ad()) {
        let (Ok(a), Ok(a2), Ok(b)) = (parse_classad(&a), parse_classad(&a2), parse_classad(&b)) else {
            return Ok(());
        };
        let ads = [Arc::new(a), Arc::new(a2), Arc::new(b)];
        for mode in [Mode::HTCondor, Mode::Strict] {
            let c = compile_pool(&ads, opts(mode), DEFAULT_REQUIREMENTS);
            let mut wrong = vec![];
            for (x, y) in [(0, 2), (1, 2), (2, 0), (2, 1), (1, 0)] {
                wrong.extend(compiled_disagreements(&c[x], &c[y], mode));
            }
            prop_assert!(wrong.is_empty(), "{}", wrong.join("\n"));
        }
    }

    #[test]
    fn random_ads_agree_with_the_evaluator(a in ad(), b in ad()) {
        let (Ok(a), Ok(b)) = (parse_classad(&a), parse_classad(&b)) else {
            return Ok(());
        };
        let (a, b) = (Arc::new(a), Arc::new(b));
        for mode in [Mode::HTCondor, Mode::Strict] {
            let mut wrong = disagreements(&a, &b, mode);
            wrong.extend(prefilter_disagreements(std::slice::from_ref(&a), std::slice::from_ref(&b), mode));
            prop_assert!(wrong.is_empty(), "{}", wrong.join("\n"));
        }
    }
}
