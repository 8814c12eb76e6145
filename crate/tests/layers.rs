//! The engine's folders are its layers, and each layer builds only on the
//! ones below it: a file may name `crate::<layer>` only for its own layer
//! or a lower one. (The root's re-exports such as `crate::lexer` are for
//! callers outside the crate; inside it the layered paths are used, so this
//! check sees every dependency.)

use std::path::Path;

/// Lowest first.
const LAYERS: [&str; 9] = [
    "lang",
    "formats",
    "constraint",
    "query",
    "matchmaking",
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
