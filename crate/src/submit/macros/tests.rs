use super::*;

fn set(lines: &[(&str, &str)]) -> MacroSet {
    let mut m = MacroSet::new(7);
    for (i, (k, v)) in lines.iter().enumerate() {
        m.insert(k, v, i as u32 + 1, Source::File);
    }
    m.predefined.set("Cluster", "12");
    m.predefined.set("Process", "3");
    m.cwd = "/home/alice/run".into();
    m
}

#[test]
fn references_defaults_and_dollars_expand_as_condor_submit_does() {
    let m = set(&[
        ("base", "data"),
        ("File", "$(base)/in_$(Process).txt"),
        ("Empty", ""),
        ("inner", "base"),
    ]);
    assert_eq!(
        m.expand("$(file)"),
        "data/in_3.txt",
        "names are case-insensitive"
    );
    assert_eq!(m.expand("$(nothing)"), "");
    assert_eq!(m.expand("$(nothing:fallback value)"), "fallback value");
    assert_eq!(m.expand("$(Empty:used when empty)"), "used when empty");
    assert_eq!(m.expand("$($(inner))"), "data", "innermost first");
    assert_eq!(
        m.expand("$$(Memory) and $$([Memory * 2])"),
        "$$(Memory) and $$([Memory * 2])"
    );
    assert_eq!(
        m.expand("cost $(DOLLAR)5 $(DOLLAR)(base)"),
        "cost $5 $(base)",
        "$(DOLLAR) is last"
    );
    assert_eq!(m.expand("$(not a macro) $ alone"), "$(not a macro) $ alone");
}

#[test]
fn functions() {
    let mut m = set(&[
        ("N", "7"),
        ("R", "2.5"),
        ("list", "a, b, c"),
        ("path", "/data/run/sample.tar.gz"),
        ("rel", "inputs/x.dat"),
        ("expr", "1 + 2"),
    ]);
    m.env.insert("HOME".into(), "/home/alice".into());
    assert_eq!(m.expand("$ENV(HOME)"), "/home/alice");
    assert_eq!(m.expand("$ENV(NOPE)"), "UNDEFINED");
    assert_eq!(m.expand("$ENV(NOPE:dflt)"), "dflt");
    assert_eq!(m.expand("$INT(N)"), "7");
    assert_eq!(m.expand("$INT(N,%03d)"), "007");
    assert_eq!(m.expand("$INT(expr)"), "3", "an expression");
    assert_eq!(m.expand("$REAL(R)"), "2.5");
    assert_eq!(m.expand("$REAL(N,%.2f)"), "7.00");
    assert_eq!(m.expand("$EVAL(expr)"), "3");
    assert_eq!(m.expand("$EVAL(\"a\" + 1 < 2)"), "error");
    // A body ends at the first `)`, as in condor_submit: a call inside is
    // cut (and the text kept).
    assert_eq!(
        m.expand("$EVAL(strcat(\"a\", \"b\"))"),
        "strcat(\"a\", \"b\")"
    );
    assert_eq!(m.expand("$STRING(N)"), "7");
    assert_eq!(m.expand("$CHOICE(1, list)"), "b");
    assert_eq!(m.expand("$CHOICE(2, x, y, z)"), "z");
    assert_eq!(m.expand("$SUBSTR(path,1,4)"), "data");
    assert_eq!(m.expand("$SUBSTR(path,-6)"), "tar.gz");
    assert_eq!(m.expand("$Fn(path)"), "sample.tar");
    assert_eq!(m.expand("$Fx(path)"), ".gz");
    assert_eq!(m.expand("$Fnx(path)"), "sample.tar.gz");
    assert_eq!(m.expand("$Fp(path)"), "/data/run/");
    assert_eq!(m.expand("$Fpb(path)"), "/data/run");
    assert_eq!(m.expand("$Fd(path)"), "run/");
    assert_eq!(m.expand("$Fq(path)"), "\"/data/run/sample.tar.gz\"");
    assert_eq!(m.expand("$Ff(rel)"), "/home/alice/run/inputs/x.dat");
    assert_eq!(m.expand("$BASENAME(path)"), "sample.tar.gz");
    assert_eq!(m.expand("$BASENAME(path, .tar.gz)"), "sample");
    assert_eq!(m.expand("$DIRNAME(path)"), "/data/run/");
    let r = m.expand("$RANDOM_INTEGER(10, 20, 5)");
    assert!(["10", "15", "20"].contains(&r.as_str()), "{r}");
    let c = m.expand("$RANDOM_CHOICE(list)");
    assert!(["a", "b", "c"].contains(&c.as_str()), "{c}");
    // Seeded: the same table draws the same.
    let again = set(&[("list", "a, b, c")]);
    let first: Vec<String> = (0..5)
        .map(|_| again.expand("$RANDOM_CHOICE(list)"))
        .collect();
    let again2 = set(&[("list", "a, b, c")]);
    let second: Vec<String> = (0..5)
        .map(|_| again2.expand("$RANDOM_CHOICE(list)"))
        .collect();
    assert_eq!(first, second);
    assert!(m.take_problems().is_empty());
    assert_eq!(m.expand("$INT(list)"), "");
    assert_eq!(
        m.take_problems(),
        ["$INT() macro: a, b, c does not evaluate to an integer!"]
    );
}

#[test]
fn a_self_reference_expands_once_and_a_loop_is_bounded() {
    let mut m = set(&[("A", "1")]);
    let v = m.expand_self("$(A) 2 $(B)", "a");
    assert_eq!(v, "1 2 $(B)", "only self references, at definition time");
    m.insert("x", "$(y)", 1, Source::File);
    m.insert("y", "$(x)", 2, Source::File);
    assert_eq!(m.expand("$(x)"), "$(x)");
    assert!(m.take_problems()[0].contains("stopped after 10000 steps"));
    m.insert("big", "$(big)$(big)", 3, Source::File);
    let v = m.expand("$(big)");
    assert!(v.len() <= MAX_EXPANDED_BYTES);
    assert!(!m.take_problems().is_empty());
}

#[test]
fn self_references_that_double_stop_at_the_size_bound() {
    let mut m = set(&[("x", "abcdefgh")]);
    for line in 2..40 {
        let v = m.expand_self("$(x)$(x)", "x");
        m.insert("x", &v, line, Source::File);
    }
    assert!(m.entry("x").unwrap().value.len() <= MAX_EXPANDED_BYTES);
    assert!(m.take_problems()[0].contains("grew past 1 MB"));
}
