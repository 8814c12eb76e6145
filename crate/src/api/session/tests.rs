use super::*;
use crate::lang::lexer::Dialect;
use crate::matchmaking::matrix::{MutualCounts, Tile};

const MACHINES: &str = r#"[ Name = "a"; Memory = 100; Requirements = TARGET.Owner != "x"; Rank = 1 ]
[ Name = "b"; Memory = 10; Requirements = true ]
[ Name = "c"; Memory = 200; Requirements = true ]"#;
const JOBS: &str = r#"[ ClusterId = 1; ProcId = 0; Owner = "x"; Requirements = TARGET.Memory > 50 ]
[ ClusterId = 1; ProcId = 1; Owner = "y"; Requirements = TARGET.Memory > 50; Rank = TARGET.Memory ]
[ ClusterId = 2; ProcId = 0; Owner = "y"; Requirements = false ]"#;

fn session() -> Session {
    let mut s = Session::new();
    for (id, text) in [("m", MACHINES), ("j", JOBS)] {
        s.handle_pool(
            PoolRequest::LoadPool {
                id: id.into(),
                text: text.into(),
                dialect: Dialect::Auto,
            },
            &mut |_, _| true,
        );
    }
    s
}

fn ask(s: &mut Session, json: &str) -> PoolResponse {
    serde_json::from_str(&handle_pool_json(s, json, &mut |_, _| true)).unwrap()
}

#[test]
fn analyze_and_reverse_in_the_session() {
    let mut s = session();
    let r = ask(
        &mut s,
        r#"{"op":"analyze","jobs":"j","machines":"m","job":2,"overrides":[["Requirements","TARGET.Memory > 150 && TARGET.Memory < 150"]],"plane":["Memory","Owner"]}"#,
    );
    let PoolResponse::Analysis(v) = r else {
        panic!("{r:?}")
    };
    assert_eq!(v.analysis.summary.rejected_by_job, 3);
    assert_eq!(v.analysis.conflicts[0].kind, "always");
    assert!(
        v.report.contains("Of 3 slots on 3 machines,"),
        "{}",
        v.report
    );
    assert_eq!(v.lattices.len(), 1);
    let r = ask(
        &mut s,
        r#"{"op":"analyze","jobs":"j","machines":"m","job":7}"#,
    );
    assert!(
        matches!(r, PoolResponse::Failed { ref message } if message.contains("no job 8")),
        "{r:?}"
    );
    let r = ask(
        &mut s,
        r#"{"op":"analyze","jobs":"j","machines":"m","job":0,"overrides":[["Requirements","1 +"]]}"#,
    );
    assert!(
        matches!(r, PoolResponse::Failed { ref message } if message.starts_with("Requirements:")),
        "{r:?}"
    );
    let r = ask(
        &mut s,
        r#"{"op":"reverse","jobs":"j","machines":"m","machine":0}"#,
    );
    assert!(matches!(r, PoolResponse::Reverse(_)), "{r:?}");
}

#[test]
fn cells_of_chosen_rows_and_columns() {
    let mut s = session();
    let r = ask(
        &mut s,
        r#"{"op":"match_cells","jobs":"j","machines":"m","rows":[1,0,9],"cols":[2,0]}"#,
    );
    let PoolResponse::Cells(Tile {
        cells,
        job_ranks,
        machine_ranks,
    }) = r
    else {
        panic!("{r:?}")
    };
    // Job 1 × c, job 1 × a (both accept); job 0 × c (accept), job 0 × a
    // (machine rejects owner x); row 9 does not exist.
    assert_eq!(cells, vec![0, 0, 0, 2]);
    assert_eq!(job_ranks, vec!["200", "100", "undefined", "undefined"]);
    assert_eq!(machine_ranks, vec!["undefined", "1", "undefined", "1"]);
}

#[test]
fn a_window_past_the_end_is_empty() {
    let mut s = session();
    let r = ask(
        &mut s,
        r#"{"op":"match_window","jobs":"j","machines":"m","rows":[5,3],"cols":[0,3]}"#,
    );
    assert!(
        matches!(r, PoolResponse::Window { ref cells, .. } if cells.is_empty()),
        "{r:?}"
    );
}

#[test]
fn counts_per_job_and_machine() {
    let mut s = session();
    let mut calls = vec![];
    let json = handle_pool_json(
        &mut s,
        r#"{"op":"match_counts","jobs":"j","machines":"m"}"#,
        &mut |d, t| {
            calls.push((d, t));
            true
        },
    );
    let r: PoolResponse = serde_json::from_str(&json).unwrap();
    let PoolResponse::Counts(MutualCounts {
        job_matches,
        machine_matches,
    }) = r
    else {
        panic!("{r:?}")
    };
    assert_eq!(job_matches, vec![1, 2, 0]);
    assert_eq!(machine_matches, vec![1, 0, 2]);
    assert_eq!(calls.last(), Some(&(3, 3)));
    // Stopped at once: no counts, and said so.
    let r = s.handle_pool(
        PoolRequest::MatchCounts {
            jobs: "j".into(),
            machines: "m".into(),
            context: EvalOptions::default(),
        },
        &mut |_, _| false,
    );
    assert!(matches!(r, PoolResponse::Stopped), "{r:?}");
}

#[test]
fn every_long_request_stopped_answers_stopped() {
    let mut s = session();
    for json in [
        r#"{"op":"match_counts","jobs":"j","machines":"m"}"#,
        r#"{"op":"negotiate","jobs":"j","machines":"m"}"#,
        r#"{"op":"analyze","jobs":"j","machines":"m","job":1}"#,
        r#"{"op":"query","pool":"m","spec":{"constraint":"Memory > 1"}}"#,
        r#"{"op":"gang","requests":"j","offers":"m"}"#,
    ] {
        let req: PoolRequest = serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
        let r = s.handle_pool(req, &mut |_, _| false);
        assert!(matches!(r, PoolResponse::Stopped), "{json}: {r:?}");
        // Written as its kind alone.
        assert_eq!(serde_json::to_string(&r).unwrap(), r#"{"kind":"stopped"}"#);
    }
}

#[test]
fn pair_names_both_ads_attributes() {
    let mut s = session();
    let r = ask(
        &mut s,
        r#"{"op":"pair","jobs":"j","machines":"m","job":0,"machine":0}"#,
    );
    let PoolResponse::Pair(p) = r else {
        panic!("{r:?}")
    };
    let PairView {
        job_attributes,
        machine_attributes,
        machine_requirements,
        ..
    } = *p;
    assert!(job_attributes.contains(&"owner".to_string()));
    assert!(machine_attributes.contains(&"memory".to_string()));
    assert_eq!(machine_requirements.unwrap().value, "false");
    let r = ask(
        &mut s,
        r#"{"op":"pair","jobs":"j","machines":"m","job":7,"machine":0}"#,
    );
    assert!(matches!(r, PoolResponse::Failed { .. }));
}

#[test]
fn a_cycle_answers_as_the_view_shows_it() {
    let mut s = session();
    let r = ask(
        &mut s,
        r#"{"op":"negotiate","jobs":"j","machines":"m","autocluster":true}"#,
    );
    let PoolResponse::Cycle(c) = r else {
        panic!("{r:?}")
    };
    assert_eq!((c.matched, c.outcomes.len(), c.clusters), (2, 3, Some(3)));
    // Job 2.0 requires false: its reason, in words, is given once.
    let failed = c.outcomes.iter().find(|o| o.machine.is_none()).unwrap();
    assert_eq!(c.reason(failed), "The job's requirements accept no machine");
    assert_eq!(c.reasons.len(), 2, "{:?}", c.reasons);
    assert!(c.outcomes.iter().all(|o| o.changed.is_empty()));
}

#[test]
fn a_query_runs_pages_and_explains() {
    let mut s = Session::new();
    let go = |s: &mut Session, json: &str| {
        let req: PoolRequest = serde_json::from_str(json).unwrap();
        s.handle_pool(req, &mut |_, _| true)
    };
    let text = (0..300)
        .map(|i| format!("[ Name = \"m{i}\"; MyType = \"Machine\"; Memory = {i} ]\n"))
        .collect::<String>();
    let load = serde_json::json!({"op": "load_pool", "id": "p", "text": text}).to_string();
    go(&mut s, &load);
    let r = go(
        &mut s,
        r#"{"op":"query","pool":"p","spec":{"constraint":"Memory >= 50","columns":["Name","Memory"],"sort":1,"descending":true}}"#,
    );
    let PoolResponse::QueryResult { answer, labels } = r else {
        panic!("{r:?}")
    };
    assert_eq!(
        (answer.matched, answer.total, answer.page.len()),
        (250, 300, 200)
    );
    assert_eq!(answer.page[0].cells, ["m299", "299"]);
    assert_eq!(labels[0], "m299");
    let r = go(&mut s, r#"{"op":"query_page","from":240,"to":400}"#);
    let PoolResponse::QueryRows { from, rows, .. } = r else {
        panic!("{r:?}")
    };
    assert_eq!(
        (from, rows.len(), rows[9].cells[1].as_str()),
        (240, 10, "50")
    );
    let r = go(
        &mut s,
        r#"{"op":"query_explain","pool":"p","ad":3,"constraint":"Memory >= 50"}"#,
    );
    let PoolResponse::QueryExplained(x) = r else {
        panic!("{r:?}")
    };
    assert!(!x.matches && x.trace.is_some());
    let r = go(
        &mut s,
        r#"{"op":"query","pool":"p","spec":{"constraint":"Memory >"}}"#,
    );
    let PoolResponse::QueryInvalid(e) = r else {
        panic!("{r:?}")
    };
    assert_eq!((e.which.as_str(), e.diagnostic.column), ("constraint", 9));
}

#[test]
fn clusters_carry_their_signatures() {
    let mut s = session();
    let r = ask(&mut s, r#"{"op":"autocluster","jobs":"j","machines":"m"}"#);
    let PoolResponse::Clusters(ClusterView {
        clustering,
        signatures,
        ..
    }) = r
    else {
        panic!("{r:?}")
    };
    assert_eq!(signatures.len(), clustering.clusters());
    // Owner is significant (machine a refers to TARGET.Owner), and is
    // shown as the job spells it.
    let first: Vec<&(String, String)> = signatures[0].iter().collect();
    assert!(
        first.iter().any(|(a, v)| a == "Owner" && v == "\"x\""),
        "{first:?}"
    );
    assert!(clustering.significant.iter().any(|a| a == "Owner"));
}

fn match_json(json: &str) -> Response {
    serde_json::from_str(&api::handle_json(json)).unwrap()
}

/// The stateless `Match` gives the matrix's cell and its pair detail.
#[test]
fn match_one_job_against_one_machine() {
    let r = match_json(
        r#"{"op":"match","job":"[ Owner = \"x\"; Requirements = TARGET.Memory > 50; Rank = TARGET.Memory ]",
            "machine":"[ Memory = 100; Requirements = TARGET.Owner != \"x\"; Rank = 1 ]"}"#,
    );
    let Response::Match {
        job_accepts,
        machine_accepts,
        job_requirements,
        machine_requirements,
        job_rank,
        machine_rank,
    } = r
    else {
        panic!("{r:?}")
    };
    assert!(job_accepts);
    assert!(!machine_accepts);
    let (j, m) = (job_requirements.unwrap(), machine_requirements.unwrap());
    assert_eq!((j.value.as_str(), m.value.as_str()), ("true", "false"));
    assert_eq!(j.text, "TARGET.Memory > 50");
    assert!(!j.children.is_empty());
    assert_eq!((job_rank.as_str(), machine_rank.as_str()), ("100", "1"));
    // No Requirements: nothing accepted (as HTCondor has it), no trace.
    let r = match_json(r#"{"op":"match","job":"[ a = 1 ]","machine":"[ b = 2 ]","mode":"strict"}"#);
    assert!(
        matches!(
            r,
            Response::Match {
                job_accepts: false,
                machine_accepts: false,
                job_requirements: None,
                machine_requirements: None,
                ..
            }
        ),
        "{r:?}"
    );
}

/// Bad texts come back as located diagnostics naming the side.
#[test]
fn match_refuses_bad_or_several_ads() {
    let r = match_json(r#"{"op":"match","job":"[ a = 1 ]","machine":"[\n  b = (2 ]"}"#);
    let Response::Failed { which, diagnostics } = r else {
        panic!("{r:?}")
    };
    assert_eq!(which, "machine");
    assert_eq!(diagnostics[0].line, 2, "{diagnostics:?}");
    assert!(diagnostics[0].column > 0);
    let r = match_json(r#"{"op":"match","job":"[ a = 1 ] [ a = 2 ]","machine":"[]"}"#);
    assert!(
        matches!(r, Response::Failed { ref which, ref diagnostics } if which == "job"
            && diagnostics[0].message.contains("found 2")),
        "{r:?}"
    );
    let r = match_json(r#"{"op":"match","job":"","machine":"[]"}"#);
    assert!(
        matches!(r, Response::Failed { ref which, .. } if which == "job"),
        "{r:?}"
    );
    let r = match_json(r#"{"op":"match","job":"[]","machine":"[]","mode":"lax"}"#);
    assert!(
        matches!(r, Response::Failed { ref which, .. } if which == "request"),
        "{r:?}"
    );
}

#[test]
fn a_request_carries_its_evaluation_options_flat() {
    let json = r#"{"op":"match_counts","jobs":"j","machines":"m","mode":"strict","now":100,"tz_offset":3600}"#;
    let PoolRequest::MatchCounts { context, .. } = serde_json::from_str(json).unwrap() else {
        panic!("not match_counts")
    };
    assert_eq!(
        context,
        EvalOptions::at(crate::lang::eval::Mode::Strict, 100.0, 3600)
    );
    // Absent, each takes its default; written back, the same three keys.
    let req: PoolRequest =
        serde_json::from_str(r#"{"op":"match_counts","jobs":"j","machines":"m"}"#).unwrap();
    let v = serde_json::to_value(&req).unwrap();
    assert_eq!(
        (&v["mode"], &v["now"], &v["tz_offset"]),
        (
            &serde_json::json!("htcondor"),
            &serde_json::Value::Null,
            &serde_json::Value::Null
        )
    );
}

/// `Unanswered` reads the two answers that are none, and nothing else.
#[test]
fn unanswered_reads_stopped_and_failed_only() {
    let read =
        |r: &PoolResponse| serde_json::from_str::<Unanswered>(&serde_json::to_string(r).unwrap());
    let u = read(&PoolResponse::Stopped).unwrap();
    assert_eq!((u.kind, u.message.as_str()), (UnansweredKind::Stopped, ""));
    let u = read(&PoolResponse::Failed {
        message: "no pool \"j\"".into(),
    })
    .unwrap();
    assert_eq!(
        (u.kind, u.message.as_str()),
        (UnansweredKind::Failed, "no pool \"j\"")
    );
    let answer = PoolResponse::Candidates(JobCount { job: 0, count: 3 });
    assert!(read(&answer).is_err());
}
