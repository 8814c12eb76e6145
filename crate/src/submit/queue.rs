//! Queue statements, as condor_submit's `SubmitForeachArgs::parse_queue_args`
//! reads them (`submit_utils.cpp`): `queue [count] [vars in|from|matching
//! [files|dirs|any] [slice] items]`, the items inline, in a `( … )` list on
//! the following lines, or from a file given alongside; `iterate` is
//! `queue`'s other name.

/// How the items are given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `queue N`: no items.
    Count,
    In,
    From,
    /// `matching [files|dirs|any]`: globs over the names given alongside.
    Matching {
        files: bool,
        dirs: bool,
    },
}

/// A slice `[start:end:step]` over the items, Python's way (negative
/// bounds count from the end).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Slice {
    start: Option<i64>,
    end: Option<i64>,
    step: Option<i64>,
}

impl Slice {
    /// `[a:b:c]` at the start of `text`: the slice and the rest.
    fn parse(text: &str) -> Option<(Slice, &str)> {
        let inner_end = text.find(']')?;
        let inner = &text[1..inner_end];
        let mut parts = inner.split(':');
        let num = |s: Option<&str>| -> Result<Option<i64>, ()> {
            match s.map(str::trim) {
                None | Some("") => Ok(None),
                Some(t) => t.parse().map(Some).map_err(|_| ()),
            }
        };
        let s = Slice {
            start: num(parts.next()).ok()?,
            end: num(parts.next()).ok()?,
            step: num(parts.next()).ok()?,
        };
        if parts.next().is_some() {
            return None;
        }
        Some((s, &text[inner_end + 1..]))
    }

    /// `qslice::selected`: item `ix` of `len` is in the slice.
    pub fn selected(&self, ix: i64, len: i64) -> bool {
        let is = self.start.map_or(0, |s| if s < 0 { s + len } else { s });
        let ie = self.end.map_or(len, |e| if e < 0 { e + len } else { e });
        ix >= is
            && ix < ie
            && match self.step {
                Some(st) if st != 0 => (ix - is) % st == 0,
                _ => true,
            }
    }
}

/// A queue statement's arguments, read.
#[derive(Clone, Debug, PartialEq)]
pub struct QueueArgs {
    /// Procs per item.
    pub count: i64,
    /// The loop variables (`Item` when a mode has none).
    pub vars: Vec<String>,
    pub mode: Mode,
    pub items: Vec<String>,
    /// `from file`: the items are that file's lines.
    pub items_file: Option<String>,
    pub slice: Option<Slice>,
}

/// The keyword of a queue statement's items, and where its word starts.
fn keyword(args: &str) -> Option<(Mode, usize, usize)> {
    let b = args.as_bytes();
    let mut i = 0;
    while i < b.len() {
        while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b'(') {
            i += 1;
        }
        let start = i;
        while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'(' {
            i += 1;
        }
        // A keyword is a whole word followed by whitespace or `(`.
        if i < b.len() {
            let mode = match args[start..i].to_ascii_lowercase().as_str() {
                "in" => Some(Mode::In),
                "from" => Some(Mode::From),
                "matching" => Some(Mode::Matching {
                    files: false,
                    dirs: false,
                }),
                _ => None,
            };
            if let Some(m) = mode {
                return Some((m, start, i));
            }
        }
    }
    None
}

/// Whether a queue line opens an item list that goes on over the next
/// lines (`queue x in (` with no `)` at its end).
pub fn opens_list(args: &str) -> bool {
    let Some((_, _, after)) = keyword(args) else {
        return false;
    };
    let rest = skip_qualifiers(&args[after..]);
    rest.starts_with('(') && !(rest.len() > 1 && rest.trim_end().ends_with(')'))
}

/// Past `files`, `dirs`, `any`, `table` and a slice.
fn skip_qualifiers(mut rest: &str) -> &str {
    loop {
        rest = rest.trim_start();
        if rest.starts_with('(') {
            return rest;
        }
        if rest.starts_with('[') {
            match Slice::parse(rest) {
                Some((_, r)) => rest = r,
                None => return rest,
            }
            continue;
        }
        let word_end = rest
            .find(|c: char| c.is_whitespace() || c == '(')
            .unwrap_or(rest.len());
        match rest[..word_end].to_ascii_lowercase().as_str() {
            "files" | "dirs" | "any" | "table" => rest = &rest[word_end..],
            _ => return rest,
        }
    }
}

/// `StringTokenIterator`'s split: on commas and whitespace, empty ones out.
fn tokens(s: &str) -> impl Iterator<Item = String> + '_ {
    s.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(str::to_string)
}

/// Read a queue statement's arguments (macros expanded already) and the
/// lines of a multi-line item list, if it had one.
pub fn parse(args: &str, more: Option<&[String]>) -> Result<QueueArgs, String> {
    let args = args.trim();
    let mut q = QueueArgs {
        count: 1,
        vars: vec![],
        mode: Mode::Count,
        items: vec![],
        items_file: None,
        slice: None,
    };
    if args.is_empty() {
        return Ok(q);
    }
    let mut count_end = args.len();
    if let Some((mode, kw_start, kw_end)) = keyword(args) {
        q.mode = mode;
        let mut rest = args[kw_end..].trim_start();
        // files|dirs|any after matching, table after from, a slice.
        loop {
            if rest.starts_with('(') {
                break;
            }
            if rest.starts_with('[') {
                let (s, r) = Slice::parse(rest).ok_or("Invalid [::] statement")?;
                q.slice = Some(s);
                rest = r.trim_start();
                continue;
            }
            let word_end = rest
                .find(|c: char| c.is_whitespace() || c == '(')
                .unwrap_or(rest.len());
            let word = rest[..word_end].to_ascii_lowercase();
            let m = &mut q.mode;
            match (word.as_str(), *m) {
                ("files", Mode::Matching { .. }) => {
                    *m = Mode::Matching {
                        files: true,
                        dirs: false,
                    }
                }
                ("dirs", Mode::Matching { .. }) => {
                    *m = Mode::Matching {
                        files: false,
                        dirs: true,
                    }
                }
                ("any", Mode::Matching { .. }) => {
                    *m = Mode::Matching {
                        files: false,
                        dirs: false,
                    }
                }
                ("table", Mode::From) => {}
                ("files" | "dirs" | "any" | "table", _) => {
                    return Err("Queue keyword conflict".into())
                }
                _ => break,
            }
            rest = rest[word_end..].trim_start();
        }
        let mut list = rest;
        let mut one_line = false;
        if list.starts_with('(') && list.len() > 1 && list.ends_with(')') {
            list = &list[1..list.len() - 1];
            one_line = true;
        }
        if !one_line && list.starts_with('(') {
            // The rest of this line and the lines after it.
            let first = list[1..].trim();
            let from = q.mode == Mode::From;
            if !first.is_empty() {
                if from {
                    q.items.push(first.to_string());
                } else {
                    q.items.extend(tokens(first));
                }
            }
            for l in more.unwrap_or(&[]) {
                if from {
                    q.items.push(l.clone());
                } else {
                    q.items.extend(tokens(l));
                }
            }
        } else if q.mode == Mode::From {
            if one_line {
                q.items.push(list.trim().to_string());
            } else {
                q.items_file = Some(list.trim().to_string());
            }
        } else {
            q.items.extend(tokens(list));
        }
        // The variables: the words before the keyword that can be names.
        let before = args[..kw_start].trim_end();
        let b = before.as_bytes();
        let mut pv = b.len();
        let mut pt = b.len();
        while pt > 0 {
            let mut ch = b[pt - 1];
            if ch.is_ascii_digit() {
                pt -= 1;
                while pt > 0 {
                    ch = b[pt - 1];
                    if ch.is_ascii_alphabetic() {
                        break;
                    }
                    if !ch.is_ascii_digit() {
                        ch = b'!';
                        break;
                    }
                    pt -= 1;
                }
            }
            if ch.is_ascii_whitespace() || ch.is_ascii_alphabetic() || b",_.".contains(&ch) {
                pv = pt - 1;
            } else {
                break;
            }
            pt -= 1;
        }
        q.vars = tokens(&before[pv..]).collect();
        if q.vars.is_empty() {
            q.vars.push("Item".into());
        }
        count_end = pv;
    }
    let count_text = args[..count_end].trim();
    if !count_text.is_empty() {
        let n = super::macros::long_param(count_text).ok_or("Invalid Queue count expression")?;
        if !(0..i64::from(i32::MAX)).contains(&n) {
            return Err("Queue count out of range".into());
        }
        q.count = n;
    }
    Ok(q)
}

/// `set_vars`: the loop variables' values for one item — the first
/// variable up to the first separator (`,`, space or tab), each next one
/// the next field, the last one the rest.
pub fn fields(vars: &[String], item: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = item;
    for (i, v) in vars.iter().enumerate() {
        if i + 1 == vars.len() {
            out.push((v.clone(), rest.to_string()));
            break;
        }
        match rest.find([',', ' ', '\t']) {
            Some(at) => {
                out.push((v.clone(), rest[..at].to_string()));
                rest = rest[at + 1..].trim_start_matches([' ', '\t']);
            }
            None => {
                out.push((v.clone(), rest.to_string()));
                // Later variables keep no value (condor_submit leaves them
                // as they were: empty).
                for v in &vars[i + 1..] {
                    out.push((v.clone(), String::new()));
                }
                break;
            }
        }
    }
    out
}

/// `queue matching`: the names given alongside that match the glob
/// patterns, each pattern's matches sorted, duplicates once.
pub fn matching(patterns: &[String], names: &[String], files: bool, dirs: bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in patterns {
        let mut hits: Vec<String> = names
            .iter()
            .filter(|n| {
                let is_dir = n.ends_with('/');
                (!files || !is_dir) && (!dirs || is_dir)
            })
            .map(|n| n.trim_end_matches('/').to_string())
            .filter(|n| glob(p, n))
            .collect();
        hits.sort();
        if hits.is_empty() && !p.contains(['*', '?', '[']) {
            // A pattern without wildcards is its own item.
            hits.push(p.clone());
        }
        for h in hits {
            if !out.contains(&h) {
                out.push(h);
            }
        }
    }
    out
}

/// A shell glob: `*`, `?`, `[…]`.
fn glob(pattern: &str, name: &str) -> bool {
    fn go(p: &[char], n: &[char]) -> bool {
        match p.first() {
            None => n.is_empty(),
            Some('*') => (0..=n.len()).any(|i| go(&p[1..], &n[i..])),
            Some('?') => !n.is_empty() && go(&p[1..], &n[1..]),
            Some('[') => {
                let Some(close) = p.iter().position(|c| *c == ']') else {
                    return n.first() == Some(&'[') && go(&p[1..], &n[1..]);
                };
                let Some(c) = n.first() else { return false };
                let set = &p[1..close];
                let (neg, set) = match set.first() {
                    Some('!' | '^') => (true, &set[1..]),
                    _ => (false, set),
                };
                let mut hit = false;
                let mut i = 0;
                while i < set.len() {
                    if i + 2 < set.len() && set[i + 1] == '-' {
                        hit |= (set[i]..=set[i + 2]).contains(c);
                        i += 3;
                    } else {
                        hit |= set[i] == *c;
                        i += 1;
                    }
                }
                hit != neg && go(&p[close + 1..], &n[1..])
            }
            Some(c) => n.first() == Some(c) && go(&p[1..], &n[1..]),
        }
    }
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    // A star over a long name is quadratic at worst; names are short.
    go(&p, &n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(args: &str) -> QueueArgs {
        parse(args, None).unwrap()
    }

    #[test]
    fn every_form_of_queue_reads() {
        assert_eq!(q("").count, 1);
        assert_eq!(q("5").count, 5);
        assert_eq!(q("2 * 3").count, 6, "an expression");
        let a = q("name in (a, b c)");
        assert_eq!(
            (a.vars.clone(), a.items.clone(), a.mode),
            (
                vec!["name".into()],
                vec!["a".into(), "b".into(), "c".into()],
                Mode::In
            )
        );
        let a = q("3 x,y from (1 2)");
        assert_eq!(
            (a.count, a.vars.clone(), a.items.clone()),
            (3, vec!["x".into(), "y".into()], vec!["1 2".into()])
        );
        let a = q("from list.txt");
        assert_eq!(
            (a.vars.clone(), a.items_file.clone()),
            (vec!["Item".into()], Some("list.txt".into()))
        );
        let a = q("file matching files *.dat");
        assert_eq!(
            a.mode,
            Mode::Matching {
                files: true,
                dirs: false
            }
        );
        assert_eq!(a.items, ["*.dat"]);
        let a = q("in [1:] (a b c)");
        assert_eq!(
            a.slice,
            Some(Slice {
                start: Some(1),
                end: None,
                step: None
            })
        );
        let a = parse("v from (", Some(&["a 1".into(), "b 2".into()])).unwrap();
        assert_eq!(a.items, ["a 1", "b 2"]);
        assert_eq!(
            parse("x", None).unwrap_err(),
            "Invalid Queue count expression"
        );
        assert_eq!(parse("-1", None).unwrap_err(), "Queue count out of range");
        assert_eq!(
            parse("in dirs (a)", None).unwrap_err(),
            "Queue keyword conflict"
        );
        assert!(opens_list("x in ("));
        assert!(!opens_list("x in (a)"));
        assert!(!opens_list("$(N)"));
    }

    #[test]
    fn slices_and_fields_and_globs() {
        let s = Slice {
            start: Some(1),
            end: Some(-1),
            step: Some(2),
        };
        let picked: Vec<i64> = (0..7).filter(|i| s.selected(*i, 7)).collect();
        assert_eq!(picked, [1, 3, 5]);
        let v = |x: &[&str]| x.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            fields(&v(&["a", "b"]), "1, 2 3"),
            [("a".into(), "1".into()), ("b".into(), "2 3".into())]
        );
        assert_eq!(
            fields(&v(&["a", "b", "c"]), "1"),
            [
                ("a".into(), "1".into()),
                ("b".into(), "".into()),
                ("c".into(), "".into())
            ]
        );
        let names = v(&["b.dat", "a.dat", "c.txt", "d/"]);
        assert_eq!(
            matching(&v(&["*.dat"]), &names, false, false),
            ["a.dat", "b.dat"]
        );
        assert_eq!(matching(&v(&["*"]), &names, false, true), ["d"]);
        assert_eq!(
            matching(&v(&["[ab].*"]), &names, true, false),
            ["a.dat", "b.dat"]
        );
    }
}
