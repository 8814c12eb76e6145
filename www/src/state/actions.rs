//! The app's state as a store: every change the UI can make to it (an
//! [`Action`]) and how each changes it. Views dispatch actions; the shell
//! (`app.rs`) owns the store, so views never import the shell.

use std::rc::Rc;

use serde::{Deserialize, Serialize};
use yew::prelude::*;

use crate::state::analyzer_settings::AnalyzeSettings;
use crate::state::app_state::{AdRef, AppState, MatchSettings, PoolText, View};
use crate::state::pool_roles::pick_pools;

/// Every change the UI can make to the state. Serializable: the views of
/// the second page module send theirs to the shell (`views::wire`).
#[derive(Serialize, Deserialize)]
pub enum Action {
    SetPoolText(
        usize,
        #[serde(
            serialize_with = "crate::state::app_state::ser_rc",
            deserialize_with = "crate::state::app_state::de_rc"
        )]
        Rc<str>,
    ),
    AddPool,
    RenamePool(usize, String),
    RemovePool(usize),
    SelectPool(usize),
    SetExpr(std::rc::Rc<str>),
    SetMy(Option<AdRef>),
    SetTarget(Option<AdRef>),
    /// The chosen ads found again by their labels (see `identity`).
    Follow {
        my: (Option<AdRef>, Option<String>),
        target: (Option<AdRef>, Option<String>),
    },
    SetScope(Vec<String>),
    SetMode(classad::api::Mode),
    SetDialect(classad::api::Dialect),
    SetView(View),
    SetMatching(MatchSettings),
    SetAnalyze(AnalyzeSettings),
    SetGang(crate::state::app_state::GangSettings),
    SetQuery(crate::state::app_state::QuerySettings),
    /// Open the analyzer on job `job` (of pool `jobs`, against `machines`
    /// when given; else the pools the matchmaking views use).
    Analyze {
        jobs: Option<usize>,
        machines: Option<usize>,
        job: usize,
    },
    Replace(Box<AppState>),
    SetSubmit(crate::state::app_state::SubmitSettings),
    /// Put `text` in the pool called `name` (made after the others when
    /// there is none): a submit file's job ads.
    PutPool {
        name: String,
        text: Rc<str>,
    },
    /// A place in the address was followed (back, forward, a link): its
    /// view and the classroom's step.
    GoTo {
        view: Option<View>,
        step: Option<usize>,
    },
}

/// A span of a pool's text picked in the explain tree (`text` is the text
/// the offsets belong to; `seq` makes a repeated pick count).
#[derive(Clone, Debug, PartialEq)]
pub struct PoolMark {
    pub pool: usize,
    pub text: Rc<str>,
    pub start: usize,
    pub end: usize,
    pub seq: u32,
}

#[derive(Clone, PartialEq)]
pub struct Store(pub Rc<AppState>);

impl Reducible for Store {
    type Action = Action;
    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut s = (*self.0).clone();
        match action {
            Action::SetPoolText(i, t) => {
                if let Some(p) = s.pools.get_mut(i) {
                    p.text = t;
                }
            }
            // The page never holds more pools than a link may carry.
            Action::AddPool if s.pools.len() >= crate::state::share::MAX_POOLS => {}
            Action::AddPool => {
                let n = s.pools.len() + 1;
                s.pools.push(PoolText {
                    name: format!("pool {n}"),
                    text: Rc::from(""),
                });
                s.active_pool = s.pools.len() - 1;
            }
            Action::RenamePool(i, name) => {
                if let Some(p) = s.pools.get_mut(i) {
                    p.name = name;
                }
            }
            Action::RemovePool(i) => {
                if s.pools.len() > 1 && i < s.pools.len() {
                    s.pools.remove(i);
                    for r in [&mut s.my, &mut s.target] {
                        *r = match *r {
                            Some(a) if a.pool == i => None,
                            Some(a) if a.pool > i => Some(AdRef {
                                pool: a.pool - 1,
                                ..a
                            }),
                            other => other,
                        };
                    }
                    for p in [&mut s.matching.jobs, &mut s.matching.machines] {
                        *p = match *p {
                            Some(j) if j == i => None,
                            Some(j) if j > i => Some(j - 1),
                            other => other,
                        };
                    }
                    if s.active_pool >= s.pools.len() {
                        s.active_pool = s.pools.len() - 1;
                    }
                }
            }
            Action::SelectPool(i) => s.active_pool = i,
            Action::SetExpr(e) => s.expr = e.into(),
            Action::SetMy(r) => {
                if s.my != r {
                    s.scope.clear();
                    s.my_label = None;
                }
                s.my = r;
            }
            Action::SetTarget(r) => {
                if s.target != r {
                    s.target_label = None;
                }
                s.target = r;
            }
            Action::Follow { my, target } => {
                (s.my, s.my_label) = my;
                (s.target, s.target_label) = target;
            }
            Action::SetScope(p) => s.scope = p,
            Action::SetMode(m) => s.mode = m,
            Action::SetDialect(d) => s.dialect = d,
            Action::SetView(v) => s.view = v,
            Action::SetMatching(m) => {
                let before = pick_pools(&s.pools, &s.matching).0;
                s.matching = m;
                // The analyzer's job and edits belonged to the old jobs pool.
                if pick_pools(&s.pools, &s.matching).0 != before {
                    s.analyze = s.analyze.fresh(0);
                }
            }
            Action::SetAnalyze(a) => s.analyze = a,
            Action::SetGang(g) => s.gang = g,
            Action::SetQuery(q) => s.query = q,
            Action::Analyze {
                jobs,
                machines,
                job,
            } => {
                let before = pick_pools(&s.pools, &s.matching).0;
                if jobs.is_some() {
                    s.matching.jobs = jobs;
                }
                if machines.is_some() {
                    s.matching.machines = machines;
                }
                s.analyze = if pick_pools(&s.pools, &s.matching).0 != before {
                    s.analyze.fresh(job)
                } else {
                    s.analyze.for_job(job)
                };
                s.view = View::Analyze;
            }
            Action::Replace(new) => s = *new,
            Action::SetSubmit(x) => s.submit = x,
            Action::PutPool { name, text } => {
                if let Some(i) = s.pools.iter().position(|p| p.name == name) {
                    s.pools[i].text = text;
                } else if s.pools.len() < crate::state::share::MAX_POOLS {
                    s.pools.push(PoolText { name, text });
                }
            }
            Action::GoTo { view, step } => {
                if let Some(v) = view {
                    s.view = v;
                }
                s.matching.step = step;
            }
        }
        s.normalize();
        Rc::new(Store(Rc::new(s)))
    }
}
