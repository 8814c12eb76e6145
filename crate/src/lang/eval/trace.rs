//! The evaluation trace behind the playground's explain view: every
//! subexpression evaluated, with its source span and value, as a tree.
//! Attribute references show the attribute's own definition as a child.

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

/// The trace being recorded: the evaluator tells it where it enters and
/// leaves, and it builds the tree.
#[derive(Default)]
pub(crate) struct Tracer {
    stack: Vec<TraceNode>,
    count: usize,
    truncated: bool,
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

impl Tracer {
    /// A tracer with a holder for the root node.
    pub(crate) fn new() -> Tracer {
        let mut t = Tracer::default();
        t.stack.push(TraceNode {
            span: Span::NONE,
            label: String::new(),
            text: String::new(),
            value: String::new(),
            attribute: None,
            cached: false,
            cut: false,
            children: vec![],
        });
        t
    }

    /// The trace's root, once evaluation is done.
    pub(crate) fn finish(mut self) -> Option<TraceNode> {
        let mut root = self.stack.pop().and_then(|mut h| h.children.pop());
        if let Some(r) = root.as_mut() {
            r.cut = self.truncated;
        }
        root
    }

    fn push(&mut self, node: TraceNode) {
        self.count += 1;
        if self.count > MAX_NODES {
            self.truncated = true;
        }
        self.stack.push(node);
    }

    /// The evaluator enters `e`.
    pub(crate) fn enter(&mut self, e: &Expr) {
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

    /// The evaluator enters the definition of attribute `name`.
    pub(crate) fn attr(&mut self, name: &str) {
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

    /// Attribute `name` had its value `v` already.
    pub(crate) fn cached(&mut self, name: &str, v: &Value) {
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
        self.leave(v);
    }

    /// The node entered last has the value `v`.
    pub(crate) fn leave(&mut self, v: &Value) {
        let Some(mut node) = self.stack.pop() else {
            return;
        };
        node.value = shorten(crate::lang::unparse::value_to_string(v));
        if self.truncated && self.stack.len() > 1 {
            // Past the node budget keep only the upper levels.
            node.children.clear();
        }
        if let Some(parent) = self.stack.last_mut() {
            if !self.truncated || parent.children.len() < 64 {
                parent.children.push(node);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lang::eval::{EvalOptions, Evaluator};
    use crate::lang::parser::parse_expr;

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
