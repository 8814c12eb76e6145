//! The gallery (`examples/gallery.json`) split in two at build time, so the
//! page never links the examples' pools:
//!
//! - `$OUT_DIR/gallery_cards.json`: what the gallery's cards show (id,
//!   title, source, claim, view, syntax, expected value, the expression's
//!   first line). The page reads it (`state/examples.rs`).
//! - `$OUT_DIR/gallery_openings.json`: every example without its pools, its
//!   expression's text resolved: what the worker opens it with.
//! - `$OUT_DIR/gallery_pools.rs`: every example's pools as the parts of
//!   their texts, files by `include_str!`. Only the worker links it
//!   (`worker/gallery.rs`).
//!
//! A text is a string, `{"file": PATH}` (PATH from the repository's root),
//! or a list of both, joined (see `examples/README.md`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest.parent().unwrap().to_path_buf();
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let gallery = manifest.join("examples/gallery.json");
    println!("cargo:rerun-if-changed={}", gallery.display());
    let text = std::fs::read_to_string(&gallery).unwrap_or_else(|e| fail(&gallery, &e));
    let entries: Vec<Map<String, Value>> =
        serde_json::from_str(&text).unwrap_or_else(|e| fail(&gallery, &e));

    let mut cards = vec![];
    let mut openings = vec![];
    let mut pools = String::from(
        "/// Each example's pools: (id, [(name, the parts of its text)]).\n\
         pub static POOLS: &[(&str, &[Pool])] = &[\n",
    );
    for mut entry in entries {
        let id = match entry.get("id") {
            Some(Value::String(id)) => id.clone(),
            _ => fail(&gallery, &"an example without an id"),
        };
        // The card's expression, as text.
        if let Some(expr) = entry.get("expr") {
            let joined: String = parts(expr, &id)
                .iter()
                .map(|p| match p {
                    Part::Text(t) => t.clone(),
                    Part::File(f) => read(&root, f),
                })
                .collect();
            entry.insert("expr".into(), Value::String(joined));
        }
        let _ = writeln!(pools, "    ({id:?}, &[");
        if let Some(Value::Array(list)) = entry.remove("pools") {
            for pool in list {
                let name = pool.get("name").and_then(Value::as_str).unwrap_or_default();
                let text = pool.get("text").unwrap_or(&Value::Null);
                let _ = write!(pools, "        ({name:?}, &[");
                for p in parts(text, &id) {
                    match p {
                        Part::Text(t) => {
                            let _ = write!(pools, "{t:?}, ");
                        }
                        Part::File(f) => {
                            let path = existing(&root, &f);
                            let _ = write!(pools, "include_str!({:?}), ", path.display());
                        }
                    }
                }
                pools.push_str("]),\n");
            }
        }
        pools.push_str("    ]),\n");
        cards.push(Value::Object(card_of(&entry)));
        openings.push(Value::Object(entry));
    }
    pools.push_str("];\n");
    std::fs::write(
        out.join("gallery_cards.json"),
        serde_json::to_string(&cards).unwrap(),
    )
    .unwrap();
    std::fs::write(
        out.join("gallery_openings.json"),
        serde_json::to_string(&openings).unwrap(),
    )
    .unwrap();
    std::fs::write(out.join("gallery_pools.rs"), pools).unwrap();
}

/// What a card shows: the page links no more of an example than this.
fn card_of(entry: &Map<String, Value>) -> Map<String, Value> {
    let mut card = Map::new();
    for key in [
        "id", "title", "source", "claim", "view", "dialect", "expect",
    ] {
        if let Some(v) = entry.get(key) {
            card.insert(key.into(), v.clone());
        }
    }
    // The expression's first line, marked when there is more.
    let expr = entry
        .get("expr")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let first = expr
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    let shown = if expr.trim().lines().count() > 1 {
        format!("{first} …")
    } else {
        first.to_string()
    };
    card.insert("expr".into(), Value::String(shown));
    card
}

enum Part {
    Text(String),
    File(String),
}

/// A text's parts: a string, `{"file": PATH}`, or a list of both.
fn parts(v: &Value, id: &str) -> Vec<Part> {
    match v {
        Value::String(s) => vec![Part::Text(s.clone())],
        Value::Object(o) => match o.get("file") {
            Some(Value::String(f)) if o.len() == 1 => vec![Part::File(f.clone())],
            _ => panic!("example {id}: a part is a string or {{\"file\": PATH}}, not {v}"),
        },
        Value::Array(list) => list
            .iter()
            .flat_map(|p| match p {
                Value::Array(_) => panic!("example {id}: a text's parts are not lists"),
                p => parts(p, id),
            })
            .collect(),
        _ => panic!("example {id}: a text is a string, {{\"file\": PATH}} or a list, not {v}"),
    }
}

fn existing(root: &Path, file: &str) -> PathBuf {
    let path = root.join(file);
    if !path.is_file() {
        panic!(
            "the gallery names {file}, which is not a file under {}",
            root.display()
        );
    }
    path
}

fn read(root: &Path, file: &str) -> String {
    let path = existing(root, file);
    println!("cargo:rerun-if-changed={}", path.display());
    std::fs::read_to_string(&path).unwrap_or_else(|e| fail(&path, &e))
}

fn fail(path: &Path, e: &dyn std::fmt::Display) -> ! {
    panic!("{}: {e}", path.display())
}
