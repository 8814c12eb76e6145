//! The worker's replies: the engine's results read into what the page
//! wants (see `bridge/answers.rs`): a pool's summary, the names of MY and
//! TARGET beside an evaluation, and cycles, clusterings and gang searches
//! as flat views, so the page links no reader for the engine's richer types.

use classad::api::session::PoolResponse;
use classad::matchmaking::negotiate::{Augmented, CycleResult, Reason};
use classad::{ClassAd, ExprKind};

use crate::bridge::answers::{AdNames, Candidate, Clusters, Cycle, GangStep, Gangs, Outcome};
use crate::bridge::pool_summary::{AdInfo, PoolSummary};

/// Parse a pool (in the worker). This reads the pool with the engine's
/// reader directly rather than through `api::ParsePool`, which lists every
/// ad's attributes (megabytes of JSON for 10,000 ads). One pass finds the
/// ads' lines.
pub fn summarize(text: &str) -> PoolSummary {
    let pool = classad::formats::read_pool(text, Default::default(), Default::default());
    let bytes = text.as_bytes();
    let (mut line, mut at) = (1u32, 0usize);
    let ads = pool
        .ads
        .into_iter()
        .map(|a| {
            let start = (a.span.start as usize).min(text.len());
            if start >= at {
                line += bytes[at..start].iter().filter(|&&b| b == b'\n').count() as u32;
                at = start;
            }
            AdInfo {
                label: a.label,
                start,
                end: (a.span.end as usize).min(text.len()),
                line,
                n_attrs: a.ad.len(),
            }
        })
        .collect();
    PoolSummary {
        ads,
        diagnostics: pool.diagnostics,
        engine_memory: wasm_memory_bytes(),
    }
}

/// Attribute names (lower case) of an ad and the paths of its nested
/// records, read from its text.
pub fn ad_names(text: &str) -> AdNames {
    let pool = classad::formats::read_pool(text, Default::default(), Default::default());
    let Some(ad) = pool.ads.first() else {
        return AdNames::default();
    };
    fn records(ad: &ClassAd, prefix: &str, out: &mut Vec<String>, depth: usize) {
        for (name, e) in ad.iter() {
            let mut e = e;
            while let ExprKind::Paren(inner) = &e.kind {
                e = inner;
            }
            if let ExprKind::Record(r) = &e.kind {
                let path = if prefix.is_empty() {
                    name.to_string()
                } else {
                    format!("{prefix}.{name}")
                };
                out.push(path.clone());
                if depth < 4 {
                    records(r, &path, out, depth + 1);
                }
            }
        }
    }
    let mut recs = vec![];
    records(&ad.ad, "", &mut recs, 0);
    AdNames {
        attrs: ad.ad.iter().map(|(n, _)| n.to_ascii_lowercase()).collect(),
        records: recs,
    }
}

/// The `evaluate` verb: the API's answer, with the names of MY and TARGET.
pub fn evaluate_json(payload: &str) -> String {
    let (my, target) = match serde_json::from_str::<classad::api::Request>(payload) {
        Ok(classad::api::Request::Evaluate { my, target, .. }) => (
            my.as_deref().map(ad_names).unwrap_or_default(),
            target.as_deref().map(ad_names).unwrap_or_default(),
        ),
        _ => Default::default(),
    };
    let response = classad::api::handle_json(payload);
    let names = serde_json::to_string(&(my, target)).unwrap_or_else(|_| "[{},{}]".into());
    // The response is already JSON: spliced in, not read and written again.
    format!("{{\"names\":{names},\"response\":{response}}}")
}

/// The worker's wasm memory in bytes (it only grows: the peak so far).
fn wasm_memory_bytes() -> Option<u64> {
    #[cfg(target_arch = "wasm32")]
    return Some(core::arch::wasm32::memory_size(0) as u64 * 65_536);
    #[cfg(not(target_arch = "wasm32"))]
    None
}

/// A cycle as the negotiation view shows it: reasons in words, shared.
pub fn cycle_view(cycle: CycleResult, augmented: Vec<Augmented>) -> Cycle {
    let clusters = cycle.clustering.as_ref().map(|c| c.clusters());
    let mut aug = augmented.into_iter();
    let mut reasons = vec![String::new()];
    let mut reason_of = |r: &Reason| -> u32 {
        if *r == Reason::Matched {
            return 0;
        }
        // The CLI's `slug: sentence`; people read the sentence.
        let full = r.describe();
        let sentence = full.split_once(": ").map_or(full.as_str(), |(_, s)| s);
        let mut text: String = sentence
            .chars()
            .take(1)
            .flat_map(char::to_uppercase)
            .collect();
        text.push_str(sentence.get(1..).unwrap_or(""));
        let at = reasons.iter().position(|x| *x == text).unwrap_or_else(|| {
            reasons.push(text);
            reasons.len() - 1
        });
        at as u32
    };
    let outcomes = cycle
        .outcomes
        .into_iter()
        .map(|o| {
            let a = aug.next().unwrap_or_default();
            Outcome {
                job: o.job,
                job_id: o.job_id,
                machine: o.machine,
                vector: o.vector,
                reason: reason_of(&o.reason),
                skipped: matches!(o.reason, Reason::SkippedCluster { .. }),
                candidates: o.candidates,
                taken_uncounted: matches!(o.reason, Reason::AllTaken { compatible: None }),
                cluster: o.cluster,
                considered: o
                    .considered
                    .into_iter()
                    .map(|c| Candidate {
                        machine: c.machine,
                        vector: c.vector,
                        taken: c.taken,
                    })
                    .collect(),
                changed: a.changed,
                unresolved: a
                    .unresolved
                    .iter()
                    .map(|u| format!("{}: $$({})", u.attribute, u.reference))
                    .collect(),
            }
        })
        .collect();
    Cycle {
        outcomes,
        reasons,
        matched: cycle.matched,
        pair_evaluations: cycle.pair_evaluations,
        clusters,
        engine_memory: wasm_memory_bytes(),
    }
}

/// A gang search's step as the page reads it (`answers::GangStep`).
pub fn gang_step(s: classad::api::session::GangStep) -> GangStep {
    use classad::api::session::GangStep as S;
    match s {
        S::Request { request, name } => GangStep::Request { request, name },
        S::Order {
            ad,
            ports,
            found,
            abort,
        } => GangStep::Order {
            ad,
            ports,
            found,
            abort,
        },
        S::Probe {
            ad,
            port,
            window,
            found,
        } => GangStep::Probe {
            ad,
            port,
            window,
            found,
        },
        S::Scan {
            ad,
            port,
            tested,
            docked,
        } => GangStep::Scan {
            ad,
            port,
            tested,
            docked,
        },
        S::Try {
            ad,
            port,
            offer,
            via,
            answer,
        } => GangStep::Try {
            ad,
            port,
            offer,
            via,
            answer,
        },
        S::Backtrack { ad, port, offer } => GangStep::Backtrack { ad, port, offer },
        S::Verify { ok } => GangStep::Verify { ok },
        S::Done {
            request,
            gang,
            limit_hit,
        } => GangStep::Done {
            request,
            gang,
            limit_hit,
        },
    }
}

/// The worker's answer to a session request: a cycle, a clustering or a
/// gang search as its page view (`answers`), anything else as the engine's
/// `PoolResponse` JSON.
pub fn view_json(r: PoolResponse) -> String {
    let json = match r {
        PoolResponse::Cycle {
            cycle, augmented, ..
        } => serde_json::to_string(&cycle_view(cycle, augmented)),
        PoolResponse::Clusters {
            clustering,
            job_labels,
            signatures,
        } => serde_json::to_string(&Clusters {
            significant: clustering.significant,
            cluster_of: clustering.cluster_of,
            job_labels,
            signatures,
        }),
        PoolResponse::Gangs(v) => serde_json::to_string(&Gangs {
            algorithm: v.algorithm,
            counters: v.counters,
            rows: v.rows,
            offer_errors: v.offer_errors,
            steps: v.steps.into_iter().map(gang_step).collect(),
            steps_cut: v.steps_cut,
        }),
        other => serde_json::to_string(&other),
    };
    json.unwrap_or_else(|e| format!("{{\"kind\":\"failed\",\"message\":\"{e}\"}}"))
}
