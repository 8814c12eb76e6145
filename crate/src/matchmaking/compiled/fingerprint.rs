//! What a compiled expression depends on, for sharing its values across
//! ads: its fingerprint (two expressions compiled against different ads
//! with the same fingerprint compute the same function of the other ad),
//! and whether an ad's attribute reads only its own ad. The best-first
//! survey uses these to bound each machine's docking vector once per cycle
//! for every job whose vector compiles alike.

use std::fmt::Write;

use super::{reads_own_ad_only, CompiledAd, CompiledExpr, Node};
use crate::lang::ast::{ExprKind, Name};

impl CompiledExpr {
    /// A canonical text of the compiled form, or `None` when part of it
    /// is left to the evaluator or reads a template parameter (it may
    /// then depend on its own ad in ways the text does not show).
    pub fn fingerprint(&self) -> Option<String> {
        let mut out = String::new();
        write_node(&self.node, &mut out)?;
        Some(out)
    }
}

impl CompiledAd {
    /// Whether attribute `name`, looked up from the other ad, has a value
    /// that reads nothing of that other ad: absent, a literal, or compiled
    /// to an expression of this ad alone.
    pub fn reads_own_only(&self, name: &Name) -> bool {
        let Some(i) = self.ad.position_name(name) else {
            return true;
        };
        match self.attrs.get(i as usize) {
            Some(None) => matches!(self.ad.at(i).1.kind, ExprKind::Literal(_)),
            Some(Some(node)) => reads_own_ad_only(node),
            None => false,
        }
    }
}

fn write_node(n: &Node, out: &mut String) -> Option<()> {
    match n {
        Node::Const(v) => write!(out, "c{v:?}").ok()?,
        Node::Other(name) => write!(out, "o{:?}", &*name.name.key).ok()?,
        Node::CmpOther {
            op,
            name,
            konst,
            konst_left,
        } => write!(
            out,
            "k({op:?},{:?},{konst:?},{konst_left})",
            &*name.name.key
        )
        .ok()?,
        Node::Unary(op, a) => {
            write!(out, "u{op:?}(").ok()?;
            write_node(a, out)?;
            out.push(')');
        }
        Node::Binary(op, a, b) => {
            write!(out, "b{op:?}(").ok()?;
            write_node(a, out)?;
            out.push(',');
            write_node(b, out)?;
            out.push(')');
        }
        Node::Chain(kind, items) => {
            write!(out, "h{kind:?}(").ok()?;
            write_all(items, out)?;
        }
        Node::Cond(c, a, b) => {
            out.push_str("q(");
            write_node(c, out)?;
            out.push(',');
            write_node(a, out)?;
            out.push(',');
            write_node(b, out)?;
            out.push(')');
        }
        Node::Elvis(a, b) => {
            out.push_str("e(");
            write_node(a, out)?;
            out.push(',');
            write_node(b, out)?;
            out.push(')');
        }
        Node::IsKind(kind, a) => {
            write!(out, "i{kind:?}(").ok()?;
            write_node(a, out)?;
            out.push(')');
        }
        Node::Call(id, args) => {
            write!(out, "f{id}(").ok()?;
            write_all(args, out)?;
        }
        Node::Own(n) => write_node(n, out)?,
        Node::Param(_) | Node::Bail => return None,
    }
    Some(())
}

/// `items` comma-separated, then the closing parenthesis.
fn write_all(items: &[Node], out: &mut String) -> Option<()> {
    for (i, n) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_node(n, out)?;
    }
    out.push(')');
    Some(())
}
