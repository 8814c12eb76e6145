//! `classad refs` as libclassad's GetInternalReferences and
//! GetExternalReferences give them (the HTCondor Python bindings, 25.x,
//! printed the HTCondor-mode lines below for this ad): names as the
//! expressions write them, each once without regard to case, sorted
//! without regard to case; in strict mode (plain libclassad) `MY` and
//! `CurrentTime` are ordinary names (classad.cpp's special names lose them
//! without old ClassAd semantics).

use std::process::Command;

const AD: &str =
    "Foo = 1\nX = foo + CurrentTime - 5\nY = Target.z + w + MY.q\nZ = size(TARGET) + toplevel.r\n";

fn refs(mode: &str) -> String {
    let path = std::env::temp_dir().join(format!("classad-refs-{mode}-{}.ad", std::process::id()));
    std::fs::write(&path, AD).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_classad"))
        .args(["refs", "--mode", mode, path.to_str().unwrap()])
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn references_are_listed_as_written_like_libclassad() {
    assert_eq!(
        refs("htcondor"),
        "ad 0 (ad 1)\n  internal: foo\n  external: q r TARGET Target.z w\n"
    );
}

#[test]
fn strict_mode_lists_current_time_and_my_as_ordinary_names() {
    assert_eq!(
        refs("strict"),
        "ad 0 (ad 1)\n  internal: foo\n  external: CurrentTime MY r TARGET Target.z w\n"
    );
}
