//! The evaluation trace behind the playground's explain view: every
//! subexpression evaluated, with its source span and value, as a tree.
//! Attribute references show the attribute's own definition as a child.

use super::Evaluator;
use crate::lang::ast::{Expr, ExprKind, Span};
use crate::lang::value::Value;

/// One evaluated subexpression. It crosses to the page flat (see
/// `trace_wire`), not nested.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceNode {
    /// Span in the source the node was parsed from (see `attribute`).
    pub span: Span,
    /// What the node is: `literal`, `attr`, `op ==`, `call strcat`, …
    pub label: String,
    /// The node unparsed, reals as people write them (shortened when long).
    pub text: String,
    /// Its value, canonically unparsed.
    pub value: String,
    /// For a node that enters an attribute's definition: the attribute's
    /// name. Spans of its descendants are relative to that definition.
    pub attribute: Option<String>,
    /// True when the value came from the evaluation cache.
    pub cached: bool,
    /// On the root only: the trace stopped recording at its node budget
    /// (`MAX_NODES`), so deep parts are missing (the value is still exact).
    pub cut: bool,
    pub children: Vec<TraceNode>,
}

/// Nodes beyond this many are not recorded (the value is still right).
pub const MAX_NODES: usize = 20_000;

#[derive(Default)]
pub(crate) struct Tracer {
    stack: Vec<TraceNode>,
    count: usize,
    pub(crate) truncated: bool,
}

fn label(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Literal(_) => "literal".into(),
        ExprKind::Attr { .. } => "attribute reference".into(),
        ExprKind::Select(..) => "selection".into(),
        ExprKind::Index(..) => "subscript".into(),
        ExprKind::Unary(op, _) => format!("operator {}", op.symbol()),
        ExprKind::Binary(op, ..) => format!("operator {}", op.symbol()),
        ExprKind::Cond(..) => "conditional ?:".into(),
        ExprKind::Elvis(..) => "elvis ?:".into(),
        ExprKind::Paren(_) => "parentheses".into(),
        ExprKind::Call(c) => format!("call {}", c.name),
        ExprKind::List(_) => "list".into(),
        ExprKind::Record(_) => "record".into(),
    }
}

fn shorten(mut s: String) -> String {
    const MAX: usize = 200;
    if s.len() > MAX {
        let mut cut = MAX;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
        s.push('…');
    }
    s
}

impl Evaluator {
    /// Evaluate with tracing on; returns the value and the trace root.
    pub fn eval_traced(&mut self, e: &Expr, env: &super::Env) -> (Value, Option<TraceNode>) {
        self.tracer = Some(Tracer::default());
        // A root holder collects the top node.
        self.tracer.as_mut().unwrap().stack.push(TraceNode {
            span: Span::NONE,
            label: String::new(),
            text: String::new(),
            value: String::new(),
            attribute: None,
            cached: false,
            cut: false,
            children: vec![],
        });
        let v = self.eval(e, env);
        let mut t = self.tracer.take().unwrap();
        let mut root = t.stack.pop().and_then(|mut h| h.children.pop());
        if let Some(r) = root.as_mut() {
            r.cut = t.truncated;
        }
        (v, root)
    }

    fn push(&mut self, node: TraceNode) {
        let t = self.tracer.as_mut().unwrap();
        t.count += 1;
        if t.count > MAX_NODES {
            t.truncated = true;
        }
        t.stack.push(node);
    }

    pub(super) fn trace_enter(&mut self, e: &Expr) {
        let node = TraceNode {
            span: e.span,
            label: label(e),
            text: shorten(crate::lang::unparse::unparse_readable(e)),
            value: String::new(),
            attribute: None,
            cached: false,
            cut: false,
            children: vec![],
        };
        self.push(node);
    }

    pub(super) fn trace_attr(&mut self, name: &str) {
        self.push(TraceNode {
            span: Span::NONE,
            label: "definition".into(),
            text: name.to_string(),
            value: String::new(),
            attribute: Some(name.to_string()),
            cached: false,
            cut: false,
            children: vec![],
        });
    }

    pub(super) fn trace_cached(&mut self, name: &str, v: &Value) {
        self.push(TraceNode {
            span: Span::NONE,
            label: "definition".into(),
            text: name.to_string(),
            value: String::new(),
            attribute: Some(name.to_string()),
            cached: true,
            cut: false,
            children: vec![],
        });
        self.trace_leave(v);
    }

    pub(super) fn trace_leave(&mut self, v: &Value) {
        let t = self.tracer.as_mut().unwrap();
        let Some(mut node) = t.stack.pop() else {
            return;
        };
        node.value = shorten(crate::lang::unparse::value_to_string(v));
        if t.truncated && t.stack.len() > 1 {
            // Past the node budget keep only the upper levels.
            node.children.clear();
        }
        if let Some(parent) = t.stack.last_mut() {
            if !t.truncated || parent.children.len() < 64 {
                parent.children.push(node);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{parse_expr, EvalOptions, Evaluator};

    fn cut(expr: &str) -> bool {
        let e = parse_expr(expr).unwrap();
        let mut ev = Evaluator::new(EvalOptions::default());
        let (_, root) = ev.eval_traced(&e, &crate::lang::eval::Env::default());
        root.unwrap().cut
    }

    #[test]
    fn a_trace_past_its_node_budget_says_it_was_cut() {
        assert!(!cut("1 + 2 * 3"));
        let many = vec!["1 + 1"; super::MAX_NODES / 2].join(", ");
        assert!(cut(&format!("sum({{ {many} }})")));
    }
}
