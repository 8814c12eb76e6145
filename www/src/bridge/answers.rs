//! What the worker adds beside the engine's answers.
//!
//! The page reads every answer as the engine writes it: the API's
//! `classad::api::Response`, and each `PoolResponse` as the engine type of
//! its variant (`CycleView`, `ClusterView`, `GangView`, `PoolLoaded`,
//! `Tile`, `MutualCounts`, `PairView`, `JobCount`, …), with `Unanswered`
//! for the two that are none (the whole tagged `PoolResponse` reader would
//! copy each answer into a generic tree first, and cost the page's wasm
//! tens of KB). What is left here is the worker's own: the names of MY's
//! and TARGET's attributes it sends beside an evaluation.

use classad::api::Response;
use serde::{Deserialize, Serialize};

/// What the page knows of an ad it evaluates against: its attribute names
/// (lower case) and the paths of its nested records (`Gpu`, `Gpu.Mig`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AdNames {
    pub attrs: Vec<String>,
    pub records: Vec<String>,
}

/// The worker's answer to `evaluate-text`: the engine's response, and the names
/// of MY and TARGET.
#[derive(Debug, Deserialize)]
pub struct Evaluated {
    pub names: (AdNames, AdNames),
    pub response: Response,
}

#[cfg(test)]
mod tests {
    use super::*;
    use classad::api::session::{
        handle_pool_json, ClusterView, CycleView, GangStep, GangView, MutualCounts, PairView,
        PoolLoaded, Session, Tile, Unanswered, UnansweredKind,
    };

    /// What the worker answers to a session request.
    fn ask(s: &mut Session, json: &str) -> String {
        handle_pool_json(s, json, &mut |_, _| true)
    }

    /// An `Evaluate` request with its trace (the JSON the page sends before
    /// the expression, with the expression in it).
    fn traced_request(expr: &str, my: Option<&str>, target: Option<&str>) -> String {
        serde_json::to_string(&classad::api::Request::Evaluate {
            expr: expr.into(),
            my: my.map(Into::into),
            target: target.map(Into::into),
            scope: vec![],
            dialect: Default::default(),
            trace: true,
            context: Default::default(),
        })
        .unwrap()
    }

    /// What the engine accepts crosses to the page: traces at the limits
    /// (serde_json's reader refuses more than 128 levels of nesting).
    #[test]
    fn traces_at_the_limits_cross_the_worker_boundary() {
        let ask = |expr: String, my: String| {
            let req = traced_request(&expr, Some(&my), None);
            let e: Evaluated =
                serde_json::from_str(&crate::worker::replies::evaluate_json(&req)).unwrap();
            let Response::Value { value, trace, .. } = e.response else {
                panic!("{:?}", e.response)
            };
            (value, trace.expect("a trace"))
        };
        let depth = |mut n: &classad::api::TraceNode| {
            let mut d = 1;
            while let Some(c) = n.children.iter().find(|c| !c.children.is_empty()) {
                n = c;
                d += 1;
            }
            d
        };
        let chain = (0..299)
            .map(|i| format!("a{i} = a{} + 1", i + 1))
            .collect::<Vec<_>>()
            .join("; ");
        let (v, t) = ask("a0".into(), format!("[{chain}; a299 = 0]"));
        assert_eq!(v, "299");
        assert!(depth(&t) > 890, "{}", depth(&t));
        let (v, t) = ask(
            format!("{}1{}", "(".repeat(300), ")".repeat(300)),
            "[]".into(),
        );
        assert_eq!((v.as_str(), depth(&t)), ("1", 300));
        let sum = (0..1990)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(" + ");
        let (v, t) = ask(sum, "[]".into());
        assert_eq!((v.as_str(), depth(&t)), ("1979055", 1989));
        let list = (0..80)
            .map(|i| format!("TARGET.Machine == \"n{i}\""))
            .collect::<Vec<_>>()
            .join(" || ");
        let (_, t) = ask(list, "[]".into());
        assert_eq!(t.children.len(), 80);
    }

    /// `evaluate-text` (the expression after the request, as it is: how the
    /// page sends it) answers as `evaluate` with the expression in the JSON,
    /// for expressions with lines, quotes and errors, and a bad request.
    #[test]
    fn evaluate_text_answers_as_evaluate() {
        use crate::worker::replies::{evaluate_json, evaluate_text};
        let my = Some("[ A = 1; R = [ S = 2 ] ]");
        for expr in [
            "A + 1",
            "strcat(\"a\nb\", \"\\\"\")\n  + 1",
            "A ||\n// a comment\nR.S > 1",
            "1 +",
            "",
        ] {
            let whole = evaluate_json(&traced_request(expr, my, None));
            let head = traced_request("", my, None);
            assert!(!head.contains('\n'));
            assert_eq!(evaluate_text(&format!("{head}\n{expr}")), whole, "{expr:?}");
        }
        let bad = evaluate_text("{\"nonsense\":1}\nA");
        let e: Evaluated = serde_json::from_str(&bad).unwrap();
        assert!(
            matches!(e.response, Response::Failed { ref which, .. } if which == "request"),
            "{bad}"
        );
    }

    /// `Response` and `Evaluated` read what the engine's API writes, through
    /// the worker's evaluation.
    #[test]
    fn the_page_reads_the_api_answers() {
        use classad::api::{handle_json, OutputFormat, Request};
        let req = |expr: &str| {
            traced_request(
                expr,
                Some("[ A = 1; R = [ S = [ T = 2 ] ] ]"),
                Some("Memory = 5\nName = \"m\"\n"),
            )
        };
        let e: Evaluated = serde_json::from_str(&crate::worker::replies::evaluate_json(&req(
            "A + TARGET.Memory",
        )))
        .unwrap();
        let Response::Value {
            value,
            value_kind,
            trace,
            ..
        } = e.response
        else {
            panic!("{:?}", e.response)
        };
        assert_eq!((value.as_str(), value_kind.as_str()), ("6", "integer"));
        assert!(trace.is_some());
        assert_eq!(e.names.0.attrs, ["a", "r"]);
        assert_eq!(e.names.0.records, ["R", "R.S"]);
        assert_eq!(e.names.1.attrs, ["memory", "name"]);
        let e: Evaluated =
            serde_json::from_str(&crate::worker::replies::evaluate_json(&req("1 +"))).unwrap();
        assert!(
            matches!(&e.response, Response::Failed { which, diagnostics }
                if which == "expr" && !diagnostics.is_empty()),
            "{:?}",
            e.response
        );
        let f = Request::Format {
            text: "[a=1]".into(),
            to: OutputFormat::Old,
            dialect: Default::default(),
        };
        let a: Response =
            serde_json::from_str(&handle_json(&serde_json::to_string(&f).unwrap())).unwrap();
        assert!(
            matches!(&a, Response::Text { text, .. } if text == "a = 1\n\n"),
            "{a:?}"
        );
    }

    /// Each struct reads what the engine's session writes for its variant.
    #[test]
    fn every_answer_reads_what_the_session_writes() {
        let mut s = Session::new();
        // The seed papers' notation: the gang figures write `64M`.
        let load = |id: &str, text: &str| {
            serde_json::json!({"op": "load_pool", "id": id, "text": text, "dialect": "seed"})
                .to_string()
        };
        let m = ask(
            &mut s,
            &load(
                "m",
                "[ Name = \"a\"; Memory = 100; Requirements = TARGET.Owner != \"x\" ]",
            ),
        );
        let m: PoolLoaded = serde_json::from_str(&m).unwrap();
        assert_eq!((m.ads, m.labels.as_slice()), (1, &["a".to_string()][..]));
        ask(
            &mut s,
            &load(
                "j",
                "[ Owner = \"y\"; Requirements = TARGET.Memory > 50; Rank = 2 ]",
            ),
        );
        let c: Tile = serde_json::from_str(&ask(
            &mut s,
            r#"{"op":"match_cells","jobs":"j","machines":"m","rows":[0],"cols":[0]}"#,
        ))
        .unwrap();
        assert_eq!((c.cells, c.job_ranks), (vec![0], vec!["2".to_string()]));
        let n: MutualCounts = serde_json::from_str(&ask(
            &mut s,
            r#"{"op":"match_counts","jobs":"j","machines":"m"}"#,
        ))
        .unwrap();
        assert_eq!((n.job_matches, n.machine_matches), (vec![1], vec![1]));
        let p: PairView = serde_json::from_str(&ask(
            &mut s,
            r#"{"op":"pair","jobs":"j","machines":"m","job":0,"machine":0}"#,
        ))
        .unwrap();
        assert_eq!(p.job_requirements.unwrap().value, "true");
        let y: CycleView = serde_json::from_str(&ask(
            &mut s,
            r#"{"op":"negotiate","jobs":"j","machines":"m","detail":true}"#,
        ))
        .unwrap();
        assert_eq!((y.matched, y.clusters, y.outcomes.len()), (1, None, 1));
        let o = &y.outcomes[0];
        assert_eq!((o.machine, o.reason, o.skipped), (Some(0), 0, false));
        assert_eq!((y.reason(o), o.considered.len()), ("", 1));
        // Two jobs failing alike share one reason; nothing empty is sent.
        ask(
            &mut s,
            &load("k", "[ Requirements = false ]\n[ Requirements = false ]"),
        );
        let json = ask(&mut s, r#"{"op":"negotiate","jobs":"k","machines":"m"}"#);
        assert!(
            !json.contains("\"changed\"") && !json.contains("\"considered\""),
            "{json}"
        );
        let y: CycleView = serde_json::from_str(&json).unwrap();
        assert_eq!(y.reasons.len(), 2);
        assert!(y.outcomes.iter().all(|o| o.reason == 1));
        assert_eq!(
            y.reason(&y.outcomes[0]),
            "The job's requirements accept no machine"
        );
        let k: ClusterView = serde_json::from_str(&ask(
            &mut s,
            r#"{"op":"autocluster","jobs":"j","machines":"m"}"#,
        ))
        .unwrap();
        assert_eq!(
            (k.clustering.cluster_of.as_slice(), k.signatures.len()),
            (&[0][..], 1)
        );
        assert!(
            k.clustering.significant.contains(&"Owner".to_string()),
            "spelled as the job writes it"
        );
        // A gang search, its steps as the page reads them.
        ask(
            &mut s,
            &load(
                "gr",
                include_str!("../../../crate/tests/gang/fig8_requests.ads"),
            ),
        );
        ask(
            &mut s,
            &load(
                "go",
                include_str!("../../../crate/tests/gang/fig8_offers.ads"),
            ),
        );
        let g: GangView = serde_json::from_str(&ask(
            &mut s,
            r#"{"op":"gang","requests":"gr","offers":"go","steps":1000}"#,
        ))
        .unwrap();
        assert_eq!(g.rows.len(), 1);
        assert!(matches!(g.steps.first(), Some(GangStep::Request { .. })));
        assert!(g
            .steps
            .iter()
            .any(|s| matches!(s, GangStep::Done { gang: Some(_), .. })));
        // A failure is no answer of any kind.
        let f = ask(
            &mut s,
            r#"{"op":"pair","jobs":"nope","machines":"m","job":0,"machine":0}"#,
        );
        assert!(serde_json::from_str::<PairView>(&f).is_err());
        let why: Unanswered = serde_json::from_str(&f).unwrap();
        assert_eq!(why.kind, UnansweredKind::Failed);
        assert!(why.message.contains("not loaded"), "{}", why.message);
        assert!(serde_json::from_str::<CycleView>(&f).is_err());
    }
}
