//! The pools a session holds: read once, kept by id with their labels and
//! pool-supplied functions, compiled for matching on first use.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::formats::{self, InputFormat};
use crate::lang::ast::{ClassAd, SharedText};
use crate::lang::eval::{EvalOptions, Evaluator, Mode};
use crate::lang::lexer::Dialect;
use crate::matchmaking::compiled::CompiledAd;
use crate::matchmaking::matching::DEFAULT_REQUIREMENTS;
use crate::matchmaking::negotiate;
use crate::matchmaking::userfn::{self, UserFunctions};

use super::protocol::PoolLoaded;
use super::PoolResponse;

pub(super) struct LoadedPool {
    pub ads: Vec<Arc<ClassAd>>,
    pub labels: Vec<String>,
    pub functions: Option<Arc<UserFunctions>>,
    /// The ads compiled for matching, per mode (HTCondor, strict), made on
    /// first use: the matrix asks for tile after tile of the same ads.
    compiled: [std::cell::OnceCell<Vec<CompiledAd>>; 2],
}

impl LoadedPool {
    /// The ads compiled in `mode`. Compiling depends on the mode alone: the
    /// functions it folds are pure, the clock is left to evaluation.
    pub fn compiled(&self, mode: Mode) -> &[CompiledAd] {
        let o = EvalOptions {
            mode,
            ..Default::default()
        };
        self.compiled[(mode == Mode::Strict) as usize].get_or_init(|| {
            self.ads
                .iter()
                .map(|a| CompiledAd::new(a.clone(), o, DEFAULT_REQUIREMENTS))
                .collect()
        })
    }

    /// Each of `picks`' labels (empty past the end).
    pub fn labels_of(&self, picks: impl IntoIterator<Item = usize>) -> Vec<String> {
        picks
            .into_iter()
            .map(|i| self.labels.get(i).cloned().unwrap_or_default())
            .collect()
    }
}

/// A jobs pool and a machines pool (or requests and offers) asked about
/// together.
pub(super) struct PoolPair<'a> {
    pub jobs: &'a LoadedPool,
    pub machines: &'a LoadedPool,
}

impl PoolPair<'_> {
    /// The functions the pools supply (the jobs pool's first).
    pub fn functions(&self) -> Option<Arc<UserFunctions>> {
        self.jobs
            .functions
            .clone()
            .or_else(|| self.machines.functions.clone())
    }

    /// An evaluator in `context` that knows the pools' functions.
    pub fn evaluator(&self, context: EvalOptions) -> Evaluator {
        let mut ev = Evaluator::new(context);
        ev.set_user_functions(self.functions());
        ev
    }
}

#[derive(Default)]
pub(super) struct Pools(FxHashMap<String, LoadedPool>);

impl Pools {
    /// Read `text` and keep it as pool `id` (replacing any before it):
    /// function-library ads become the pool's functions, the rest its ads.
    pub fn load(&mut self, id: String, text: String, dialect: Dialect) -> PoolResponse {
        // The request's text becomes the one copy lazy ads read from.
        let text: Arc<dyn SharedText> = Arc::new(text);
        let pool = formats::read_pool_shared(&text, InputFormat::Auto, dialect);
        let mut lib = ClassAd::new();
        let mut ads = Vec::new();
        let mut labels = Vec::new();
        for a in pool.ads {
            if userfn::is_library(&a.ad) {
                lib.update(&a.ad);
            } else {
                labels.push(match negotiate::job_id(&a.ad, ads.len()) {
                    id if a.label.starts_with("ad ") => id,
                    _ => a.label.clone(),
                });
                ads.push(Arc::new(a.ad));
            }
        }
        let mut diagnostics = pool.diagnostics;
        let functions = match UserFunctions::from_ad(&lib) {
            Ok(f) if !f.is_empty() => Some(Arc::new(f)),
            Ok(_) => None,
            Err(ds) => {
                diagnostics.extend(ds);
                None
            }
        };
        let names = functions.as_ref().map(|f| f.names()).unwrap_or_default();
        let n = ads.len();
        self.0.insert(
            id.clone(),
            LoadedPool {
                ads,
                labels: labels.clone(),
                functions,
                compiled: Default::default(),
            },
        );
        PoolResponse::Loaded(PoolLoaded {
            id,
            ads: n,
            labels,
            diagnostics,
            functions: names,
        })
    }

    pub fn get(&self, id: &str) -> Option<&LoadedPool> {
        self.0.get(id)
    }

    /// A loaded pool, or which is not loaded.
    pub fn pool(&self, id: &str) -> Result<&LoadedPool, NotLoaded> {
        self.0.get(id).ok_or_else(|| NotLoaded(id.to_string()))
    }

    /// Both pools, or which is not loaded.
    pub fn pair(&self, jobs: &str, machines: &str) -> Result<PoolPair<'_>, NotLoaded> {
        Ok(PoolPair {
            jobs: self.pool(jobs)?,
            machines: self.pool(machines)?,
        })
    }
}

/// A request named a pool the session does not hold.
#[derive(Debug)]
pub(super) struct NotLoaded(pub String);

impl From<NotLoaded> for PoolResponse {
    fn from(NotLoaded(id): NotLoaded) -> PoolResponse {
        PoolResponse::Failed {
            message: format!("pool `{id}` is not loaded"),
        }
    }
}
