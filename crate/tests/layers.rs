//! The engine's folders are its layers, and each layer builds only on the
//! ones below it: a file may name `crate::<layer>` only for its own layer
//! or a lower one. (The root's re-exports such as `crate::lexer` are for
//! callers outside the crate; inside it the layered paths are used, so this
//! check sees every dependency.)

use std::path::Path;

/// Lowest first.
const LAYERS: [&str; 11] = [
    "lang",
    "formats",
    "submit",
    "constraint",
    "query",
    "matchmaking",
    "policy",
    "analysis",
    "index",
    "gang",
    "api",
];

/// Root re-exports, and what layer each belongs to.
const ROOT_PATHS: [(&str, &str); 19] = [
    ("ast", "lang"),
    ("diagnostic", "lang"),
    ("eval", "lang"),
    ("functions", "lang"),
    ("lexer", "lang"),
    ("parser", "lang"),
    ("refs", "lang"),
    ("specialize", "lang"),
    ("time", "lang"),
    ("unparse", "lang"),
    ("value", "lang"),
    ("autocluster", "matchmaking"),
    ("compiled", "matchmaking"),
    ("matching", "matchmaking"),
    ("negotiate", "matchmaking"),
    ("substitute", "matchmaking"),
    ("userfn", "matchmaking"),
    ("workload", "matchmaking"),
    ("session", "api"),
];

fn rank(layer: &str) -> usize {
    LAYERS.iter().position(|l| *l == layer).unwrap()
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Every folder of `crate/src` (but the CLI's) is a layer this test knows.
#[test]
fn every_folder_is_a_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for e in std::fs::read_dir(&src).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if p.is_dir() && name != "bin" {
            assert!(
                LAYERS.contains(&name.as_str()),
                "crate/src/{name} is not in LAYERS: place it among the layers"
            );
        }
    }
}

#[test]
fn every_layer_imports_only_itself_and_the_layers_below() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut wrong = Vec::new();
    for layer in LAYERS {
        let mut fs = Vec::new();
        files(&src.join(layer), &mut fs);
        assert!(!fs.is_empty(), "no files in layer {layer}");
        for f in fs {
            let text = std::fs::read_to_string(&f).unwrap();
            for (i, line) in text.lines().enumerate() {
                let mut rest = line;
                while let Some(at) = rest.find("crate::") {
                    rest = &rest[at + 7..];
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    let used =
                        LAYERS.iter().find(|l| **l == name).copied().or_else(|| {
                            ROOT_PATHS.iter().find(|(p, _)| *p == name).map(|(_, l)| *l)
                        });
                    let Some(used) = used else { continue };
                    let via_root = !LAYERS.contains(&name.as_str());
                    if rank(used) > rank(layer) || via_root {
                        wrong.push(format!(
                            "{}:{}: {layer} uses crate::{name}{}",
                            f.strip_prefix(&src).unwrap().display(),
                            i + 1,
                            if via_root {
                                " (write the layered path)"
                            } else {
                                ""
                            }
                        ));
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "layering broken:\n{}", wrong.join("\n"));
}

/// The modules of `lang`, lowest first: what names and times are, the
/// data model, the syntax, then evaluation. A module may name
/// `crate::lang::<module>` only for a lower rank (or itself), so syntax
/// never imports evaluation and no two modules import each other.
const LANG: [(&str, usize); 18] = [
    ("clock", 0),
    ("real_text", 0),
    ("names", 0),
    ("time", 0),
    ("mode", 0),
    ("builtins", 0),
    ("signatures", 1),
    ("ast", 1),
    ("value", 2),
    ("diagnostic", 2),
    ("refs", 2),
    ("lexer", 3),
    ("unparse", 3),
    ("parser", 4),
    ("eval", 5),
    ("functions", 6),
    ("specialize", 7),
    // The folder's own file, which only declares the modules.
    ("mod", 8),
];

#[test]
fn lang_modules_import_only_lower_ones() {
    let lang = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lang");
    let rank_of = |m: &str| LANG.iter().find(|(n, _)| *n == m).map(|(_, r)| *r);
    let mut fs = Vec::new();
    files(&lang, &mut fs);
    let mut wrong = Vec::new();
    for f in fs {
        // The module a file belongs to: `eval/ops.rs` is `eval`'s.
        let rel = f.strip_prefix(&lang).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = first.trim_end_matches(".rs").to_string();
        let own = rank_of(&module)
            .unwrap_or_else(|| panic!("lang/{module} is not in LANG: give it a rank"));
        let text = std::fs::read_to_string(&f).unwrap();
        for (i, line) in text.lines().enumerate() {
            let mut rest = line;
            while let Some(at) = rest.find("crate::lang::") {
                rest = &rest[at + 13..];
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                // (`crate::lang::{a, b}` would hide its modules from this.)
                let used = rank_of(&name).unwrap_or_else(|| {
                    panic!(
                        "lang/{}: name one module per path: crate::lang::{name}",
                        rel.display()
                    )
                });
                if name != module && used >= own {
                    wrong.push(format!(
                        "lang/{}:{}: {module} uses crate::lang::{name}",
                        rel.display(),
                        i + 1
                    ));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "lang's order broken:\n{}",
        wrong.join("\n")
    );
}
