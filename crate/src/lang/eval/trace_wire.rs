//! How a trace crosses a boundary (JSON to the page, JS objects to an
//! embedding page): flat, so no reader or writer recurses as deep as the
//! tree. A trace can be as deep as evaluation goes (`MAX_EVAL_DEPTH`), far
//! past what a JSON reader allows (serde_json stops at 128) or a Web
//! Worker's stack holds.
//!
//! The wire form is an array of nodes in preorder, the root first; each
//! node lists its children as indices into that array:
//!
//! ```json
//! [{"span":{"start":0,"end":5},"label":"operator +","text":"1 + 2","value":"3","children":[1,2]},
//!  {"span":{"start":0,"end":1},"label":"literal","text":"1","value":"1","children":[]},
//!  {"span":{"start":4,"end":5},"label":"literal","text":"2","value":"2","children":[]}]
//! ```
//!
//! Dropping a deep tree is iterative too (see the `Drop` below).

use serde::de::Error as _;
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::trace::TraceNode;
use crate::lang::ast::Span;

/// One node on the wire (borrowed when writing).
#[derive(Serialize)]
struct FlatRef<'a> {
    span: Span,
    label: &'a str,
    text: &'a str,
    value: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    attribute: Option<&'a str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    cached: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    cause: Option<&'a str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    cut: bool,
    children: &'a [u32],
}

/// One node on the wire (owned when reading).
#[derive(Deserialize)]
struct Flat {
    span: Span,
    label: String,
    text: String,
    value: String,
    #[serde(default)]
    attribute: Option<String>,
    #[serde(default)]
    cached: bool,
    #[serde(default)]
    cause: Option<String>,
    #[serde(default)]
    cut: bool,
    children: Vec<u32>,
}

/// The nodes of `root` in preorder, and each one's children as indices.
fn preorder(root: &TraceNode) -> (Vec<&TraceNode>, Vec<Vec<u32>>) {
    let mut nodes: Vec<&TraceNode> = vec![];
    let mut children: Vec<Vec<u32>> = vec![];
    // (node, its parent's index)
    let mut stack: Vec<(&TraceNode, Option<usize>)> = vec![(root, None)];
    while let Some((n, parent)) = stack.pop() {
        let me = nodes.len();
        nodes.push(n);
        children.push(Vec::with_capacity(n.children.len()));
        if let Some(p) = parent {
            // Preorder meets a parent's children in order.
            children[p].push(me as u32);
        }
        stack.extend(n.children.iter().rev().map(|c| (c, Some(me))));
    }
    (nodes, children)
}

impl Serialize for TraceNode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (nodes, children) = preorder(self);
        let mut seq = s.serialize_seq(Some(nodes.len()))?;
        for (n, kids) in nodes.iter().zip(&children) {
            seq.serialize_element(&FlatRef {
                span: n.span,
                label: &n.label,
                text: &n.text,
                value: &n.value,
                attribute: n.attribute.as_deref(),
                cached: n.cached,
                cause: n.cause.as_deref(),
                cut: n.cut,
                children: kids,
            })?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for TraceNode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<TraceNode, D::Error> {
        let flat = Vec::<Flat>::deserialize(d)?;
        from_flat(flat).map_err(D::Error::custom)
    }
}

/// Rebuild the tree. Children come after their parent in preorder, so
/// building from the last node back finds every child already built.
fn from_flat(flat: Vec<Flat>) -> Result<TraceNode, String> {
    if flat.is_empty() {
        return Err("a trace has at least its root node".into());
    }
    let len = flat.len();
    let mut built: Vec<Option<TraceNode>> = (0..len).map(|_| None).collect();
    for (i, f) in flat.into_iter().enumerate().rev() {
        let mut children = Vec::with_capacity(f.children.len());
        for &c in &f.children {
            let c = c as usize;
            if c <= i || c >= len {
                return Err(format!(
                    "trace node {i} names child {c}, which is not after it"
                ));
            }
            let child = built[c]
                .take()
                .ok_or_else(|| format!("trace node {c} has two parents"))?;
            children.push(child);
        }
        built[i] = Some(TraceNode {
            span: f.span,
            label: f.label,
            text: f.text,
            value: f.value,
            attribute: f.attribute,
            cached: f.cached,
            cause: f.cause,
            cut: f.cut,
            children,
        });
    }
    if let Some(orphan) = built.iter().skip(1).position(Option::is_some) {
        return Err(format!("trace node {} has no parent", orphan + 1));
    }
    Ok(built[0].take().expect("the root was built"))
}

impl Drop for TraceNode {
    fn drop(&mut self) {
        // The derived drop would recurse once per level.
        let mut pending = std::mem::take(&mut self.children);
        while let Some(mut n) = pending.pop() {
            pending.append(&mut n.children);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(text: &str) -> TraceNode {
        TraceNode {
            span: Span::NONE,
            label: "literal".into(),
            text: text.into(),
            value: text.into(),
            attribute: None,
            cached: false,
            cause: None,
            cut: false,
            children: vec![],
        }
    }

    fn chain(depth: usize) -> TraceNode {
        let mut n = leaf("0");
        for i in 1..depth {
            let mut p = leaf(&i.to_string());
            p.label = "parentheses".into();
            p.children = vec![n, leaf("x")];
            n = p;
        }
        n
    }

    #[test]
    fn round_trips_in_preorder_with_child_indices() {
        let mut root = leaf("1 + 2");
        root.label = "operator +".into();
        root.attribute = Some("A".into());
        root.children = vec![leaf("1"), leaf("2")];
        let json = serde_json::to_string(&root).unwrap();
        assert!(json.starts_with(r#"[{"span":"#), "{json}");
        assert!(
            json.contains(r#""attribute":"A","children":[1,2]}"#),
            "{json}"
        );
        let back: TraceNode = serde_json::from_str(&json).unwrap();
        assert_eq!(back, root);
    }

    #[test]
    fn a_tree_far_deeper_than_a_json_reader_allows_crosses_both_ways() {
        // serde_json's reader stops at 128 levels of nesting; a thread with
        // a small stack (64 KB) shows nothing here recurses by level.
        let t = std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(|| {
                let deep = chain(5_000);
                let json = serde_json::to_string(&deep).unwrap();
                let back: TraceNode = serde_json::from_str(&json).unwrap();
                let mut n = &back;
                let mut depth = 1;
                while let Some(c) = n.children.first() {
                    n = c;
                    depth += 1;
                }
                (depth, json.len())
            })
            .unwrap();
        let (depth, _) = t.join().unwrap();
        assert_eq!(depth, 5_000);
    }

    #[test]
    fn malformed_wire_traces_are_refused_not_trusted() {
        let node = |kids: &str| {
            format!(
                r#"{{"span":{{"start":0,"end":0}},"label":"l","text":"t","value":"v","children":{kids}}}"#
            )
        };
        for (bad, why) in [
            ("[]".to_string(), "at least its root"),
            (format!("[{}]", node("[0]")), "not after it"),
            (format!("[{},{}]", node("[5]"), node("[]")), "not after it"),
            (
                format!("[{},{},{}]", node("[1,2]"), node("[2]"), node("[]")),
                "two parents",
            ),
            (format!("[{},{}]", node("[]"), node("[]")), "no parent"),
        ] {
            let e = serde_json::from_str::<TraceNode>(&bad)
                .unwrap_err()
                .to_string();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
