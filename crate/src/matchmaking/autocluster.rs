//! Auto-clustering (HTCondor design note, seed 002): jobs whose
//! *significant attributes* are equal must match the same machines, so the
//! negotiator considers one job per cluster and, once a cluster fails in a
//! cycle, skips the rest of it.
//!
//! Significant attributes are the external references of the machine ads
//! (what a machine needs from a job), plus those of the negotiator's policy
//! expressions, extended for each job by its own `Requirements` and `Rank`
//! and the job attributes they reference. A job's signature is the list of
//! its definitions of those attributes (numeric sizes quantized); jobs with
//! equal signatures share an auto-cluster id.

use std::collections::BTreeSet;
use std::hash::{Hash, Hasher};

use rustc_hash::{FxHashMap, FxHasher};
use serde::{Deserialize, Serialize};

use crate::lang::ast::{ClassAd, Expr, ExprKind, Name};
use crate::lang::refs;
use crate::lang::value::Value;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AutoclusterConfig {
    /// Attributes quantized for the signature: sizes that differ by a few
    /// bytes should not split clusters.
    pub quantize: Vec<String>,
    /// Round quantized values up to the next step of this ratio (1.2 =
    /// "round up 20%", HTCondor's default).
    pub ratio: f64,
    /// The job's own expressions that always count (and whose references
    /// count too).
    pub job_expressions: Vec<String>,
}

impl Default for AutoclusterConfig {
    fn default() -> Self {
        AutoclusterConfig {
            quantize: vec![
                "ImageSize".into(),
                "DiskUsage".into(),
                "ExecutableSize".into(),
                "RequestDisk".into(),
            ],
            ratio: 1.2,
            job_expressions: vec!["Requirements".into(), "Rank".into(), "Constraint".into()],
        }
    }
}

/// The result of clustering a set of jobs.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Clustering {
    /// The significant attributes found on the machine side (lower-case).
    pub significant: Vec<String>,
    /// Auto-cluster id of each job, in input order (ids count from 0 in
    /// order of first appearance).
    pub cluster_of: Vec<u32>,
    /// Jobs per cluster.
    pub sizes: Vec<u32>,
    /// The attributes each cluster's signature is made of (lower-case).
    pub signature_attributes: Vec<Vec<String>>,
}

impl Clustering {
    pub fn clusters(&self) -> usize {
        self.sizes.len()
    }
}

/// The machines whose match expressions reach definitions not seen before
/// them: machine ads of one pool mostly share their policy expressions,
/// so what depends on those alone is worked out once.
///
/// The key is what a walk of the references can depend on, found in the
/// text: the match expressions and, through every word of them that names
/// an attribute of the ad, that attribute's text (a literal only as being
/// one) — so the hundreds of counters that differ from slot to slot in a
/// production pool do not make each slot a shape of its own.
fn distinct_shapes<'a>(machines: &'a [&'a ClassAd]) -> impl Iterator<Item = &'a ClassAd> + 'a {
    let mut seen = rustc_hash::FxHashSet::default();
    machines
        .iter()
        .copied()
        .filter(move |m| seen.insert(reach_key(m)))
}

/// [`distinct_shapes`]' key of one ad.
fn reach_key(m: &ClassAd) -> u64 {
    let mut h = FxHasher::default();
    let mut visited = rustc_hash::FxHashSet::default();
    let mut todo: Vec<u32> = MATCH_EXPRESSIONS
        .iter()
        .filter_map(|n| m.position(n))
        .collect();
    while let Some(i) = todo.pop() {
        if !visited.insert(i) {
            continue;
        }
        m.key_at(i).hash(&mut h);
        if m.is_literal(i) {
            // Walks stop at a literal: only that it is one counts.
            0u8.hash(&mut h);
            continue;
        }
        let parsed;
        let text = match m.unparsed_text(i) {
            Some(t) => t,
            None => {
                parsed = crate::lang::unparse::unparse(m.at(i).1);
                &parsed
            }
        };
        text.hash(&mut h);
        // Words that name an attribute of the ad lead on (one inside a
        // string only makes the key finer).
        for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            if word.is_empty() || word.starts_with(|c: char| c.is_ascii_digit()) {
                continue;
            }
            match m.position(word) {
                Some(j) => todo.push(j),
                None => (word.len(), 1u8).hash(&mut h),
            }
        }
    }
    h.finish()
}

/// Significant attributes of the machine side (the seed's design): the
/// references a match evaluates that the machine ad cannot resolve itself —
/// from its `Requirements` (else `Constraint`) and `Rank`, and what they
/// reach through its own definitions (`START`, `WithinResourceLimits`) —
/// plus what the negotiator's policy expressions read of the job. What no
/// match evaluates (`DaemonShutdown`'s `MyCurrentTime`) is not one.
pub fn significant_attributes(machines: &[&ClassAd], policy: &[Expr]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for m in distinct_shapes(machines) {
        for name in MATCH_EXPRESSIONS {
            if let Some(e) = m.get(name) {
                out.extend(refs::expr_refs(e, m).target_attributes());
            }
        }
    }
    // Policy expressions are evaluated with MY = the job: what they need
    // from the job is what they do not take from TARGET.
    let empty = ClassAd::new();
    for e in policy {
        out.extend(refs::expr_refs(e, &empty).my_attributes());
    }
    out
}

/// The machine expressions a match evaluates.
const MATCH_EXPRESSIONS: [&str; 3] = ["Requirements", "Constraint", "Rank"];

/// Each cluster's signature as its first job defines it (canonical text,
/// `undefined` when it has none).
pub fn signatures(c: &Clustering, jobs: &[&ClassAd]) -> Vec<Vec<(String, String)>> {
    let mut first = vec![None; c.clusters()];
    for (job, &id) in c.cluster_of.iter().enumerate() {
        if let Some(slot @ None) = first.get_mut(id as usize) {
            *slot = Some(job);
        }
    }
    c.signature_attributes
        .iter()
        .zip(first)
        .map(|(attrs, job)| {
            let ad = job.and_then(|i| jobs.get(i));
            attrs
                .iter()
                .map(|a| {
                    let text = ad
                        .and_then(|ad| ad.get(a))
                        .map(crate::lang::unparse::unparse)
                        .unwrap_or_else(|| "undefined".into());
                    (a.clone(), text)
                })
                .collect()
        })
        .collect()
}

/// The clusters' attribute names as the ads (or the policy expressions)
/// spell them: the clustering itself works on case-folded names.
pub fn spell_as_written(
    c: &mut Clustering,
    signatures: &mut [Vec<(String, String)>],
    machines: &[&ClassAd],
    jobs: &[&ClassAd],
    policy: &[Expr],
) {
    let names: BTreeSet<String> = c
        .significant
        .iter()
        .chain(c.signature_attributes.iter().flatten())
        .cloned()
        .collect();
    let mut spelled = spelled_as_written(&names, machines, jobs);
    // Names only a policy expression reads (`MY.UserPrio`), as it writes them.
    let empty = ClassAd::new();
    for e in policy {
        for r in refs::expr_refs(e, &empty).external {
            let bare = r.strip_prefix("MY.").unwrap_or(&r);
            let folded = bare.to_ascii_lowercase();
            if names.contains(&folded)
                && !spelled.contains_key(&folded)
                && !r.starts_with("TARGET.")
            {
                spelled.insert(folded, bare.to_string());
            }
        }
    }
    let spell = |n: &mut String| {
        if let Some(s) = spelled.get(n.as_str()) {
            *n = s.clone();
        }
    };
    c.significant.iter_mut().for_each(spell);
    c.signature_attributes.iter_mut().flatten().for_each(spell);
    signatures.iter_mut().flatten().for_each(|(n, _)| spell(n));
}

/// The significant attributes are kept case-folded; for showing them, the
/// spelling a job ad defines them with (the first of up to `JOBS_LOOKED_AT`
/// jobs that has one), else as a machine ad writes its reference, else the
/// folded name.
pub fn spelled_as_written(
    names: &BTreeSet<String>,
    machines: &[&ClassAd],
    jobs: &[&ClassAd],
) -> FxHashMap<String, String> {
    const JOBS_LOOKED_AT: usize = 1_000;
    let mut out: FxHashMap<String, String> = FxHashMap::default();
    for name in names {
        let key = Name::new(name);
        let defined = jobs
            .iter()
            .take(JOBS_LOOKED_AT)
            .find_map(|j| j.position_name(&key).map(|i| j.at(i).0.to_string()));
        if let Some(d) = defined {
            out.insert(name.clone(), d);
        }
    }
    for m in distinct_shapes(machines) {
        if out.len() == names.len() {
            break;
        }
        for r in refs::ad_refs(m).external {
            let bare = r.strip_prefix("TARGET.").unwrap_or(&r);
            let folded = bare.to_ascii_lowercase();
            if names.contains(&folded) && !out.contains_key(&folded) {
                out.insert(folded, bare.to_string());
            }
        }
    }
    out
}

/// A structural hash of an expression (no allocation).
pub fn hash_expr(e: &Expr, h: &mut FxHasher) {
    std::mem::discriminant(&e.kind).hash(h);
    match &e.kind {
        ExprKind::Literal(v) => hash_value(v, h),
        // Names by their precomputed case-folded hash: no string walk.
        ExprKind::Attr { name, absolute } => {
            name.hash.hash(h);
            absolute.hash(h);
        }
        ExprKind::Select(b, n) => {
            hash_expr(b, h);
            n.hash.hash(h);
        }
        ExprKind::Unary(op, a) => {
            op.hash(h);
            hash_expr(a, h);
        }
        ExprKind::Binary(op, a, b) => {
            op.hash(h);
            hash_expr(a, h);
            hash_expr(b, h);
        }
        ExprKind::Call(c) => {
            match c.func {
                Some(id) => id.hash(h),
                None => crate::lang::ast::key_hash(&c.name).hash(h),
            }
            for a in &c.args {
                hash_expr(a, h);
            }
        }
        ExprKind::Record(ad) => {
            for (n, x) in ad.iter() {
                crate::lang::ast::key_hash(n).hash(h);
                hash_expr(x, h);
            }
        }
        _ => {
            for c in e.children() {
                hash_expr(c, h);
            }
        }
    }
}

fn hash_value(v: &Value, h: &mut FxHasher) {
    std::mem::discriminant(v).hash(h);
    match v {
        Value::Bool(b) => b.hash(h),
        Value::Int(i) => i.hash(h),
        Value::Real(r) => r.to_bits().hash(h),
        Value::Str(s) => s.hash(h),
        Value::AbsTime(t) => (t.secs, t.offset).hash(h),
        Value::RelTime(t) => t.to_bits().hash(h),
        _ => {}
    }
}

/// Round a size up to the next step of a geometric series (ratio `r`), so
/// nearby sizes share a bucket.
pub fn quantize(x: f64, r: f64) -> f64 {
    if x <= 1.0 || r <= 1.0 || !x.is_finite() {
        return x;
    }
    let k = (x.ln() / r.ln()).ceil();
    r.powf(k).ceil()
}

/// The significant attributes a job adds (its own expressions and what
/// they reference): names, and parsed names with "quantized" flags.
type JobAdditions = (Vec<String>, Vec<(Name, bool)>);

/// Cluster `jobs` against the machine-side significant attributes.
/// Each job's compatibility class: jobs of one class are equal in every
/// attribute a match reads of them — the `significant` ones (what the
/// machines read), the job's `Requirements` and `Rank`, and every attribute
/// of the job those reach through its own definitions — by definition, with
/// nothing quantized, so they accept, and are accepted by, the same
/// machines. (An auto-cluster rounds sizes up and so is not one.)
pub fn exact_classes(jobs: &[&ClassAd], significant: &BTreeSet<String>) -> Vec<u64> {
    let roots: Vec<String> = significant
        .iter()
        .cloned()
        .chain(["requirements".to_string(), "rank".to_string()])
        .collect();
    jobs.iter()
        .map(|job| {
            let mut seen: BTreeSet<String> = BTreeSet::new();
            let mut todo = roots.clone();
            let mut h = FxHasher::default();
            while let Some(name) = todo.pop() {
                if !seen.insert(name.clone()) {
                    continue;
                }
                match job.get(&name) {
                    None => (&name, 0u8).hash(&mut h),
                    Some(e) => {
                        (&name, 1u8).hash(&mut h);
                        hash_expr(e, &mut h);
                        todo.extend(
                            refs::expr_refs(e, job)
                                .internal
                                .iter()
                                .map(|n| n.to_ascii_lowercase()),
                        );
                    }
                }
            }
            // The walk's order depends only on the definitions, so equal
            // jobs hash alike.
            h.finish()
        })
        .collect()
}

pub fn cluster(
    jobs: &[&ClassAd],
    significant: &BTreeSet<String>,
    cfg: &AutoclusterConfig,
) -> Clustering {
    let quantized: BTreeSet<String> = cfg
        .quantize
        .iter()
        .map(|q| q.to_ascii_lowercase())
        .collect();
    let mut ids: FxHashMap<u64, u32> = FxHashMap::default();
    let mut sizes: Vec<u32> = Vec::new();
    let mut cluster_of = Vec::with_capacity(jobs.len());
    let mut signature_attributes: Vec<Vec<String>> = Vec::new();
    // The job-side additions depend only on the job's own expressions;
    // cache them by a hash of those expressions.
    let mut extra_cache: FxHashMap<u64, JobAdditions> = FxHashMap::default();
    let base: Vec<String> = significant.iter().cloned().collect();
    // Parsed once: lookups by precomputed hash and interned key.
    let base_names: Vec<(Name, bool)> = base
        .iter()
        .map(|n| (Name::new(n), quantized.contains(n)))
        .collect();
    let job_expressions: Vec<Name> = cfg.job_expressions.iter().map(|n| Name::new(n)).collect();
    for job in jobs {
        let mut eh = FxHasher::default();
        for name in &job_expressions {
            if let Some(i) = job.position_name(name) {
                name.hash.hash(&mut eh);
                hash_expr(job.at(i).1, &mut eh);
            }
        }
        let job_exprs_hash = eh.finish();
        let extra = extra_cache.entry(job_exprs_hash).or_insert_with(|| {
            let mut s: BTreeSet<String> = BTreeSet::new();
            for name in &cfg.job_expressions {
                if let Some(e) = job.get(name) {
                    s.insert(name.to_ascii_lowercase());
                    s.extend(
                        refs::expr_refs(e, job)
                            .internal
                            .iter()
                            .map(|n| n.to_ascii_lowercase()),
                    );
                }
            }
            let names: Vec<String> = s.into_iter().filter(|n| !significant.contains(n)).collect();
            let parsed = names
                .iter()
                .map(|n| (Name::new(n), quantized.contains(n)))
                .collect();
            (names, parsed)
        });
        let (extra, extra_names) = (&extra.0, &extra.1);
        let mut h = FxHasher::default();
        // The job's own expressions are hashed already.
        h.write_u64(job_exprs_hash);
        for (name, q) in base_names.iter().chain(extra_names.iter()) {
            if job_expressions.contains(name) {
                continue;
            }
            name.hash.hash(&mut h);
            match job.position_name(name).map(|i| job.at(i).1) {
                None => 0u8.hash(&mut h),
                Some(e) => {
                    1u8.hash(&mut h);
                    let q = *q;
                    match (q, e.as_literal().and_then(Value::as_number)) {
                        (true, Some(x)) => quantize(x, cfg.ratio).to_bits().hash(&mut h),
                        _ => hash_expr(e, &mut h),
                    }
                }
            }
        }
        let next = sizes.len() as u32;
        let id = *ids.entry(h.finish()).or_insert(next);
        if id == next {
            sizes.push(0);
            signature_attributes.push(base.iter().chain(extra.iter()).cloned().collect());
        }
        sizes[id as usize] += 1;
        cluster_of.push(id);
    }
    Clustering {
        significant: base,
        cluster_of,
        sizes,
        signature_attributes,
    }
}
