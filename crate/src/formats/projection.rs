//! Reading only what a piece of work reaches.
//!
//! A query over a production pool reads a handful of each slot's ~850
//! definitions. Given a [`Projection`] — the attribute names the work
//! reads — the long-format reader keeps only those definitions of each
//! ad and passes over every other line after looking at its name: no
//! name is hashed or interned, no value checked, no table built.
//!
//! The names are closed under reference as the pool is read: each kept
//! definition's references join the projection (and the ad is read again
//! with them), so an ad holds every definition evaluation can reach from
//! the work's expressions. Where what an expression reads cannot be told
//! from its text — `eval()` of a string, the ad itself used as a value
//! (`MY`, `toplevel` not followed by `.name`) — the projection gives up
//! and every definition is kept, as without one.
//!
//! What is passed over is not checked: a syntax error in a definition the
//! work never reaches is not reported (a line that is not a plain
//! `Name = …` definition makes the reader read that ad whole, so a
//! continuation line or a bad name is still reported as it would be).

use rustc_hash::FxHashSet;

use crate::lang::ast::{ClassAd, Expr, ExprKind};

/// The attribute names a piece of work reads (case-insensitive).
#[derive(Clone, Debug)]
pub struct Projection {
    /// Folded names by length (names of 64 bytes or more in the last).
    by_len: Vec<Vec<Box<[u8]>>>,
    /// Bit `n` set: some name has length `n` (`n` < 64).
    lengths: u64,
    /// Right-hand sides whose references are in already (by text).
    closed: FxHashSet<Box<str>>,
    /// Every definition is kept (see the module's notes).
    everything: bool,
}

/// The most definition texts a projection remembers as closed; past it
/// texts are walked again (a pool of unique expressions).
const MAX_CLOSED: usize = 1 << 14;
const LONG: usize = 64;

impl Default for Projection {
    /// Wanting no name (every ad read with none of its definitions).
    fn default() -> Projection {
        Projection::of([])
    }
}

impl Projection {
    /// A projection of `names`.
    pub fn of<'a>(names: impl IntoIterator<Item = &'a str>) -> Projection {
        let mut p = Projection {
            by_len: vec![Vec::new(); LONG + 1],
            lengths: 0,
            closed: FxHashSet::default(),
            everything: false,
        };
        for n in names {
            p.add(n);
        }
        p
    }

    /// The projection of what `exprs` reach (with `names` besides), or
    /// one that keeps everything when an expression's reach cannot be told.
    pub fn reaching<'a>(
        exprs: impl IntoIterator<Item = &'a Expr>,
        names: impl IntoIterator<Item = &'a str>,
    ) -> Projection {
        let mut p = Projection::of(names);
        for e in exprs {
            p.add_reach(e);
        }
        p
    }

    /// This projection with `names` besides.
    pub fn with<'a>(mut self, names: impl IntoIterator<Item = &'a str>) -> Projection {
        for n in names {
            self.add(n);
        }
        self
    }

    /// Whether every definition is kept.
    pub fn keeps_everything(&self) -> bool {
        self.everything
    }

    /// Whether definitions of `name` (as written in the text) are kept.
    #[inline]
    pub fn wants(&self, name: &[u8]) -> bool {
        if self.everything {
            return true;
        }
        let n = name.len();
        if n < LONG && self.lengths & (1 << n) == 0 {
            return false;
        }
        self.by_len[n.min(LONG)]
            .iter()
            .any(|w| w.eq_ignore_ascii_case(name))
    }

    fn add(&mut self, name: &str) -> bool {
        if self.wants(name.as_bytes()) {
            return false;
        }
        let n = name.len();
        if n < LONG {
            self.lengths |= 1 << n;
        }
        self.by_len[n.min(LONG)].push(name.to_ascii_lowercase().into_bytes().into());
        true
    }

    /// Add every name `e` may read; true when something was added.
    fn add_reach(&mut self, e: &Expr) -> bool {
        let mut names = Vec::new();
        if !reach(e, &mut names) {
            let was = self.everything;
            self.everything = true;
            return !was;
        }
        let mut grew = false;
        for n in names {
            grew |= self.add(n);
        }
        grew
    }

    /// Add the references of the definitions `ad` kept; true when the
    /// projection grew (the ad must then be read again with it).
    pub(crate) fn close_over(&mut self, ad: &ClassAd) -> bool {
        if self.everything {
            return false;
        }
        let mut grew = false;
        for i in 0..ad.len() as u32 {
            if ad.is_literal(i) {
                continue;
            }
            if let Some(text) = ad.definition_text(i) {
                if self.closed.contains(text) {
                    continue;
                }
                if self.closed.len() < MAX_CLOSED {
                    self.closed.insert(text.into());
                }
            }
            grew |= self.add_reach(&ad.expr_transient(i));
            if self.everything {
                return true;
            }
        }
        grew
    }
}

/// The scope words: `MY.x` reads `x`; `MY` alone is the whole ad.
fn is_scope_word(key: &str) -> bool {
    matches!(
        key,
        "my" | "self" | "target" | "other" | "parent" | "root" | "toplevel"
    )
}

/// Collect the names `e` may read into `out` (more than it reads, never
/// fewer); false when that cannot be told from the text.
fn reach<'a>(e: &'a Expr, out: &mut Vec<&'a str>) -> bool {
    match &e.kind {
        ExprKind::Literal(_) => true,
        ExprKind::Attr { name, .. } => {
            if is_scope_word(&name.key) {
                // The ad (or the other one) itself, as a value.
                return false;
            }
            out.push(&name.text);
            true
        }
        ExprKind::Select(base, name) => {
            out.push(&name.text);
            match &base.kind {
                ExprKind::Attr { name: b, .. } if is_scope_word(&b.key) => true,
                _ => reach(base, out),
            }
        }
        ExprKind::Call(c) if c.name.eq_ignore_ascii_case("eval") => false,
        ExprKind::Record(ad) => (0..ad.len() as u32).all(|i| {
            // Nested definitions resolve names in the enclosing ads too.
            let (_, def) = ad.at(i);
            reach(def, out)
        }),
        _ => e.children().into_iter().all(|c| reach(c, out)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::parser::parse_expr;

    fn reach_of(text: &str) -> Projection {
        Projection::reaching([&parse_expr(text).unwrap()], [])
    }

    #[test]
    fn names_are_wanted_in_any_case_and_scope_words_select() {
        let p = reach_of("MY.Memory > 10 && TARGET.Disk > 1 && cpus > 1 && [a = Arch].a");
        for n in ["memory", "MEMORY", "Disk", "Cpus", "arch"] {
            assert!(p.wants(n.as_bytes()), "{n}");
        }
        assert!(!p.wants(b"Memor") && !p.wants(b"a_name_that_is_not_there"));
        assert!(!p.keeps_everything());
    }

    #[test]
    fn what_the_text_cannot_tell_keeps_everything() {
        for text in [
            "eval(strcat(\"Mem\", \"ory\")) > 1",
            "size(MY) > 3",
            "toplevel",
            "EVAL(\"x\")",
        ] {
            assert!(reach_of(text).keeps_everything(), "{text}");
        }
    }

    #[test]
    fn long_names_are_wanted_too() {
        let long = "A".repeat(100);
        let p = Projection::of([long.as_str()]);
        assert!(p.wants(long.to_lowercase().as_bytes()) && !p.wants(&[b'a'; 99]));
        // The empty projection answers for any length too.
        let none = Projection::default().with(["Cpus"]);
        assert!(none.wants(b"CPUS") && !Projection::default().wants(&[b'a'; 99]));
    }
}
