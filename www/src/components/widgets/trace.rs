//! Reading an evaluation trace: which ad each node's source lies in (so a
//! click can mark it in the pool text), and a one-line "why" for an
//! undefined, error or false result (the first leaf it came from).

use classad::api::{Mode, TraceNode};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    My,
    Target,
}

impl Side {
    pub fn flip(self) -> Side {
        match self {
            Side::My => Side::Target,
            Side::Target => Side::My,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Side::My => "MY",
            Side::Target => "TARGET",
        }
    }
}

/// Where a node's span points: the typed expression, or the definition of
/// an attribute in the MY or TARGET ad (spans are offsets in that ad's text).
#[derive(Clone, Debug, PartialEq)]
pub enum Origin {
    Expr,
    Def { side: Side, attribute: String },
}

impl Origin {
    pub fn side(&self) -> Side {
        match self {
            Origin::Expr => Side::My,
            Origin::Def { side, .. } => *side,
        }
    }
}

/// What is known about the two ads: their attribute names (lower case)
/// and display names.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AdFacts {
    pub present: bool,
    pub label: String,
    pub attrs: Vec<String>,
    /// The ad's text and the line of its pool it starts on (1-based; 0 when
    /// not known), to say where a definition is.
    pub text: std::rc::Rc<str>,
    pub first_line: u32,
}

impl AdFacts {
    /// Where a definition starting at `offset` of the ad's text lies: the
    /// ad's name, and the pool line when known.
    pub fn place(&self, offset: Option<usize>) -> String {
        let line = match offset {
            Some(at) if self.first_line > 0 && at <= self.text.len() => Some(
                self.first_line
                    + self.text.as_bytes()[..at]
                        .iter()
                        .filter(|&&b| b == b'\n')
                        .count() as u32,
            ),
            _ => None,
        };
        match (self.label.is_empty(), line) {
            (false, Some(l)) => format!("{}, line {l}", self.label),
            (false, None) => self.label.clone(),
            (true, Some(l)) => format!("line {l}"),
            (true, None) => String::new(),
        }
    }

    pub fn has(&self, name: &str) -> bool {
        let n = name.to_ascii_lowercase();
        self.attrs.contains(&n)
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ctx {
    pub my: AdFacts,
    pub target: AdFacts,
    pub mode: Mode,
}

impl Ctx {
    pub fn ad(&self, s: Side) -> &AdFacts {
        match s {
            Side::My => &self.my,
            Side::Target => &self.target,
        }
    }
    fn ad_name(&self, s: Side) -> String {
        let a = self.ad(s);
        if a.label.is_empty() {
            format!("the {} ad", s.name())
        } else {
            format!("the {} ad ({})", s.name(), a.label)
        }
    }
}

fn keyword(text: &str) -> Option<&'static str> {
    // The unparser may quote them (`'parent'`).
    let t = text.trim_matches('\'');
    match t.to_ascii_lowercase().as_str() {
        "target" | "other" => Some("target"),
        "my" | "self" => Some("my"),
        "parent" | "root" => Some("scope"),
        _ => None,
    }
}

/// Is this node a reference to MY/TARGET/self/other/parent/root itself?
pub fn is_scope_keyword(n: &TraceNode) -> bool {
    n.label == "attribute reference" && keyword(&n.text).is_some()
}

/// How far [`child_origins`] looks down a selection's base for the ad a
/// record came from (a trace can be as deep as evaluation went; past this
/// the base's own ad is assumed).
const ORIGIN_LOOKAHEAD: u32 = 64;

/// The origin of each child of `n` (whose own origin is `origin`).
pub fn child_origins(n: &TraceNode, origin: &Origin, ctx: &Ctx) -> Vec<Origin> {
    child_origins_within(n, origin, ctx, ORIGIN_LOOKAHEAD)
}

fn child_origins_within(n: &TraceNode, origin: &Origin, ctx: &Ctx, levels: u32) -> Vec<Origin> {
    let cur = origin.side();
    n.children
        .iter()
        .map(|c| match &c.attribute {
            Some(a) => Origin::Def {
                side: def_side(n, a, cur, ctx, levels),
                attribute: a.clone(),
            },
            None => origin.clone(),
        })
        .collect()
}

/// Which ad holds the definition of `attr` reached from reference `n`.
fn def_side(n: &TraceNode, attr: &str, cur: Side, ctx: &Ctx, levels: u32) -> Side {
    if n.label == "selection" {
        if let Some(base) = n.children.first() {
            return match keyword(&base.text) {
                Some("target") => cur.flip(),
                Some(_) => cur,
                // `Gpu.Memory`: the record was defined where `Gpu` was.
                None => last_def_side(base, cur, ctx, levels).unwrap_or(cur),
            };
        }
    }
    // An unscoped name: its own ad first, then (HTCondor) the other.
    if ctx.ad(cur).has(attr) || !ctx.ad(cur.flip()).has(attr) {
        cur
    } else {
        cur.flip()
    }
}

/// The ad of the last definition entered below `n`, looking at most
/// `levels` levels down.
fn last_def_side(n: &TraceNode, cur: Side, ctx: &Ctx, levels: u32) -> Option<Side> {
    let levels = levels.checked_sub(1)?;
    let origin = Origin::Def {
        side: cur,
        attribute: String::new(),
    };
    let mut found = None;
    for (c, o) in n
        .children
        .iter()
        .zip(child_origins_within(n, &origin, ctx, levels))
    {
        if c.attribute.is_some() {
            found = Some(o.side());
        }
        if let Some(s) = last_def_side(c, o.side(), ctx, levels) {
            found = Some(s);
        }
    }
    found
}

/// The "why" of a result: a sentence and the node it is about.
#[derive(Clone, Debug, PartialEq)]
pub struct Why {
    pub message: String,
    /// Child indices from the root to the node.
    pub path: Vec<usize>,
    pub origin: Origin,
}

fn short(v: &str) -> String {
    let v = crate::components::widgets::numbers::people(v);
    if v.chars().count() > 48 {
        let cut: String = v.chars().take(45).collect();
        format!("{cut}…")
    } else {
        v
    }
}

/// Explain an `undefined`, `error` or `false` root value.
pub fn why(root: &TraceNode, ctx: &Ctx) -> Option<Why> {
    let want = root.value.as_str();
    if !matches!(want, "undefined" | "error" | "false") {
        return None;
    }
    let mut path = vec![];
    let mut origin = Origin::Expr;
    let mut n = root;
    let mut def_name: Option<String> = None;
    loop {
        let origins = child_origins(n, &origin, ctx);
        // Where the value came from: the first child with the same value
        // (a conditional's value comes from its branches, not its test).
        let skip = usize::from(n.label == "conditional ?:");
        let next = n
            .children
            .iter()
            .enumerate()
            .skip(skip)
            .find(|(_, c)| c.value == want && !(want == "false" && is_leafish_false(n)));
        match next {
            Some((i, c)) => {
                if c.attribute.is_some() {
                    def_name = c.attribute.clone();
                }
                path.push(i);
                origin = origins[i].clone();
                n = c;
            }
            // A definition met earlier has no subtree here: go on from
            // where it was first evaluated.
            None if n.cached && n.attribute.is_some() => {
                match find_def(root, n.attribute.as_deref().unwrap_or("")) {
                    Some(p) => match at_path(root, &p, ctx) {
                        Some((m, o)) => {
                            def_name = m.attribute.clone();
                            path = p;
                            origin = o;
                            n = m;
                        }
                        None => break,
                    },
                    None => break,
                }
            }
            None => break,
        }
    }
    if want == "false" && path.is_empty() {
        return None; // nothing deeper to point at
    }
    let cur = origin.side();
    let text = format!("`{}`", short(&n.text));
    let vals = || {
        n.children
            .iter()
            .filter(|c| c.attribute.is_none())
            .map(|c| short(&c.value))
            .collect::<Vec<_>>()
    };
    let message = match want {
        "false" => match (n.label.strip_prefix("operator "), vals().as_slice()) {
            (Some(op), [a, b]) => format!("{text} is false: {a} {op} {b}."),
            _ => format!("{text} is false."),
        },
        "undefined" => undefined_message(n, &text, cur, def_name.as_deref(), ctx),
        _ => match (n.label.as_str(), n.label.strip_prefix("operator "), vals().as_slice()) {
            // The engine says why where it knows (division by zero, a
            // misspelt function, the wrong arguments).
            _ if n.cause.is_some() => {
                format!("{text} is error: {}.", n.cause.as_deref().unwrap_or_default().trim_end_matches('.'))
            }
            ("literal", _, _) => match &def_name {
                Some(a) => format!("{a} is defined as error in {}.", ctx.ad_name(cur)),
                None => "The expression contains the literal error.".into(),
            },
            (_, Some(op), [a, b]) => format!("{text} is error: operator {op} cannot combine {a} and {b}."),
            (_, Some(op), [a]) => format!("{text} is error: operator {op} cannot take {a}."),
            (l, _, args) if l.starts_with("call ") => format!(
                "{text} is error: {} gave error for ({}) — wrong argument types or count, or an unknown function.",
                &l[5..],
                args.join(", ")
            ),
            _ => format!("{text} is error."),
        },
    };
    Some(Why {
        message,
        path,
        origin,
    })
}

/// For a false result: comparisons and negations are where it stops.
fn is_leafish_false(n: &TraceNode) -> bool {
    let l = n.label.as_str();
    !(l == "operator &&"
        || l == "operator ||"
        || l == "parentheses"
        || l == "definition"
        || l == "attribute reference"
        || l == "selection"
        || l == "conditional ?:"
        || l == "elvis ?:")
}

fn undefined_message(
    n: &TraceNode,
    text: &str,
    cur: Side,
    def_name: Option<&str>,
    ctx: &Ctx,
) -> String {
    let has_def = n.children.iter().any(|c| c.attribute.is_some());
    match n.label.as_str() {
        "attribute reference" if !has_def => {
            match keyword(&n.text) {
                Some("target") => {
                    "There is no TARGET ad: choose one to give TARGET (other) a value.".into()
                }
                Some(_) => format!("{text} is undefined here."),
                None => {
                    let name = &n.text;
                    if ctx.ad(cur).has(name) {
                        format!("{text} is undefined: its definition depends on itself (a circular reference).")
                    } else if ctx.mode == Mode::HTCondor && cur == Side::My {
                        if ctx.target.present {
                            format!(
                                "{text} is undefined: neither {} nor {} has {name}.",
                                ctx.ad_name(Side::My),
                                ctx.ad_name(Side::Target)
                            )
                        } else {
                            format!("{text} is undefined: {} has no {name} (and no TARGET ad is chosen).", ctx.ad_name(Side::My))
                        }
                    } else {
                        let hint = if ctx.ad(cur.flip()).has(name) {
                            format!(
                                " {} has it: write {}.{name}.",
                                ctx.ad_name(cur.flip()),
                                cur.flip().name()
                            )
                        } else {
                            String::new()
                        };
                        format!(
                            "{text} is undefined: {} has no {name}.{hint}",
                            ctx.ad_name(cur)
                        )
                    }
                }
            }
        }
        "selection" if !has_def => {
            let attr = n.text.rsplit('.').next().unwrap_or(&n.text);
            let base = n.children.first();
            match base.map(|b| keyword(&b.text)) {
                Some(Some("target")) => format!(
                    "{text} is undefined: {} has no {attr}.",
                    ctx.ad_name(cur.flip())
                ),
                Some(Some("my")) => {
                    format!("{text} is undefined: {} has no {attr}.", ctx.ad_name(cur))
                }
                Some(_) if base.is_some_and(|b| b.value.starts_with('[')) => {
                    format!(
                        "{text} is undefined: the record {} has no {attr}.",
                        base.map(|b| short(&b.text)).unwrap_or_default()
                    )
                }
                _ => format!(
                    "{text} is undefined: {} is not a record.",
                    base.map(|b| short(&b.text)).unwrap_or_default()
                ),
            }
        }
        "literal" => match def_name {
            Some(a) => format!("{a} is defined as undefined in {}.", ctx.ad_name(cur)),
            None => "The expression contains the literal undefined.".into(),
        },
        l if l.starts_with("call ") => format!("{text} returned undefined."),
        _ => format!("{text} is undefined."),
    }
}

/// Path to the first evaluated (not cached) definition of `attr` below
/// `root`, depth first with a stack of its own (a trace is as deep as
/// evaluation went).
fn find_def(root: &TraceNode, attr: &str) -> Option<Vec<usize>> {
    // (node, how many of its children were visited)
    let mut stack: Vec<(&TraceNode, usize)> = vec![(root, 0)];
    loop {
        let (n, visited) = stack.last_mut()?;
        let Some(c) = n.children.get(*visited) else {
            stack.pop();
            continue;
        };
        *visited += 1;
        if !c.cached && c.attribute.as_deref() == Some(attr) {
            return Some(stack.iter().map(|(_, visited)| visited - 1).collect());
        }
        stack.push((c, 0));
    }
}

/// The node at `path` below `root`, with its origin.
pub fn at_path<'a>(
    root: &'a TraceNode,
    path: &[usize],
    ctx: &Ctx,
) -> Option<(&'a TraceNode, Origin)> {
    let mut n = root;
    let mut o = Origin::Expr;
    for &i in path {
        let os = child_origins(n, &o, ctx);
        o = os.get(i)?.clone();
        n = n.children.get(i)?;
    }
    Some((n, o))
}

#[cfg(test)]
mod tests {
    use super::*;
    use classad::api::{handle, Request, Response};

    fn run(expr: &str, my: &str, target: Option<&str>) -> (String, TraceNode, Ctx) {
        let Response::Value { value, trace, .. } = handle(Request::Evaluate {
            expr: expr.into(),
            my: Some(my.into()),
            target: target.map(Into::into),
            scope: vec![],
            dialect: Default::default(),
            trace: true,
            context: classad::api::EvalOptions::in_mode(Mode::HTCondor),
        }) else {
            panic!("no value")
        };
        let facts = |t: &str| AdFacts {
            present: true,
            label: String::new(),
            attrs: crate::worker::replies::ad_names(t, Default::default()).attrs,
            ..Default::default()
        };
        let ctx = Ctx {
            my: facts(my),
            target: target.map(facts).unwrap_or_default(),
            mode: Mode::HTCondor,
        };
        (value, trace.unwrap(), ctx)
    }

    #[test]
    fn why_names_the_missing_attribute_and_its_ad() {
        let (v, t, ctx) = run("TARGET.Foo + 1", "[ A = 1 ]", Some("[ B = 2 ]"));
        assert_eq!(v, "undefined");
        let w = why(&t, &ctx).unwrap();
        assert!(w.message.contains("TARGET ad has no Foo"), "{}", w.message);
    }

    #[test]
    fn why_follows_definitions_and_explains_false_and_error() {
        let (_, t, ctx) = run(
            "Ok && Big",
            "[ Ok = true; Big = Size > 10; Size = 3 ]",
            None,
        );
        let w = why(&t, &ctx).unwrap();
        assert!(
            w.message.contains("`Size > 10` is false: 3 > 10"),
            "{}",
            w.message
        );
        assert_eq!(
            w.origin,
            Origin::Def {
                side: Side::My,
                attribute: "Big".into()
            }
        );
        let (_, t, ctx) = run("X", "[ X = 1 * \"a\" ]", None);
        assert!(why(&t, &ctx)
            .unwrap()
            .message
            .contains("operator * cannot combine an integer (1) and a string (\"a\")"));
    }

    #[test]
    fn definitions_reached_through_target_lie_in_the_target_ad() {
        // In TARGET's own definition, an unscoped name is TARGET's, and
        // TARGET.x refers back to MY.
        let (_, t, ctx) = run("TARGET.R", "[ M = 5 ]", Some("[ R = Q + TARGET.M; Q = 1 ]"));
        let mut defs = vec![];
        fn walk(n: &TraceNode, o: &Origin, ctx: &Ctx, out: &mut Vec<(String, Side)>) {
            for (c, co) in n.children.iter().zip(child_origins(n, o, ctx)) {
                if let (Some(a), Origin::Def { side, .. }) = (&c.attribute, &co) {
                    out.push((a.clone(), *side));
                }
                walk(c, &co, ctx, out);
            }
        }
        walk(&t, &Origin::Expr, &ctx, &mut defs);
        assert_eq!(
            defs,
            vec![
                ("R".into(), Side::Target),
                ("Q".into(), Side::Target),
                ("M".into(), Side::My)
            ]
        );
    }
}
