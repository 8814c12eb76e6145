//! Helpers the format tests share (each file under tests/ is a crate of
//! its own: `mod common;` brings these in).

use classad::formats::Pool;
use classad::ClassAd;

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
