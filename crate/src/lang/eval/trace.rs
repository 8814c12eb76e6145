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
    /// For an `error` node where the error starts (no operand is error):
    /// why, in words (`division by zero`, `` `memeber` is not a function;
    /// did you mean `member`? ``).
    pub cause: Option<String>,
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
    /// Beside each node of `stack`: a call's number of arguments (to tell
    /// which of them were evaluated before it failed).
    call_args: Vec<Option<usize>>,
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
        ExprKind::Binary(op, ..) => format!("operator {}", op.spelling()),
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
            cause: None,
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
        self.push_call(node, None);
    }

    fn push_call(&mut self, node: TraceNode, args: Option<usize>) {
        self.count += 1;
        if self.count > MAX_NODES {
            self.truncated = true;
        }
        self.stack.push(node);
        self.call_args.push(args);
    }

    /// The evaluator enters `e`.
    pub(crate) fn enter(&mut self, e: &Expr) {
        let mut node = TraceNode {
            span: e.span,
            label: label(e),
            text: shorten(crate::lang::unparse::unparse_typed(e)),
            value: String::new(),
            attribute: None,
            cached: false,
            cause: None,
            cut: false,
            children: vec![],
        };
        let args = match &e.kind {
            ExprKind::Call(c) => {
                // A call to no function, or with a count of arguments the
                // function does not take, is error whatever they are.
                node.cause = match c.func {
                    None => Some(super::error_cause::unknown_function(&c.name)),
                    Some(_) => {
                        let texts: Vec<String> = c
                            .args
                            .iter()
                            .map(crate::lang::unparse::unparse_readable)
                            .collect();
                        super::error_cause::wrong_count(&c.name, &texts)
                    }
                };
                Some(c.args.len())
            }
            _ => None,
        };
        self.push_call(node, args);
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
            cause: None,
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
            cause: None,
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
        let args = self.call_args.pop().flatten();
        node.value = shorten(crate::lang::unparse::value_to_string(v));
        if !matches!(v, Value::Error) {
            node.cause = None;
        } else if node.cause.is_none() {
            let operands: Vec<&str> = node
                .children
                .iter()
                .filter(|c| c.attribute.is_none())
                .map(|c| c.value.as_str())
                .collect();
            // A call says what it was given only when every argument was
            // evaluated (lazy functions evaluate some).
            if args.is_none_or(|n| n == operands.len()) {
                node.cause = super::error_cause::cause(&node.label, &operands);
            }
        }
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
