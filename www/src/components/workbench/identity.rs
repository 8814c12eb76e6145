//! MY and TARGET are chosen ads, kept by identity rather than position: an
//! ad's label (its `Name`, else `ClusterId.ProcId`, `GlobalJobId`, …) when
//! that label is its own — unique in its pool and not the positional
//! `ad N`. When the ads before a chosen one stop parsing or move, the choice
//! follows its ad; when the ad itself no longer parses (its label is still
//! in the pool's text), the choice stays where it was and the evaluator
//! says so, instead of silently evaluating against whichever ad now sits at
//! that position. An ad removed from the text altogether (a new pool pasted
//! over the old) leaves only its place: the ad there becomes the choice.

use std::rc::Rc;

use crate::bridge::parses::ParsedPool;
use crate::state::app_state::AdRef;

/// Whether `label` names exactly one ad of `pool` and is not positional.
fn own_label(pool: &ParsedPool, label: &str) -> bool {
    !label.starts_with("ad ")
        && pool
            .summary
            .ads
            .iter()
            .filter(|a| a.label == label)
            .take(2)
            .count()
            == 1
}

/// Where a chosen ad is now, and its identity. `pools[i]` is pool `i`'s
/// parse for its present text (`None` while it is being parsed: nothing is
/// decided then).
pub fn follow(
    pools: &[Option<Rc<ParsedPool>>],
    r: Option<AdRef>,
    label: Option<String>,
) -> (Option<AdRef>, Option<String>) {
    let Some(r) = r else {
        return (None, None);
    };
    let Some(Some(pool)) = pools.get(r.pool) else {
        return (Some(r), label);
    };
    let here = pool.summary.ads.get(r.ad).map(|a| a.label.as_str());
    match label {
        // First sight of the choice: remember its ad's label, if it has one.
        None => {
            let label = here.filter(|l| own_label(pool, l)).map(str::to_string);
            (Some(r), label)
        }
        Some(l) if here == Some(l.as_str()) => (Some(r), Some(l)),
        Some(l) => match pool.summary.ads.iter().position(|a| a.label == l) {
            Some(ad) if own_label(pool, &l) => (Some(AdRef { pool: r.pool, ad }), Some(l)),
            // Still written in the pool but not parsing (or no longer
            // unique): stay, and let the evaluator say so.
            // (Only a pool with errors has ads that do not parse: the
            // search is skipped otherwise, 150 ms over a 250 MB pool.)
            _ if pool.summary.diagnostics.iter().any(|d| d.is_error())
                && pool.text.contains(l.as_str()) =>
            {
                (Some(r), Some(l))
            }
            // Not in the text at all: the ad was removed or renamed (a new
            // pool pasted over the old one). The place is all that is left.
            _ => follow(pools, Some(r), None),
        },
    }
}

/// Whether the ad at `r` is the one `label` names (`true` without a label).
pub fn is_chosen_ad(pool: &ParsedPool, r: AdRef, label: Option<&str>) -> bool {
    match label {
        None => true,
        Some(l) => pool.summary.ads.get(r.ad).is_some_and(|a| a.label == l),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worker::replies::summarize;

    fn pool(text: &str) -> Option<Rc<ParsedPool>> {
        Some(Rc::new(ParsedPool {
            text: Rc::from(text),
            summary: summarize(text, Default::default()),
            ms: 0.0,
        }))
    }

    const THREE: &str =
        "[ Name = \"a\"; x = 1 ]\n[ Name = \"b\"; x = 2 ]\n[ Name = \"c\"; x = 3 ]\n";

    #[test]
    fn a_choice_follows_its_ad_and_says_when_it_is_gone() {
        let at = |ad| Some(AdRef { pool: 0, ad });
        // First sight: the label is remembered.
        assert_eq!(
            follow(&[pool(THREE)], at(2), None),
            (at(2), Some("c".into()))
        );
        // A typo breaks ad "a": "c" is now the second ad, and the choice follows.
        let broken = "[ Name = \"a\"; x = ]\n[ Name = \"b\"; x = 2 ]\n[ Name = \"c\"; x = 3 ]\n";
        let p = pool(broken);
        assert_eq!(p.as_ref().unwrap().summary.ads.len(), 2);
        assert_eq!(
            follow(&[p.clone()], at(2), Some("c".into())),
            (at(1), Some("c".into()))
        );
        // The chosen ad itself breaks: the choice stays, and is not "b".
        let gone = "[ Name = \"a\"; x = 1 ]\n[ Name = \"b\"; x = 2 ]\n[ Name = \"c\"; x = ]\n";
        let p = pool(gone).unwrap();
        assert_eq!(
            follow(&[Some(p.clone())], at(1), Some("c".into())),
            (at(1), Some("c".into()))
        );
        assert!(!is_chosen_ad(&p, AdRef { pool: 0, ad: 1 }, Some("c")));
        // Removed from the text (a new pool pasted in): the place is kept
        // and the ad there becomes the choice.
        let other = "[ Name = \"x\" ]\n[ Name = \"y\" ]\n";
        assert_eq!(
            follow(&[pool(other)], at(1), Some("c".into())),
            (at(1), Some("y".into()))
        );
        // Unnamed ads have only their position.
        let unnamed = "[ x = 1 ]\n[ x = 2 ]\n";
        assert_eq!(follow(&[pool(unnamed)], at(1), None), (at(1), None));
        // Still parsing: nothing is decided.
        assert_eq!(
            follow(&[None], at(1), Some("c".into())),
            (at(1), Some("c".into()))
        );
    }
}
