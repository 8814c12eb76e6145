//! HTCondor's XML ClassAd format (`condor_q -xml`): reading, writing,
//! diagnostics and detection. Texts marked "libclassad" come from HTCondor
//! 25.14's own XML writer and reader (crate/tests/xml_oracle/generate.py
//! wrote cases.json and tests/corpora/*.xml; check.py is the full
//! differential run over the seeds and corpora).

use std::collections::BTreeMap;
use std::process::Command;

use classad::formats::{detect, read_pool, write_pool, InputFormat, OutputFormat, Pool};
use classad::{ClassAd, Dialect, Expr, ExprKind, Value};

const HEADER: &str =
    "<?xml version=\"1.0\"?>\n<!DOCTYPE classads SYSTEM \"classads.dtd\">\n<classads>\n";
const FOOTER: &str = "</classads>\n";

// ------------------------------------------------------------------ helpers

mod common;
use common::{canon, canon_pool, pool_ads as ads};

fn root(path: &str) -> String {
    format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"))
}

fn file(path: &str) -> String {
    let p = root(path);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

fn xml(text: &str) -> Pool {
    read_pool(text, InputFormat::Xml, Dialect::Auto)
}

fn auto(text: &str) -> Pool {
    read_pool(text, InputFormat::Auto, Dialect::Auto)
}

fn to_xml(p: &Pool) -> String {
    write_pool(&ads(p), OutputFormat::Xml)
}

fn errors(p: &Pool) -> Vec<String> {
    p.diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.summary())
        .collect()
}

fn clean(p: &Pool) {
    let all: Vec<String> = p.diagnostics.iter().map(|d| d.summary()).collect();
    assert!(all.is_empty(), "unexpected diagnostics: {all:#?}");
}

fn lit<'a>(ad: &'a ClassAd, name: &str) -> &'a Value {
    ad.get(name)
        .unwrap_or_else(|| panic!("no attribute {name}"))
        .as_literal()
        .unwrap_or_else(|| panic!("{name} is not a literal"))
}

/// What the XML writer keeps of an expression: relative times it writes
/// as their seconds and a negative zero as 0.0 (as libclassad 25 does),
/// where it writes values (not inside `<e>`).
fn as_xml_keeps(e: &Expr) -> Expr {
    let kind = match &e.kind {
        ExprKind::Literal(Value::RelTime(r)) => ExprKind::Literal(Value::Real(*r)),
        ExprKind::Literal(Value::Real(r)) if *r == 0.0 => ExprKind::Literal(Value::Real(0.0)),
        ExprKind::List(items) => ExprKind::List(items.iter().map(as_xml_keeps).collect()),
        ExprKind::Record(ad) => {
            let mut out = ClassAd::new();
            for (n, e) in ad.iter() {
                out.insert(n, as_xml_keeps(e));
            }
            ExprKind::Record(std::sync::Arc::new(out))
        }
        k => k.clone(),
    };
    Expr::new(kind, e.span)
}

fn canon_as_xml_keeps(p: &Pool) -> Vec<Vec<String>> {
    p.ads
        .iter()
        .map(|a| {
            a.ad.iter()
                .map(|(n, e)| format!("{n} = {}", classad::unparse(&as_xml_keeps(e))))
                .collect()
        })
        .collect()
}

/// Write as XML, read back: the same ads (as far as XML keeps them).
fn assert_round_trips(p: &Pool, what: &str) {
    let text = to_xml(p);
    for f in [InputFormat::Xml, InputFormat::Auto] {
        let back = read_pool(&text, f, Dialect::Auto);
        clean(&back);
        assert_eq!(
            canon_pool(&back),
            canon_as_xml_keeps(p),
            "{what} read as {f:?}:\n{text}"
        );
    }
}

// ------------------------------------------------- libclassad's own texts

#[derive(serde::Deserialize)]
struct Cases {
    write: Vec<WriteCase>,
    read: Vec<ReadCase>,
}

#[derive(serde::Deserialize)]
struct WriteCase {
    new: String,
    xml: String,
}

#[derive(serde::Deserialize)]
struct ReadCase {
    xml: String,
    /// The ads (name → canonical unparse), or "error".
    libclassad: serde_json::Value,
    /// "same", "warned" or "error".
    expect: String,
}

fn cases() -> Cases {
    serde_json::from_str(include_str!("xml_oracle/cases.json")).unwrap()
}

#[test]
fn writes_what_libclassad_writes() {
    for c in cases().write {
        let p = read_pool(&c.new, InputFormat::New, Dialect::Auto);
        clean(&p);
        assert_eq!(
            to_xml(&p),
            format!("{HEADER}{}{FOOTER}", c.xml),
            "{}",
            c.new
        );
    }
}

#[test]
fn reads_what_libclassad_reads() {
    for c in cases().read {
        let p = xml(&c.xml);
        if c.expect == "error" {
            let errs = errors(&p);
            assert!(!errs.is_empty(), "no error for {:?}", c.xml);
            for d in &p.diagnostics {
                assert!(d.line > 0 && d.column > 0, "{d:?}");
            }
            continue;
        }
        if c.expect == "warned" {
            assert!(errors(&p).is_empty(), "{:?}", p.diagnostics);
            assert!(!p.diagnostics.is_empty(), "no warning for {:?}", c.xml);
        } else {
            clean(&p);
        }
        let want: Vec<BTreeMap<String, String>> = serde_json::from_value(c.libclassad).unwrap();
        let got: Vec<BTreeMap<String, String>> = p
            .ads
            .iter()
            .map(|a| {
                a.ad.iter()
                    .map(|(n, e)| (n.to_string(), classad::unparse(e)))
                    .collect()
            })
            .collect();
        assert_eq!(got, want, "{}", c.xml);
    }
}

#[test]
fn corpora_are_what_condor_q_xml_prints() {
    for (long, x) in [
        ("condor_q_l.txt", "condor_q.xml"),
        ("condor_status_l.txt", "condor_status.xml"),
    ] {
        let old = auto(&file(&format!("tests/corpora/{long}")));
        clean(&old);
        let text = file(&format!("tests/corpora/{x}"));
        // Written byte for byte (the long format lists attributes in the
        // order the tools print them, and we keep an ad's order).
        assert_eq!(to_xml(&old), text, "{x}");
        // Read back to the same ads, and again through auto-detection.
        let back = auto(&text);
        clean(&back);
        assert_eq!(back.format, Some(InputFormat::Xml));
        assert_eq!(canon_pool(&back), canon_pool(&old), "{x}");
        assert_eq!(
            write_pool(&ads(&back), OutputFormat::Old),
            file(&format!("tests/corpora/{long}"))
        );
    }
}

// ---------------------------------------------------------- writing

#[test]
fn every_value_kind_round_trips() {
    let p = read_pool(
        r##"[
        i = 1; neg = -5; big = 9223372036854775807; small = -9223372036854775807; r1 = 1.0; r2 = 1e-7; r3 = 1e300; r4 = -2.5; r5 = 0.1;
        zero = 0.0; nzero = -0.0; inf = real("INF"); ninf = real("-INF"); nan = real("NaN");
        s1 = "plain"; s2 = "q\"uote"; s3 = "back\\slash"; s5 = "tab\there"; s6 = "unicode é ☃ 😀"; s7 = ""; s8 = "  blanks  ";
        s9 = "<tag> & \"q\" 'a' &amp;"; s10 = "new\nline\r\n"; s11 = "bell\007\001";
        b = true; f = false; u = undefined; e = error;
        l = { 1, 2.5, "x", undefined, { }, [ a = 1 ], a + 1 }; rec = [ a = 1; b = "x"; c = [ d = { 2 } ] ]; er = [ ];
        ex = a + b * 2 - (c / 3) % 4; ex2 = x =?= undefined && y > 3 || !z; ex3 = a ? b : c ?: d;
        ex4 = strcat("a", "b\"c<", string(1.5)); ex5 = TARGET.Memory >= MY.RequestMemory; ex6 = l[1] + rec.c.d[0];
        ex7 = a << 2 >> 1 >>> 3 & 7 | 8 ^ 9; ex8 = -x; ex9 = { 1, 2 }[0]; ex10 = [ a = 1 ].a;
        t = absTime("2024-01-02T03:04:05-06:00"); tz = absTime("2024-01-02T03:04:05Z"); rt = relTime("1+02:03:04");
        q = 'odd name' + 1; dot = .top; 'a&b' = 1; 'x<y>' = 2; 'q"q' = 3; 'b\\s' = 4; 's t' = 5
        ]"##,
        InputFormat::New,
        Dialect::Auto,
    );
    clean(&p);
    assert_round_trips(&p, "every value kind");
    let back = xml(&to_xml(&p));
    let ad = &back.ads[0].ad;
    // libclassad 25 writes a relative time as its seconds, a negative zero as 0.0.
    assert!(matches!(lit(ad, "rt"), Value::Real(r) if *r == 93784.0));
    assert!(matches!(lit(ad, "nzero"), Value::Real(r) if *r == 0.0 && r.is_sign_positive()));
    assert!(matches!(lit(ad, "s6"), Value::Str(s) if &**s == "unicode é ☃ 😀"));
    // Non-finite reals are calls in new syntax, literals only from XML.
    let p = xml("<c><a n=\"n\"><r>NaN</r></a><a n=\"i\"><r>-INF</r></a></c>");
    assert!(matches!(lit(&p.ads[0].ad, "n"), Value::Real(r) if r.is_nan()));
    assert!(to_xml(&p).contains("<a n=\"n\"><r>NaN</r></a>\n    <a n=\"i\"><r>-INF</r></a>"));
}

#[test]
fn writes_values_as_tags_and_the_rest_as_expressions() {
    let p = auto("[ Name = \"a<b & c\"; Req = Memory >= 1024 && Arch == \"X86_64\"; L = { 1, x, [ y = 2 ] }; R = [ b = 1; a = { } ]; T = true; N = -0.0; I = real(\"INF\") ]");
    assert_eq!(
        to_xml(&p),
        format!(
            "{HEADER}<c>\n    \
             <a n=\"Name\"><s>a&lt;b &amp; c</s></a>\n    \
             <a n=\"Req\"><e>Memory &gt;= 1024 &amp;&amp; Arch == \"X86_64\"</e></a>\n    \
             <a n=\"L\"><l><i>1</i><e>x</e><c>\n        <a n=\"y\"><i>2</i></a>\n    </c></l></a>\n    \
             <a n=\"R\"><c>\n        <a n=\"a\"><l></l></a>\n        <a n=\"b\"><i>1</i></a>\n    </c></a>\n    \
             <a n=\"T\"><b v=\"t\"/></a>\n    \
             <a n=\"N\"><r>0.0</r></a>\n    \
             <a n=\"I\"><e>real(\"INF\")</e></a>\n\
             </c>\n{FOOTER}"
        )
    );
    // No ads: still a document.
    assert_eq!(
        write_pool(&[], OutputFormat::Xml),
        format!("{HEADER}{FOOTER}")
    );
    // An ad with no attributes.
    let empty = ClassAd::new();
    assert_eq!(
        write_pool(&[&empty], OutputFormat::Xml),
        format!("{HEADER}<c>\n</c>\n{FOOTER}")
    );
    assert_eq!(xml(&write_pool(&[&empty], OutputFormat::Xml)).ads.len(), 1);
}

#[test]
fn seeds_and_corpora_round_trip_through_xml() {
    let mut files = vec![];
    for dir in ["tests/seeds", "tests/corpora", "tests/corpora/grid"] {
        for e in std::fs::read_dir(root(dir)).unwrap() {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let keep = if dir == "tests/seeds" {
                name.ends_with(".classad")
            } else {
                path.is_file() && name != "README.md"
            };
            if keep {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() > 40, "{files:?}");
    let (mut nads, mut nattrs) = (0, 0);
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let p = auto(&text);
        if p.ads.is_empty() {
            continue;
        }
        nads += p.ads.len();
        nattrs += p.ads.iter().map(|a| a.ad.len()).sum::<usize>();
        assert_round_trips(&p, &path.display().to_string());
    }
    assert!(
        nads > 50 && nattrs > 1000,
        "{nads} ads, {nattrs} attributes"
    );
}

// ---------------------------------------------------------- reading

#[test]
fn reads_entities_escapes_and_blanks_as_libclassad_does() {
    let p = xml(concat!(
        "<c>\n",
        "  <a n=\"A\"><s>  a &lt;b&gt; &amp;&amp; c  </s></a>\n",
        "  <a n=\"B\"><s>line\\none\\t\\\"q\\\" \\303\\251 \\101</s></a>\n",
        "  <a n=\"C\"><s>raw\nnewline</s></a>\n",
        "  <a n=\"D\"><e>a &lt; 3 &amp;&amp; b &gt;= \"x&amp;y\"</e></a>\n",
        "  <a n=\"q\\\"q&amp;x\"><i>1</i></a>\n",
        "</c>\n"
    ));
    clean(&p);
    let ad = &p.ads[0].ad;
    assert!(matches!(lit(ad, "A"), Value::Str(s) if &**s == "  a <b> && c  "));
    assert!(matches!(lit(ad, "B"), Value::Str(s) if &**s == "line\none\t\"q\" é A"));
    assert!(matches!(lit(ad, "C"), Value::Str(s) if &**s == "raw\nnewline"));
    assert_eq!(
        classad::unparse(ad.get("D").unwrap()),
        "a < 3 && b >= \"x&y\""
    );
    assert!(ad.get("q\"q&x").is_some());
}

#[test]
fn reads_more_xml_than_libclassad() {
    // Standard XML libclassad does not know: &quot; &apos; numeric
    // references, comments, CDATA, single-quoted attribute values.
    let p = xml(concat!(
        "\u{feff}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
        "<!DOCTYPE classads SYSTEM \"classads.dtd\">\n",
        "<!-- made by hand -->\n",
        "<classads>\n",
        "<c>\n",
        "  <!-- a comment -->\n",
        "  <a n='A'><e>&quot;x&quot; == &quot;it&apos;s&quot;</e></a>\n",
        "  <a n=\"B\"><s>&#65;&#x42;&#x263A;</s></a>\n",
        "  <a n=\"C\"><s><![CDATA[a<b & c]]> and <!-- not text -->more</s></a>\n",
        "</c>\n",
        "</classads>\n"
    ));
    clean(&p);
    let ad = &p.ads[0].ad;
    assert_eq!(classad::unparse(ad.get("A").unwrap()), "\"x\" == \"it's\"");
    assert!(matches!(lit(ad, "B"), Value::Str(s) if &**s == "AB☺"));
    assert!(matches!(lit(ad, "C"), Value::Str(s) if &**s == "a<b & c and more"));
}

#[test]
fn spans_point_into_the_file_past_entities() {
    let text = "<c>\n  <a n=\"R\"><e>A &amp;&amp; B &lt; 3</e></a>\n</c>\n";
    let p = xml(text);
    clean(&p);
    let e = p.ads[0].ad.get("R").unwrap();
    let ExprKind::Binary(_, a, b) = &e.kind else {
        panic!("{e:?}")
    };
    let at = |e: &Expr| &text[e.span.start as usize..e.span.end as usize];
    assert_eq!(at(a), "A");
    assert_eq!(at(b), "B &lt; 3");
    assert_eq!(
        &text[p.ads[0].span.start as usize..p.ads[0].span.end as usize],
        &text[..text.len() - 1]
    );
}

// ---------------------------------------------------------- diagnostics

/// (line, column, attribute, message) of every diagnostic.
fn located(p: &Pool) -> Vec<(u32, u32, Option<&str>, &str)> {
    p.diagnostics
        .iter()
        .map(|d| (d.line, d.column, d.attribute.as_deref(), d.message.as_str()))
        .collect()
}

#[test]
fn bad_values_are_located_and_drop_only_their_attribute() {
    let text = concat!(
        "<c>\n",
        "    <a n=\"Name\"><s>slot1</s></a>\n",
        "    <a n=\"Flag\"><b v=\"yes\"/></a>\n",
        "    <a n=\"Req\"><e>Memory &gt;= &amp;&amp; 2</e></a>\n",
        "    <a n=\"Ent\"><s>a &nbsp; b</s></a>\n",
        "    <a n=\"Int\"><i>12abc</i></a>\n",
        "    <a n=\"When\"><at>yesterday</at></a>\n",
        "    <a n=\"Memory\"><i>1024</i></a>\n",
        "</c>\n"
    );
    let p = xml(text);
    let got = located(&p);
    assert_eq!(
        got[0],
        (3, 23, Some("Flag"), "`v=\"yes\"` is not a truth value")
    );
    // Past the entity `&gt;`, at `&amp;&amp;`.
    assert_eq!((got[1].0, got[1].1, got[1].2), (4, 32, Some("Req")));
    assert!(got[1].3.starts_with("in <e>: "), "{got:?}");
    assert_eq!(got[2], (5, 21, Some("Ent"), "unknown entity `&nbsp;`"));
    assert!(
        !p.diagnostics[2].is_error(),
        "an unknown entity is kept, with a warning"
    );
    assert_eq!(got[3], (6, 19, Some("Int"), "`12abc` is not an integer"));
    assert_eq!(
        got[4],
        (7, 21, Some("When"), "`yesterday` is not an absolute time")
    );
    assert_eq!(got.len(), 5);
    let ad = &p.ads[0].ad;
    assert_eq!(
        canon(ad),
        ["Name = \"slot1\"", "Ent = \"a &nbsp; b\"", "Memory = 1024"]
    );
    // The rendering names the file, line, column and attribute.
    let r = p.diagnostics[0].render(text, "pool.xml");
    assert!(
        r.contains("pool.xml:3:23") && r.contains("in attribute `Flag`"),
        "{r}"
    );
}

#[test]
fn broken_structure_is_located_and_drops_only_its_ad() {
    let text = concat!(
        "<?xml version=\"1.0\"?>\n",
        "<classads>\n",
        "<c>\n",
        "    <a n=\"Name\"><s>good1</s></a>\n",
        "</c>\n",
        "<c>\n",
        "    <a n=\"Name\"><s>bad1</s></a>\n",
        "    <a n=\"X\"><foo>1</foo></a>\n",
        "    <a n=\"Y\"><c>\n",
        "        <a n=\"z\"><i>1</i></a>\n",
        "    </c></a>\n",
        "</c>\n",
        "<c>\n",
        "    <a n=\"Name\"><s>good2</s></a>\n",
        "    <a n=\"Unclosed\"><i>1</i>\n",
        "    <a n=\"More\"><i>2</i></a>\n",
        "</c>\n",
        "<c>\n",
        "    <a n=\"Name\"><s>bad2, never closed</s></a>\n",
        "<c>\n",
        "    <a n=\"Name\"><s>good3</s></a>\n",
        "    <a n=\"Tag\"><s>x</a>\n",
        "</c>\n",
        "<c>\n",
        "    <a n=\"Name\"><s>bad3</s></a>\n",
        "    <a n=\"T\"><i>1<i>\n",
        "</c>\n",
        "<c>\n",
        "    <a n=\"Name\"><s>good4</s></a>\n",
        "</c>\n",
        "<c>\n",
        "    <a n=\"Name\"><s>bad4, truncated</s></a>\n",
        "    <a n=\"Cut\"><e>a &lt"
    );
    let p = xml(text);
    let names: Vec<&str> = p.ads.iter().map(|a| a.label.as_str()).collect();
    assert_eq!(names, ["good1", "good2", "good3", "good4"]);
    let got = located(&p);
    assert_eq!(got[0], (8, 14, Some("X"), "unexpected `<foo>`"));
    // A missing `</a>` or `</s>` is read as libclassad reads it, reported.
    assert_eq!(
        got[1],
        (16, 5, Some("Unclosed"), "missing `</a>` before this")
    );
    assert_eq!(got[2], (20, 1, None, "unexpected `<c>`"));
    assert_eq!(got[3], (22, 20, Some("Tag"), "missing `</s>` before this"));
    assert_eq!(got[4], (26, 18, Some("T"), "unexpected `<i>`"));
    // A truncated file: what is open at the end is reported.
    assert_eq!(got[5], (33, 16, Some("Cut"), "`<e>` is never closed"));
    assert_eq!(got[6], (33, 21, Some("Cut"), "a `&` that starts no entity"));
    assert_eq!(got.len(), 7, "{got:#?}");
    assert!(canon(&p.ads[1].ad).contains(&"More = 2".to_string()));
}

#[test]
fn unclosed_tags_and_stray_markup_are_reported() {
    for (text, line, col, msg) in [
        (
            "<c>\n  <a n=\"x\"<i>1</i></a>\n</c>\n",
            2,
            3,
            "`<a n=\"x\"` opens a tag that is never closed",
        ),
        (
            "<c>\n  <a n=x><i>1</i></a>\n</c>\n",
            2,
            8,
            "bad attribute in the tag `<a`: the value of `n` is not quoted",
        ),
        (
            "<c>\n  <a><i>1</i></a>\n</c>\n",
            2,
            3,
            "an attribute without a name",
        ),
        (
            "<c>\n  <a n=\"x\"></a>\n</c>\n",
            2,
            3,
            "the attribute `x` has no value",
        ),
        (
            "<c>\n  <a n=\"x\"><i>1 < 2</i></a>\n</c>\n",
            2,
            17,
            "`< 2` opens a tag that is never closed",
        ),
        (
            "<c>\n  <a n=\"x\"><i>1 <2</i></a>\n</c>\n",
            2,
            17,
            "`<2` opens a tag that is never closed",
        ),
        (
            "<c>\n  <a n=\"x\"><i>1 < 2></i></a>\n</c>\n",
            2,
            17,
            "`< 2>` is not a tag",
        ),
        (
            "<c>\n  <a n=\"x\">1</a>\n</c>\n",
            2,
            12,
            "unexpected text `1</a>`",
        ),
        ("<!-- open\n<c></c>\n", 1, 1, "this comment is never closed"),
        (
            "<classads>\n<a n=\"x\"><i>1</i></a>\n",
            2,
            1,
            "unexpected `<a>` outside an ad",
        ),
        (
            "<c>\n  <a n=\"x\"><s>a\\0b</s></a>\n</c>\n",
            2,
            16,
            "a string cannot contain the null character",
        ),
    ] {
        let p = xml(text);
        let got = located(&p);
        assert!(!got.is_empty(), "{text}");
        assert_eq!(
            (got[0].0, got[0].1, got[0].3),
            (line, col, msg),
            "{text}: {got:?}"
        );
    }
}

#[test]
fn text_outside_ads_is_a_warning() {
    let p = xml("<classads>\nnot an ad\n<c><a n=\"x\"><i>1</i></a></c>\n</classads>\n");
    assert_eq!(p.ads.len(), 1);
    assert!(
        p.diagnostics.iter().all(|d| !d.is_error()),
        "{:?}",
        p.diagnostics
    );
}

#[test]
fn arbitrary_text_never_panics() {
    let good = file("tests/corpora/condor_status.xml");
    let mut samples: Vec<String> = vec![
        "<".into(),
        "<<<>>>".into(),
        "</c></c></c>".into(),
        "<c><c><c>".into(),
        "<c><a n=\"".into(),
        "<c><a n=\"x\"><l><l><l>".into(),
        "<c><a n=\"x\"><e>".into(),
        "<![CDATA[".into(),
        "<?".into(),
        "<!DOCTYPE [".into(),
        "&#xFFFFFFFF;&#;&".into(),
        "<c><a n=\"é\"><s>é&#233;\u{0}</s></a></c>".into(),
        "<c><a n=\"x\"><b v=\"\u{feff}\"/></a></c>".into(),
    ];
    // Every prefix of a real file, and the file with bytes knocked out.
    let cut: Vec<usize> = (0..good.len())
        .step_by(97)
        .filter(|&i| good.is_char_boundary(i))
        .collect();
    for &i in &cut {
        samples.push(good[..i].to_string());
    }
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..100 {
        let mut s: Vec<u8> = good.as_bytes().to_vec();
        for _ in 0..8 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let i = (seed as usize) % s.len();
            s[i] = b"<>/&;\"'=ca \n"[(seed >> 40) as usize % 12];
        }
        samples.push(String::from_utf8_lossy(&s).into_owned());
    }
    for s in &samples {
        for f in [InputFormat::Xml, InputFormat::Auto] {
            let p = read_pool(s, f, Dialect::Auto);
            for d in &p.diagnostics {
                assert!(
                    d.span.start <= d.span.end && d.span.end as usize <= s.len(),
                    "{s:?}: {d:?}"
                );
            }
            // What was read writes and reads back.
            let _ = xml(&to_xml(&p));
        }
    }
    // Deep nesting is refused, not a stack overflow.
    let deep = format!("<c><a n=\"x\">{}</a></c>", "<l>".repeat(100_000));
    assert!(!errors(&xml(&deep)).is_empty());
    let deep = format!("<c>{}", "<a n=\"x\"><c>".repeat(100_000));
    assert!(!errors(&xml(&deep)).is_empty());
    // Unclosed constructs do not each rescan the rest of the text.
    let many = "<!--a><?b>".repeat(50_000);
    let started = std::time::Instant::now();
    assert_eq!(xml(&many).ads.len(), 0);
    assert!(started.elapsed().as_secs() < 10);
}

// ---------------------------------------------------------- detection

#[test]
fn detects_xml() {
    for text in [
        "<?xml version=\"1.0\"?>\n<classads>\n",
        "<!DOCTYPE classads SYSTEM \"classads.dtd\">\n",
        "<classads>\n<c>\n</c>\n</classads>\n",
        "  \n<c><a n=\"x\"><i>1</i></a></c>",
        "\u{feff}<c></c>",
        "<!-- a comment -->\n<c></c>",
    ] {
        assert_eq!(detect(text), InputFormat::Xml, "{text:?}");
    }
    assert_eq!(detect("Name = \"<c>\"\n"), InputFormat::Old);
    assert_eq!(detect("[ a = \"<c>\" ]"), InputFormat::New);
    let p = auto("<c><a n=\"Name\"><s>x</s></a></c>");
    assert_eq!(
        (p.format, p.ads[0].label.as_str()),
        (Some(InputFormat::Xml), "x")
    );
}

#[test]
fn streams_xml_ad_by_ad() {
    use classad::formats::stream::{AdStream, Streamed};
    let text = file("tests/corpora/condor_status.xml");
    let whole = canon_pool(&auto(&text));
    let streamed: Vec<Vec<String>> = AdStream::new(text.as_bytes(), Dialect::Auto)
        .map(|s| match s {
            Streamed::Ad(a) => canon(&a.ad),
            Streamed::Problem(d) => panic!("{d:?}"),
        })
        .collect();
    assert_eq!(streamed, whole);
}

// ---------------------------------------------------------- the CLI

fn cli(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_classad"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the CLI runs");
    if let Some(s) = stdin {
        child.stdin.take().unwrap().write_all(s.as_bytes()).unwrap();
    }
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// `text` in a file of its own (tests run in parallel).
fn temp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("classad-xml-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn every_command_reads_xml_pools() {
    let long = root("tests/corpora/condor_status_l.txt");
    let (code, out, err) = cli(&["fmt", "--to", "xml", &long], None);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(out, file("tests/corpora/condor_status.xml"));
    // fmt: and back.
    let (code, back, err) = cli(&["fmt", "--to", "old", "-"], Some(&out));
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(back, file("tests/corpora/condor_status_l.txt"));
    // query, streaming.
    let machines = root("tests/corpora/condor_status.xml");
    let (code, q, err) = cli(&["query", &machines, "--af", "Name", "Memory"], None);
    let (_, q_old, _) = cli(&["query", &long, "--af", "Name", "Memory"], None);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(q, q_old);
    assert_eq!(q.lines().count(), 4);
    // match and analyze: the jobs as XML too.
    let (_, jobs_xml, _) = cli(
        &["fmt", "--to", "xml", &root("tests/corpora/condor_q_l.txt")],
        None,
    );
    let jobs = temp("jobs.xml", &jobs_xml);
    let jobs_old = root("tests/corpora/condor_q_l.txt");
    // match and analyze: the XML jobs and machines read as the long format's.
    for (command, jobs_flag) in [("match", "--jobs"), ("analyze", "--job")] {
        let run = |j: &str, m: &str| {
            cli(
                &[
                    command,
                    jobs_flag,
                    j,
                    "--machines",
                    m,
                    "--now",
                    "1700000000",
                ],
                None,
            )
        };
        let (code, out, err) = run(&jobs, &machines);
        let (_, out_old, _) = run(&jobs_old, &long);
        assert_eq!(code, 0, "{command}: {err}");
        // match says nothing on stderr; analyze notes which job it took.
        assert!(
            err.is_empty() || err.starts_with("note: "),
            "{command}: {err}"
        );
        assert!(!out.is_empty(), "{command}");
        assert_eq!(out, out_old, "{command}");
    }
    let _ = std::fs::remove_file(&jobs);
    // A bad XML pool: located diagnostics, exit 1, the good ads still out.
    let (code, out, err) = cli(
        &["fmt", "--to", "new", "-"],
        Some("<c><a n=\"a\"><i>1</i></a></c>\n<c><a n=\"b\"><b v=\"x\"/></a></c>\n"),
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("<stdin>:2:19") && err.contains("in attribute `b`"),
        "{err}"
    );
    assert_eq!(out, "[\n  a = 1\n]\n[\n]\n");
}
