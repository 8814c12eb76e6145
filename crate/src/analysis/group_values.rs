//! The machines' values of the attributes the requirements read, looked up
//! once while grouping and kept per group.
//!
//! Every later step (the table's atoms, the suggestions' values and the
//! checks of rewritten requirements) works an atom out from a group's
//! representative's value of one attribute. Looking that attribute up again
//! in 100,000 ads per atom costs more than the operators themselves (each
//! lookup misses the cache), and when every machine is a group of its own
//! it is most of the analysis: here each machine is read once.

use std::collections::BTreeSet;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use rustc_hash::FxHasher;

use super::groups::Groups;
use crate::lang::ast::{ClassAd, Expr, Name};
use crate::lang::value::Value;

/// A group representative's definition of one attribute.
#[derive(Clone, Debug)]
pub enum Cell {
    Absent,
    /// Defined as a literal (exactly `Expr::as_literal`); a copy, so that
    /// reading a column does not touch the ads again.
    Literal(Value),
    /// Defined by an expression: evaluate it.
    Computed,
}

/// Per attribute read (case-folded key), each group's [`Cell`].
#[derive(Clone, Debug, Default)]
pub struct GroupValues {
    keys: Vec<String>,
    /// `[key][group]`
    cells: Vec<Vec<Cell>>,
}

impl GroupValues {
    /// The groups' cells for a case-folded attribute key, when tabled.
    pub fn column(&self, key: &str) -> Option<&[Cell]> {
        let k = self.keys.iter().position(|x| x == key)?;
        Some(&self.cells[k])
    }
}

/// Group machines by their values of `keys` (case-folded attributes whose
/// value is a literal; a computed value, or a literal other than a number,
/// string or boolean, makes its machine a group of its own), tabling each
/// group's values. Groups are numbered in order of first appearance.
pub fn by_values(machines: &[Arc<ClassAd>], keys: &BTreeSet<String>) -> (Groups, GroupValues) {
    let names: Vec<Name> = keys.iter().map(|k| Name::new(k)).collect();
    // Ads of one pool mostly list attributes in the same order: try the
    // position the key had in the previous ad before hashing.
    let mut guess = vec![u32::MAX; names.len()];
    let mut g = Groups {
        rep: vec![],
        weight: vec![],
        of: Vec::with_capacity(machines.len()),
    };
    let mut t = GroupValues {
        keys: keys.iter().cloned().collect(),
        cells: vec![vec![]; names.len()],
    };
    let mut hashes: Vec<u64> = vec![];
    let mut index: hashbrown::HashTable<u32> = hashbrown::HashTable::new();
    let mut defs: Vec<Option<&Expr>> = Vec::with_capacity(names.len());
    // Equal strings of a column share the first one's allocation: copying
    // and dropping each machine's own would touch its memory twice more.
    let mut strings: Vec<rustc_hash::FxHashMap<&str, Value>> =
        vec![Default::default(); names.len()];
    for (i, m) in machines.iter().enumerate() {
        defs.clear();
        let mut h = FxHasher::default();
        let mut groupable = true;
        for (k, name) in names.iter().enumerate() {
            let def = find(m, name, &mut guess[k]).map(|p| m.at(p).1);
            match def {
                None => 0u8.hash(&mut h),
                Some(e) => match e.as_literal() {
                    Some(v) if hash_value(v, &mut h) => {}
                    _ => groupable = false,
                },
            }
            defs.push(def);
        }
        let hash = h.finish();
        let found = if groupable {
            index
                .find(hash, |&id| same(&defs, &t.cells, id as usize))
                .copied()
        } else {
            None
        };
        let id = match found {
            Some(id) => id,
            None => {
                let id = g.rep.len() as u32;
                if groupable {
                    index.insert_unique(hash, id, |&x| hashes[x as usize]);
                }
                hashes.push(hash);
                for (k, def) in defs.iter().enumerate() {
                    t.cells[k].push(match def.map(|e| e.as_literal()) {
                        None => Cell::Absent,
                        Some(None) => Cell::Computed,
                        Some(Some(v @ Value::Str(s))) => {
                            Cell::Literal(strings[k].entry(s).or_insert_with(|| v.clone()).clone())
                        }
                        Some(Some(v)) => Cell::Literal(v.clone()),
                    });
                }
                g.rep.push(i);
                g.weight.push(0);
                id
            }
        };
        g.weight[id as usize] += 1;
        g.of.push(id);
    }
    (g, t)
}

/// The position of `name` in `ad`, trying `guess` first.
#[inline]
pub(super) fn find(ad: &ClassAd, name: &Name, guess: &mut u32) -> Option<u32> {
    let p = *guess;
    if (p as usize) < ad.len() && Arc::ptr_eq(ad.key_at(p), &name.key) {
        return Some(p);
    }
    let p = ad.position_name(name)?;
    *guess = p;
    Some(p)
}

/// Hash a literal the way grouping compares it; false for a literal that
/// does not group (its machine is a group of its own).
fn hash_value(v: &Value, h: &mut FxHasher) -> bool {
    match v {
        Value::Int(x) => (1u8, *x).hash(h),
        Value::Real(r) => (2u8, r.to_bits()).hash(h),
        Value::Bool(b) => (3u8, *b).hash(h),
        Value::Str(s) => (4u8, &**s).hash(h),
        _ => return false,
    }
    true
}

/// Whether a machine's definitions (all groupable) equal group `id`'s.
fn same(defs: &[Option<&Expr>], cells: &[Vec<Cell>], id: usize) -> bool {
    defs.iter().zip(cells).all(
        |(d, col)| match (d.and_then(|e| e.as_literal()), &col[id]) {
            (None, Cell::Absent) => d.is_none(),
            (Some(a), Cell::Literal(b)) => match (a, b) {
                (Value::Int(x), Value::Int(y)) => x == y,
                (Value::Real(x), Value::Real(y)) => x.to_bits() == y.to_bits(),
                (Value::Bool(x), Value::Bool(y)) => x == y,
                (Value::Str(x), Value::Str(y)) => x == y,
                _ => false,
            },
            _ => false,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::parser::parse_classad;

    #[test]
    fn groups_by_read_values() {
        let m: Vec<Arc<ClassAd>> = [
            "[Arch = \"INTEL\"; Memory = 256; Name = \"a\"]",
            "[Arch = \"INTEL\"; Memory = 256; Name = \"b\"]",
            "[Arch = \"intel\"; Memory = 256]",
            "[Arch = \"INTEL\"; Memory = 2 * 128]",
        ]
        .iter()
        .map(|s| Arc::new(parse_classad(s).unwrap()))
        .collect();
        let keys: BTreeSet<String> = ["arch".to_string(), "memory".to_string()].into();
        let (g, _) = by_values(&m, &keys);
        assert_eq!(g.of, vec![0, 0, 1, 2]);
        assert_eq!(g.weight, vec![2, 1, 1]);
    }
}
