//! Building an ad definition by definition, as the pool readers do.
//!
//! Most ads of a pool name the same attributes in the same order as the ad
//! before them. While a new ad's names follow the previous ad's ([`NameList`]),
//! the builder keeps only its definitions; when the ad ends with exactly
//! those names, it shares the previous ad's names table. Only an ad whose
//! names differ builds a table of its own — so reading a production slot's
//! ~850 definitions hashes none of their names.

use std::sync::Arc;

use super::{intern_entry, key_hash, ClassAd, Expr, LazySource, NameEntry, Names, Slot};

/// The names of an ad, in order, with their lookup table: what a builder
/// follows (cheap to clone, kept between the records of a stream).
#[derive(Clone, Default)]
pub struct NameList(Arc<Names>);

impl NameList {
    /// The interned name at position `k`, if there is one.
    #[inline]
    pub fn entry(&self, k: usize) -> Option<&Arc<NameEntry>> {
        self.0.list.get(k)
    }
}

impl ClassAd {
    /// The ad's names, to build the next ad of a pool by.
    pub fn name_list(&self) -> NameList {
        NameList(self.names.clone())
    }
}

pub struct AdBuilder {
    like: NameList,
    /// While the names follow `like`: how many did. `None` once one did
    /// not (the names are then in `entries`).
    following: Option<usize>,
    entries: Vec<Arc<NameEntry>>,
    slots: Vec<Slot>,
    source: Option<Arc<LazySource>>,
}

impl AdBuilder {
    /// An ad of about `capacity` definitions whose names are probably
    /// those of `like`; lazy definitions are read from `source`.
    pub fn new(like: NameList, capacity: usize, source: Option<Arc<LazySource>>) -> AdBuilder {
        AdBuilder {
            like,
            following: Some(0),
            entries: Vec::new(),
            slots: Vec::with_capacity(capacity),
            source,
        }
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Whether the next definition's name is, as written, the followed
    /// ad's at this position (then it is pushed without its entry).
    #[inline]
    pub fn expects(&self, name: &str) -> bool {
        self.like
            .entry(self.slots.len())
            .is_some_and(|e| *e.text == *name)
    }

    /// A parsed definition of `name`, under its interned `entry` or, when
    /// `None`, the one [`expects`](Self::expects) said it is.
    pub fn push_parsed(&mut self, name: &str, entry: Option<&Arc<NameEntry>>, e: Expr) {
        self.push(name, entry, Slot::parsed(e));
    }

    /// A definition kept as `source.text[at..at + len]` until it is read
    /// (named as in [`push_parsed`](Self::push_parsed)); false, keeping
    /// nothing, when there is no source or the text is too long to keep
    /// lazily (2 GB).
    pub fn push_lazy(
        &mut self,
        name: &str,
        entry: Option<&Arc<NameEntry>>,
        at: u32,
        len: u32,
        literal: bool,
    ) -> bool {
        if self.source.is_none() || len & Slot::LITERAL != 0 {
            return false;
        }
        let len = if literal { len | Slot::LITERAL } else { len };
        let slot = Slot {
            expr: Default::default(),
            at,
            len,
        };
        self.push(name, entry, slot);
        true
    }

    #[inline]
    fn push(&mut self, name: &str, entry: Option<&Arc<NameEntry>>, slot: Slot) {
        let k = self.slots.len();
        let expected = self.like.entry(k);
        if let Some(n) = self.following {
            let same = match (entry, expected) {
                (None, Some(_)) => true,
                (Some(e), Some(l)) => Arc::ptr_eq(e, l),
                _ => false,
            };
            if same {
                self.following = Some(n + 1);
                self.slots.push(slot);
                return;
            }
            // The names part: the ones followed so far become this ad's.
            self.entries = self.like.0.list[..n].to_vec();
            self.following = None;
        }
        let e = match (entry, expected) {
            (Some(e), _) => e.clone(),
            (None, Some(l)) => l.clone(),
            (None, None) => intern_entry(name, key_hash(name)),
        };
        self.entries.push(e);
        self.slots.push(slot);
    }

    /// The ad: sharing the followed ad's names when they are all the same,
    /// else with a table of its own (a name defined twice keeps its first
    /// position and spelling and its last definition, as `insert` does).
    pub fn finish(self) -> ClassAd {
        let mut ad = ClassAd {
            slots: Vec::new(),
            names: Arc::default(),
            source: self.source,
        };
        match self.following {
            Some(n) if n == self.like.0.list.len() => {
                ad.names = self.like.0;
                ad.slots = self.slots;
            }
            Some(n) => {
                // A prefix of the followed names (no name twice).
                let mut names = Names::with_capacity(n);
                for e in &self.like.0.list[..n] {
                    names.push(e.clone());
                }
                ad.names = Arc::new(names);
                ad.slots = self.slots;
            }
            None => {
                ad.slots.reserve(self.slots.len());
                *Arc::make_mut(&mut ad.names) = Names::with_capacity(self.entries.len());
                for (e, slot) in self.entries.iter().zip(self.slots) {
                    ad.insert_slot(&e.text, e.hash, Some(e), slot);
                }
            }
        }
        ad
    }
}
