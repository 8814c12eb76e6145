//! Helpers the integration tests share (each file under tests/ is a crate
//! of its own: `mod common;` brings these in, and each uses a part, so the
//! rest is dead code there).
#![allow(dead_code)]

use std::sync::Arc;

use classad::formats::Pool;
use classad::{parse_classad, ClassAd};

/// One ad in the new syntax; a test's own text, so a parse error panics
/// naming it.
pub fn ad(text: &str) -> Arc<ClassAd> {
    Arc::new(parse_classad(text).unwrap_or_else(|e| panic!("{text}: {e:?}")))
}

/// [`ad`] of each text.
pub fn ads<S: AsRef<str>>(texts: impl IntoIterator<Item = S>) -> Vec<Arc<ClassAd>> {
    texts.into_iter().map(|t| ad(t.as_ref())).collect()
}

/// A pool's ads, in order.
pub fn pool_ads(p: &Pool) -> Vec<&ClassAd> {
    p.ads.iter().map(|a| &a.ad).collect()
}

/// Every attribute as `name = canonical unparse`, in order.
pub fn canon(ad: &ClassAd) -> Vec<String> {
    ad.iter()
        .map(|(n, e)| format!("{n} = {}", classad::unparse(e)))
        .collect()
}

/// [`canon`] of every ad of a pool.
pub fn canon_pool(p: &Pool) -> Vec<Vec<String>> {
    p.ads.iter().map(|a| canon(&a.ad)).collect()
}
