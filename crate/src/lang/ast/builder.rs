//! Building an ad definition by definition, as the pool readers do.
//!
//! Most ads of a pool name the same attributes in the same order as the ad
//! before them. While a new ad's names follow the previous ad's ([`NameList`]),
//! the builder keeps only its definitions; when the ad ends with exactly
//! those names, it shares the previous ad's names table. Pools often
//! alternate between a few shapes (a claimed slot has five names more than
//! an idle one), so the builder also knows the few tables read before it
//! ([`RecentNames`]) and follows one of those where the names part from the
//! previous ad's. Only an ad whose names differ from all of them builds a
//! table of its own — so reading a production slot's ~850 definitions
//! hashes none of their names.

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

/// The names tables of the last few distinct ads read, the latest first:
/// what a builder follows, and where it looks when the names part.
#[derive(Clone, Default)]
pub struct RecentNames([NameList; RecentNames::KEPT]);

impl RecentNames {
    const KEPT: usize = 4;

    /// The names of an ad just read: first now (a table already here moves
    /// up; the oldest goes when a new one comes).
    pub fn remember(&mut self, names: NameList) {
        let at = self
            .0
            .iter()
            .position(|l| Arc::ptr_eq(&l.0, &names.0))
            .unwrap_or(Self::KEPT - 1);
        self.0[..=at].rotate_right(1);
        self.0[0] = names;
    }
}

/// Whether two tables name the same first `n` attributes (entries are
/// interned: pointers compare).
fn same_prefix(a: &Names, b: &Names, n: usize) -> bool {
    a.list.len() >= n
        && b.list.len() >= n
        && a.list[..n]
            .iter()
            .zip(&b.list[..n])
            .all(|(x, y)| Arc::ptr_eq(x, y))
}

impl ClassAd {
    /// The ad's names, to build the next ad of a pool by.
    pub fn name_list(&self) -> NameList {
        NameList(self.names.clone())
    }
}

pub struct AdBuilder {
    like: NameList,
    /// Tables to follow instead where the names part from `like`'s.
    recent: RecentNames,
    /// While the names follow `like`: how many did. `None` once one did
    /// not (the names are then in `entries`).
    following: Option<usize>,
    entries: Vec<Arc<NameEntry>>,
    slots: Vec<Slot>,
    source: Option<Arc<LazySource>>,
}

impl AdBuilder {
    /// An ad of about `capacity` definitions whose names are probably
    /// those of the latest of `recent`, else of another; lazy definitions
    /// are read from `source`.
    pub fn new(
        recent: &RecentNames,
        capacity: usize,
        source: Option<Arc<LazySource>>,
    ) -> AdBuilder {
        AdBuilder {
            like: recent.0[0].clone(),
            recent: recent.clone(),
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
        if let Some(n) = self.following {
            let same = match (entry, self.like.entry(k)) {
                (None, Some(_)) => true,
                (Some(e), Some(l)) => Arc::ptr_eq(e, l),
                _ => false,
            };
            if same || entry.is_some_and(|e| self.follow_another(n, |l| Arc::ptr_eq(e, l))) {
                self.following = Some(n + 1);
                self.slots.push(slot);
                return;
            }
            // The names part: the ones followed so far become this ad's.
            self.entries = self.like.0.list[..n].to_vec();
            self.following = None;
        }
        let e = match (entry, self.like.entry(k)) {
            (Some(e), _) => e.clone(),
            (None, Some(l)) => l.clone(),
            (None, None) => intern_entry(name, key_hash(name)),
        };
        self.entries.push(e);
        self.slots.push(slot);
    }

    /// Follow, from here, the recent table that names the same first `n`
    /// attributes as the one followed so far and whose next name is
    /// `next`'s; false when none does.
    fn follow_another(&mut self, n: usize, next: impl Fn(&Arc<NameEntry>) -> bool) -> bool {
        let found = self.recent.0.iter().find(|l| {
            !Arc::ptr_eq(&l.0, &self.like.0)
                && l.entry(n).is_some_and(&next)
                && same_prefix(&l.0, &self.like.0, n)
        });
        match found {
            Some(l) => {
                self.like = l.clone();
                true
            }
            None => false,
        }
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
                if let Some(l) = self
                    .recent
                    .0
                    .iter()
                    .find(|l| l.0.list.len() == n && same_prefix(&l.0, &self.like.0, n))
                {
                    ad.names = l.0.clone();
                    ad.slots = self.slots;
                    return ad;
                }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::ast::{ExprKind, Value};
    use std::collections::HashMap;

    /// Builds ads as the pool readers do: names interned once, and no
    /// entry passed where the builder expects the name.
    struct Reader {
        interned: HashMap<String, Arc<NameEntry>>,
        recent: RecentNames,
    }

    impl Reader {
        fn ad(&mut self, names: &[&str]) -> ClassAd {
            let mut b = AdBuilder::new(&self.recent, names.len(), None);
            for (i, n) in names.iter().enumerate() {
                let entry = (!b.expects(n)).then(|| {
                    self.interned
                        .entry(n.to_string())
                        .or_insert_with(|| intern_entry(n, key_hash(n)))
                        .clone()
                });
                b.push_parsed(n, entry.as_ref(), Expr::literal(Value::Int(i as i64)));
            }
            let ad = b.finish();
            self.recent.remember(ad.name_list());
            ad
        }
    }

    fn value(ad: &ClassAd, name: &str) -> Option<i64> {
        match ad.get(name)?.kind {
            ExprKind::Literal(Value::Int(i)) => Some(i),
            _ => None,
        }
    }

    #[test]
    fn alternating_shapes_share_their_tables() {
        let mut r = Reader {
            interned: HashMap::new(),
            recent: RecentNames::default(),
        };
        let idle = ["MyType", "Name", "State"];
        let claimed = ["MyType", "Name", "State", "RemoteUser", "ImageSize"];
        let reordered = ["Name", "MyType", "State"];
        let ads: Vec<ClassAd> = [
            &idle[..],
            &claimed,
            &idle,
            &claimed,
            &reordered,
            &idle,
            &claimed,
        ]
        .iter()
        .map(|names| r.ad(names))
        .collect();
        let shared = |a: usize, b: usize| Arc::ptr_eq(&ads[a].names, &ads[b].names);
        // An idle ad after a claimed one (a prefix of its names) and a
        // claimed one after an idle one (more names) each find their own.
        assert!(shared(0, 2) && shared(0, 5));
        assert!(shared(1, 3) && shared(1, 6));
        assert!(!shared(0, 1) && !shared(4, 0));
        for (ad, names) in ads
            .iter()
            .zip([&idle[..], &claimed, &idle, &claimed, &reordered])
        {
            assert_eq!(ad.len(), names.len());
            for (i, n) in names.iter().enumerate() {
                assert_eq!(value(ad, n), Some(i as i64), "{n}");
            }
        }
        assert_eq!(value(&ads[0], "RemoteUser"), None);
    }

    #[test]
    fn recent_tables_are_few_and_the_latest_first() {
        let mut r = Reader {
            interned: HashMap::new(),
            recent: RecentNames::default(),
        };
        let shapes: Vec<Vec<String>> = (0..6)
            .map(|k| (0..=k).map(|i| format!("A{i}")).collect())
            .collect();
        for s in &shapes {
            let names: Vec<&str> = s.iter().map(String::as_str).collect();
            r.ad(&names);
        }
        let lens: Vec<usize> = r.recent.0.iter().map(|l| l.0.list.len()).collect();
        assert_eq!(lens, [6, 5, 4, 3]);
    }
}
