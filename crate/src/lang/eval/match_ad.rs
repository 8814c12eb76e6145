//! libclassad's MatchClassAd: the ad a match of two ads is evaluated in.
//! It holds both ads (`LEFT`, `RIGHT`), the match expressions, and a context
//! ad around each side that names the two (`my`, `other`, `target`, `ad`).
//! Written as ClassAd text, as libclassad writes them.

use std::sync::Arc;

use crate::lang::ast::{ClassAd, Expr, ExprKind, Side, Span};
use crate::lang::parser::parse_classad;

/// The match ad for `my` (left) and `target` (right).
pub(super) fn match_ad(my: Option<&Arc<ClassAd>>, target: Option<&Arc<ClassAd>>) -> ClassAd {
    let mut ad = parse_classad(
        "[ symmetricMatch = RIGHT.requirements && LEFT.requirements; \
         leftMatchesRight = RIGHT.requirements; rightMatchesLeft = LEFT.requirements; \
         leftRankValue = LEFT.rank; rightRankValue = RIGHT.rank ]",
    )
    .expect("static match ad parses");
    let record = |a: Arc<ClassAd>| Expr::new(ExprKind::Record(a), Span::NONE);
    ad.insert("lCtx", record(match_context_ad(Side::My)));
    ad.insert("rCtx", record(match_context_ad(Side::Target)));
    if let Some(my) = my {
        ad.insert("LEFT", record(my.clone()));
    }
    if let Some(target) = target {
        ad.insert("RIGHT", record(target.clone()));
    }
    ad
}

/// The context record libclassad's match ad wraps each side in, e.g.
/// `[ ad = .LEFT; my = .LEFT; other = .RIGHT; target = .RIGHT ]`.
pub(super) fn match_context_ad(side: Side) -> Arc<ClassAd> {
    static ADS: std::sync::OnceLock<[Arc<ClassAd>; 2]> = std::sync::OnceLock::new();
    let ads = ADS.get_or_init(|| {
        let make = |me: &str, other: &str| {
            let src = format!("[ ad = .{me}; my = .{me}; other = .{other}; target = .{other} ]");
            Arc::new(parse_classad(&src).expect("static match context parses"))
        };
        [make("LEFT", "RIGHT"), make("RIGHT", "LEFT")]
    });
    ads[side as usize].clone()
}
