//! The examples gallery: every ClassAd figure of the seed documents and a
//! realistic modern pool, each loadable in one click (and by the deep link
//! `#example=<id>`), with a sentence saying what the paper shows.
//!
//! The examples are data: `examples/gallery.json` (see its README).
//! `build.rs` splits it: the cards (here, read once) for the page, and the
//! pools, which only the worker links (`worker/gallery.rs` builds an
//! example's state and sends it).

use std::sync::OnceLock;

use serde::Deserialize;

use crate::state::app_state::View;

/// One card of the gallery. What else an example opens with (its chosen
/// ads, scope, clock, query and pools) only the worker reads
/// (`worker/gallery.rs`).
#[derive(Debug, Deserialize)]
pub struct Example {
    pub id: String,
    pub title: String,
    /// Where it comes from (document and figure).
    pub source: String,
    /// What the paper claims the example shows.
    pub claim: String,
    /// The view it opens in (matchmaking examples open in theirs).
    pub view: View,
    /// The expression's first line (` …` when it has more).
    pub expr: String,
    /// What the expression evaluates to (checked by the tests), when it
    /// does not depend on the clock.
    pub expect: Option<String>,
}

/// The examples as `build.rs` wrote them (`examples/gallery.json` without
/// the pools): the page reads the cards, the worker what they open with.
pub const CARDS: &str = include_str!(concat!(env!("OUT_DIR"), "/gallery_cards.json"));

/// Every example, in the gallery's order.
pub fn examples() -> &'static [Example] {
    static EXAMPLES: OnceLock<Vec<Example>> = OnceLock::new();
    EXAMPLES.get_or_init(|| {
        // The tests read every example: a bad file fails them, not the page.
        serde_json::from_str(CARDS).expect("examples/gallery.json reads")
    })
}

pub fn find(id: &str) -> Option<&'static Example> {
    examples().iter().find(|e| e.id == id)
}
