//! ClassAd indexing (thesis ch. 4): the thesis's examples, and on random
//! pools the query is a superset of the compatible offers that evaluation
//! narrows to exactly them.

use std::sync::Arc;

use classad::index::{Index, IndexOptions};
use classad::matchmaking::matching::symmetric_match;
use classad::{ClassAd, EvalOptions, Evaluator, Mode};
use proptest::prelude::*;

mod common;
use common::{ad, ads};

/// The live offers that match `request` both ways, by evaluation alone.
fn compatible(
    offers: &[Arc<ClassAd>],
    live: &[bool],
    request: &Arc<ClassAd>,
    opts: EvalOptions,
) -> Vec<usize> {
    let mut ev = Evaluator::new(opts);
    (0..offers.len())
        .filter(|&i| live[i] && symmetric_match(&mut ev, request, &offers[i]).matched())
        .collect()
}

#[test]
fn figure_16() {
    let offers = ads(&[
        "[ x=10; Constraint=other.y>=7 ]",
        "[ x=7; Constraint=other.y<=5 ]",
    ]);
    let requests = ads(&[
        "[ y=8; Constraint=other.x>=8 ]",
        "[ y=3; Constraint=other.x<=15 ]",
    ]);
    let index = Index::build(&offers);
    assert_eq!(index.query(&requests[0]), vec![0]);
    assert_eq!(index.query(&requests[1]), vec![1]);
    let s = index.stats();
    assert_eq!(
        (s.offers, s.rectangles, s.queries, s.candidates),
        (2, 2, 2, 2)
    );
    assert!(s.probes >= 4, "{s:?}");
}

#[test]
fn similarly_named_attributes_4_4_2() {
    let offers = ads(&["[ x = 7 ; Constraint = other.x > 1 ]"]);
    let index = Index::build(&offers);
    assert_eq!(
        index.query(&ad("[ x = 3 ; Constraint = other.x < 9 ]")),
        vec![0]
    );
    assert!(index
        .query(&ad("[ x = 0 ; Constraint = other.x < 9 ]"))
        .is_empty());
    assert!(index
        .query(&ad("[ x = 3 ; Constraint = other.x < 7 ]"))
        .is_empty());
}

#[test]
fn type_heterogeneity_4_4_4() {
    let offers = ads(&[
        "[ x = 73282; Constraint = other.y == \"foo\" ]",
        "[ x = \"asd\"; Constraint = other.y == \"bar\" ]",
    ]);
    let index = Index::build(&offers);
    assert_eq!(
        index.query(&ad("[ y = \"FOO\"; Constraint = other.x > 10 ]")),
        vec![0]
    );
    assert!(index
        .query(&ad("[ y = \"bar\"; Constraint = other.x > 10 ]"))
        .is_empty());
    assert_eq!(
        index.query(&ad("[ y = \"bar\"; Constraint = other.x == \"ASD\" ]")),
        vec![1]
    );
    // String ordering is not indexed: a superset, which evaluation narrows.
    let both = ads(&[
        "[ x = 73282; Constraint = true ]",
        "[ x = \"asd\"; Constraint = true ]",
    ]);
    let index = Index::build(&both);
    let r = ad("[ Constraint = other.x > \"a\" ]");
    assert_eq!(index.query(&r), vec![0, 1]);
    assert_eq!(
        index.matches(&r, &mut Evaluator::new(EvalOptions::default())),
        vec![1]
    );
}

#[test]
fn figures_19_and_20() {
    let object = "[ A = 3; B = 6; C = 7; D = 5; \
                    Constraint = other.Z<=5 && other.Y<=6 && other.X>=1 && other.W<=7 ]";
    let query = "[ Z = 0; Y = 9; W = 6; \
                   Constraint = other.A>=0 && other.B<=6 && other.C>=1 && other.D>=7 ]";
    let index = Index::build(&ads(&[object]));
    // As printed they do not match: Y = 9 > 6, X is absent, D = 5 < 7.
    assert!(index.query(&ad(query)).is_empty());
    // Fix each reason and they do.
    let fixed = "[ Z = 0; Y = 5; X = 2; W = 6; \
                   Constraint = other.A>=0 && other.B<=6 && other.C>=1 && other.D>=5 ]";
    assert_eq!(index.query(&ad(fixed)), vec![0]);
    // Only X absent (the workload's 5 % omission): excluded by Impabsent.
    let no_x = "[ Z = 0; Y = 5; W = 6; Constraint = other.A>=0 ]";
    assert!(index.query(&ad(no_x)).is_empty());
    // The query's constraint on an attribute the object lacks excludes it too.
    let on_e = "[ Z = 0; Y = 5; X = 2; W = 6; Constraint = other.E >= 0 ]";
    assert!(index.query(&ad(on_e)).is_empty());
    let undef_ok = "[ Z = 0; Y = 5; X = 2; W = 6; Constraint = other.E =?= undefined ]";
    assert_eq!(index.query(&ad(undef_ok)), vec![0]);
}

#[test]
fn removal_build_for_and_conflicts() {
    let offers = ads(&[
        "[ Memory = 64; Requirements = other.ImageSize < 50 ]",
        "[ Memory = 128; Requirements = other.ImageSize < 100 && other.ImageSize > 200 ]",
        "[ Memory = 256; Requirements = true ]",
        "[ Memory = 512 ]",
    ]);
    let job = ad("[ ImageSize = 40; Requirements = other.Memory >= 64 ]");
    let mut index = Index::build_for(&offers, std::slice::from_ref(&job), EvalOptions::default());
    assert_eq!(index.query(&job), vec![0, 2]);
    let c: Vec<_> = index
        .conflicts()
        .map(|(i, c)| (i, c.attribute.clone()))
        .collect();
    assert_eq!(c, vec![(1, "ImageSize".to_string())]);
    index.remove(0);
    index.remove(0);
    index.remove(99);
    assert_eq!(index.query(&job), vec![2]);
    assert!(!index.is_live(0) && index.is_live(2));
    let s = index.stats();
    assert_eq!(
        (s.live_offers, s.conflicts, s.imported_attributes),
        (3, 1, 1)
    );
}

#[test]
fn odd_input_does_not_panic() {
    // Deep nesting, huge DNF, type clashes, self-references, errors.
    let deep = format!(
        "[ Requirements = {}other.x > 1{} ]",
        "(".repeat(280),
        ")".repeat(280)
    );
    let chain: Vec<String> = (0..1900).map(|i| format!("other.a{i} == {i}")).collect();
    let wide: Vec<String> = (0..30)
        .map(|i| format!("(other.a == {i} || other.b != {i})"))
        .collect();
    let srcs = [
        deep,
        format!("[ Requirements = {} ]", chain.join(" && ")),
        format!("[ Requirements = {} ]", wide.join(" && ")),
        "[ Requirements = other.x == \"a\" && other.x > 3 && other.x =?= true ]".to_string(),
        "[ a = b; b = a; Requirements = a > other.a && other.x < real(\"NaN\") ]".to_string(),
        "[ x = error; y = {1, 2}; z = [q = 1]; Requirements = other.x == error || other.y[0] == 1 ]".to_string(),
        "[ Requirements = other.x < 9007199254740993 && other.x != 1e308 * 10 ]".to_string(),
        "[ Requirements = 5; x = 9007199254740993 ]".to_string(),
    ];
    let offers: Vec<Arc<ClassAd>> = srcs.iter().map(|s| ad(s)).collect();
    let mut index = Index::build(&offers);
    let mut ev = Evaluator::new(EvalOptions::default());
    for r in &offers {
        let q = index.query(r);
        let exact = compatible(&offers, &[true; 8], r, EvalOptions::default());
        assert!(exact.iter().all(|i| q.contains(i)), "{q:?} {exact:?}");
        assert_eq!(index.matches(r, &mut ev), exact);
    }
    assert!(index.stats().unindexable >= 2, "{:?}", index.stats());
    for i in 0..10 {
        index.remove(i);
    }
    assert!(index.query(&offers[0]).is_empty());
}

#[test]
fn a_large_pool() {
    let offers: Vec<Arc<ClassAd>> = (0..5000)
        .map(|i| {
            ad(&format!(
                "[ Key = {i}; Memory = {}; Arch = \"{}\"; Requirements = other.ImageSize < Memory - 15 ]",
                32 << (i % 5),
                ["INTEL", "SUN4u", "SGI"][i % 3]
            ))
        })
        .collect();
    let mut index = Index::build(&offers);
    let job =
        ad("[ ImageSize = 100; Requirements = other.Arch == \"intel\" && other.Memory >= 128 ]");
    let q = index.query(&job);
    let exact = compatible(
        &offers,
        &vec![true; offers.len()],
        &job,
        EvalOptions::default(),
    );
    assert_eq!(q, exact);
    assert_eq!(
        q.len(),
        (0..5000)
            .filter(|i| i % 3 == 0 && (32 << (i % 5)) >= 128)
            .count()
    );
    for &i in &q {
        index.remove(i);
    }
    assert!(index.query(&job).is_empty());
}

// ---- random pools ----

const NAMES: [&str; 4] = ["a", "b", "c", "s"];

fn literal() -> impl Strategy<Value = String> {
    prop_oneof![
        (0i64..6).prop_map(|i| i.to_string()),
        (0i64..6).prop_map(|i| format!("{i}.5")),
        prop::sample::select(vec![
            "\"x\"",
            "\"X\"",
            "\"y\"",
            "true",
            "false",
            "undefined"
        ])
        .prop_map(str::to_string),
    ]
}

fn attribute() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        2 => Just(None),
        6 => literal().prop_map(Some),
        1 => Just(Some("other.a + 0".to_string())),
        1 => Just(Some("2 + 1".to_string())),
        1 => Just(Some("MY.c".to_string())),
    ]
}

fn atom() -> impl Strategy<Value = String> {
    // Names are case-insensitive: `A` is `a`.
    let name = prop::sample::select(vec!["a", "b", "c", "s", "A", "S"]);
    let op = prop::sample::select(vec![
        "==", "!=", "<", "<=", ">", ">=", "=?=", "=!=", "is", "isnt",
    ]);
    let scope = prop::sample::select(vec!["other.", "TARGET.", "", "MY."]);
    prop_oneof![
        6 => (scope.clone(), name.clone(), op.clone(), literal()).prop_map(|(s, n, o, l)| format!("{s}{n} {o} {l}")),
        2 => (literal(), op, scope, name.clone()).prop_map(|(l, o, s, n)| format!("{l} {o} {s}{n}")),
        1 => name.clone().prop_map(|n| format!("isUndefined(other.{n})")),
        1 => name.prop_map(|n| format!("other.{n} + 1 > other.a")),
        1 => prop::sample::select(vec!["true", "false", "undefined", "1", "\"x\" < other.s", "other.q =?= undefined"])
            .prop_map(str::to_string),
    ]
}

fn constraint() -> impl Strategy<Value = String> {
    atom().prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}) && ({b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}) || ({b})")),
            inner.prop_map(|a| format!("!({a})")),
        ]
    })
}

fn random_ad() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(attribute(), 4),
        prop::option::weighted(0.9, constraint()),
        any::<bool>(),
    )
        .prop_map(|(attrs, c, seed_name)| {
            let mut parts: Vec<String> = NAMES
                .iter()
                .zip(attrs)
                .filter_map(|(n, v)| v.map(|v| format!("{n} = {v}")))
                .collect();
            if let Some(c) = c {
                parts.push(format!(
                    "{} = {c}",
                    if seed_name {
                        "Constraint"
                    } else {
                        "Requirements"
                    }
                ));
            }
            format!("[ {} ]", parts.join("; "))
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn query_is_a_superset_that_evaluation_narrows(
        offers in prop::collection::vec(random_ad(), 1..12),
        requests in prop::collection::vec(random_ad(), 1..5),
        removals in prop::collection::vec(0usize..12, 0..6),
        strict in any::<bool>(),
    ) {
        let opts = EvalOptions { mode: if strict { Mode::Strict } else { Mode::HTCondor }, ..EvalOptions::default() };
        let offers: Vec<Arc<ClassAd>> = offers.iter().map(|s| ad(s)).collect();
        let requests: Vec<Arc<ClassAd>> = requests.iter().map(|s| ad(s)).collect();
        let mut index = Index::with_options(&offers, &IndexOptions { eval: opts, imports: None, scoped_only: false });
        let mut live = vec![true; offers.len()];
        let mut ev = Evaluator::new(opts);
        for round in 0..=removals.len() {
            for r in &requests {
                let q = index.query(r);
                let exact = compatible(&offers, &live, r, opts);
                for i in &exact {
                    prop_assert!(q.contains(i), "offer {} {} matches {} but is not a candidate {:?}",
                        i, classad::lang::unparse::unparse_ad(&offers[*i]), classad::lang::unparse::unparse_ad(r), q);
                }
                prop_assert!(q.iter().all(|&i| live[i]), "a removed offer came back: {:?}", q);
                prop_assert_eq!(index.matches(r, &mut ev), exact);
            }
            if let Some(&i) = removals.get(round) {
                index.remove(i);
                if i < live.len() {
                    live[i] = false;
                }
            }
        }
        // The thesis's imported set (the requests' references) is a superset too.
        let index = Index::build_for(&offers, &requests, opts);
        for r in &requests {
            let q = index.query(r);
            let exact = compatible(&offers, &vec![true; offers.len()], r, opts);
            prop_assert!(exact.iter().all(|i| q.contains(i)));
        }
    }
}

// ---- ads in the thesis's indexing data model: the index is exact ----

/// Numeric `a`, `b`, `c` and string `s`, each literal or absent; properties
/// on the other ad compare them with literals of their own type, so no
/// comparison is an error and every profile is a rectangle.
fn iidm_ad() -> impl Strategy<Value = String> {
    let value = |string: bool| {
        if string {
            prop::sample::select(vec!["\"x\"", "\"X\"", "\"y\"", "\"z\""])
                .prop_map(str::to_string)
                .boxed()
        } else {
            prop_oneof![
                (0i64..6).prop_map(|i| i.to_string()),
                (0i64..6).prop_map(|i| format!("{i}.5"))
            ]
            .boxed()
        }
    };
    let attrs: Vec<_> = NAMES
        .iter()
        .map(|n| prop::option::weighted(0.8, value(*n == "s")))
        .collect();
    let property = (
        0usize..4,
        prop::sample::select(vec!["==", "!=", "<", "<=", ">", ">="]),
        any::<bool>(),
        0usize..3,
    )
        .prop_flat_map(move |(n, op, flip, scope)| {
            let name = NAMES[n];
            let op = if name == "s" && !matches!(op, "==" | "!=") {
                "=="
            } else {
                op
            };
            let scope = ["other.", "TARGET.", ""][scope];
            value(name == "s").prop_map(move |lit| {
                if flip {
                    format!("{lit} {op} {scope}{name}")
                } else {
                    format!("{scope}{name} {op} {lit}")
                }
            })
        });
    let constraint = property.prop_recursive(3, 10, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}) && ({b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}) || ({b})")),
            inner.prop_map(|a| format!("!({a})")),
        ]
    });
    (attrs, constraint).prop_map(|(attrs, c)| {
        let mut parts: Vec<String> = NAMES
            .iter()
            .zip(attrs)
            .filter_map(|(n, v)| v.map(|v| format!("{n} = {v}")))
            .collect();
        parts.push(format!("Requirements = {c}"));
        format!("[ {} ]", parts.join("; "))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn in_the_data_model_the_query_is_exact(
        offers in prop::collection::vec(iidm_ad(), 1..16),
        requests in prop::collection::vec(iidm_ad(), 1..5),
    ) {
        let offers: Vec<Arc<ClassAd>> = offers.iter().map(|s| ad(s)).collect();
        let index = Index::build(&offers);
        for r in requests.iter().map(|s| ad(s)) {
            let exact = compatible(&offers, &vec![true; offers.len()], &r, EvalOptions::default());
            prop_assert_eq!(index.query(&r), exact, "{}", classad::lang::unparse::unparse_ad(&r));
        }
        prop_assert_eq!(index.stats().unindexable, 0);
    }
}

/// §4.6.1's workload (Figures 19-20): `n` offers with attributes A-D
/// constraining the query's W-Z, as many queries the other way round,
/// domain size `domain`, 5 % of attributes and constraints omitted.
fn thesis_workload(n: usize, domain: u64, seed: u64) -> (Vec<Arc<ClassAd>>, Vec<Arc<ClassAd>>) {
    let mut x = seed | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut make = |own: [&str; 4], other: [&str; 4]| {
        let mut parts = vec![];
        for a in own {
            if next() % 20 != 0 {
                parts.push(format!("{a} = {}", next() % domain));
            }
        }
        let mut cs = vec![];
        for a in other {
            if next() % 20 != 0 {
                let op = if next() % 2 == 0 { "<=" } else { ">=" };
                cs.push(format!("other.{a} {op} {}", next() % domain));
            }
        }
        cs.push("true".into());
        parts.push(format!("Constraint = {}", cs.join(" && ")));
        ad(&format!("[ {} ]", parts.join("; ")))
    };
    let offers = (0..n)
        .map(|_| make(["A", "B", "C", "D"], ["W", "X", "Y", "Z"]))
        .collect();
    let queries = (0..n)
        .map(|_| make(["W", "X", "Y", "Z"], ["A", "B", "C", "D"]))
        .collect();
    (offers, queries)
}

#[test]
fn thesis_workload_agrees_with_evaluation() {
    let (offers, queries) = thesis_workload(300, 10, 7);
    let index = Index::build(&offers);
    let mut found = 0;
    for q in &queries {
        let exact = compatible(
            &offers,
            &vec![true; offers.len()],
            q,
            EvalOptions::default(),
        );
        found += exact.len();
        assert_eq!(index.query(q), exact);
    }
    assert!(found > 0);
}

/// `cargo test --release -p classad --test index -- --ignored --nocapture`
#[test]
#[ignore]
fn thesis_workload_timing() {
    for (n, domain) in [(4000, 10), (16000, 10), (16000, 16000)] {
        let (offers, queries) = thesis_workload(n, domain, 11);
        let t = std::time::Instant::now();
        let index = Index::build(&offers);
        let build = t.elapsed();
        let t = std::time::Instant::now();
        let found: usize = queries.iter().map(|q| index.query(q).len()).sum();
        let query = t.elapsed();
        let t = std::time::Instant::now();
        let mut ev = Evaluator::new(EvalOptions::default());
        let naive: usize = queries
            .iter()
            .take(200)
            .map(|q| {
                offers
                    .iter()
                    .filter(|o| symmetric_match(&mut ev, q, o).matched())
                    .count()
            })
            .sum();
        let naive_t = t.elapsed() * (n as u32) / 200;
        eprintln!(
            "n={n} domain={domain}: build {build:?}, {n} queries {query:?} ({found} candidates), \
             naive evaluation ≈ {naive_t:?} (first 200 queries: {naive} matches); {:?}",
            index.stats()
        );
    }
}
