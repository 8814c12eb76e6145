//! A machine's requirements as the clauses a user reads: the operands of
//! its top-level `&&`, looking through parentheses and through references
//! to its own policy attributes (`Requirements = START && WithinResourceLimits`,
//! each of those a conjunction again). Glidein pools repeat one START on
//! thousands of slots, so a clause's text names the same rule on every slot.
//!
//! The requirements hold exactly when every clause is `true`, as long as
//! each clause is a boolean, `undefined` or `error` (ClassAd's `&&`); a
//! clause evaluating to a number breaks that, and [`clause_holds`] says so.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use crate::constraint::predicate::Sides;
use crate::lang::ast::{BinaryOp, ClassAd, Expr, ExprKind, Name, Special, Value};
use crate::lang::eval::{Evaluator, Mode};

/// Clauses kept apart per machine; a longer conjunction is one clause.
pub const MAX_CLAUSES: usize = 64;
/// How deep references to the machine's own attributes are followed.
const MAX_DEPTH: u32 = 8;

/// One clause of a machine's requirements.
#[derive(Clone, Copy, Debug)]
pub struct MachineClause<'a> {
    /// The machine attribute it is written in (`START`).
    pub from: &'a str,
    pub expr: &'a Expr,
}

/// Splits machines' requirements into clauses. Machines whose policy
/// attributes have the same text share one parsed expression: a lazily
/// read glidein pool parses its 1 KB START once, not once a slot.
#[derive(Default)]
pub struct Splitter<'a> {
    parsed: HashMap<&'a str, &'a Expr>,
}

impl<'a> Splitter<'a> {
    /// The clauses of `m`'s requirements (`Requirements`, else
    /// `Constraint`); empty when it has none.
    pub fn clauses(&mut self, m: &'a ClassAd) -> Vec<MachineClause<'a>> {
        let Some(i) = crate::matchmaking::matching::DEFAULT_REQUIREMENTS
            .iter()
            .find_map(|n| m.position(n))
        else {
            return vec![];
        };
        let (from, req) = (m.name_at(i), self.definition(m, i));
        let mut out = vec![];
        let mut seen: Vec<&str> = vec![from];
        if self.split(m, from, req, 0, &mut seen, &mut out) && out.len() <= MAX_CLAUSES {
            out
        } else {
            vec![MachineClause { from, expr: req }]
        }
    }

    fn definition(&mut self, m: &'a ClassAd, i: u32) -> &'a Expr {
        match m.definition_text(i) {
            Some(text) => self.parsed.entry(text).or_insert_with(|| m.at(i).1),
            None => m.at(i).1,
        }
    }

    /// False when the conjunction is too deep or too long to keep apart.
    fn split(
        &mut self,
        m: &'a ClassAd,
        from: &'a str,
        e: &'a Expr,
        depth: u32,
        seen: &mut Vec<&'a str>,
        out: &mut Vec<MachineClause<'a>>,
    ) -> bool {
        if depth > 200 || out.len() > MAX_CLAUSES {
            return false;
        }
        match &e.kind {
            ExprKind::Paren(a) => self.split(m, from, a, depth + 1, seen, out),
            ExprKind::Binary(BinaryOp::And, a, b) => {
                self.split(m, from, a, depth + 1, seen, out)
                    && self.split(m, from, b, depth + 1, seen, out)
            }
            _ => {
                // `START` or `MY.START` naming an expression the machine
                // defines (a literal is a clause of its own: `START = false`).
                if let Some(i) = own_policy(m, e) {
                    let name = m.name_at(i);
                    if !seen.iter().any(|s| s.eq_ignore_ascii_case(name))
                        && seen.len() < MAX_DEPTH as usize
                    {
                        seen.push(name);
                        let def = self.definition(m, i);
                        let ok = self.split(m, name, def, depth + 1, seen, out);
                        seen.pop();
                        return ok;
                    }
                }
                out.push(MachineClause { from, expr: e });
                true
            }
        }
    }
}

/// The name an operand looks up in its own ad: `X` or `MY.X`.
pub fn own_name(e: &Expr) -> Option<&Name> {
    match &e.kind {
        ExprKind::Attr {
            name,
            absolute: false,
        } if name.special == Special::None => Some(name),
        ExprKind::Select(base, name) => match &base.kind {
            ExprKind::Attr {
                name: b,
                absolute: false,
            } if matches!(b.special, Special::My | Special::SelfAd) => Some(name),
            _ => None,
        },
        _ => None,
    }
}

/// The machine's own non-literal attribute an operand names, if it does.
fn own_policy(m: &ClassAd, e: &Expr) -> Option<u32> {
    let i = m.position_name(own_name(e)?)?;
    (!m.is_literal(i)).then_some(i)
}

/// What a clause reads of the job (lowercase keys), `None` when it could
/// read anything (a whole-ad reference, `eval()`).
pub fn job_reads(clause: &Expr, machine: &ClassAd, mode: Mode) -> Option<BTreeSet<String>> {
    super::groups::other_reads(
        clause,
        &Sides {
            own: machine,
            unscoped_is_other: mode == Mode::HTCondor,
        },
    )
}

/// The machine's own attributes a clause names (`MY.GLIDEIN_Site`, or an
/// unscoped name the machine defines), as the machine spells them.
pub fn slot_reads(clause: &Expr, machine: &ClassAd) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    nodes(clause, &mut |e| {
        if let Some(i) = own_name(e).and_then(|n| machine.position_name(n)) {
            let spelled = machine.at(i).0;
            if !out.iter().any(|o| o.eq_ignore_ascii_case(spelled)) {
                out.push(spelled.to_string());
            }
        }
    });
    out
}

/// Whether a clause reads the clock (`time()`, `CurrentTime`).
pub fn reads_clock(clause: &Expr) -> bool {
    let mut clock = false;
    nodes(clause, &mut |e| {
        clock |= match &e.kind {
            ExprKind::Call(c) => c.name.eq_ignore_ascii_case("time"),
            ExprKind::Attr { name, .. } => name.special == Special::CurrentTime,
            _ => false,
        }
    });
    clock
}

/// Every node of an expression, up to [`MAX_NODES`] of them (a clause is
/// a few dozen; the bound keeps a hostile one from costing more).
pub fn nodes<'e>(e: &'e Expr, visit: &mut dyn FnMut(&'e Expr)) {
    let mut stack = vec![e];
    let mut seen = 0;
    while let Some(x) = stack.pop() {
        seen += 1;
        if seen > MAX_NODES {
            return;
        }
        visit(x);
        stack.extend(x.children());
    }
}

/// Nodes [`nodes`] visits.
pub const MAX_NODES: usize = 10_000;

/// What a clause can see of its machine, as one number: its structure and,
/// for every own attribute it reaches (through the machine's definitions
/// too), that definition — a literal's value, an expression's structure.
/// Two machines' clauses with the same fingerprint evaluate alike against
/// any one job (a glidein pool's START on 1,872 slots of one site is one
/// evaluation).
/// A clause's structure hash and the names it looks up in its own ad.
type Shape = (u64, Vec<Arc<str>>);

#[derive(Default)]
pub struct Fingerprints {
    /// By the clause's address (clauses of one text share one parse, see
    /// [`Splitter`]): its structure's hash and the names it looks up in its
    /// own ad, `None` when it can reach the ad in ways names do not show
    /// (a whole-ad reference, `eval()`).
    shapes: HashMap<*const Expr, Option<Shape>>,
}

impl Fingerprints {
    pub fn of(&mut self, clause: &Expr, m: &ClassAd) -> Option<u64> {
        use std::hash::Hasher;
        let (hash, names) = self
            .shapes
            .entry(clause as *const Expr)
            .or_insert_with(|| {
                let mut h = rustc_hash::FxHasher::default();
                crate::matchmaking::autocluster::hash_expr(clause, &mut h);
                let mut names = vec![];
                super::groups::collect_names(clause, &mut names, 0).then(|| (h.finish(), names))
            })
            .as_ref()?;
        let mut h = rustc_hash::FxHasher::default();
        h.write_u64(*hash);
        let mut todo: Vec<Arc<str>> = names.clone();
        let mut seen: Vec<Arc<str>> = vec![];
        while let Some(k) = todo.pop() {
            if seen.contains(&k) {
                continue;
            }
            if seen.len() > 256 {
                return None;
            }
            h.write(k.as_bytes());
            match m.position(&k) {
                None => h.write_u8(0),
                Some(i) => {
                    h.write_u8(1);
                    let def = m.at(i).1;
                    crate::matchmaking::autocluster::hash_expr(def, &mut h);
                    if def.as_literal().is_none()
                        && !super::groups::collect_names(def, &mut todo, 0)
                    {
                        return None;
                    }
                }
            }
            seen.push(k);
        }
        Some(h.finish())
    }
}

/// Whether a clause evaluates `true` with `m` as MY and `job` as TARGET
/// (and whether it was a boolean, `undefined` or `error` at all).
pub fn clause_holds(
    clause: &Expr,
    m: &Arc<ClassAd>,
    job: &Arc<ClassAd>,
    ev: &mut Evaluator,
) -> (bool, bool) {
    ev.set_ads(Some(m.clone()), Some(job.clone()));
    let v = ev.eval_expr(clause);
    (
        matches!(v, Value::Bool(true)),
        matches!(v, Value::Bool(_) | Value::Undefined | Value::Error),
    )
}
