//! The gallery's examples opened, in the worker: an example's state with
//! its pools. The pools (most of an example's bytes) are linked here alone:
//! `build.rs` turns `examples/gallery.json`'s pools into `POOLS`, and the
//! page, which shows the cards (`state/examples.rs`), asks the worker for
//! an example's state (the `example` verb).

use std::sync::OnceLock;

use serde::Deserialize;

use crate::state::app_state::{AdRef, AppState, MatchSettings, PoolText, View};
/// The examples without their pools, as `build.rs` wrote them.
const OPENINGS: &str = include_str!(concat!(env!("OUT_DIR"), "/gallery_openings.json"));

/// A pool of an example: its name and the parts of its text.
type Pool = (&'static str, &'static [&'static str]);

include!(concat!(env!("OUT_DIR"), "/gallery_pools.rs"));

/// What an example opens with, but its pools.
#[derive(Deserialize)]
struct Opening {
    id: String,
    view: View,
    expr: String,
    /// MY and TARGET: (pool, ad).
    my: Option<(usize, usize)>,
    target: Option<(usize, usize)>,
    /// Path of nested records inside MY to evaluate in.
    #[serde(default)]
    scope: Vec<String>,
    /// The matchmaking views' clock (local wall time), for time-dependent
    /// policies shown at a chosen time.
    clock: Option<String>,
    /// The negotiation policy it follows: `thesis` (the seed lessons) or
    /// `htcondor`; left out: the thesis'.
    #[serde(default)]
    policy: Option<String>,
    /// The Query view's query.
    query: Option<Query>,
    /// The syntax its texts are written in (`seed`: the papers' notation;
    /// left out: HTCondor's).
    #[serde(default)]
    dialect: classad::api::Dialect,
}

#[derive(Deserialize)]
struct Query {
    constraint: String,
    columns: Vec<String>,
}

fn openings() -> &'static [Opening] {
    static ALL: OnceLock<Vec<Opening>> = OnceLock::new();
    ALL.get_or_init(|| serde_json::from_str(OPENINGS).expect("examples/gallery.json reads"))
}

/// The state example `id` opens (`None`: no such example).
pub fn state_of(id: &str) -> Option<AppState> {
    openings().iter().find(|o| o.id == id).map(Opening::state)
}

/// An example's pools, their texts joined.
fn pools_of(id: &str) -> Vec<PoolText> {
    let Some((_, pools)) = POOLS.iter().find(|(i, _)| *i == id) else {
        return vec![];
    };
    pools
        .iter()
        .map(|(name, parts)| PoolText {
            name: name.to_string(),
            text: parts.concat().into(),
        })
        .collect()
}

impl Opening {
    /// The state the example opens: its pools, expression and chosen ads,
    /// in its view, marked as an untouched example.
    fn state(&self) -> AppState {
        let mut s = AppState {
            pools: pools_of(&self.id),
            active_pool: 0,
            expr: self.expr.as_str().into(),
            my: self.my.map(|(pool, ad)| AdRef { pool, ad }),
            target: self.target.map(|(pool, ad)| AdRef { pool, ad }),
            my_label: None,
            target_label: None,
            scope: self.scope.clone(),
            mode: classad::api::Mode::HTCondor,
            dialect: self.dialect,
            view: self.view,
            matching: MatchSettings {
                clock: self.clock.clone(),
                htcondor: self.policy.as_deref() == Some("htcondor"),
                ..Default::default()
            },
            analyze: Default::default(),
            gang: Default::default(),
            query: Default::default(),
            submit: Default::default(),
            example: None,
            example_id: Some(self.id.clone()),
            not_kept: vec![],
            apart_texts: vec![],
        };
        if let Some(q) = &self.query {
            s.query.spec = classad::api::QuerySpec {
                constraint: q.constraint.clone(),
                columns: q.columns.clone(),
                ..Default::default()
            };
        }
        if self.view == View::Gangs {
            // Requests first, offers second: gang ads carry no MyType.
            s.matching.jobs = Some(0);
            s.matching.machines = Some(1);
        }
        s.normalize();
        s.example = Some(s.fingerprint());
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::examples::{examples, find, Example};
    use classad::api::{handle, Request, Response};

    fn eval_in(ex: &Example, my: Option<(usize, usize)>, target: Option<(usize, usize)>) -> String {
        let s = state_of(&ex.id).unwrap();
        let slice = |r: Option<(usize, usize)>| {
            r.map(|(p, a)| {
                let text = s.pools[p].text.to_string();
                let Response::Pool { ads, .. } = handle(Request::ParsePool {
                    text: text.clone(),
                    format: Default::default(),
                    dialect: s.dialect,
                }) else {
                    unreachable!()
                };
                text[ads[a].start as usize..ads[a].end as usize].to_string()
            })
        };
        match handle(Request::Evaluate {
            expr: s.expr.to_string(),
            my: slice(my),
            target: slice(target),
            scope: s.scope.clone(),
            dialect: s.dialect,
            trace: false,
            context: classad::api::EvalOptions::in_mode(s.mode),
        }) {
            Response::Value { value, .. } => value,
            _ => "FAILED".into(),
        }
    }

    /// An example opened is marked untouched, and any change to its pools
    /// or its expression, even back to an equal length, takes the mark off
    /// (opening a link then keeps the work aside).
    #[test]
    fn an_opened_example_is_untouched_until_changed() {
        let s = state_of("000-matrix").unwrap();
        assert!(s.is_untouched_example());
        let mut e = s.clone();
        e.expr = e.expr.replace("&&", "||").into();
        assert!(!e.is_untouched_example());
        let mut p = s.clone();
        p.pools[1].text = p.pools[1].text.replace("riffraff", "riffruff").into();
        assert!(!p.is_untouched_example());
        assert!(!crate::state::app_state::AppState::default().is_untouched_example());
    }

    /// An example picks the seed papers' notation only when it needs it:
    /// read as HTCondor reads them, its texts do not all parse.
    #[test]
    fn an_example_in_the_seed_notation_needs_it() {
        let mut bad = vec![];
        for ex in examples() {
            let s = state_of(&ex.id).unwrap();
            let errors_in = |dialect| {
                s.pools.iter().any(|p| {
                    let Response::Pool { diagnostics, .. } = handle(Request::ParsePool {
                        text: p.text.to_string(),
                        format: Default::default(),
                        dialect,
                    }) else {
                        unreachable!()
                    };
                    diagnostics.iter().any(|d| d.is_error())
                })
            };
            // Or its tokens differ (`'3:00'` is a time in the papers, an
            // attribute's name in HTCondor).
            let tokens = |d| {
                let mut t: Vec<String> = s
                    .pools
                    .iter()
                    .map(|p| {
                        serde_json::to_string(&classad::api::highlight_pool(&p.text, d)).unwrap()
                    })
                    .collect();
                t.push(serde_json::to_string(&classad::api::highlight(&s.expr, d)).unwrap());
                t
            };
            let htcondor = errors_in(classad::api::Dialect::Modern)
                || tokens(classad::api::Dialect::Modern) != tokens(s.dialect);
            match s.dialect {
                classad::api::Dialect::Modern => {}
                d if !htcondor => bad.push(format!(
                    "{}: in {d:?} but reads in HTCondor's syntax",
                    ex.id
                )),
                d if errors_in(d) => bad.push(format!("{}: does not read in {d:?} either", ex.id)),
                _ => {}
            }
        }
        assert!(bad.is_empty(), "{}", bad.join("\n"));
    }

    /// The other ads an example's card points to show the contrast it
    /// describes.
    #[test]
    fn alternatives_show_the_contrast() {
        let cases: &[(&str, Option<(usize, usize)>, Option<(usize, usize)>, &str)] = &[
            ("001-fig8", Some((0, 1)), None, "false"),
            ("001-fig9", Some((0, 0)), Some((1, 1)), "\"7, 1, 49000\""),
            ("001-fig9", Some((0, 0)), Some((1, 2)), "\"7, 0, 199000\""),
            ("001-fig9", Some((0, 0)), Some((1, 3)), "error"),
            ("001-fig10", Some((0, 1)), None, "false"),
            ("001-fig11", Some((0, 1)), None, "false"),
            ("001-fig13", Some((0, 0)), Some((1, 1)), "false"),
            ("001-fig16", Some((0, 1)), Some((0, 2)), "false"),
            ("003-grid", Some((0, 0)), Some((1, 1)), "undefined"),
            ("004-manual", Some((0, 0)), Some((1, 1)), "false"),
            ("004-manual", Some((0, 0)), Some((1, 2)), "false"),
        ];
        let mut bad = vec![];
        for (id, my, target, want) in cases {
            let got = eval_in(find(id).unwrap(), *my, *target);
            if got != *want {
                bad.push(format!("{id} {my:?} {target:?}: {got}, expected {want}"));
            }
        }
        assert!(bad.is_empty(), "{}", bad.join("\n"));
    }

    /// Every example opens to ads that parse, the chosen ads exist, and
    /// the expression gives what the card says.
    #[test]
    fn every_example_opens_to_its_claim() {
        let mut bad = vec![];
        for ex in examples() {
            let s = state_of(&ex.id).unwrap();
            let mut slices = vec![];
            for p in &s.pools {
                let Response::Pool {
                    ads, diagnostics, ..
                } = handle(Request::ParsePool {
                    text: p.text.to_string(),
                    format: Default::default(),
                    dialect: s.dialect,
                })
                else {
                    unreachable!()
                };
                // A submit file is not ads (its own test checks its job ads).
                let submit_file = crate::bridge::submit::looks_like_submit(&p.text);
                if let Some(d) = diagnostics.iter().find(|d| d.is_error() && !submit_file) {
                    bad.push(format!(
                        "{}: pool {}: {}:{}: {}",
                        ex.id, p.name, d.line, d.column, d.message
                    ));
                }
                slices.push((p.text.to_string(), ads));
            }
            let get = |r: Option<crate::state::app_state::AdRef>| {
                r.map(|r| {
                    let (t, ads) = &slices[r.pool];
                    let a = ads.get(r.ad).expect("the chosen ad exists");
                    t[a.start as usize..a.end as usize].to_string()
                })
            };
            let resp = handle(Request::Evaluate {
                expr: s.expr.to_string(),
                my: get(s.my),
                target: get(s.target),
                scope: s.scope.clone(),
                dialect: s.dialect,
                trace: false,
                context: classad::api::EvalOptions::in_mode(s.mode),
            });
            match (resp, &ex.expect) {
                (Response::Value { value, .. }, Some(want)) if value != *want => bad.push(format!(
                    "{}: {} gives {value}, the card expects {want}",
                    ex.id, s.expr
                )),
                (Response::Value { .. }, _) => {}
                (Response::Failed { which, diagnostics }, _) => {
                    bad.push(format!("{}: {which}: {:?}", ex.id, diagnostics))
                }
                _ => bad.push(format!("{}: no value", ex.id)),
            }
        }
        assert!(bad.is_empty(), "{}", bad.join("\n"));
    }

    /// The submit lessons' job-ads pools are what the engine makes of their
    /// submit files, as the page asks at the lesson's clock: opening a
    /// lesson changes nothing, and the file cannot go stale.
    #[test]
    fn the_submit_lessons_hold_the_job_ads_the_engine_makes() {
        for (id, file) in [
            ("lesson-submit", "submit_jobs.classad"),
            ("lesson-submit-idle", "submit_idle_jobs.classad"),
        ] {
            let s = state_of(id).expect("the lesson exists");
            let sub = &s.pools[0];
            let jobs_name = crate::components::workbench::submit_bar::jobs_pool_name(&sub.name);
            let jobs = s
                .pools
                .iter()
                .find(|p| p.name == jobs_name)
                .expect("its jobs pool");
            // The lesson has a clock: now is not read.
            let req = crate::components::workbench::submit_bar::source_for(&s, 0).unwrap();
            let out = crate::worker::submit::answer(&req);
            assert!(!out.refused(), "{id}: {:?}", out.problems);
            if out.ads != *jobs.text {
                let _ = std::fs::write(std::env::temp_dir().join(file), &out.ads);
                panic!("www/examples/ads/lessons/{file} is not what the engine makes now (written to the temp dir)");
            }
        }
    }
}
