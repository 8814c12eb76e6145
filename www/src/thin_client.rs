//! The page is a thin client: outside the worker's own files, nothing may
//! reach into the engine beyond its request/response API (`classad::api`,
//! which holds the session's types and the lexer's highlighting). Anything
//! else would link the evaluator, the readers or the function library into
//! the page's wasm.

use std::path::{Path, PathBuf};

/// The worker's files (a folder ends in `/`): they run the engine.
const WORKER_FILES: &[&str] = &["worker/", "bin/engine_worker.rs"];
/// This check itself (it names what it looks for).
const SELF: &str = "thin_client.rs";
const ALLOWED: &[&str] = &["api"];

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Every `classad::<name>` a text names, and how (`{` for a group).
fn paths(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = vec![];
    let mut from = 0;
    while let Some(at) = text[from..].find("classad") {
        let at = from + at;
        from = at + 7;
        let before_ok = at == 0 || !(b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_');
        let rest = text[at + 7..].trim_start();
        if !before_ok {
            continue;
        }
        if let Some(rest) = rest.strip_prefix("::") {
            let rest = rest.trim_start();
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            out.push(if rest.starts_with('{') {
                "{".into()
            } else {
                name
            });
        } else if rest.starts_with(';') || rest.starts_with(" as") || rest.starts_with("as ") {
            // `use classad;` / `use classad as x;`: a way around the rule.
            out.push("(the crate itself)".into());
        }
    }
    out
}

#[test]
fn the_page_names_only_the_engine_api() {
    // The page's own source, and the state crate it links.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (src, state) = (root.join("src"), root.join("state/src"));
    let mut all = vec![];
    files(&src, &mut all);
    files(&state, &mut all);
    assert!(
        all.len() > 20 && all.iter().any(|f| f.starts_with(&state)),
        "found only {} files under {src:?} and {state:?}",
        all.len()
    );
    let mut bad = vec![];
    for f in all {
        let rel = f
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let rel = rel.strip_prefix("src/").unwrap_or(&rel).to_string();
        let worker = WORKER_FILES
            .iter()
            .any(|w| rel == *w || (w.ends_with('/') && rel.starts_with(w)));
        if worker || rel == SELF {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        for p in paths(&text) {
            if !ALLOWED.contains(&p.as_str()) {
                bad.push(format!("{rel}: classad::{p}"));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "the page reaches into the engine:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_check_sees_what_it_must() {
    // Assembled, so this file's own text never names the engine's inside
    // (other tools read it as the page's code).
    let c = "classad";
    let p = paths(&format!(
        "use {c}::formats::read_pool;\nuse {c}::{{Mode, api}};\nlet x = {c} :: eval::f();\nuse {c};\n{c}_playground::x; my_{c}::y;\nuse {c}::api::Mode;"
    ));
    assert_eq!(p, ["formats", "{", "eval", "(the crate itself)", "api"]);
}
