//! A pool's plain attribute values laid out by attribute (a column per
//! name), for the leading comparisons of a job's requirements.
//!
//! Surveying a pool for one job reads every machine ad; most are turned
//! down by the job's first clauses (`TARGET.Arch == "INTEL" && …`). Read
//! from the ads, each of those checks is a few cache misses; read from a
//! column of small values, it is a sequential scan. A [`Prefilter`] holds
//! the comparisons of another ad's attribute with a constant that lead a
//! job's `&&` requirements: when one of them is not true for a machine,
//! the requirements are not true either (an `&&` chain is true only when
//! every clause is), so the job rejects that machine without evaluating.
//! When a column cannot tell (an expression, a kind it does not compare),
//! the machine goes to the full evaluation.

use rustc_hash::FxHashMap;
use std::sync::Arc;

use super::{CompiledAd, Node};
use crate::lang::ast::{BinaryOp, ExprKind};
use crate::lang::value::Value;

/// A machine's value of one attribute, as far as a column keeps it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Cell {
    /// The machine does not define it.
    Absent,
    Int(i64),
    Bool(bool),
    /// A string, by its case-folded id.
    Str(u32),
    /// Anything else: only the full evaluation can tell.
    Unknown,
}

/// The columns of a pool, made on demand, one per attribute asked for.
pub struct Columns<'a> {
    ads: &'a [CompiledAd],
    columns: Vec<Vec<Cell>>,
    /// Position in `columns`, by folded attribute name.
    index: FxHashMap<Arc<str>, usize>,
    strings: FxHashMap<String, u32>,
}

/// The leading comparisons of one job's requirements, by column.
pub struct Prefilter {
    checks: Vec<Check>,
    /// The checks are the whole of the requirements: when all of them
    /// hold, the requirements are true.
    complete: bool,
}

struct Check {
    column: usize,
    /// `None`: the clause is the attribute itself (`TARGET.HasFileTransfer`),
    /// which must be `true`.
    op: Option<BinaryOp>,
    /// The constant, and whether it is on the left (`5 < TARGET.x`).
    konst: Cell,
    konst_left: bool,
}

impl<'a> Columns<'a> {
    pub fn new(ads: &'a [CompiledAd]) -> Columns<'a> {
        Columns {
            ads,
            columns: Vec::new(),
            index: FxHashMap::default(),
            strings: FxHashMap::default(),
        }
    }

    fn string_id(&mut self, s: &str) -> u32 {
        let folded = s.to_ascii_lowercase();
        let next = self.strings.len() as u32;
        *self.strings.entry(folded).or_insert(next)
    }

    fn cell(&mut self, v: &Value) -> Cell {
        match v {
            Value::Int(i) => Cell::Int(*i),
            Value::Bool(b) => Cell::Bool(*b),
            Value::Str(s) => Cell::Str(self.string_id(s)),
            _ => Cell::Unknown,
        }
    }

    /// The column of `name`, made if it is not there yet.
    fn column(&mut self, name: &crate::lang::ast::Name) -> usize {
        if let Some(&i) = self.index.get(&name.key) {
            return i;
        }
        let mut col = Vec::with_capacity(self.ads.len());
        for m in self.ads {
            let cell = match m.ad.position_name(name) {
                None => Cell::Absent,
                Some(i) => match &m.ad.at(i).1.kind {
                    // A relative-time literal evaluates to a real: not kept.
                    ExprKind::Literal(v) => self.cell(v),
                    _ => Cell::Unknown,
                },
            };
            col.push(cell);
        }
        self.columns.push(col);
        self.index.insert(name.key.clone(), self.columns.len() - 1);
        self.columns.len() - 1
    }

    /// The prefilter for `job`'s requirements (empty when they do not start
    /// with comparisons the columns can check).
    pub fn prefilter(&mut self, job: &CompiledAd) -> Prefilter {
        let mut checks = Vec::new();
        let Some(node) = job
            .requirements
            .and_then(|i| job.attrs[i as usize].as_deref())
        else {
            return Prefilter {
                checks,
                complete: false,
            };
        };
        let mut node = node;
        while let Node::Own(n) = node {
            node = n;
        }
        let items: &[Node] = match node {
            Node::Chain(super::run::Chain::All, items) => items,
            n @ (Node::CmpOther { .. } | Node::Other(_)) => std::slice::from_ref(n),
            _ => &[],
        };
        for item in items {
            let check = match item {
                Node::CmpOther {
                    op,
                    name,
                    konst,
                    konst_left,
                } => {
                    let konst = self.cell(konst);
                    if !matches!(konst, Cell::Int(_) | Cell::Str(_)) {
                        break;
                    }
                    Check {
                        column: self.column(&name.name),
                        op: Some(*op),
                        konst,
                        konst_left: *konst_left,
                    }
                }
                Node::Other(name) => Check {
                    column: self.column(&name.name),
                    op: None,
                    konst: Cell::Unknown,
                    konst_left: false,
                },
                _ => break,
            };
            checks.push(check);
        }
        let complete = !items.is_empty() && checks.len() == items.len();
        Prefilter { checks, complete }
    }

    /// What `p` says of the job's requirements on machine `m` (an index
    /// into the pool) without evaluating anything: `Some(false)` when a
    /// check fails, `Some(true)` when the checks are the whole of the
    /// requirements and all hold, `None` when only evaluation can tell.
    #[inline]
    pub fn decide(&self, p: &Prefilter, m: usize) -> Option<bool> {
        let mut all = p.complete;
        for c in &p.checks {
            let &cell = self.columns.get(c.column)?.get(m)?;
            let Some(op) = c.op else {
                // A bare attribute: an `&&` clause holds only when `true`
                // (undefined, a number or anything else is not).
                match cell {
                    Cell::Bool(true) => continue,
                    Cell::Bool(false) | Cell::Absent => return Some(false),
                    _ => {
                        all = false;
                        continue;
                    }
                }
            };
            let (l, r) = if c.konst_left {
                (c.konst, cell)
            } else {
                (cell, c.konst)
            };
            // `Some(b)`: the comparison is `b`; `None`: cannot tell.
            let holds = match (l, r) {
                // A comparison with an undefined operand is undefined.
                (Cell::Absent, _) | (_, Cell::Absent) => Some(false),
                (Cell::Int(a), Cell::Int(b)) => match op {
                    BinaryOp::Eq => Some(a == b),
                    BinaryOp::Ne => Some(a != b),
                    BinaryOp::Lt => Some(a < b),
                    BinaryOp::Le => Some(a <= b),
                    BinaryOp::Gt => Some(a > b),
                    BinaryOp::Ge => Some(a >= b),
                    _ => None,
                },
                (Cell::Str(a), Cell::Str(b)) => match op {
                    BinaryOp::Eq => Some(a == b),
                    BinaryOp::Ne => Some(a != b),
                    _ => None,
                },
                _ => None,
            };
            match holds {
                Some(false) => return Some(false),
                Some(true) => {}
                None => all = false,
            }
        }
        all.then_some(true)
    }
}
