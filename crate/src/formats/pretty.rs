//! A readable pretty printer: one attribute per line, long `&&` / `||`
//! chains broken over lines and indented.

use crate::ast::{BinaryOp, ClassAd, Expr, ExprKind};
use crate::unparse::{unparse, write_name};

const WIDTH: usize = 80;

pub fn pretty_ad(ad: &ClassAd) -> String {
    let mut out = String::from("[\n");
    for (name, e) in ad.iter() {
        let mut head = String::from("    ");
        write_name(&mut head, name);
        head.push_str(" = ");
        let indent = head.len();
        out.push_str(&head);
        out.push_str(&pretty_expr(e, indent));
        out.push_str(";\n");
    }
    out.push(']');
    out
}

/// An expression laid out to fit `WIDTH` columns when it starts at `indent`.
pub fn pretty_expr(e: &Expr, indent: usize) -> String {
    let flat = unparse(e);
    if indent + flat.len() <= WIDTH {
        return flat;
    }
    match &e.kind {
        ExprKind::Binary(op @ (BinaryOp::And | BinaryOp::Or), _, _) => {
            let mut terms = Vec::new();
            chain(e, *op, &mut terms);
            let pad = " ".repeat(indent);
            let parts: Vec<String> = terms.iter().map(|t| pretty_expr(t, indent + 3)).collect();
            parts.join(&format!("\n{pad}{} ", op.symbol()))
        }
        ExprKind::Paren(inner) => format!("( {} )", pretty_expr(inner, indent + 2)),
        ExprKind::Record(ad) => {
            let pad = " ".repeat(indent);
            let mut out = String::from("[\n");
            for (name, v) in ad.iter() {
                let mut head = format!("{pad}    ");
                write_name(&mut head, name);
                head.push_str(" = ");
                let ind = head.len();
                out.push_str(&head);
                out.push_str(&pretty_expr(v, ind));
                out.push_str(";\n");
            }
            out.push_str(&pad);
            out.push(']');
            out
        }
        _ => flat,
    }
}

fn chain<'a>(e: &'a Expr, op: BinaryOp, out: &mut Vec<&'a Expr>) {
    match &e.kind {
        ExprKind::Binary(o, l, r) if *o == op => {
            chain(l, op, out);
            out.push(r);
        }
        _ => out.push(e),
    }
}
