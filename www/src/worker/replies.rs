//! The worker's replies: a pool's summary, the names of MY and TARGET
//! beside an evaluation, and the session's answers as the engine writes
//! them (cycles, clusterings and gang searches come shaped for the views).

use classad::{ClassAd, ExprKind};

use crate::bridge::answers::AdNames;
use crate::bridge::pool_summary::{AdInfo, PoolSummary};

/// Parse a pool (in the worker). This reads the pool with the engine's
/// reader directly rather than through `api::ParsePool`, which lists every
/// ad's attributes (megabytes of JSON for 10,000 ads). One pass finds the
/// ads' lines.
pub fn summarize(text: &str, dialect: classad::api::Dialect) -> PoolSummary {
    // A submit description file holds no ads: its job ads are made by the
    // submit bar (read as ads, its lines would be one error each, and the
    // evaluator would offer it as MY).
    if crate::bridge::submit::looks_like_submit(text) {
        return PoolSummary {
            ads: vec![],
            diagnostics: vec![],
            engine_memory: classad::api::wasm_memory_bytes(),
        };
    }
    let pool = classad::formats::read_pool(text, Default::default(), dialect);
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
        engine_memory: classad::api::wasm_memory_bytes(),
    }
}

/// Attribute names (lower case) of an ad and the paths of its nested
/// records, read from its text.
pub fn ad_names(text: &str, dialect: classad::api::Dialect) -> AdNames {
    let pool = classad::formats::read_pool(text, Default::default(), dialect);
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

/// The `evaluate-text` verb: `<request JSON>\n<expression>`, the
/// expression as it is (a pasted one can be tens of megabytes: the page
/// sends it as bytes rather than escaping it into the JSON).
pub fn evaluate_text(payload: &str) -> String {
    let (json, text) = payload.split_once('\n').unwrap_or((payload, ""));
    match serde_json::from_str::<classad::api::Request>(json) {
        Ok(mut request) => {
            if let classad::api::Request::Evaluate { expr, .. } = &mut request {
                *expr = text.to_string();
            }
            evaluate_request(request)
        }
        // Said as the API says it (`bad request: …`).
        Err(_) => with_names(Default::default(), classad::api::handle_json(json)),
    }
}

/// An `evaluate` request whole in its JSON (the expression escaped in it),
/// answered as `evaluate-text` answers: what the tests hold the page's
/// verb to.
#[cfg(test)]
pub fn evaluate_json(payload: &str) -> String {
    match serde_json::from_str::<classad::api::Request>(payload) {
        Ok(request) => evaluate_request(request),
        // Said as the API says it (`bad request: …`).
        Err(_) => with_names(Default::default(), classad::api::handle_json(payload)),
    }
}

fn evaluate_request(request: classad::api::Request) -> String {
    let names = match &request {
        classad::api::Request::Evaluate {
            my,
            target,
            dialect,
            ..
        } => (
            my.as_deref()
                .map(|t| ad_names(t, *dialect))
                .unwrap_or_default(),
            target
                .as_deref()
                .map(|t| ad_names(t, *dialect))
                .unwrap_or_default(),
        ),
        _ => Default::default(),
    };
    let response = classad::api::handle(request);
    let response = serde_json::to_string(&response).unwrap_or_default();
    with_names(names, response)
}

fn with_names(names: (AdNames, AdNames), response: String) -> String {
    let names = serde_json::to_string(&names).unwrap_or_else(|_| "[{},{}]".into());
    // The response is already JSON: spliced in, not read and written again.
    format!("{{\"names\":{names},\"response\":{response}}}")
}
