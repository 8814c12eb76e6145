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
        Node::Unary(op, a) => group(out, format_args!("u{op:?}"), [&**a])?,
        Node::Binary(op, a, b) => group(out, format_args!("b{op:?}"), [&**a, &**b])?,
        Node::Chain(kind, items) => group(out, format_args!("h{kind:?}"), items)?,
        Node::Cond(c, a, b) => group(out, format_args!("q"), [&**c, &**a, &**b])?,
        Node::Elvis(a, b) => group(out, format_args!("e"), [&**a, &**b])?,
        Node::IsKind(kind, a) => group(out, format_args!("i{kind:?}"), [&**a])?,
        Node::Call(id, args) => group(out, format_args!("f{id}"), args)?,
        Node::Own(n) => write_node(n, out)?,
        Node::Param(_) | Node::Bail => return None,
    }
    Some(())
}

/// `head(` then `items` comma-separated, then `)`.
fn group<'a>(
    out: &mut String,
    head: std::fmt::Arguments,
    items: impl IntoIterator<Item = &'a Node>,
) -> Option<()> {
    out.write_fmt(head).ok()?;
    out.push('(');
    for (i, n) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_node(n, out)?;
    }
    out.push(')');
    Some(())
}
