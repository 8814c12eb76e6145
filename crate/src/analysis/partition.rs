//! Nobody Likes Me (seed 000 §3.2): the machines' requirement clauses are
//! hyper-rectangles over job attributes; partition that space into cells of
//! identical machine sets, so a job can be told which values would move it
//! into which machines' reach, nearest (M2) first.
//!
//! Per dimension the value line is cut at every bound into elementary pieces
//! (numeric points and open intervals, each listed string, *AnyOtherString*
//! excluding the listed ones, undefined, the booleans when some side tells
//! them from 0/1), each with the set of rectangles covering it; pieces with
//! the same set are merged (they are one equivalence class). The cross
//! product is built best-first by distance from the job, dropping partial
//! products no rectangle covers, up to `max_cells`; cells with the same
//! machines that differ in one dimension are then joined.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap};

use crate::constraint::intervals::{fold, normalize, Constraint, NumInterval, ValueSet};
use crate::lang::value::Value;

/// Search work (nodes visited and pieces scanned) at most, whatever `max_cells` says.
const MAX_WORK: usize = 1_000_000;
/// Passes joining cells with identical machine sets.
const MERGE_PASSES: usize = 4;

/// One requirements clause of one machine; attributes not in `sides` are unconstrained.
#[derive(Clone, Debug)]
pub struct Rect {
    pub machine: usize,
    /// (attribute key, case-folded; the region of that attribute).
    pub sides: Vec<(String, Constraint)>,
}

#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Cells built (before joining alike ones) when the construction stops;
    /// `Partition::complete` is then false.
    pub max_cells: usize,
}

#[derive(Clone, Debug)]
pub struct Cell {
    /// One per dimension (in `Partition::dimensions` order): the region of the cell.
    pub sides: Vec<(String, Constraint)>,
    /// Sorted, deduplicated; shared by the cells with the same machines
    /// (thousands of cells over thousands of machines would not fit).
    pub machines: std::sync::Arc<[usize]>,
    /// M2 distance from the job point.
    pub distance: f64,
    /// The value each dimension must take to move the job into the cell, only
    /// where the job's value is outside (or missing). `Value::Undefined`
    /// means "remove the attribute".
    pub changes: Vec<(String, Value)>,
}

#[derive(Clone, Debug)]
pub struct Partition {
    /// Nearest first (distance, then more machines first).
    pub cells: Vec<Cell>,
    /// False when `max_cells` (or the work bound, 1,000,000 nodes and piece
    /// scans) stopped the construction; the cells built are the nearest.
    pub complete: bool,
    pub dimensions: Vec<String>,
}

/// Rectangle sets, one bit per rectangle.
type Bits = Vec<u64>;

fn set_bit(b: &mut Bits, i: usize) {
    if let Some(w) = b.get_mut(i / 64) {
        *w |= 1 << (i % 64);
    }
}
fn ones(b: &Bits) -> impl Iterator<Item = usize> + '_ {
    b.iter().enumerate().flat_map(|(w, &x)| {
        let mut x = x;
        std::iter::from_fn(move || {
            let i = (x != 0).then(|| x.trailing_zeros() as usize)?;
            x &= x - 1;
            Some(w * 64 + i)
        })
    })
}
fn meets(a: &Bits, b: &Bits) -> bool {
    a.iter().zip(b).any(|(x, y)| x & y != 0)
}

/// One dimension: the job's value there, and its pieces, each with the
/// rectangles covering it and its distance from the job's value.
struct Dim {
    key: String,
    job: Value,
    range: f64,
    pieces: Vec<(ValueSet, Bits, f64)>,
}

/// The cells of the job-attribute space that some rectangle covers, nearest
/// the job first. `job`: the job's value per dimension (`None`: it lacks the
/// attribute); `ranges`: per numeric dimension the span normalizing distance
/// (missing or not positive: 1).
pub fn partition(
    rects: &[Rect],
    job: &[(String, Option<Value>)],
    ranges: &[(String, f64)],
    limits: &Limits,
) -> Partition {
    // Dimensions in order of first appearance; a rectangle's sides on one
    // attribute are intersected.
    let mut index: HashMap<String, usize> = HashMap::new();
    let (mut dimensions, mut sides): (Vec<String>, Vec<Vec<Option<ValueSet>>>) = (vec![], vec![]);
    for (r, rect) in rects.iter().enumerate() {
        for (k, c) in &rect.sides {
            let d = *index.entry(fold(k)).or_insert_with(|| {
                dimensions.push(k.clone());
                sides.push(vec![None; rects.len()]);
                dimensions.len() - 1
            });
            let s = Constraint::from_set(c.to_set()).to_set();
            if let Some(slot) = sides.get_mut(d).and_then(|v| v.get_mut(r)) {
                *slot = Some(slot.take().map_or(s.clone(), |prev| {
                    Constraint::from_set(prev.intersect(&s)).to_set()
                }));
            }
        }
    }
    let words = rects.len().div_ceil(64);
    let lookup = |f: &str| {
        job.iter()
            .find(|(k, _)| fold(k) == f)
            .and_then(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let dims: Vec<Dim> = dimensions
        .iter()
        .zip(&sides)
        .map(|(key, sides)| {
            let f = fold(key);
            let range = ranges
                .iter()
                .find(|(k, _)| fold(k) == f)
                .map_or(1.0, |(_, r)| *r);
            let range = if range.is_finite() && range > 0.0 {
                range
            } else {
                1.0
            };
            let job = lookup(&f);
            let pieces = pieces(sides, &job, words).into_iter();
            let mut pieces: Vec<_> = pieces
                .map(|(s, b)| (side_distance(&s, &job, range).0, s, b))
                .collect();
            pieces.sort_by(|a, b| a.0.total_cmp(&b.0));
            let pieces = pieces.into_iter().map(|(d, s, b)| (s, b, d)).collect();
            Dim {
                key: key.clone(),
                range,
                pieces,
                job,
            }
        })
        .collect();

    // Best-first cross product, lazily: pieces are sorted by distance, and a
    // popped node pushes only its next sibling and its first child (each the
    // nearest piece still meeting the rectangles so far). Cells come out
    // nearest first, so a stopped construction holds the nearest ones.
    let mut all: Bits = vec![0; words];
    (0..rects.len()).for_each(|r| set_bit(&mut all, r));
    let path_bits = |path: &[usize]| {
        let mut b = all.clone();
        for (dim, &p) in dims.iter().zip(path) {
            let pb = dim.pieces.get(p).map(|x| &x.1);
            b.iter_mut()
                .enumerate()
                .for_each(|(i, w)| *w &= pb.and_then(|pb| pb.get(i)).copied().unwrap_or(0));
        }
        b
    };
    // The first piece of `dim` from `from` on that meets `bits` (scanning counts as work).
    let next = |dim: Option<&Dim>, from: usize, bits: &Bits, work: &mut usize| {
        let pieces = dim.map_or(&[][..], |d| &d.pieces[..]);
        let found = pieces
            .iter()
            .enumerate()
            .skip(from)
            .find(|(_, p)| meets(bits, &p.1));
        *work += found.map_or(pieces.len().saturating_sub(from), |(j, _)| j + 1 - from);
        found.map(|(j, p)| (j, p.2))
    };
    // Lower bound of the distance still to come after `depth` dimensions (each
    // dimension's nearest piece), so the search heads for complete cells.
    let mut rest = vec![0.0; dims.len() + 1];
    for (k, dim) in dims.iter().enumerate().rev() {
        let near = dim.pieces.first().map_or(0.0, |p| p.2);
        rest[k] = rest.get(k + 1).copied().unwrap_or(0.0) + near;
    }
    let key = |dist: f64, depth: usize| {
        Reverse((dist + rest.get(depth).copied().unwrap_or(0.0) + 0.0).to_bits())
    };
    let budget = limits
        .max_cells
        .saturating_add(1)
        .saturating_mul(4 * (dims.len() + 1))
        .clamp(100_000, MAX_WORK);
    // Nodes: (parent node, piece); heap entries order nearest, deepest, oldest
    // (distances are non-negative, so their bits order like them).
    let mut arena: Vec<(usize, usize)> = vec![];
    let mut heap = BinaryHeap::new();
    let (mut leaves, mut work, mut complete) = (vec![], 0usize, true);
    if dims.is_empty() && all.iter().any(|&w| w != 0) {
        leaves.push((vec![], all.clone()));
    }
    if let Some((j, d)) = next(dims.first(), 0, &all, &mut work) {
        arena.push((usize::MAX, j));
        heap.push((key(d, 1), 1usize, Reverse(0usize), 0u64));
    }
    while let Some((_, depth, Reverse(id), parent_dist)) = heap.pop() {
        let parent_dist = f64::from_bits(parent_dist);
        work += 1;
        if work > budget {
            complete = false;
            break;
        }
        let mut path = vec![];
        let mut at = id;
        while let Some(&(parent, piece)) = arena.get(at) {
            path.push(piece);
            at = parent;
        }
        path.reverse();
        let parent_bits = path_bits(path.get(..depth.saturating_sub(1)).unwrap_or(&[]));
        let (Some(&last), Some(&(parent, _))) = (path.last(), arena.get(id)) else {
            continue;
        };
        if let Some((j, d)) = next(
            dims.get(depth.saturating_sub(1)),
            last + 1,
            &parent_bits,
            &mut work,
        ) {
            arena.push((parent, j));
            heap.push((
                key(parent_dist + d, depth),
                depth,
                Reverse(arena.len() - 1),
                parent_dist.to_bits(),
            ));
        }
        let bits = path_bits(&path);
        let here = dims
            .get(depth.saturating_sub(1))
            .and_then(|d| d.pieces.get(last));
        let dist = parent_dist + here.map_or(0.0, |p| p.2);
        if depth >= dims.len() {
            if leaves.len() >= limits.max_cells {
                complete = false;
                break;
            }
            leaves.push((path, bits));
        } else if let Some((j, d)) = next(dims.get(depth), 0, &bits, &mut work) {
            arena.push((id, j));
            heap.push((
                key(dist + d, depth + 1),
                depth + 1,
                Reverse(arena.len() - 1),
                dist.to_bits(),
            ));
        }
    }
    if leaves.len() > limits.max_cells {
        leaves.truncate(limits.max_cells);
        complete = false;
    }

    // Cells as (side id per dimension, machine-set id); a side id indexes
    // the dimension's table, its pieces first, then the unions merging makes.
    let mut sets: Vec<std::sync::Arc<[usize]>> = vec![];
    let mut set_ids: HashMap<Vec<usize>, u32> = HashMap::new();
    let mut cells: Vec<(Vec<u32>, u32)> = vec![];
    for (path, bits) in leaves {
        let mut machines: Vec<usize> = ones(&bits)
            .filter_map(|r| rects.get(r).map(|x| x.machine))
            .collect();
        machines.sort_unstable();
        machines.dedup();
        let id = *set_ids.entry(machines).or_insert_with_key(|m| {
            sets.push(m[..].into());
            sets.len() as u32 - 1
        });
        cells.push((path.iter().map(|&p| p as u32).collect(), id));
    }
    let mut tables: Vec<Vec<ValueSet>> = dims
        .iter()
        .map(|d| d.pieces.iter().map(|p| p.0.clone()).collect())
        .collect();
    merge_cells(&mut cells, &mut tables);

    let mut cells: Vec<Cell> = cells
        .into_iter()
        .map(|(ids, set)| {
            let machines = sets.get(set as usize).cloned().unwrap_or_default();
            let (mut distance, mut changes) = (0.0, vec![]);
            let sides: Vec<ValueSet> = ids
                .iter()
                .zip(&tables)
                .filter_map(|(&i, t)| t.get(i as usize).cloned())
                .collect();
            for (s, dim) in sides.iter().zip(&dims) {
                let (d, change) = side_distance(s, &dim.job, dim.range);
                distance += d;
                changes.extend(change.map(|v| (dim.key.clone(), v)));
            }
            let sides = sides
                .into_iter()
                .zip(&dims)
                .map(|(s, d)| (d.key.clone(), Constraint::from_set(s)))
                .collect();
            Cell {
                sides,
                machines,
                distance,
                changes,
            }
        })
        .collect();
    cells.sort_by(|a, b| {
        a.distance
            .total_cmp(&b.distance)
            .then(b.machines.len().cmp(&a.machines.len()))
    });
    Partition {
        cells,
        complete,
        dimensions,
    }
}

/// The elementary pieces of one dimension, merged by identical rectangle
/// sets; pieces no rectangle covers are left out. NaN and error/time/list/
/// record values get a piece only when the job's value is one (nobody would
/// be told to move there).
fn pieces(sides: &[Option<ValueSet>], job: &Value, words: usize) -> Vec<(ValueSet, Bits)> {
    let covering = |f: &dyn Fn(&ValueSet) -> bool| {
        let mut b: Bits = vec![0; words];
        sides
            .iter()
            .enumerate()
            .filter(|(_, s)| s.as_ref().is_none_or(f))
            .for_each(|(r, _)| set_bit(&mut b, r));
        b
    };
    let none = ValueSet::default;
    // Booleans ride with 0 and 1 unless some side tells them apart (`=?= true`).
    let split = sides.iter().flatten().any(|s| {
        s.allow_true != s.contains(&Value::Real(1.0))
            || s.allow_false != s.contains(&Value::Real(0.0))
    });
    // Numbers: every bound is a point piece, with open pieces between.
    let bounds = sides
        .iter()
        .flatten()
        .flat_map(|s| &s.numbers)
        .filter(|i| !i.is_nan());
    let mut pts: Vec<f64> = bounds.flat_map(|i| [i.lo + 0.0, i.hi + 0.0]).collect();
    pts.sort_by(f64::total_cmp);
    pts.dedup();
    let (mut line, mut prev, mut prev_closed) = (vec![], f64::NEG_INFINITY, true);
    for &p in &pts {
        if p > prev && (prev_closed || next_toward(prev, true) < p) {
            line.push(NumInterval {
                lo: prev,
                lo_closed: prev_closed,
                hi: p,
                hi_closed: false,
            });
        }
        line.push(NumInterval::point(p));
        (prev, prev_closed) = (p, false);
    }
    line.push(NumInterval {
        lo: prev,
        lo_closed: prev_closed,
        hi: f64::INFINITY,
        hi_closed: true,
    });
    line.retain(|i| !i.is_empty());
    let mut line_bits: Vec<Bits> = vec![vec![0; words]; line.len()];
    for (r, s) in sides.iter().enumerate() {
        let ivs = s
            .as_ref()
            .map_or(vec![NumInterval::ALL], |s| s.numbers.clone());
        for iv in ivs.iter().filter(|i| !i.is_nan()) {
            // The pieces inside `iv` are contiguous: those neither below nor above it.
            let start = line.partition_point(|p| {
                p.hi < iv.lo || (p.hi == iv.lo && !(p.hi_closed && iv.lo_closed))
            });
            let end = line.partition_point(|p| {
                p.lo < iv.hi || (p.lo == iv.hi && p.lo_closed && iv.hi_closed)
            });
            line_bits
                .iter_mut()
                .take(end)
                .skip(start)
                .for_each(|b| set_bit(b, r));
        }
    }
    let mut out: Vec<(ValueSet, Bits)> = vec![];
    for (iv, b) in line.into_iter().zip(line_bits) {
        let (allow_true, allow_false) = (!split && iv.contains(1.0), !split && iv.contains(0.0));
        out.push((
            ValueSet {
                numbers: vec![iv],
                allow_true,
                allow_false,
                ..none()
            },
            b,
        ));
    }
    for b in [true, false].into_iter().filter(|_| split) {
        let v = ValueSet {
            allow_true: b,
            allow_false: !b,
            ..none()
        };
        out.push((v, covering(&|s| s.contains(&Value::Bool(b)))));
    }
    out.push((
        ValueSet {
            undefined: true,
            ..none()
        },
        covering(&|s| s.undefined),
    ));
    // Strings: every listed class (first spelling), then AnyOtherString.
    let mut classes: BTreeMap<String, String> = BTreeMap::new();
    for x in sides.iter().flatten().flat_map(|s| &s.strings) {
        classes.entry(fold(x)).or_insert_with(|| x.clone());
    }
    for x in classes.values() {
        let v = Value::str(x.as_str());
        out.push((
            ValueSet {
                strings: [x.clone()].into(),
                ..none()
            },
            covering(&|s| s.contains(&v)),
        ));
    }
    let any = ValueSet {
        strings: classes.into_values().collect(),
        any_other_string: true,
        ..none()
    };
    out.push((any, covering(&|s| s.any_other_string)));
    let nan = matches!(job, Value::Real(r) if r.is_nan());
    if nan
        || !matches!(
            job,
            Value::Undefined | Value::Bool(_) | Value::Int(_) | Value::Real(_) | Value::Str(_)
        )
    {
        let v = ValueSet {
            numbers: if nan { vec![NumInterval::NAN] } else { vec![] },
            others: !nan,
            ..none()
        };
        out.push((v, covering(&|s| s.contains(job))));
    }

    // One piece per rectangle set (an equivalence class of the dimension).
    let mut groups: Vec<(Vec<ValueSet>, Bits)> = vec![];
    let mut at: HashMap<Bits, usize> = HashMap::new();
    for (v, b) in out.into_iter().filter(|(_, b)| b.iter().any(|&w| w != 0)) {
        let i = *at.entry(b.clone()).or_insert_with(|| {
            groups.push((vec![], b));
            groups.len() - 1
        });
        if let Some(g) = groups.get_mut(i) {
            g.0.push(v);
        }
    }
    groups
        .into_iter()
        .map(|(vs, b)| (union_all(vs), b))
        .collect()
}

/// The union of many sets at once (pairwise unions would be quadratic).
fn union_all(sets: Vec<ValueSet>) -> ValueSet {
    let (mut u, mut listed) = (ValueSet::default(), BTreeMap::new());
    let mut excluded: Option<BTreeMap<String, String>> = None;
    for s in sets {
        u.undefined |= s.undefined;
        u.allow_true |= s.allow_true;
        u.allow_false |= s.allow_false;
        u.others |= s.others;
        u.numbers.extend(s.numbers);
        let m: BTreeMap<String, String> = s.strings.into_iter().map(|x| (fold(&x), x)).collect();
        if s.any_other_string {
            // Excluded only if every AnyOtherString excludes it.
            excluded = Some(excluded.map_or(m.clone(), |e| {
                e.into_iter().filter(|(k, _)| m.contains_key(k)).collect()
            }));
        } else {
            for (k, x) in m {
                listed.entry(k).or_insert(x);
            }
        }
    }
    u.numbers = normalize(u.numbers);
    u.any_other_string = excluded.is_some();
    u.strings = match excluded {
        Some(e) => e
            .into_iter()
            .filter(|(k, _)| !listed.contains_key(k))
            .map(|(_, x)| x)
            .collect(),
        None => listed.into_values().collect(),
    };
    u
}

/// Join cells with the same machines whose sides differ in one dimension
/// only (their union is still a rectangle); a few passes at most.
fn merge_cells(cells: &mut Vec<(Vec<u32>, u32)>, tables: &mut [Vec<ValueSet>]) {
    let mut unions: Vec<HashMap<String, u32>> = vec![HashMap::new(); tables.len()];
    for _ in 0..MERGE_PASSES {
        let mut changed = false;
        for (d, (table, unions)) in tables.iter_mut().zip(&mut unions).enumerate() {
            // Cells alike but for dimension `d`.
            let mut at: HashMap<(Vec<u32>, u32), usize> = HashMap::new();
            let mut groups: Vec<Vec<usize>> = vec![];
            for (i, (s, m)) in cells.iter().enumerate() {
                let key = (
                    s.iter()
                        .enumerate()
                        .map(|(j, &x)| if j == d { u32::MAX } else { x })
                        .collect(),
                    *m,
                );
                let g = *at.entry(key).or_insert_with(|| {
                    groups.push(vec![]);
                    groups.len() - 1
                });
                groups.get_mut(g).into_iter().for_each(|g| g.push(i));
            }
            if groups.len() == cells.len() {
                continue;
            }
            changed = true;
            let mut next = Vec::with_capacity(groups.len());
            for g in groups {
                let Some(mut cell) = g.first().and_then(|&i| cells.get(i)).cloned() else {
                    continue;
                };
                if g.len() > 1 {
                    let parts = g.iter().filter_map(|&i| {
                        cells.get(i)?.0.get(d).and_then(|&x| table.get(x as usize))
                    });
                    let merged = Constraint::from_set(union_all(parts.cloned().collect())).to_set();
                    let id = *unions.entry(format!("{merged:?}")).or_insert_with(|| {
                        table.push(merged);
                        table.len() as u32 - 1
                    });
                    if let Some(x) = cell.0.get_mut(d) {
                        *x = id;
                    }
                }
                next.push(cell);
            }
            *cells = next;
        }
        if !changed {
            break;
        }
    }
}

/// M2 distance of one side from the job's value, and the value to move to:
/// numbers |job − nearest point| / range, anything else 0 inside or 1.
fn side_distance(side: &ValueSet, job: &Value, range: f64) -> (f64, Option<Value>) {
    if side.contains(job) {
        return (0.0, None);
    }
    let x = job.as_number().filter(|x| !x.is_nan());
    if let Some((iv, d)) = x.and_then(|x| nearest(side, x)) {
        let (x, d) = (x.unwrap_or(0.0), d / range);
        return (
            if d.is_nan() { 1.0 } else { d },
            Some(pick(&iv, x, matches!(job, Value::Int(_)))),
        );
    }
    // Strings: a listed one, else "other", "other2", … until one is not excluded.
    let strings = || match side.any_other_string {
        false => side.strings.iter().next().map(|s| Value::str(s.as_str())),
        true => (1..=side.strings.len() + 1)
            .map(|i| {
                Value::from(if i == 1 {
                    "other".to_string()
                } else {
                    format!("other{i}")
                })
            })
            .find(|v| side.contains(v)),
    };
    let bools = || {
        let b = if side.allow_true && side.allow_false {
            !matches!(job, Value::Bool(true))
        } else {
            side.allow_true
        };
        (side.allow_true || side.allow_false).then_some(Value::Bool(b))
    };
    let numbers = || {
        let x = if let Value::Bool(b) = job {
            f64::from(u8::from(*b))
        } else {
            0.0
        };
        nearest(side, x).map(|(iv, _)| pick(&iv, x, true))
    };
    let rep = match job {
        Value::Str(_) => strings().or_else(numbers).or_else(bools),
        Value::Bool(_) => bools().or_else(numbers).or_else(strings),
        _ => numbers().or_else(strings).or_else(bools),
    };
    (
        1.0,
        rep.or_else(|| side.undefined.then_some(Value::Undefined)),
    )
}

fn nearest(side: &ValueSet, x: f64) -> Option<(NumInterval, f64)> {
    let ivs = side.numbers.iter().filter(|i| !i.is_nan() && !i.is_empty());
    ivs.map(|i| (*i, i.distance(x)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
}

/// The point of `iv` nearest `x` (outside it): a closed bound itself; past
/// an open bound an integer just inside when one is wanted (`< 10` → 9) or
/// the bound is whole, else a step of 0.1% inside, else the midpoint, else
/// the next real.
fn pick(iv: &NumInterval, x: f64, want_int: bool) -> Value {
    let up = x <= iv.lo;
    let (b, closed, other) = if up {
        (iv.lo, iv.lo_closed, iv.hi)
    } else {
        (iv.hi, iv.hi_closed, iv.lo)
    };
    let num = |c: f64| match want_int && c.fract() == 0.0 && c.abs() < 9.0e15 {
        true => Value::Int(c as i64),
        false => Value::Real(c),
    };
    if closed {
        return num(b);
    }
    let (s, step) = (
        if up { 1.0 } else { -1.0 },
        if b == 0.0 { 1e-3 } else { b.abs() * 1e-3 },
    );
    let whole = if want_int || b.fract() == 0.0 {
        1.0
    } else {
        f64::NAN
    };
    let candidates = [
        if up {
            b.floor() + whole
        } else {
            b.ceil() - whole
        },
        b + s * step,
        b / 2.0 + other / 2.0,
        next_toward(b, up),
        -s * f64::MAX,
    ];
    match candidates.into_iter().find(|&c| iv.contains(c)) {
        Some(c) if c.fract() == 0.0 => num(c),
        Some(c) => Value::Real(c),
        None => Value::Real(b),
    }
}

/// `f64::next_up` / `next_down` (Rust 1.86; the crate supports 1.84).
fn next_toward(x: f64, up: bool) -> f64 {
    match () {
        _ if x.is_nan() || x == if up { f64::INFINITY } else { f64::NEG_INFINITY } => x,
        _ if x == 0.0 => f64::from_bits(1) * if up { 1.0 } else { -1.0 },
        _ if (x > 0.0) == up => f64::from_bits(x.to_bits() + 1),
        _ => f64::from_bits(x.to_bits() - 1),
    }
}

/// `MemoryRequirements in [512, 1024), ImageSize >= 134217728`; dimensions
/// the cell does not constrain are left out.
pub fn describe_range(cell: &Cell) -> String {
    let parts: Vec<String> = cell
        .sides
        .iter()
        .filter(|(_, c)| !c.is_everything())
        .map(|(k, c)| format!("{k} {}", c.phrase()))
        .collect();
    if parts.is_empty() {
        "any values".into()
    } else {
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::ast::BinaryOp::{self, *};

    const M: f64 = 1048576.0;

    fn c(op: BinaryOp, lit: impl Into<Value>) -> Constraint {
        Constraint::from_predicate(op, &lit.into()).expect("representable")
    }
    fn rect(machine: usize, sides: &[(&str, Constraint)]) -> Rect {
        Rect {
            machine,
            sides: sides
                .iter()
                .map(|(k, c)| (k.to_string(), c.clone()))
                .collect(),
        }
    }
    fn job(v: &[(&str, Option<Value>)]) -> Vec<(String, Option<Value>)> {
        v.iter().map(|(k, x)| (k.to_string(), x.clone())).collect()
    }
    fn same(a: &Value, b: &Value) -> bool {
        a.same_as(b)
    }
    fn figure5() -> Vec<Rect> {
        vec![
            rect(
                0,
                &[
                    ("ImageSize", c(Ge, 128.0 * M)),
                    ("MemoryRequirements", c(Ge, 512.0 * M)),
                ],
            ),
            rect(
                1,
                &[
                    ("ImageSize", c(Ge, 64.0 * M)),
                    ("MemoryRequirements", c(Ge, 1024.0 * M)),
                ],
            ),
        ]
    }

    #[test]
    fn figure_5() {
        let rects = figure5();
        let mem: Vec<Option<ValueSet>> =
            rects.iter().map(|r| Some(r.sides[1].1.to_set())).collect();
        let p = pieces(&mem, &Value::Undefined, 1);
        let shown: Vec<(String, u64)> = p
            .iter()
            .map(|(s, b, ..)| (Constraint::from_set(s.clone()).describe(), b[0]))
            .collect();
        assert_eq!(
            shown,
            vec![
                ("[536870912, 1073741824)".into(), 0b01),
                (">= 1073741824".into(), 0b11)
            ]
        );

        let point = job(&[
            ("ImageSize", Some((100.0 * M).into())),
            ("MemoryRequirements", Some((600.0 * M).into())),
        ]);
        let ranges = vec![
            ("ImageSize".to_string(), 64.0 * M),
            ("MemoryRequirements".to_string(), 512.0 * M),
        ];
        let part = partition(&rects, &point, &ranges, &Limits { max_cells: 100 });
        assert!(part.complete);
        assert_eq!(part.dimensions, vec!["ImageSize", "MemoryRequirements"]);
        let got: Vec<(Vec<usize>, f64, String)> = part
            .cells
            .iter()
            .map(|c| (c.machines.to_vec(), c.distance, describe_range(c)))
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    vec![0],
                    0.4375,
                    "ImageSize >= 134217728, MemoryRequirements in [536870912, 1073741824)".into()
                ),
                (
                    vec![1],
                    0.828125,
                    "ImageSize in [67108864, 134217728), MemoryRequirements >= 1073741824".into()
                ),
                (
                    vec![0, 1],
                    1.265625,
                    "ImageSize >= 134217728, MemoryRequirements >= 1073741824".into()
                ),
            ]
        );
        let ch = &part.cells[0].changes;
        assert!(
            ch.len() == 1 && ch[0].0 == "ImageSize" && same(&ch[0].1, &Value::Real(128.0 * M)),
            "{ch:?}"
        );
        let ch = &part.cells[2].changes;
        assert!(
            ch.len() == 2 && same(&ch[1].1, &Value::Real(1024.0 * M)),
            "{ch:?}"
        );
        // Integer job values get integer suggestions; a missing one counts 1.
        let point = job(&[
            ("ImageSize", Some(Value::Int(100 << 20))),
            ("MemoryRequirements", None),
        ]);
        let part = partition(&rects, &point, &ranges, &Limits { max_cells: 100 });
        let first = &part.cells[0];
        assert_eq!((first.machines.to_vec(), first.distance), (vec![1], 1.0));
        assert!(
            same(&first.changes[0].1, &Value::Int(1 << 30)),
            "{:?}",
            first.changes
        );
    }

    #[test]
    fn any_other_string() {
        let rects = vec![
            rect(0, &[("Owner", c(Ne, "ncoleman"))]),
            rect(1, &[("Owner", c(Eq, "raman"))]),
        ];
        let part = partition(
            &rects,
            &job(&[("Owner", Some("ncoleman".into()))]),
            &[],
            &Limits { max_cells: 10 },
        );
        let got: Vec<(Vec<usize>, String)> = part
            .cells
            .iter()
            .map(|c| (c.machines.to_vec(), describe_range(c)))
            .collect();
        assert_eq!(
            got,
            vec![
                (vec![0, 1], "Owner == \"raman\"".to_string()),
                (
                    vec![0],
                    "Owner is any string except \"ncoleman\", \"raman\"".to_string()
                ),
            ]
        );
        assert!(same(&part.cells[0].changes[0].1, &"raman".into()));
        assert!(same(&part.cells[1].changes[0].1, &"other".into()));
        assert_eq!(part.cells[1].distance, 1.0);
        let rects = vec![rect(0, &[("Owner", c(Ne, "other"))])];
        let part = partition(
            &rects,
            &job(&[("Owner", None)]),
            &[],
            &Limits { max_cells: 10 },
        );
        assert!(same(&part.cells[0].changes[0].1, &"other2".into()));
    }

    #[test]
    fn nearest_values_past_a_bound() {
        let one = |side: Constraint, v: Value| {
            let part = partition(
                &[rect(0, &[("x", side)])],
                &job(&[("x", Some(v))]),
                &[],
                &Limits { max_cells: 10 },
            );
            part.cells[0].changes[0].1.clone()
        };
        assert!(same(&one(c(Lt, 10), Value::Int(12)), &Value::Int(9)));
        assert!(same(&one(c(Lt, 10), Value::Real(12.5)), &Value::Real(9.0)));
        assert!(same(&one(c(Gt, 10), Value::Int(2)), &Value::Int(11)));
        assert!(same(
            &one(c(Le, 1220608), Value::Int(2000000)),
            &Value::Int(1220608)
        ));
        assert!(same(
            &one(c(Lt, 0.5), Value::Real(2.0)),
            &Value::Real(0.4995)
        ));
        assert!(same(
            &one(c(Gt, 10).intersect(&c(Lt, 10.5)), Value::Int(0)),
            &Value::Real(10.01)
        ));
        assert!(same(
            &one(c(MetaEq, true), Value::Bool(false)),
            &Value::Bool(true)
        ));
        assert!(same(
            &one(c(Is, Value::Undefined), Value::Int(3)),
            &Value::Undefined
        ));
        // Values nobody is moved to still find their own cell.
        for (side, v) in [
            (c(Ne, 5), Value::Real(f64::NAN)),
            (c(MetaNe, true), Value::list_of(vec![])),
        ] {
            let part = partition(
                &[rect(0, &[("x", side)])],
                &job(&[("x", Some(v))]),
                &[],
                &Limits { max_cells: 10 },
            );
            assert!(
                part.cells
                    .iter()
                    .any(|c| c.distance == 0.0 && c.changes.is_empty()),
                "{part:?}"
            );
        }
    }

    /// Every point of a grid lies in exactly one cell when some rectangle
    /// holds it, that cell's machines are exactly those holding it, and its
    /// distance is 0 for the cell holding the job.
    #[test]
    fn cells_are_the_equivalence_classes() {
        let rects = vec![
            rect(0, &[("Memory", c(Ge, 512)), ("Arch", c(Eq, "INTEL"))]),
            rect(0, &[("Memory", c(Lt, 100))]),
            rect(1, &[("Arch", c(Ne, "alpha")), ("HasGPU", c(MetaEq, true))]),
            rect(2, &[("Memory", c(Ne, 256)), ("HasGPU", c(Eq, true))]),
            rect(
                3,
                &[
                    ("Arch", c(Isnt, Value::Undefined)),
                    ("memory", c(Gt, 50).intersect(&c(Le, 300))),
                ],
            ),
        ];
        let mut mems: Vec<Value> = [0, 99, 100, 256, 300, 512, 1000].map(Value::Int).into();
        mems.extend([
            Value::Undefined,
            Value::Real(99.5),
            "x".into(),
            Value::Bool(true),
        ]);
        let archs = [
            Value::Undefined,
            "INTEL".into(),
            "intel".into(),
            "alpha".into(),
            "ALPHA".into(),
            "sparc".into(),
        ];
        let gpus = [
            Value::Undefined,
            true.into(),
            false.into(),
            Value::Int(1),
            Value::Int(0),
            "yes".into(),
        ];
        let point = job(&[
            ("Memory", Some(Value::Int(99))),
            ("Arch", Some("sparc".into())),
            ("HasGPU", None),
        ]);
        let part = partition(
            &rects,
            &point,
            &[("Memory".into(), 1000.0)],
            &Limits { max_cells: 1000 },
        );
        assert!(part.complete);
        assert_eq!(part.dimensions, vec!["Memory", "Arch", "HasGPU"]);
        let holds = |r: &Rect, p: &[&Value; 3]| {
            let dim = |k: &String| {
                part.dimensions
                    .iter()
                    .position(|d| d.eq_ignore_ascii_case(k))
                    .unwrap()
            };
            r.sides.iter().all(|(k, s)| s.contains(p[dim(k)]))
        };
        for m in &mems {
            for a in &archs {
                for g in &gpus {
                    let p = [m, a, g];
                    let mut want: Vec<usize> = rects
                        .iter()
                        .filter(|r| holds(r, &p))
                        .map(|r| r.machine)
                        .collect();
                    want.sort_unstable();
                    want.dedup();
                    let inside: Vec<&Cell> = part
                        .cells
                        .iter()
                        .filter(|c| c.sides.iter().zip(p).all(|((_, s), v)| s.contains(v)))
                        .collect();
                    if want.is_empty() {
                        assert!(inside.is_empty(), "{p:?} in {inside:?}");
                    } else {
                        assert_eq!(inside.len(), 1, "{p:?}: {want:?} {inside:?}");
                        assert_eq!(*inside[0].machines, want[..], "{p:?}");
                    }
                }
            }
        }
        let here = part
            .cells
            .iter()
            .find(|c| c.distance == 0.0)
            .expect("the job's cell");
        assert!(
            here.changes.is_empty() && *here.machines == [0, 3],
            "{here:?}"
        );
        for cell in &part.cells {
            assert!(cell.sides.iter().all(|(_, s)| !s.is_empty()));
        }
    }

    #[test]
    fn stops_at_max_cells() {
        let dims: Vec<String> = (0..20).map(|d| format!("x{d}")).collect();
        let rects: Vec<Rect> = (0..5)
            .map(|k| Rect {
                machine: k,
                sides: dims.iter().map(|d| (d.clone(), c(Ge, k as i64))).collect(),
            })
            .collect();
        let point: Vec<(String, Option<Value>)> = dims
            .iter()
            .map(|d| (d.clone(), Some(Value::Int(2))))
            .collect();
        let part = partition(&rects, &point, &[], &Limits { max_cells: 500 });
        assert!(!part.complete);
        assert!(!part.cells.is_empty() && part.cells.len() <= 500);
        assert_eq!(part.cells[0].distance, 0.0);
        assert!(part
            .cells
            .windows(2)
            .all(|w| w[0].distance <= w[1].distance));
        let part = partition(&rects, &point, &[], &Limits { max_cells: 0 });
        assert!(!part.complete && part.cells.is_empty());
        let part = partition(&rects[..1], &point, &[], &Limits { max_cells: 5 });
        assert!(part.complete && part.cells.len() == 1 && *part.cells[0].machines == [0]);
        assert!(partition(&[], &point, &[], &Limits { max_cells: 5 })
            .cells
            .is_empty());
        let all = partition(&[rect(7, &[])], &[], &[], &Limits { max_cells: 5 });
        assert_eq!(
            (all.cells.len(), describe_range(&all.cells[0])),
            (1, "any values".to_string())
        );
    }
}
